"""URLs of the room's pages (mounted with the tournament pages)."""

from __future__ import annotations

from django.urls import path

from tournaments import room_views

T = "tournaments/<uuid:tournament_id>"
D = f"{T}/divisions/<str:division>"

urlpatterns = [
    path(f"{D}/display/", room_views.display, name="display"),
]
