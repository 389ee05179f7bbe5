from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_selfentry_code_failures"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="division_rounds",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
