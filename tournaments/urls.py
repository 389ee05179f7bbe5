"""URLs of the tournaments API (mounted under /api/)."""

from __future__ import annotations

from django.urls import path

from tournaments.audit import apis as audit_apis
from tournaments.pairing import apis as pairing_apis
from tournaments.players import apis as players_apis
from tournaments.players import invitation_apis, registration_apis
from tournaments.prizes import apis as prizes_apis
from tournaments.ratings import apis as ratings_apis
from tournaments.results import apis as results_apis
from tournaments.room import feed
from tournaments.setup import apis as setup_apis

T = "tournaments/<uuid:tournament_id>"

# The registration day: check-in, the no-shows, a move, a division's rounds.
registration_urls = [
    path(
        f"{T}/divisions/<str:division>/check-in",
        registration_apis.CheckInListApi.as_view(),
        name="api-check-in-list",
    ),
    path(
        f"{T}/divisions/<str:division>/no-shows",
        registration_apis.NoShowsApi.as_view(),
        name="api-no-shows",
    ),
    path(
        f"{T}/divisions/<str:division>/rounds",
        registration_apis.DivisionRoundsApi.as_view(),
        name="api-division-rounds",
    ),
    path(
        f"{T}/players/<str:player_id>/check-in",
        registration_apis.CheckInApi.as_view(),
        name="api-check-in",
    ),
    path(
        f"{T}/players/<str:player_id>/move",
        registration_apis.PlayerMoveApi.as_view(),
        name="api-player-move",
    ),
]

# Invitations to the team: a director's, and the invitee's acceptance.
invitation_urls = [
    path(
        f"{T}/invitations",
        invitation_apis.InvitationsApi.as_view(),
        name="api-invitations",
    ),
    path(
        f"{T}/invitations/<str:invitation_id>/revoke",
        invitation_apis.InvitationRevokeApi.as_view(),
        name="api-invitation-revoke",
    ),
    path(
        "invitations/accept",
        invitation_apis.InvitationAcceptApi.as_view(),
        name="api-invitation-accept",
    ),
]

urlpatterns = [
    *registration_urls,
    *invitation_urls,
    path(
        "tournaments/",
        setup_apis.TournamentListCreateApi.as_view(),
        name="api-tournaments",
    ),
    path(
        "tournaments/import/tsh",
        ratings_apis.TshEventImportApi.as_view(),
        name="api-tsh-event-import",
    ),
    path(
        "tournaments/import/tourney-js",
        ratings_apis.TourneyJsImportApi.as_view(),
        name="api-tourney-js-import",
    ),
    path(f"{T}/", setup_apis.TournamentDetailApi.as_view(), name="api-tournament"),
    path(f"{T}/players/", players_apis.PlayersApi.as_view(), name="api-players"),
    path(
        f"{T}/players/late", players_apis.LateEntryApi.as_view(), name="api-late-entry"
    ),
    path(
        f"{T}/players/<str:player_id>",
        players_apis.PlayerDetailApi.as_view(),
        name="api-player",
    ),
    path(
        f"{T}/players/<str:player_id>/miss-round",
        players_apis.MissedRoundApi.as_view(),
        name="api-player-miss-round",
    ),
    path(
        f"{T}/divisions/<str:division>",
        setup_apis.DivisionApi.as_view(),
        name="api-division",
    ),
    path(
        f"{T}/divisions/<str:division>/pairing-rules",
        pairing_apis.PairingRulesApi.as_view(),
        name="api-pairing-rules",
    ),
    path(
        f"{T}/divisions/<str:division>/round-schedule",
        pairing_apis.RoundScheduleApi.as_view(),
        name="api-round-schedule",
    ),
    path(
        f"{T}/divisions/<str:division>/prizes",
        prizes_apis.PrizesApi.as_view(),
        name="api-prizes",
    ),
    path(f"{T}/team", players_apis.TeamApi.as_view(), name="api-team"),
    path(
        f"{T}/team/remove", players_apis.TeamRemoveApi.as_view(), name="api-team-remove"
    ),
    path(
        f"{T}/players/<str:player_id>/withdraw",
        players_apis.PlayerWithdrawApi.as_view(),
        name="api-player-withdraw",
    ),
    path(
        f"{T}/players/<str:player_id>/reactivate",
        players_apis.PlayerReactivateApi.as_view(),
        name="api-player-reactivate",
    ),
    path(
        f"{T}/players/<str:player_id>/scorecard",
        results_apis.ScorecardApi.as_view(),
        name="api-scorecard",
    ),
    path(
        f"{T}/rounds/<int:round_>/pairings",
        pairing_apis.PairingsApi.as_view(),
        name="api-pairings",
    ),
    path(
        f"{T}/rounds/<int:round_>/pairings/reasons",
        pairing_apis.PairingReasonsApi.as_view(),
        name="api-pairing-reasons",
    ),
    path(
        f"{T}/rounds/<int:round_>/pair",
        pairing_apis.PairRoundApi.as_view(),
        name="api-pair",
    ),
    path(f"{T}/results", results_apis.ResultsApi.as_view(), name="api-results"),
    path(f"{T}/results/amend", results_apis.AmendResultApi.as_view(), name="api-amend"),
    path(
        f"{T}/results/amend/preview",
        results_apis.AmendPreviewApi.as_view(),
        name="api-amend-preview",
    ),
    path(f"{T}/forfeits", results_apis.ForfeitApi.as_view(), name="api-forfeits"),
    path(f"{T}/standings", results_apis.StandingsApi.as_view(), name="api-standings"),
    path(f"{T}/audit", audit_apis.AuditApi.as_view(), name="api-audit"),
    path(f"{T}/feed", feed.TournamentFeedApi.as_view(), name="api-tournament-feed"),
    path(f"{T}/import/tsh", ratings_apis.TshImportApi.as_view(), name="api-tsh-import"),
    path(f"{T}/import/tou", ratings_apis.TouImportApi.as_view(), name="api-tou-import"),
    path(
        f"{T}/import/ratings-list",
        ratings_apis.RatingsListImportApi.as_view(),
        name="api-ratings-list-import",
    ),
]
