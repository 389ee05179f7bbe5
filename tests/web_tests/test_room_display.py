"""The projector display: a division's standings and current pairings in large
type, kept current by the live feed without a reload."""

from __future__ import annotations

import time

import pytest

from tests.web_tests.conftest import REPORT_CSP_VIOLATIONS, WAIT_MS, sign_in
from tournaments.models import Player
from tournaments.players import services as players_services
from tournaments.setup import services as setup_services


def display_url(tournament_id, show=None, division="A"):
    url = f"/tournaments/{tournament_id}/divisions/{division}/display/"
    return url + (f"?show={show}" if show else "")


@pytest.mark.django_db
def test_the_display_shows_the_standings_and_the_current_round(client, paired):
    page = client.get(display_url(paired)).content.decode()
    assert "Standings after round 1" in page
    assert "Round 1 pairings" in page
    assert "Ann Able" in page
    assert f'data-feed-url="/api/tournaments/{paired}/feed"' in page
    assert "<script>" not in page  # the policy allows no inline script
    only = client.get(display_url(paired, "standings")).content.decode()
    assert "Standings after round 1" in only
    assert "Round 1 pairings" not in only


@pytest.mark.django_db
def test_a_display_asks_for_what_it_can_show(client, paired):
    response = client.get(display_url(paired, "scores"))
    assert response.status_code == 400
    assert b"show: one of cycle, standings, pairings" in response.content
    assert client.get(display_url(paired, division="Z")).status_code == 404


@pytest.mark.django_db
def test_a_private_tournaments_display_is_for_its_team(client, director):
    created = setup_services.tournament_create(
        user=director,
        name="Hidden",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=3,
        published=False,
    )
    url = display_url(created.stream.id)
    assert client.get(url).status_code == 404
    client.force_login(director)
    assert client.get(url).status_code == 200


def _second_page(browser, violations):
    """Another browser (its own cookies), watched for policy violations too."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.expose_function("reportCspViolation", lambda text: violations.append(text))
    context.add_init_script(REPORT_CSP_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return context, page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_display_updates_when_a_result_is_entered_in_another_browser(
    live_server, page, browser, paired, settings, artifacts, csp_violations
):
    settings.FEED_KEEPALIVE_SECONDS = 0.5
    settings.FEED_HOLD_SECONDS = 10
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(live_server.url + display_url(paired, "pairings"))
    board_1 = page.locator("#display-pairings tbody tr").first
    assert "–" in board_1.inner_text()
    context, director_page = _second_page(browser, csp_violations)
    try:
        sign_in(director_page, live_server, "mara")
        director_page.goto(
            f"{live_server.url}/tournaments/{paired}/manage/divisions/A/rounds/1/results/"
        )
        latencies = []
        for slip in ((1, 412, 2, 388), (3, 350, 4, 420)):
            a, score_a, b, score_b = slip
            director_page.fill("#id_a_number", str(a))
            director_page.fill("#id_a_score", str(score_a))
            director_page.fill("#id_b_number", str(b))
            director_page.fill("#id_b_score", str(score_b))
            with director_page.expect_response(
                lambda r: r.request.method == "POST" and "/results/" in r.url
            ):
                director_page.press("#id_b_score", "Enter")
            stored = time.monotonic()
            shown = min(score_a, score_b)
            page.locator("#display-pairings", has_text=f"–{shown}").or_(
                page.locator("#display-pairings", has_text=f"{shown}–")
            ).wait_for()
            latencies.append(time.monotonic() - stored)
    finally:
        context.close()
    # No reload: the page's load time is the one it had before the results.
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    page.screenshot(path=str(artifacts / "display-pairings-1920.png"))
    print(
        "\nFIGURES display: updated "
        + ", ".join(f"{s * 1000:.0f} ms" for s in latencies)
        + " after the result was stored"
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_long_standings_table_is_shown_a_page_at_a_time(
    live_server, page, director, settings
):
    settings.FEED_KEEPALIVE_SECONDS = 0.5
    created = setup_services.tournament_create(
        user=director,
        name="Big Open",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=3,
        published=True,
    )
    players_services.players_register(
        tournament_id=created.stream.id,
        division="A",
        entries=[(f"Player {n:02d}", 2000 - n, "") for n in range(1, 61)],
        user=director,
    )
    assert Player.objects.filter(tournament_id=created.stream.id).count() == 60
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(live_server.url + display_url(created.stream.id, "standings"))
    label = page.locator("#display-standings .display-page-no")
    assert "page 1 of" in label.inner_text()
    visible = page.locator("#display-standings tbody tr:visible").count()
    assert 5 < visible < 60
