"""Issue 34, must-have 3 in a browser: a director amends round 2 of a 5-round
Swiss, sees what it changes before anything is stored (later pairings, movers,
the Gibson decision, the prize), confirms, and finds the report in the audit log;
a confirm made on a preview the log has since moved past is refused."""

from __future__ import annotations

import pytest

from games.eventstore.models import StoredEvent
from tests.tournaments_tests.results.amend_scenario import swiss_five
from tests.web_tests.conftest import WAIT_MS, sign_in
from tournaments.results import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _events(tid) -> int:
    return StoredEvent.objects.filter(stream_id=tid).count()


def test_an_amendment_shows_its_impact_before_it_is_stored(live_server, page, director):
    tid, _ = swiss_five(director)
    sign_in(page, live_server, "mara")
    manage = f"{live_server.url}/tournaments/{tid}/manage/divisions/A/rounds/2/"
    page.goto(f"{manage}boards/1/amend/")
    page.get_by_label("Score of Ann Able").fill("450")
    page.get_by_label("Score of Cy Cole").fill("350")
    page.get_by_label("Reason").fill("slip misread")
    before = _events(tid)
    page.get_by_role("button", name="Preview the amendment").click()
    impact = page.locator("#amend-impact")
    impact.wait_for(timeout=WAIT_MS)
    assert _events(tid) == before  # the preview stores nothing
    summary = page.locator("#amend-summary").inner_text()
    assert "Round 5 Gibsonization: Ben Baker → nobody" in summary
    assert "2nd place: Ann Able, Cy Cole, Di Dane, Ed Eames → Ann Able" in summary
    assert "Round 3 would be paired" in summary
    # The movers are marked in the standings after round 4.
    movers = page.locator("table.amend-standings[data-round='4'] tr.moved")
    assert sorted(movers.locator("td:first-child").all_inner_texts()) == [
        "Cy Cole moves",
        "Di Dane moves",
        "Ed Eames moves",
    ]
    page.get_by_role("button", name="Confirm the amendment").click()
    page.wait_for_url(f"{manage}results/", timeout=WAIT_MS)
    assert _events(tid) == before + 1
    page.goto(f"{live_server.url}/tournaments/{tid}/manage/audit/")
    audit = page.locator("table.audit").inner_text()
    assert "Impact as confirmed" in audit
    assert "Round 5 Gibsonization: Ben Baker → nobody" in audit


def test_a_confirm_on_a_moved_log_is_refused(live_server, page, director):
    tid, ids = swiss_five(director)
    sign_in(page, live_server, "mara")
    page.goto(
        f"{live_server.url}/tournaments/{tid}/manage/divisions/A/rounds/2/"
        "boards/1/amend/"
    )
    page.get_by_label("Score of Ann Able").fill("450")
    page.get_by_label("Score of Cy Cole").fill("350")
    page.get_by_role("button", name="Preview the amendment").click()
    page.locator("#amend-impact").wait_for(timeout=WAIT_MS)
    # Another director corrects round 1 while this preview is on the screen.
    services.result_amend(
        tournament_id=tid,
        round_=1,
        player_a=ids[1],
        player_b=ids[4],
        score_a=460,
        score_b=350,
        user=director,
    )
    before = _events(tid)
    page.get_by_role("button", name="Confirm the amendment").click()
    page.locator("#amend-impact").wait_for(timeout=WAIT_MS)
    assert "nothing was stored" in page.content()
    assert _events(tid) == before
    # The fresh preview's Confirm stores it.
    page.get_by_role("button", name="Confirm the amendment").click()
    page.wait_for_url("**/rounds/2/results/", timeout=WAIT_MS)
    assert _events(tid) == before + 1
