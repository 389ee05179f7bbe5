"""A Content-Security-Policy on every page, which the pages keep: no inline script,
style element or event handler; nothing loaded from elsewhere, the API docs
included. In the browser any reported violation fails the test (the ``page``
fixture)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from tests.web_tests.conftest import ids_by_number, sign_in

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
STYLE_ELEMENT = re.compile(r"<style\b", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)


def page_urls(tournament_id, game_id) -> list[str]:
    """One URL of every kind of page a director can open."""
    player = ids_by_number(tournament_id)[1]
    division = [tournament_id, "A"]
    return [
        reverse("home"),
        reverse("tournament-list"),
        reverse("tournament-create"),
        reverse("tournament-detail", args=[tournament_id]),
        reverse("division-detail", args=division),
        reverse("round-pairings", args=[*division, 1]),
        reverse("standings", args=division),
        reverse("scorecard", args=[tournament_id, player]),
        reverse("division-games", args=division),
        reverse("tournament-ratings", args=[tournament_id]),
        reverse("manage", args=[tournament_id]),
        reverse("manage-audit", args=[tournament_id]),
        reverse("manage-players", args=division),
        reverse("manage-pair", args=division),
        reverse("manage-results", args=[*division, 1]),
        reverse("game-list"),
        reverse("game-upload"),
        reverse("game-detail", args=[game_id]),
        reverse("game-turn", args=[game_id, 5]),
        reverse("game-record", args=[game_id]),
        reverse("admin:index"),
        reverse("admin:eventstore_storedevent_changelist"),
        reverse("docs"),
    ]


def room_urls(tournament_id) -> list[str]:
    """The room's pages (the display holds a live feed open: not for the browser
    loop below, which waits for the network to be idle; its own browser test
    watches it)."""
    division = [tournament_id, "A"]
    return [
        reverse("display", args=division),
        reverse("find-your-table", args=[*division, 1]),
        reverse("wall-chart", args=division),
        reverse("prize-list", args=[tournament_id]),
        reverse("reports", args=[tournament_id]),
        reverse("manage-print", args=[tournament_id]),
        reverse("manage-self-entry", args=[tournament_id]),
    ]


SIGNED_OUT_URLS = ["/accounts/login/", "/admin/login/", "/api/docs/"]


@pytest.mark.django_db
def test_every_page_carries_the_policy_and_keeps_it(paired, game_id, director):
    """Signed in (every page) and signed out: the header is there, scripts and
    styles come only from this site, and no page holds what the policy refuses."""
    signed_in, signed_out = Client(), Client()
    signed_in.force_login(director)
    director.is_staff = director.is_superuser = True
    director.save()
    urls = page_urls(paired, game_id) + room_urls(paired)
    visits = [(signed_in, url) for url in urls]
    visits += [(signed_out, url) for url in SIGNED_OUT_URLS]
    for client, url in visits:
        response = client.get(url)
        assert response.status_code == 200, url
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy
        assert "script-src 'self';" in policy + ";", (url, policy)
        assert "unsafe-eval" not in policy
        assert "style-src 'self';" in policy + ";", (url, policy)
        body = response.content.decode()
        assert not INLINE_SCRIPT.findall(body), url
        assert not STYLE_ELEMENT.findall(body), url
        assert not EVENT_HANDLER.findall(body), url


@pytest.mark.django_db
def test_api_responses_and_errors_carry_the_policy_too(client):
    for url in ("/api/health", "/api/tournaments/", "/api/schema/"):
        assert "default-src 'self'" in client.get(url)["Content-Security-Policy"]


# --- in the browser --------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_no_page_breaks_the_policy_in_the_browser(
    live_server, page, paired, game_id, director, csp_violations
):
    director.is_staff = director.is_superuser = True
    director.save()
    for url in SIGNED_OUT_URLS:
        page.goto(f"{live_server.url}{url}")
        page.wait_for_load_state("networkidle")
    sign_in(page, live_server, "mara")
    for url in page_urls(paired, game_id):
        page.goto(f"{live_server.url}{url}")
        page.wait_for_load_state("networkidle")
    # htmx at work under the policy: the viewer steps by key without a reload.
    page.goto(f"{live_server.url}{reverse('game-turn', args=[game_id, 3])}")
    page.keyboard.press("ArrowRight")
    page.locator('#viewer[data-index="4"]').wait_for()
    page.wait_for_load_state("networkidle")
    assert csp_violations == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_api_docs_load_nothing_from_elsewhere(live_server, page):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{live_server.url}/api/docs/")
    # Swagger UI drew the operations from the schema: its script ran.
    page.locator(".opblock-summary-path", has_text="/api/health").first.wait_for()
    page.wait_for_load_state("networkidle")
    ours = urlsplit(live_server.url).netloc
    elsewhere = [url for url in requested if urlsplit(url).netloc not in ("", ours)]
    assert elsewhere == []
    assert any("/static/drf_spectacular_sidecar/" in url for url in requested)
