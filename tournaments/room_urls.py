"""URLs of the room's pages (mounted with the tournament pages)."""

from __future__ import annotations

from django.urls import path

from tournaments import room_views

T = "tournaments/<uuid:tournament_id>"
D = f"{T}/divisions/<str:division>"

R = f"{D}/rounds/<int:round_>"

urlpatterns = [
    path(f"{D}/display/", room_views.display, name="display"),
    path(f"{R}/tables/", room_views.find_your_table, name="find-your-table"),
    path(f"{R}/pairings.pdf", room_views.pairings_pdf, name="pairings-pdf"),
    path(f"{D}/standings.pdf", room_views.standings_pdf, name="standings-pdf"),
    path(f"{D}/wallchart/", room_views.wall_chart, name="wall-chart"),
    path(f"{D}/wallchart.pdf", room_views.wall_chart_pdf, name="wall-chart-pdf"),
    path(f"{D}/scorecards.pdf", room_views.scorecards_pdf, name="scorecards-pdf"),
    path(f"{T}/prizes/", room_views.prize_list, name="prize-list"),
    path(f"{T}/prizes.pdf", room_views.prize_list_pdf, name="prize-list-pdf"),
    path(f"{T}/reports/", room_views.reports_page, name="reports"),
    path(f"{T}/reports.csv", room_views.reports_csv, name="reports-csv"),
    path(f"{T}/manage/print/", room_views.manage_print, name="manage-print"),
    path(
        f"{T}/manage/self-entry/",
        room_views.manage_self_entry,
        name="manage-self-entry",
    ),
    path(
        f"{T}/players/<str:player_id>/report/",
        room_views.report_score,
        name="report-score",
    ),
]
