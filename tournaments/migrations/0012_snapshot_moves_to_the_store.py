from django.db import migrations


class Migration(migrations.Migration):
    """A tournament's kept state moves to the event store's table of kept states
    (eventstore.KeptState), which keeps games' too."""

    dependencies = [
        ("tournaments", "0011_tournament_snapshot"),
        ("eventstore", "0005_kept_state"),
    ]

    operations = [
        # Sealed over the tournament, its version and the pickle, not the table:
        # the states move as they are.
        migrations.RunSQL(
            """
            INSERT INTO event_kept_state (stream_id, stream_type, version, state)
            SELECT tournament_id, 'tournament', version, state
            FROM tournaments_snapshot
            ON CONFLICT (stream_id) DO NOTHING
            """,
            reverse_sql=migrations.RunSQL.noop,
        ),
        migrations.DeleteModel(name="TournamentSnapshot"),
    ]
