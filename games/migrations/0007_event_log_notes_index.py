"""The index that counts a user's recent notes (games.quotas).

A partial index on the event log, made by the games app because the event type is
the games' (the store imports no game code, as for the ratings feed's index):
the notes' events (added, edited, withdrawn) by who recorded them and when. Notes are
a small part of the log, so the index stays small and an append of another type does
not touch it. ``tests/reliability_tests/test_quotas.py`` checks that the quota's count
uses it.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_game_visibility"),
        ("eventstore", "0003_keyed_chain_and_heads"),
    ]

    operations = [
        migrations.RunSQL(
            "CREATE INDEX event_log_notes ON event_log (recorded_by_id, recorded_at)"
            " WHERE event_type IN ('note_added', 'note_edited', 'note_deleted')",
            "DROP INDEX event_log_notes",
        )
    ]
