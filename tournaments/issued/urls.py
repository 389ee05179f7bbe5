"""URLs of issued files: the API (mounted under /api/), the officers' page and the
``.sig`` beside each export (``page_urlpatterns``, at the site root)."""

from __future__ import annotations

from django.urls import path

from tournaments.issued import apis, views
from tournaments.ratings import apis as ratings_apis
from tournaments.ratings import views as ratings_views

T = "tournaments/<uuid:tournament_id>"

urlpatterns = [
    path("signing-key", apis.SigningKeyApi.as_view(), name="api-signing-key"),
    path("verify", apis.VerifyApi.as_view(), name="api-verify"),
    path(
        "signatures/<str:sha256>.sig",
        apis.SignatureApi.as_view(),
        name="issued-signature",
    ),
    path(
        f"{T}/export/naspa.t.sig",
        views.detached(ratings_apis.NaspaTExportApi.as_view()),
        name="api-export-naspa-t-sig",
    ),
    path(
        f"{T}/export/tournament.tou.sig",
        views.detached(ratings_apis.TouExportApi.as_view()),
        name="api-export-tou-sig",
    ),
    path(
        f"{T}/export/absp.csv.sig",
        views.detached(ratings_apis.AbspCsvExportApi.as_view()),
        name="api-export-absp-csv-sig",
    ),
]

page_urlpatterns = [
    path("verify/", views.verify_page, name="verify"),
    path(
        f"{T}/tourney.js.sig",
        views.detached(ratings_views.tourney_js),
        name="tourney-js-sig",
    ),
]
