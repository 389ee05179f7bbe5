"""Issue 22 in a browser: the console's forms of a director's day.

The team, a division renamed, the settings corrected, a player corrected, a late
entry and a missed round; the pairing rules, a Chew pairing that keeps a player at
their fixed board, a hand pairing whose repeats are shown before it is stored, and
a prize table whose winners the public prize page lists.
"""

from __future__ import annotations

import re

import pytest

from tests.boards import round_games
from tests.web_tests.conftest import ROUND_1, ids_by_number, pair_by_hand, sign_in
from tournaments.models import Player, Tournament
from tournaments.results import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def form(page, action):
    return page.locator(f"form:has(input[name=action][value={action}])")


def console(live_server, tid):
    return f"{live_server.url}/tournaments/{tid}/manage/"


def enter(tid, director, round_):
    for game in round_games(tid, round_):
        if not game.has_result:
            services.result_record(
                tournament_id=tid,
                round_=round_,
                player_a=game.first.player_id,
                player_b=game.second.player_id,
                score_a=400 + 10 * (game.board or 0),
                score_b=350,
                user=director,
            )


def test_the_team_the_name_the_settings_and_the_players(
    live_server, page, club, director, django_user_model
):
    django_user_model.objects.create_user("lee", password="pw-web-12345")
    pair_by_hand(club, director, 1, ROUND_1, byes=(11,))
    sign_in(page, live_server, "mara")
    page.goto(console(live_server, club))
    team = page.locator("form:has(input[name=action][value=team])")
    team.get_by_label("User name").fill("lee")
    team.get_by_label("Role").select_option("scorekeeper")
    team.get_by_role("button", name="Add to the team").click()
    assert page.locator("ul.team li", has_text="lee").inner_text().startswith("lee")
    page.locator("summary", has_text="Rename division A").click()
    rename = form(page, "rename")
    rename.get_by_label("New name").fill("Premier")
    rename.get_by_role("button", name="Rename").click()
    assert page.locator("h2", has_text="Division Premier").count() == 1
    settings = form(page, "settings")
    settings.get_by_label("Rounds", exact=True).fill("9")
    settings.get_by_role("button", name="Correct").click()
    assert "9 rounds" in page.locator(".page-head .meta").inner_text()
    assert Tournament.objects.get(pk=club).rounds == 9

    page.goto(f"{console(live_server, club)}divisions/Premier/players/")
    edit = form(page, "edit")
    edit.get_by_label("Player number").fill("2")
    edit.get_by_label("Rating").fill("1777")
    edit.get_by_role("button", name="Correct").click()
    assert page.locator(".messages, [role=status]").first.inner_text()
    assert Player.objects.get(tournament_id=club, number=2).rating == 1777
    late = form(page, "late")
    late.get_by_label("Name").fill("Kim, Ada")
    late.get_by_label("Rating").fill("1500")
    late.get_by_label("The rounds already paired").select_option(index=0)
    late.get_by_role("button", name="Enter late").click()
    assert page.locator("td", has_text="Kim, Ada").count() >= 1
    miss = form(page, "miss")
    miss.get_by_label("Player number").fill("5")
    miss.get_by_label("Misses round").fill("2")
    miss.get_by_role("button", name="Record").click()

    page.goto(f"{console(live_server, club)}audit/")
    log = page.locator("main").inner_text()
    assert "Scorekeeper added: lee" in log
    assert "Division A renamed Premier" in log
    assert "rounds 7 → 9" in log
    assert "rating 1750 → 1777" in log
    assert "Registered Kim, Ada" in log


def test_pairing_rules_a_repeat_warning_and_the_prizes(
    live_server, page, club, director
):
    pair_by_hand(club, director, 1, ROUND_1, byes=(11,))
    enter(club, director, 1)
    sign_in(page, live_server, "mara")
    base = f"{console(live_server, club)}divisions/A/"

    page.goto(f"{base}pairing-rules/")
    page.get_by_label("Fixed boards").fill("3 4")
    page.get_by_label("Gibsonize King of the Hill and Swiss rounds").check()
    page.get_by_role("button", name="Set the pairing rules").click()
    assert page.get_by_label("Fixed boards").input_value() == "3 4"
    assert page.get_by_label("Gibsonize King of the Hill and Swiss rounds").is_checked()
    page.get_by_label("Fixed boards").fill("99 1")
    page.get_by_role("button", name="Set the pairing rules").click()
    assert "no player number 99" in page.locator(".field-error").inner_text()

    # A hand pairing that repeats round 1 is shown, not stored, until confirmed.
    page.goto(f"{base}pair/")
    page.get_by_label("Round", exact=True).fill("2")
    page.get_by_label("Pair by").select_option("manual")
    page.get_by_label("Pairing by hand").fill(
        "\n".join(f"{b} {f} {s}" for b, f, s in ROUND_1) + "\nbye 11"
    )
    page.get_by_role("button", name="Pair", exact=True).click()
    warning = page.locator(".field-error").first.inner_text()
    assert warning.startswith("5 games of this pairing repeat an earlier round")
    assert "Ann Able and Ben Baker (round 1)" in warning
    assert not round_games(club, 2)
    page.get_by_label("Store it even if some games repeat earlier rounds").check()
    page.get_by_role("button", name="Pair", exact=True).click()
    assert len(round_games(club, 2)) == 5

    # Paired again by Chew: player #3 keeps the fixed board 4.
    page.get_by_label("Round", exact=True).fill("2")
    page.get_by_label("Pair by").select_option("chew")
    page.get_by_role("button", name="Pair", exact=True).click()
    three = ids_by_number(club)[3]
    (board,) = [
        g.board
        for g in round_games(club, 2)
        if three in (g.first.player_id, g.second.player_id)
    ]
    assert board == 4

    page.goto(f"{base}prizes/")
    page.get_by_label("Classes and prizes").fill(
        "class B -1599\nplace 1 100\nplace 1 40 class=B\nhigh_game 20\nlow_win frog"
    )
    page.get_by_role("button", name="Set the prizes").click()
    assert (
        "Line 5: 'frog' is not an amount" in page.locator(".field-error").inner_text()
    )
    page.get_by_label("Classes and prizes").fill(
        "class B -1599\nplace 1 100\nplace 1 40 class=B\nhigh_game 20"
    )
    page.get_by_role("button", name="Set the prizes").click()
    page.get_by_role("link", name="Who wins them").click()
    table = page.locator("#prizes").inner_text()
    # Round 1: board 5 (#9 v #10) scored 450, the high game.
    assert re.search(
        r"High game\s+20\.00\s+Ida Ives #\d+\s+450, round 1 v Jo Jay", table
    ), table
    assert "1st place, class B" in table
