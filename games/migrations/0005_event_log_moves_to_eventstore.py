"""The event log's model now belongs to the eventstore app (its migration 0001).

State only: the table, its rows and its trigger stay as they are.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_game_snapshot"),
        ("eventstore", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="StoredEvent")],
            database_operations=[],
        ),
    ]
