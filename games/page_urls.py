"""URLs of the game pages (mounted at the site root)."""

from __future__ import annotations

from django.urls import include, path

from games import views

G = "games/<uuid:game_id>"

urlpatterns = [
    path("accounts/", include("django.contrib.auth.urls")),
    path("games/", views.game_list, name="game-list"),
    path("games/upload/", views.game_upload, name="game-upload"),
    path(f"{G}/", views.game_detail, name="game-detail"),
    path(f"{G}/turn/<int:turn>/", views.game_detail, name="game-turn"),
    path(f"{G}/gcg", views.game_gcg, name="game-gcg"),
    path(f"{G}/notes", views.game_note_add, name="game-note"),
    path(f"{G}/record/", views.game_record, name="game-record"),
]
