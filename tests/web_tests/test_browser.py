"""End to end in headless Chromium: the director's keyboard results entry and the
player's arrow-key game review, with screenshots saved under test-artifacts/."""

from __future__ import annotations

import re

import pytest

from tests.boards import round_games
from tests.web_tests.conftest import sign_in
from tournaments.models import PlayerRound

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def results_url(live_server, tournament_id, round_=1):
    return (
        f"{live_server.url}/tournaments/{tournament_id}/manage/divisions/A/"
        f"rounds/{round_}/results/"
    )


def focused_name(page) -> str:
    return page.evaluate("document.activeElement && document.activeElement.name")


def wait_for_focus(page, name: str) -> None:
    page.wait_for_function(
        f"document.activeElement && document.activeElement.name === {name!r}"
    )


def wait_for_turn(page, index: int) -> None:
    """Wait until the viewer shows turn `index` (its content, not just the label)."""
    page.locator(f'#viewer[data-index="{index}"]').wait_for()


def type_slip(page, *values: int) -> None:
    """Type a slip as a director does: value, Tab, value, Tab, …, Enter."""
    for index, value in enumerate(values):
        page.keyboard.type(str(value))
        page.keyboard.press("Enter" if index == len(values) - 1 else "Tab")


def test_a_director_enters_a_round_by_keyboard_and_sees_the_standings_change(
    live_server, page, paired, director, artifacts
):
    sign_in(page, live_server, "mara")
    page.goto(results_url(live_server, paired))
    assert focused_name(page) == "a_number"
    assert page.locator("#missing-heading .count").inner_text() == "5"

    # An unknown number and a player with a bye are refused as they are typed.
    page.keyboard.type("12")
    note = page.locator('.note[data-for="a_number"]')
    note.filter(has_text="No player number 12").wait_for()
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.type("11")
    note.filter(has_text="has a bye").wait_for()
    # Submitting anyway stores nothing: the rules refuse the pairing, on the field
    # their refusal names (the opponent typed for a player who has a bye).
    page.keyboard.press("Tab")
    with page.expect_response(lambda r: r.request.method == "POST"):
        type_slip(page, 400, 1, 350)
    page.locator('.note.error[data-for="b_number"]', has_text="has a bye").wait_for()
    assert not any(game.has_result for game in round_games(paired, 1))

    # Clear the slip, then five slips, keyboard only.
    page.fill("#id_a_number", "")
    page.fill("#id_a_score", "")
    page.fill("#id_b_number", "")
    page.fill("#id_b_score", "")
    page.focus("#id_a_number")
    slips = [(1, 412, 2, 388), (3, 350, 4, 420), (5, 501, 6, 333), (9, 380, 10, 377)]
    for a, score_a, b, score_b in slips:
        type_slip(page, a, score_a, b, score_b)
        page.locator(".flash", has_text=f"Recorded: #{a} ").wait_for()
        wait_for_focus(page, "a_number")

    # A tie asks for the scores before the end-of-game adjustments.
    type_slip(page, 7, 400, 8, 400)
    tie_box = page.locator(".tie-fields")
    tie_box.wait_for(state="visible")
    page.locator('.note[data-for="a_pre"]', has_text="tied at 400").wait_for()
    # Let the form's as-you-type checks settle, or a late swap eats keystrokes.
    page.wait_for_load_state("networkidle")
    page.focus("#id_a_pre")
    wait_for_focus(page, "a_pre")
    type_slip(page, 390, 395)
    page.locator(".flash", has_text="Recorded: #7 ").wait_for()
    assert page.locator("#missing-heading .count").inner_text() == "0"

    # The live standings moved: Ed Eames (+168) leads.
    first_row = page.locator(".standings-mini tbody tr").first
    assert "Ed Eames" in first_row.inner_text()
    leader = PlayerRound.objects.get(tournament_id=paired, round=1, rank=1)
    assert leader.name == "Ed Eames"
    page.screenshot(path=str(artifacts / "results-entry-1280.png"), full_page=True)

    page.goto(f"{live_server.url}/tournaments/{paired}/divisions/A/standings/")
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 11
    assert "Ed Eames" in rows.first.inner_text()
    assert "+168" in rows.first.inner_text()
    # The tie went to Hal Hart, higher before the end-of-game adjustments.
    hal = page.locator("table.standings tbody tr", has_text="Hal Hart")
    assert "1-0" in hal.inner_text()
    page.screenshot(path=str(artifacts / "standings-1280.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 812})
    page.screenshot(path=str(artifacts / "standings-375.png"), full_page=True)


def test_a_player_steps_through_a_game_with_the_arrow_keys(
    live_server, page, game_id, artifacts
):
    page.goto(f"{live_server.url}/games/{game_id}/turn/0/")
    where = page.locator(".turn-nav .where")
    assert where.inner_text() == "Start"
    h8 = page.locator('td[data-square="H8"]')
    assert h8.get_attribute("aria-label") == "H8 double word, centre, empty"

    page.keyboard.press("ArrowRight")
    wait_for_turn(page, 1)
    assert h8.get_attribute("aria-label") == "H8 double word, centre, Y, last play"
    assert page.locator("td.sq.last").count() == 5
    assert re.search(r"/turn/1/$", page.url)

    for _ in range(5):
        page.keyboard.press("ArrowRight")
    wait_for_turn(page, 6)
    assert "challenged off" in page.locator(".turn-detail").inner_text()
    page.keyboard.press("ArrowRight")
    wait_for_turn(page, 7)
    assert "phony withdrawn" in page.locator(".turn-detail").inner_text().lower()
    assert page.locator("td.sq.last").count() == 0
    page.keyboard.press("ArrowLeft")
    wait_for_turn(page, 6)
    # Each step is in the history: Back returns to the turn before.
    page.go_back()
    wait_for_turn(page, 7)
    assert re.search(r"/turn/7/$", page.url)
    page.go_forward()
    wait_for_turn(page, 6)
    assert page.locator('td[data-square="B4"]').get_attribute("aria-label") == (
        "B4, T, last play"
    )

    # Turn 18: RELIgION, the G a blank.
    page.goto(f"{live_server.url}/games/{game_id}/?turn=18")
    blank = page.locator('td[data-square="K9"]')
    assert blank.get_attribute("aria-label") == "K9, blank as G, last play"
    page.screenshot(path=str(artifacts / "game-viewer-1280.png"), full_page=True)

    page.keyboard.press("End")
    wait_for_turn(page, 28)
    assert "doug wins" in page.locator("#result-heading + div + p").inner_text()

    # On a phone: the ◀ ▶ buttons step through the turns.
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(f"{live_server.url}/games/{game_id}/turn/17/")
    page.click('a[data-nav="next"]')
    wait_for_turn(page, 18)
    page.screenshot(path=str(artifacts / "game-viewer-375.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width}px wide on a 375px phone"
