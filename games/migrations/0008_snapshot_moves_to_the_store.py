from django.db import migrations


class Migration(migrations.Migration):
    """The game's state snapshot leaves its projection row: the event store keeps
    it (eventstore.KeptState, written again by ``rebuild_projections``)."""

    dependencies = [
        ("games", "0007_event_log_notes_index"),
        ("eventstore", "0005_kept_state"),
    ]

    operations = [
        # The seal covers the game, its version and the pickle, not where it is
        # kept: the snapshots move as they are, and the pages keep starting from
        # them.
        migrations.RunSQL(
            """
            INSERT INTO event_kept_state (stream_id, stream_type, version, state)
            SELECT game_id, 'game', version, snapshot FROM games_game
            WHERE snapshot IS NOT NULL
            ON CONFLICT (stream_id) DO NOTHING
            """,
            reverse_sql=migrations.RunSQL.noop,
        ),
        migrations.RemoveField(model_name="gameprojection", name="snapshot"),
    ]
