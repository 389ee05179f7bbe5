from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("eventstore", "0004_event_feed"),
    ]

    operations = [
        migrations.CreateModel(
            name="KeptState",
            fields=[
                ("stream_id", models.UUIDField(primary_key=True, serialize=False)),
                ("stream_type", models.CharField(max_length=32)),
                ("version", models.PositiveIntegerField()),
                ("state", models.BinaryField()),
            ],
            options={
                "db_table": "event_kept_state",
            },
        ),
        # Out of line, uncompressed: the game page reads a state on every miss, and
        # pickles of about 6 kB gained little from pglz for its cost on every append
        # and on every read (as the game row's snapshot column was).
        migrations.RunSQL(
            "ALTER TABLE event_kept_state ALTER COLUMN state SET STORAGE EXTERNAL",
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
