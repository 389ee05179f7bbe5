from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_tournament_self_entry"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="tile_set",
            field=models.CharField(default="english", max_length=16),
        ),
        migrations.AddField(
            model_name="tournament",
            name="lexicon",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
    ]
