from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and the event store"

    def ready(self) -> None:
        from games.eventstore import register_stream_type
        from games.streams import GameStream

        register_stream_type(GameStream())
