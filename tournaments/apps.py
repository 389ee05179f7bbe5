from __future__ import annotations

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games.eventstore import register_stream_type
        from tournaments.streams import TournamentStream

        register_stream_type(TournamentStream())
