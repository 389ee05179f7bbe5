from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_first_known"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="division_rounds",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
