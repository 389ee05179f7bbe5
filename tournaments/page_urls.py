"""URLs of the tournament pages (mounted at the site root).

Public: the list, a tournament, its divisions, pairings, standings, scorecards and
recorded games. Director console: everything under ``tournaments/<id>/manage/``.
"""

from __future__ import annotations

from django.urls import include, path, register_converter

from tournaments.audit import views as audit_views
from tournaments.core.converters import DivisionConverter
from tournaments.pairing import views as pairing_views
from tournaments.players import account_views, invitation_views
from tournaments.players import views as players_views
from tournaments.prizes import views as prizes_views
from tournaments.ratings import views as ratings_views
from tournaments.results import views as results_views
from tournaments.setup import views as setup_views

# Division names from old logs may hold a "/" (tournaments/converters.py).
register_converter(DivisionConverter, "division")

T = "tournaments/<uuid:tournament_id>"
D = f"{T}/divisions/<division:division>"
M = f"{T}/manage"
MD = f"{M}/divisions/<division:division>"
MR = f"{MD}/rounds/<int:round_>"

urlpatterns = [
    path("", include("tournaments.room.urls")),
    path("", setup_views.tournament_list, name="home"),
    path("tournaments/", setup_views.tournament_list, name="tournament-list"),
    path("tournaments/new/", setup_views.tournament_create, name="tournament-create"),
    path(
        "tournaments/new/from-tsh/",
        ratings_views.tournament_import_tsh,
        name="tournament-import-tsh",
    ),
    path(f"{T}/", setup_views.tournament_detail, name="tournament-detail"),
    path(f"{T}/tourney.js", ratings_views.tourney_js, name="tourney-js"),
    path(f"{T}/players/<str:player_id>/", results_views.scorecard, name="scorecard"),
    path(f"{D}/", setup_views.division_detail, name="division-detail"),
    path(
        f"{D}/rounds/<int:round_>/", pairing_views.round_pairings, name="round-pairings"
    ),
    path(f"{D}/standings/", results_views.standings, name="standings"),
    path(
        f"{D}/standings/after/<int:after_round>/",
        results_views.standings,
        name="standings-after",
    ),
    path(f"{D}/games/", results_views.division_games, name="division-games"),
    path(f"{D}/prizes/", prizes_views.prizes, name="prizes"),
    path("accounts/profile/", account_views.account_profile, name="account-profile"),
    path(f"{M}/", setup_views.manage, name="manage"),
    path(f"{M}/accounts/", account_views.manage_accounts, name="manage-accounts"),
    path(
        f"{M}/invitations/",
        invitation_views.manage_invitations,
        name="manage-invitations",
    ),
    path(
        "join/<uuid:tournament_id>/<str:token>/",
        invitation_views.join,
        name="join",
    ),
    path(f"{M}/audit/", audit_views.manage_audit, name="manage-audit"),
    path(
        f"{M}/games/<uuid:game_id>/result",
        results_views.manage_result_from_game,
        name="manage-result-from-game",
    ),
    path(f"{MD}/players/", players_views.manage_players, name="manage-players"),
    path(f"{MD}/pair/", pairing_views.manage_pair, name="manage-pair"),
    path(
        f"{MD}/pairing-rules/",
        pairing_views.manage_pairing_rules,
        name="manage-pairing-rules",
    ),
    path(
        f"{MD}/round-schedule/",
        pairing_views.manage_round_schedule,
        name="manage-round-schedule",
    ),
    path(f"{MD}/prizes/", prizes_views.manage_prizes, name="manage-prizes"),
    path(
        f"{MD}/setup/",
        setup_views.manage_division_setup,
        name="manage-division-setup",
    ),
    path(f"{MR}/results/", results_views.manage_results, name="manage-results"),
    path(
        f"{MR}/results/check",
        results_views.manage_results_check,
        name="manage-results-check",
    ),
    path(f"{MR}/forfeit", results_views.manage_forfeit, name="manage-forfeit"),
    path(
        f"{MR}/boards/<int:board>/amend/",
        results_views.manage_amend,
        name="manage-amend",
    ),
    path(
        f"{MR}/boards/<int:board>/record",
        results_views.manage_board_record,
        name="manage-board-record",
    ),
    path(
        f"{MR}/boards/<int:board>/gcg/",
        results_views.manage_board_gcg,
        name="manage-board-gcg",
    ),
]
