"""Issue 34, must-have 2, in a browser: a director opens the standings as they
stood at a past time (tournaments/core/past.py), by typing the time into the
page's control and by choosing when a round was paired; the page says plainly
that it is the past and links back to the present."""

from __future__ import annotations

import pytest

from games.eventstore.models import StoredEvent
from tests.web_tests.conftest import WAIT_MS, ids_by_number, pair_by_hand, sign_in
from tournaments.results import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _record(tid, director, round_, a, b, score_a, score_b, *, amend=False):
    ids = ids_by_number(tid)
    (services.result_amend if amend else services.result_record)(
        tournament_id=tid,
        round_=round_,
        player_a=ids[a],
        player_b=ids[b],
        score_a=score_a,
        score_b=score_b,
        user=director,
    )


ROUND_1 = [(1, 1, 2, 420, 380), (2, 3, 4, 350, 402), (3, 5, 6, 399, 401)]


def test_a_director_opens_the_standings_as_they_stood_at_a_past_time(
    live_server, page, club, director
):
    pair_by_hand(club, director, 1, [board[:3] for board in ROUND_1], byes=())
    for _, a, b, score_a, score_b in ROUND_1:
        _record(club, director, 1, a, b, score_a, score_b)
    sign_in(page, live_server, "mara")
    standings = f"{live_server.url}/tournaments/{club}/divisions/A/standings/"
    page.goto(standings)
    then = page.locator("table").first.inner_text()
    last = StoredEvent.objects.filter(stream_id=club).order_by("-version").first()
    # Later: round 1's first game corrected, round 2 paired.
    _record(club, director, 1, 1, 2, 300, 450, amend=True)
    pair_by_hand(club, director, 2, [(1, 2, 3), (2, 4, 5), (3, 6, 1)], byes=())
    _record(club, director, 2, 2, 3, 390, 410)
    page.goto(standings)
    assert page.locator("table").first.inner_text() != then
    assert page.locator(".past-banner").count() == 0

    # The control: a time (the moment round 1's last result was recorded).
    page.locator("summary", has_text="See the record as it stood earlier").click()
    page.get_by_label("Time or event number").fill(last.recorded_at.isoformat())
    with page.expect_navigation():
        page.get_by_role("button", name="Show").first.click()
    banner = page.locator(".past-banner")
    banner.wait_for(timeout=WAIT_MS)
    assert f"after event {last.version}" in banner.inner_text()
    assert "this is the past" in banner.inner_text()
    assert page.locator("table").first.inner_text() == then
    # Its links to the tournament's other pages keep the point.
    scorecard = page.locator("main table a").first
    assert "at=" in scorecard.get_attribute("href")
    with page.expect_navigation():
        scorecard.click()
    assert f"after event {last.version}" in page.locator(".past-banner").inner_text()
    page.go_back()

    # A round's pairing moment: when round 2 was paired, the amendment was in.
    page.locator("select[name=at]").select_option(label=_label_of(page, 2))
    with page.expect_navigation():
        page.locator("form:has(select[name=at]) button").click()
    paired = StoredEvent.objects.filter(stream_id=club, event_type="round_paired")
    version = paired.order_by("-version").first().version
    assert f"after event {version}" in page.locator(".past-banner").inner_text()
    assert page.locator("table").first.inner_text() != then

    page.get_by_role("link", name="See the present").click()
    page.wait_for_url(standings)
    assert page.locator(".past-banner").count() == 0


def _label_of(page, round_):
    options = page.locator("select[name=at] option").all_inner_texts()
    return next(text for text in options if f"round {round_} was" in text)
