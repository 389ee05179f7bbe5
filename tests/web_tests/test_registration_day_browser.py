"""Issue 32, items 6 and 11, in a browser: the registration desk (check-in, the
no-shows withdrawn, round 1 paired among those who came) and a scorekeeper who
had no account joining the team by an invitation, on a phone."""

from __future__ import annotations

import re

import pytest

from tests.web_tests.conftest import NAMES, sign_in
from tournaments.core import aggregate
from tournaments.models import Director

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def console(live_server, tid):
    return f"{live_server.url}/tournaments/{tid}/manage/"


def test_check_in_then_the_no_shows_then_round_1(live_server, page, club):
    sign_in(page, live_server, "mara")
    page.goto(f"{console(live_server, club)}divisions/A/players/")
    came = [name for name, _ in NAMES[:8]]
    for name in came:
        page.get_by_role("button", name=f"Check in {name}").click()
        page.get_by_role("button", name=f"Undo {name}'s check-in").wait_for()
    assert "8 of 11 checked in" in page.locator("main").inner_text()
    page.get_by_role("button", name="Withdraw the 3 not checked in").click()
    said = page.locator(".messages").inner_text()
    absent = [name for name, _ in NAMES[8:]]
    assert f"Withdrawn from round 1 (not checked in): {', '.join(absent)}." in said
    page.goto(f"{console(live_server, club)}divisions/A/pair/")
    page.get_by_label("Pair by").select_option("swiss")
    page.get_by_role("button", name="Pair", exact=True).click()
    assert "Round 1 is paired." in page.locator(".messages").inner_text()
    _, state = aggregate.tournament_state(club)
    round_1 = state.rules.round_state("A", 1)
    seated = {p for g in round_1.pairing.games for p in (g.first, g.second)}
    assert {state.rules.players[p].name for p in seated} == set(came)
    assert round_1.pairing.byes == ()
    page.goto(f"{console(live_server, club)}audit/")
    log = page.locator("main").inner_text()
    assert "Ann Able checked in" in log
    assert f"{absent[0]} withdrew from round 1 (not_paired)" in log


def test_an_invitation_accepted_by_a_new_account_on_a_phone(
    live_server, page, browser, club
):
    sign_in(page, live_server, "mara")
    page.goto(console(live_server, club))
    page.get_by_label("Invite a").select_option("scorekeeper")
    page.get_by_role("button", name="Create an invitation link").click()
    said = page.locator(".messages").inner_text()
    (link,) = re.findall(r"(http://\S+/join/\S+/)", said)
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        invitee = phone.new_page()
        invitee.goto(link)
        assert "as scorekeeper" in invitee.locator("main").inner_text()
        invitee.fill("#id_username", "sam")
        invitee.fill("#id_password1", "tiles-on-rack-42")
        invitee.fill("#id_password2", "tiles-on-rack-42")
        invitee.get_by_role("button", name="Create my account and join").click()
        assert "Welcome to the team" in invitee.locator(".messages").inner_text()
        width = invitee.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        invitee.goto(link)
        assert "already been used" in invitee.locator("main").inner_text()
    finally:
        phone.close()
    role = Director.objects.filter(tournament_id=club, user__username="sam")
    assert list(role.values_list("role", flat=True)) == ["scorekeeper"]
    page.reload()
    assert "used by sam" in page.locator("main").inner_text()
