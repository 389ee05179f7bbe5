"""URLs of the room's pages (mounted with the tournament pages)."""

from __future__ import annotations

from django.urls import path

from tournaments.room import views

T = "tournaments/<uuid:tournament_id>"


D = f"{T}/divisions/<str:division>"


R = f"{D}/rounds/<int:round_>"


urlpatterns = [
    path(f"{D}/display/", views.display, name="display"),
    path(f"{R}/tables/", views.find_your_table, name="find-your-table"),
    path(f"{R}/pairings.pdf", views.pairings_pdf, name="pairings-pdf"),
    path(f"{D}/standings.pdf", views.standings_pdf, name="standings-pdf"),
    path(f"{D}/wallchart/", views.wall_chart, name="wall-chart"),
    path(f"{D}/wallchart.pdf", views.wall_chart_pdf, name="wall-chart-pdf"),
    path(f"{D}/scorecards.pdf", views.scorecards_pdf, name="scorecards-pdf"),
    path(f"{T}/prizes/", views.prize_list, name="prize-list"),
    path(f"{T}/prizes.pdf", views.prize_list_pdf, name="prize-list-pdf"),
    path(f"{T}/reports/", views.reports_page, name="reports"),
    path(f"{T}/reports.csv", views.reports_csv, name="reports-csv"),
    path(f"{T}/manage/print/", views.manage_print, name="manage-print"),
    path(
        f"{T}/manage/self-entry/",
        views.manage_self_entry,
        name="manage-self-entry",
    ),
    path(
        f"{T}/players/<str:player_id>/report/",
        views.report_score,
        name="report-score",
    ),
]
