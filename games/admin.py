"""Admin: the event log is shown read-only; projections are browsable."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import GameProjection, GameTurn, StoredEvent


@admin.register(StoredEvent)
class StoredEventAdmin(admin.ModelAdmin):
    """Events can be read, never added, changed or deleted here."""

    list_display = (
        "position",
        "stream_type",
        "stream_id",
        "version",
        "event_type",
        "recorded_at",
        "recorded_by",
    )
    list_filter = ("stream_type", "event_type")
    search_fields = ("stream_id",)
    ordering = ("-position",)
    actions = None

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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
