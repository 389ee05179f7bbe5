"""URLs of the tournaments API (mounted under /api/)."""

from __future__ import annotations

from django.urls import path

from tournaments import apis, feed

T = "tournaments/<uuid:tournament_id>"

urlpatterns = [
    path(
        "tournaments/", apis.TournamentListCreateApi.as_view(), name="api-tournaments"
    ),
    path(
        "tournaments/import/tsh",
        apis.TshEventImportApi.as_view(),
        name="api-tsh-event-import",
    ),
    path(f"{T}/", apis.TournamentDetailApi.as_view(), name="api-tournament"),
    path(f"{T}/players/", apis.PlayersApi.as_view(), name="api-players"),
    path(f"{T}/players/late", apis.LateEntryApi.as_view(), name="api-late-entry"),
    path(
        f"{T}/players/<str:player_id>",
        apis.PlayerDetailApi.as_view(),
        name="api-player",
    ),
    path(
        f"{T}/players/<str:player_id>/miss-round",
        apis.MissedRoundApi.as_view(),
        name="api-player-miss-round",
    ),
    path(
        f"{T}/divisions/<str:division>",
        apis.DivisionApi.as_view(),
        name="api-division",
    ),
    path(
        f"{T}/divisions/<str:division>/pairing-rules",
        apis.PairingRulesApi.as_view(),
        name="api-pairing-rules",
    ),
    path(
        f"{T}/divisions/<str:division>/prizes",
        apis.PrizesApi.as_view(),
        name="api-prizes",
    ),
    path(f"{T}/team", apis.TeamApi.as_view(), name="api-team"),
    path(f"{T}/team/remove", apis.TeamRemoveApi.as_view(), name="api-team-remove"),
    path(
        f"{T}/players/<str:player_id>/withdraw",
        apis.PlayerWithdrawApi.as_view(),
        name="api-player-withdraw",
    ),
    path(
        f"{T}/players/<str:player_id>/reactivate",
        apis.PlayerReactivateApi.as_view(),
        name="api-player-reactivate",
    ),
    path(
        f"{T}/players/<str:player_id>/scorecard",
        apis.ScorecardApi.as_view(),
        name="api-scorecard",
    ),
    path(
        f"{T}/rounds/<int:round_>/pairings",
        apis.PairingsApi.as_view(),
        name="api-pairings",
    ),
    path(f"{T}/rounds/<int:round_>/pair", apis.PairRoundApi.as_view(), name="api-pair"),
    path(f"{T}/results", apis.ResultsApi.as_view(), name="api-results"),
    path(f"{T}/results/amend", apis.AmendResultApi.as_view(), name="api-amend"),
    path(f"{T}/forfeits", apis.ForfeitApi.as_view(), name="api-forfeits"),
    path(f"{T}/standings", apis.StandingsApi.as_view(), name="api-standings"),
    path(f"{T}/audit", apis.AuditApi.as_view(), name="api-audit"),
    path(f"{T}/feed", feed.TournamentFeedApi.as_view(), name="api-tournament-feed"),
    path(f"{T}/import/tsh", apis.TshImportApi.as_view(), name="api-tsh-import"),
    path(f"{T}/import/tou", apis.TouImportApi.as_view(), name="api-tou-import"),
    path(
        f"{T}/import/ratings-list",
        apis.RatingsListImportApi.as_view(),
        name="api-ratings-list-import",
    ),
]
