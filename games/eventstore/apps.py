from __future__ import annotations

from django.apps import AppConfig


class EventStoreConfig(AppConfig):
    name = "games.eventstore"
    label = "eventstore"
    verbose_name = "Event store"
