"""Issue 32, items 8 and 9 in a browser: the director writes the round schedule
in the console, round 1 pairs itself, a late entry arrives, round 2 pairs itself
when round 1's last result is in (the late entry in the bye's seat), the console
says the schedule paired it, and the late entry's scorecard lists every round of
the round robin."""

from __future__ import annotations

import pytest

from tests.boards import round_games
from tests.web_tests.conftest import sign_in
from tournaments.models import Player
from tournaments.results import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_round_robin_scheduled_in_the_console_seats_a_late_entry(
    live_server, page, club, director
):
    sign_in(page, live_server, "mara")
    base = f"{live_server.url}/tournaments/{club}/manage/divisions/A/"
    page.goto(f"{base}round-schedule/")
    page.get_by_label("Round schedule").fill(
        "\n".join(f"{r}: round_robin on {r - 1}" for r in range(1, 8))
    )
    page.get_by_role("button", name="Set the round schedule").click()
    # Round 1 depends on no result: the schedule paired it, and the pair page
    # says so.
    page.wait_for_url(f"{base}pair/")
    assert "Paired by the round schedule" in page.content()
    page.goto(f"{base}players/")
    late = page.locator("form:has(input[name=action][value=late])")
    late.get_by_label("Name").fill("Kim, Ada")
    late.get_by_label("Rating").fill("1500")
    late.get_by_label("The rounds already paired").select_option(index=0)
    late.get_by_role("button", name="Enter late").click()
    assert page.locator("td", has_text="Kim, Ada").count() >= 1
    for game in round_games(club, 1):
        services.result_record(
            tournament_id=club,
            round_=1,
            player_a=game.first.player_id,
            player_b=game.second.player_id,
            score_a=420,
            score_b=380,
            user=director,
        )
    page.goto(f"{base}pair/?round=2")
    assert "Paired by the round schedule" in page.content()
    assert "You may pair it again above" in page.content()
    table = page.locator("table.pairings").inner_text()
    assert "Kim, Ada" in table
    assert "bye" not in table  # 12 players now: the late entry took the bye's seat
    kim = Player.objects.get(tournament_id=club, name="Kim, Ada").player_id
    page.goto(f"{live_server.url}/tournaments/{club}/players/{kim}/")
    assert page.locator("tr.foretold").count() == 5  # rounds 3 to 7
