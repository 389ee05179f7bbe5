"""URLs of the ratings exports (mounted under /api/) and of the estimates page.

``page_urlpatterns`` is mounted by the project at
``tournaments/<uuid:tournament_id>/ratings`` (outside /api/)::

    path("tournaments/<uuid:tournament_id>/ratings", include(page_urlpatterns))
"""

from __future__ import annotations

from django.urls import path

from tournaments.ratings import apis, views

T = "tournaments/<uuid:tournament_id>"


urlpatterns = [
    path("ratings/games", apis.RatedGamesApi.as_view(), name="api-ratings-games"),
    path(
        "ratings/players",
        apis.PlayerRatingsApi.as_view(),
        name="api-ratings-players",
    ),
    path(
        "ratings/changes",
        apis.ResultChangesApi.as_view(),
        name="api-ratings-changes",
    ),
    path(
        f"{T}/export/naspa.t",
        apis.NaspaTExportApi.as_view(),
        name="api-export-naspa-t",
    ),
    path(
        f"{T}/export/tournament.tou",
        apis.TouExportApi.as_view(),
        name="api-export-tou",
    ),
    path(
        f"{T}/export/absp.csv",
        apis.AbspCsvExportApi.as_view(),
        name="api-export-absp-csv",
    ),
]


page_urlpatterns = [
    path("", views.tournament_ratings, name="tournament-ratings"),
]
