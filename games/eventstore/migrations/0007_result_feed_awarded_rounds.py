"""The ratings feed reads two new result events: ``round_awarded`` (a half-bye, a
round awarded as a win or loss with a spread of 0) and ``tie_win_recorded`` (a tie
recorded as won, without the pre-adjustment scores), so its partial index names
them too (see 0002: the index must name exactly
``tournaments.core.events.RESULT_EVENT_TYPES``)."""

from django.db import migrations

OLD = (
    "result_recorded",
    "result_amended",
    "forfeit_recorded",
    "unpaired_round_recorded",
    "player_withdrawn",
    "player_reactivated",
    "publication_changed",
)
NEW = (*OLD, "round_awarded", "tie_win_recorded")


def create(types: tuple[str, ...]) -> str:
    listed = ", ".join(f"'{name}'" for name in types)
    return (
        "CREATE INDEX event_log_result_feed ON event_log (position) "
        f"WHERE event_type IN ({listed})"
    )


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0006_head_and_feed_seals")]

    operations = [
        migrations.RunSQL(
            ["DROP INDEX event_log_result_feed", create(NEW)],
            ["DROP INDEX event_log_result_feed", create(OLD)],
        ),
    ]
