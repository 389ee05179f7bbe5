"""Issue 32, item 3: a slip typed while the server or the network is down is kept
with a message and sent again, once, when the server answers. Since issue 34 it is
kept in the browser's IndexedDB and listed as waiting (test_console_offline.py has
the network cut and restored, a reload, and two laptops); where the browser has no
IndexedDB it stays on the screen, as before.

The network is cut with Playwright's request routing: an aborted request is what
the browser sees when the server is stopped or the venue's network drops (htmx's
``sendError``). The second test lets the slip reach the server and then loses the
answer, the case where a resend must not store the result twice.
"""

from __future__ import annotations

import re

import pytest

from games.eventstore.models import StoredEvent
from tests.web_tests.conftest import sign_in
from tests.web_tests.test_browser import results_url, type_slip, wait_for_focus
from tournaments.models import PlayerRound

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLIP_POST = re.compile(r".*/rounds/1/results/$")
HEALTH = re.compile(r".*/api/health$")


def results_events() -> int:
    return StoredEvent.objects.filter(event_type="result_recorded").count()


def recorded(tournament_id) -> list[tuple[int, int]]:
    return list(
        PlayerRound.objects.filter(
            tournament_id=tournament_id, round=1, own_score__isnull=False
        ).values_list("own_score", "opponent_score")
    )


def test_a_slip_typed_with_the_server_down_is_kept_and_sent_once_it_is_back(
    live_server, page, paired
):
    sign_in(page, live_server, "mara")
    page.goto(results_url(live_server, paired))
    wait_for_focus(page, "a_number")
    down = {"on": True}

    def cut(route):
        if down["on"] and route.request.method == "POST":
            route.abort("connectionrefused")
        else:
            route.continue_()

    page.route(SLIP_POST, cut)
    page.route(HEALTH, lambda route: route.abort() if down["on"] else route.continue_())
    type_slip(page, 1, 412, 2, 388)
    note = page.locator('form[data-slip] .note[data-for="__all__"]')
    note.filter(has_text="Not sent").wait_for()
    # The slip waits in the browser, and nothing was stored.
    page.locator("#slip-queue li.queued.waiting", has_text="#1 412 – 388 #2").wait_for()
    assert results_events() == 0
    down["on"] = False
    page.locator("#slip-queue li.queued.sent", has_text="Recorded: #1").wait_for()
    assert results_events() == 1
    assert sorted(recorded(paired)) == [(388, 412), (412, 388)]


def test_without_indexeddb_the_slip_stays_on_the_screen_and_is_sent_once_back(
    live_server, page, paired
):
    page.add_init_script(
        "Object.defineProperty(window, 'indexedDB', { value: undefined });"
    )
    sign_in(page, live_server, "mara")
    page.goto(results_url(live_server, paired))
    wait_for_focus(page, "a_number")
    down = {"on": True}

    def cut(route):
        if down["on"] and route.request.method == "POST":
            route.abort("connectionrefused")
        else:
            route.continue_()

    page.route(SLIP_POST, cut)
    page.route(HEALTH, lambda route: route.abort() if down["on"] else route.continue_())
    type_slip(page, 1, 412, 2, 388)
    note = page.locator('form[data-slip] .note[data-for="__all__"]')
    note.filter(has_text="The slip stays here").wait_for()
    # The slip is still on the screen, and nothing was stored.
    assert page.input_value("#id_a_score") == "412"
    assert results_events() == 0
    down["on"] = False
    page.locator(".flash", has_text="Recorded: #1").wait_for()
    assert results_events() == 1
    assert sorted(recorded(paired)) == [(388, 412), (412, 388)]


def test_a_slip_whose_answer_was_lost_is_not_stored_twice(live_server, page, paired):
    sign_in(page, live_server, "mara")
    page.goto(results_url(live_server, paired))
    wait_for_focus(page, "a_number")
    lost = {"answers": 1}

    def lose_the_answer(route):
        if route.request.method == "POST" and lost["answers"]:
            lost["answers"] -= 1
            route.fetch()  # the server records the slip ...
            route.abort("connectionreset")  # ... and its answer never arrives
        else:
            route.continue_()

    page.route(SLIP_POST, lose_the_answer)
    type_slip(page, 3, 350, 4, 420)
    page.locator(
        "#slip-queue li.queued.sent", has_text="Already recorded: #3"
    ).wait_for()
    assert results_events() == 1
    assert sorted(recorded(paired)) == [(350, 420), (420, 350)]
