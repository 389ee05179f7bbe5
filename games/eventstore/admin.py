"""Admin: the event log, and the streams flagged by its checks, shown read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.eventstore.models import FlaggedStream, StoredEvent
from games.eventstore.streams import stream_type


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows can be read, never added, changed or deleted here."""

    actions = None

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(StoredEvent)
class StoredEventAdmin(ReadOnlyAdmin):
    """Events can be read, never added, changed or deleted here."""

    list_display = (
        "position",
        "stream_type",
        "stream_id",
        "version",
        "event_type",
        "summary",
        "recorded_at",
        "recorded_by",
    )
    list_filter = ("stream_type", "event_type")
    search_fields = ("stream_id",)
    ordering = ("-position",)

    @admin.display(description="what happened")
    def summary(self, event: StoredEvent) -> str:
        kind = stream_type(event.stream_type)
        # Upcast an older schema first: summaries read the current payload.
        decoded = kind.codec.decode(
            event.event_type, event.schema_version, event.payload
        )
        return kind.summary(event.event_type, kind.codec.encode(decoded)[2])


@admin.register(FlaggedStream)
class FlaggedStreamAdmin(ReadOnlyAdmin):
    """The streams whose log failed a check (verify_events, the start-up repair): a
    flag goes when the stream verifies again, not by hand."""

    list_display = ("stream_type", "stream_id", "problem", "flagged_at")
    ordering = ("-flagged_at",)
