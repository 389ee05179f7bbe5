"""URLs of the game pages (mounted at the site root)."""

from __future__ import annotations

from django.urls import include, path

from games import views

G = "games/<uuid:game_id>"

urlpatterns = [
    path("accounts/", include("django.contrib.auth.urls")),
    path("games/", views.game_list, name="game-list"),
    path("games/mine/", views.my_games, name="my-games"),
    path("games/upload/", views.game_upload, name="game-upload"),
    path("games/spoilers", views.spoilers, name="game-spoilers"),
    path(f"{G}/", views.game_detail, name="game-detail"),
    path(f"{G}/turn/<int:turn>/", views.game_detail, name="game-turn"),
    path(f"{G}/turn/<int:turn>/analysis/", views.game_analysis, name="game-analysis"),
    path(f"{G}/shared/<str:token>/", views.game_shared, name="game-shared"),
    path(f"{G}/visibility", views.game_visibility, name="game-visibility"),
    path(f"{G}/gcg", views.game_gcg, name="game-gcg"),
    path(f"{G}/notes", views.game_note_add, name="game-note"),
    path(
        f"{G}/notes/<int:note_version>/edit",
        views.game_note_edit,
        name="game-note-edit",
    ),
    path(
        f"{G}/notes/<int:note_version>/delete",
        views.game_note_delete,
        name="game-note-delete",
    ),
    path(f"{G}/record/", views.game_record, name="game-record"),
]
