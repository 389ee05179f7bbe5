"""Top-level URLs: pages, the REST API under /api/, its schema and docs."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.auth import LoginView, TokenApi
from config.health import HealthApi
from config.serviceworker import console_worker
from tournaments.issued.urls import page_urlpatterns as issued_page_urls
from tournaments.ratings.urls import page_urlpatterns as ratings_page_urls

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/health", HealthApi.as_view(), name="health"),
    path("console-sw.js", console_worker, name="console-worker"),
    path("api/", include("games.urls")),
    path("api/", include("tournaments.urls")),
    path("api/", include("tournaments.ratings.urls")),
    path("api/", include("tournaments.issued.urls")),
    # Above the pages' accounts/ URLs, so that sign-in is the rate-limited view.
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("api/auth/token", TokenApi.as_view(), name="api-token"),
    path(
        "tournaments/<uuid:tournament_id>/ratings",
        include(ratings_page_urls),
    ),
    path("", include("games.page_urls")),
    path("", include("tournaments.page_urls")),
    path("", include(issued_page_urls)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: no inline <script>, so
    # the Content-Security-Policy holds on the docs too.
    path(
        "api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"
    ),
]
