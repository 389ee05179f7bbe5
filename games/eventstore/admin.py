"""Admin: the event log is shown read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.eventstore.models import StoredEvent


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
