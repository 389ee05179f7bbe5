"""URLs of the tournament pages (mounted at the site root).

Public: the list, a tournament, its divisions, pairings, standings, scorecards and
recorded games. Director console: everything under ``tournaments/<id>/manage/``.
"""

from __future__ import annotations

from django.urls import include, path, register_converter

from tournaments import account_views, division_views, views
from tournaments.converters import DivisionConverter

# Division names from old logs may hold a "/" (tournaments/converters.py).
register_converter(DivisionConverter, "division")

T = "tournaments/<uuid:tournament_id>"
D = f"{T}/divisions/<division:division>"
M = f"{T}/manage"
MD = f"{M}/divisions/<division:division>"
MR = f"{MD}/rounds/<int:round_>"

urlpatterns = [
    path("", include("tournaments.room_urls")),
    path("", views.tournament_list, name="home"),
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/new/", views.tournament_create, name="tournament-create"),
    path(
        "tournaments/new/from-tsh/",
        views.tournament_import_tsh,
        name="tournament-import-tsh",
    ),
    path(f"{T}/", views.tournament_detail, name="tournament-detail"),
    path(f"{T}/players/<str:player_id>/", views.scorecard, name="scorecard"),
    path(f"{D}/", views.division_detail, name="division-detail"),
    path(f"{D}/rounds/<int:round_>/", views.round_pairings, name="round-pairings"),
    path(f"{D}/standings/", views.standings, name="standings"),
    path(
        f"{D}/standings/after/<int:after_round>/",
        views.standings,
        name="standings-after",
    ),
    path(f"{D}/games/", views.division_games, name="division-games"),
    path(f"{D}/prizes/", division_views.prizes, name="prizes"),
    path("accounts/profile/", account_views.account_profile, name="account-profile"),
    path(f"{M}/", views.manage, name="manage"),
    path(f"{M}/accounts/", account_views.manage_accounts, name="manage-accounts"),
    path(f"{M}/audit/", views.manage_audit, name="manage-audit"),
    path(
        f"{M}/games/<uuid:game_id>/result",
        views.manage_result_from_game,
        name="manage-result-from-game",
    ),
    path(f"{MD}/players/", views.manage_players, name="manage-players"),
    path(f"{MD}/pair/", views.manage_pair, name="manage-pair"),
    path(
        f"{MD}/pairing-rules/",
        division_views.manage_pairing_rules,
        name="manage-pairing-rules",
    ),
    path(f"{MD}/prizes/", division_views.manage_prizes, name="manage-prizes"),
    path(
        f"{MD}/setup/",
        division_views.manage_division_setup,
        name="manage-division-setup",
    ),
    path(f"{MR}/results/", views.manage_results, name="manage-results"),
    path(
        f"{MR}/results/check",
        views.manage_results_check,
        name="manage-results-check",
    ),
    path(f"{MR}/forfeit", views.manage_forfeit, name="manage-forfeit"),
    path(f"{MR}/boards/<int:board>/amend/", views.manage_amend, name="manage-amend"),
    path(
        f"{MR}/boards/<int:board>/record",
        views.manage_board_record,
        name="manage-board-record",
    ),
    path(
        f"{MR}/boards/<int:board>/gcg/",
        views.manage_board_gcg,
        name="manage-board-gcg",
    ),
]
