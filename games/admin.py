"""Admin: the game projections are browsable, never edited."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import GameProjection, GameTurn


class GameTurnInline(admin.TabularInline):
    model = GameTurn
    extra = 0
    can_delete = False
    readonly_fields = ("index", "player", "kind", "rack", "position", "word", "score")
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(GameProjection)
class GameProjectionAdmin(admin.ModelAdmin):
    """A read model: rebuilt from the log, so not edited here."""

    list_display = ("game_id", "__str__", "round", "is_over", "version", "updated_at")
    inlines = (GameTurnInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
