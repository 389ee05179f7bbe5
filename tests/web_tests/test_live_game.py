"""A game being recorded move by move is followed on its page as moves arrive."""

from __future__ import annotations

import pytest

from games import services as game_services
from tests.reliability_tests.conftest import start_game
from tests.web_tests.conftest import ids_by_number

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_reader_at_the_last_turn_follows_the_moves_as_they_are_recorded(
    live_server, page, paired, director, settings, artifacts
):
    settings.FEED_KEEPALIVE_SECONDS = 0.5
    ids = ids_by_number(paired)
    game_id, _ = start_game(
        director,
        context={
            "tournament_id": str(paired),
            "division": "A",
            "round": 1,
            "board": 1,
            "player_ids": [ids[1], ids[2]],
        },
    )
    page.goto(f"{live_server.url}/games/{game_id}/")
    page.locator('#viewer[data-count="1"][data-index="1"]').wait_for()
    assert "Live" in page.locator("#live-note").inner_text()
    game_services.game_pass(game_id=game_id, user=director)
    page.locator('#viewer[data-count="2"][data-index="2"]').wait_for()
    game_services.game_pass(game_id=game_id, user=director)
    page.locator('#viewer[data-count="3"][data-index="3"]').wait_for()
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    page.screenshot(path=str(artifacts / "live-game-1280.png"))


def test_a_reader_at_an_earlier_turn_is_told_of_new_turns(
    live_server, page, paired, director, settings
):
    settings.FEED_KEEPALIVE_SECONDS = 0.5
    game_id, _ = start_game(director, context={"tournament_id": str(paired)})
    game_services.game_pass(game_id=game_id, user=director)
    page.goto(f"{live_server.url}/games/{game_id}/turn/1/")
    page.locator('#viewer[data-index="1"]').wait_for()
    game_services.game_pass(game_id=game_id, user=director)
    page.locator("#live-note", has_text="3 turns recorded so far").wait_for()
    assert page.locator("#viewer").get_attribute("data-index") == "1"
