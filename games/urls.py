"""URLs of the games API (mounted under /api/)."""

from __future__ import annotations

from django.urls import path

from games import apis, livefeed

G = "games/<uuid:game_id>"

urlpatterns = [
    path("games/", apis.GameListApi.as_view(), name="api-games"),
    path("games/import", apis.GcgUploadApi.as_view(), name="api-game-import"),
    path(f"{G}/", apis.GameDetailApi.as_view(), name="api-game"),
    path(f"{G}/events", apis.GameEventsApi.as_view(), name="api-game-events"),
    path(f"{G}/feed", livefeed.GameFeedApi.as_view(), name="api-game-feed"),
    path(f"{G}/state", apis.GameStateApi.as_view(), name="api-game-state"),
    path(f"{G}/gcg", apis.GcgDownloadApi.as_view(), name="api-game-gcg"),
    path(f"{G}/place", apis.PlaceApi.as_view(), name="api-game-place"),
    path(f"{G}/exchange", apis.ExchangeApi.as_view(), name="api-game-exchange"),
    path(f"{G}/pass", apis.PassApi.as_view(), name="api-game-pass"),
    path(f"{G}/challenge", apis.ChallengeApi.as_view(), name="api-game-challenge"),
    path(f"{G}/notes", apis.NoteApi.as_view(), name="api-game-note"),
    path(
        f"{G}/notes/<int:note_version>/edit",
        apis.NoteEditApi.as_view(),
        name="api-game-note-edit",
    ),
    path(
        f"{G}/notes/<int:note_version>/delete",
        apis.NoteDeleteApi.as_view(),
        name="api-game-note-delete",
    ),
    path(f"{G}/visibility", apis.VisibilityApi.as_view(), name="api-game-visibility"),
    path(
        f"{G}/turns/<int:turn>/analysis",
        apis.AnalysisApi.as_view(),
        name="api-game-analysis",
    ),
    path(f"{G}/correction", apis.CorrectionApi.as_view(), name="api-game-correction"),
    path(
        f"{G}/score-correction",
        apis.ScoreCorrectionApi.as_view(),
        name="api-game-score-correction",
    ),
    path(f"{G}/time-penalty", apis.TimePenaltyApi.as_view(), name="api-game-penalty"),
    path(f"{G}/end", apis.EndApi.as_view(), name="api-game-end"),
]
