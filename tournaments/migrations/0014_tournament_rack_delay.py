from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_one_name_per_idea"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="rack_delay_minutes",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
