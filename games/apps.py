from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games.eventstore.streams import ProjectionIndex, register_stream_type
        from games.models import GameProjection
        from games.streams import GameStream

        register_stream_type(
            GameStream(),
            projection=ProjectionIndex(
                GameProjection,
                "game_id",
                # Write times.
                unchecked=frozenset({"updated_at"}),
            ),
        )
