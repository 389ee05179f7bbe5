"""Accessibility in headless Chromium: axe-core (the checker of Deque's that
browsers' own audits use) finds no serious or critical violation on the game
viewer, the standings and a scorecard; the board is a grid the keyboard moves
through, each square announced by its label; a screen reader hears each turn the
viewer steps to."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.web_tests.conftest import ids_by_number, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Axe()
# What WCAG 2.1 AA asks, and axe's own best practices.
RULES = {"runOnly": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings on the page, one line each.

    axe is injected through the DevTools protocol (Playwright's evaluate), which
    the page's Content-Security-Policy does not govern, so the page is checked as
    it is served (the page fixture still fails on any policy violation)."""
    results = AXE.run(page, options={**RULES, "resultTypes": ["violations"]})
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(node["target"]) for node in v["nodes"][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_the_viewer_the_standings_and_a_scorecard_have_no_serious_violation(
    live_server, page, game_id, paired
):
    first = ids_by_number(paired)[1]
    pages = {
        "viewer at a turn": f"/games/{game_id}/turn/12/",
        "viewer at the end": f"/games/{game_id}/",
        "standings": f"/tournaments/{paired}/divisions/A/standings/",
        "scorecard": f"/tournaments/{paired}/players/{first}/",
        "games": "/games/",
    }
    found = {}
    for name, path in pages.items():
        page.goto(live_server.url + path)
        found[name] = serious_violations(page)
    assert found == {name: [] for name in pages}, found


def test_the_viewer_signed_in_with_its_forms_has_no_serious_violation(
    live_server, page, game_id, director
):
    sign_in(page, live_server, "mara")
    page.goto(f"{live_server.url}/games/{game_id}/turn/3/")
    assert serious_violations(page) == []


def test_the_board_is_one_tab_stop_then_the_arrow_keys_move_square_to_square(
    live_server, page, game_id
):
    """The last play's first square holds the board's tab stop; arrows, Home and
    End move the focus, and each square says what is on it."""
    page.goto(f"{live_server.url}/games/{game_id}/turn/1/")
    stops = page.locator('.board [tabindex="0"]')
    assert stops.count() == 1
    assert stops.get_attribute("data-square") == "D8"  # WINDY from D8

    def focused() -> str:
        return page.evaluate("document.activeElement.getAttribute('aria-label')")

    stops.focus()
    assert focused() == "D8 double letter, W, last play"
    page.keyboard.press("ArrowRight")
    assert focused() == "E8, I, last play"
    page.keyboard.press("ArrowDown")
    assert focused() == "E9, empty"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert focused() == "E7, empty"
    page.keyboard.press("End")
    assert focused() == "O7, empty"
    page.keyboard.press("Home")
    assert focused() == "A7, empty"
    # Inside the board the arrows move the focus, not the game.
    assert page.locator("#viewer").get_attribute("data-index") == "1"
    # The focus leaves the board in one Tab: every other square is out of the order.
    assert page.locator('.board [tabindex="0"]').count() == 1


def test_a_screen_reader_hears_each_turn_stepped_to(live_server, page, game_id):
    page.goto(f"{live_server.url}/games/{game_id}/turn/0/")
    announcer = page.locator("#announcer")
    assert announcer.get_attribute("aria-live") == "polite"
    page.keyboard.press("ArrowRight")
    page.locator('#viewer[data-index="1"]').wait_for()
    page.wait_for_function(
        "document.getElementById('announcer').textContent.startsWith('Turn 1')"
    )
    assert announcer.inner_text() == "Turn 1 of 28, doug: 8D WINDY, +32, total 32."
