from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_drop_redundant_tournament_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameprojection",
            name="snapshot",
            field=models.BinaryField(null=True),
        ),
        # Out of line, uncompressed: the game page reads a snapshot on every miss,
        # and pickles of about 6 kB gained little from pglz for its cost on every
        # append and on every read.
        migrations.RunSQL(
            "ALTER TABLE games_game ALTER COLUMN snapshot SET STORAGE EXTERNAL",
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
