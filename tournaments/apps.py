from __future__ import annotations

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games import selectors as game_selectors
        from games.context import register_tournament_link
        from games.eventstore.streams import ProjectionIndex, register_stream_type
        from games.feed_documents import register_feed_fields
        from tournaments.core.aggregate import STREAM_TYPE
        from tournaments.core.stream import TournamentStream
        from tournaments.core.writes import register_due_round_pairer
        from tournaments.models import Tournament
        from tournaments.pairing.services import pair_due_rounds
        from tournaments.results.games import TournamentGames
        from tournaments.room.feed import TOURNAMENT_FIELDS

        register_stream_type(
            TournamentStream(),
            projection=ProjectionIndex(
                Tournament,
                "tournament_id",
                # A write time, and the per-division cache keys (an append moves
                # only the divisions it changes; a re-projection moves them all).
                unchecked=frozenset({"updated_at", "division_versions"}),
            ),
            members=game_selectors.tournament_game_ids,
        )
        register_tournament_link(TournamentGames())
        register_feed_fields(STREAM_TYPE, TOURNAMENT_FIELDS)
        register_due_round_pairer(pair_due_rounds)
