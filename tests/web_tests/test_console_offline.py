"""Issue 34, must-have 4: a console that keeps working when the venue's network
does not.

Slips typed with the network cut (Playwright's ``context.set_offline``: what the
browser sees when the venue's network drops) are kept in the browser's IndexedDB,
listed as waiting, survive a reload (the service worker serves the console from
its cache: localhost is a secure context), and arrive once each when the network
returns. Two laptops entering the same boards at once: one result is stored for
each board, the other laptop is told "Already recorded" or shown the conflict with
both scores and the board's amend link, and no slip is lost.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from games.eventstore.models import StoredEvent
from games.livefeed import close_streams
from tests.web_tests.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    REPORT_CSP_VIOLATIONS,
    WAIT_MS,
    sign_in,
)
from tests.web_tests.test_browser import results_url, type_slip, wait_for_focus
from tournaments.models import PlayerRound

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUEUE = "#slip-queue"
WAITING = "#slip-queue li.queued.waiting"

# The page says so once the worker has kept it and its files (site.js asks it to,
# for a page loaded before the worker was in charge, and shows its answer).
PAGE_KEPT = "#offline-reload[data-kept]"
# How many of the worker's per-user caches of console pages there are.
KEPT_PAGES = """caches.keys().then(
  (names) => names.filter((name) => name.startsWith("console-shell-")).length
)"""


def results_events() -> int:
    return StoredEvent.objects.filter(event_type="result_recorded").count()


def recorded(tournament_id) -> list[tuple[int, int]]:
    return sorted(
        PlayerRound.objects.filter(
            tournament_id=tournament_id, round=1, own_score__isnull=False
        ).values_list("own_score", "opponent_score")
    )


@pytest.fixture
def laptops(browser, csp_violations):
    """Open browser contexts: each one a laptop of its own (its own IndexedDB,
    service worker and session), with the page fixture's CSP watch."""
    opened = []

    def open_laptop():
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.expose_function(
            "reportCspViolation", lambda text: csp_violations.append(text)
        )
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        opened.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        return context, page

    yield open_laptop
    for context in opened:
        context.close()
    # The live pages' feeds end with the test, before its database is flushed.
    assert close_streams()
    assert not csp_violations, f"Content-Security-Policy violations: {csp_violations}"


def open_console(page, live_server, tournament_id) -> None:
    sign_in(page, live_server, "mara")
    page.goto(results_url(live_server, tournament_id))
    wait_for_focus(page, "a_number")
    page.locator(PAGE_KEPT, has_text="reloads without the network").wait_for()


def test_slips_typed_offline_wait_survive_a_reload_and_arrive_once(
    live_server, laptops, paired, artifacts
):
    context, page = laptops()
    open_console(page, live_server, paired)
    context.set_offline(True)
    type_slip(page, 1, 412, 2, 388)
    page.locator(WAITING, has_text="#1 412 – 388 #2").wait_for()
    # The box is cleared for the next slip, and says where the last one went.
    assert page.input_value("#id_a_score") == ""
    note = page.locator('form[data-slip] .note[data-for="__all__"]')
    assert "kept in this browser" in note.inner_text()
    wait_for_focus(page, "a_number")
    type_slip(page, 3, 350, 4, 420)
    page.locator(WAITING, has_text="#3 350 – 420 #4").wait_for()
    assert page.locator(f"{QUEUE} [data-queue-count]").inner_text() == "2"
    assert results_events() == 0

    # A reload with the network still down: the worker serves the console, and the
    # slips are still there (IndexedDB).
    page.reload()
    page.locator(WAITING, has_text="#1 412 – 388 #2").wait_for()
    page.locator(WAITING, has_text="#3 350 – 420 #4").wait_for()
    page.locator(PAGE_KEPT, has_text="reloads without the network").wait_for()
    assert results_events() == 0
    page.screenshot(path=str(artifacts / "console-offline-waiting.png"))

    context.set_offline(False)
    sent = page.locator(f"{QUEUE} li.queued.sent")
    sent.filter(has_text="Recorded: #1 Ann Able 412 – 388 #2 Ben Baker.").wait_for()
    sent.filter(has_text="Recorded: #3 Cy Cole 350 – 420 #4 Di Dane.").wait_for()
    page.locator(f"{QUEUE} [data-queue-count]", has_text="0").wait_for()
    assert page.locator(WAITING).count() == 0
    # The round's lists as they now are, without a reload.
    page.locator("#missing-heading .count", has_text="3").wait_for()
    assert results_events() == 2
    assert recorded(paired) == [(350, 420), (388, 412), (412, 388), (420, 350)]

    # Nothing is sent twice: a reload with the network back finds an empty queue.
    page.reload()
    wait_for_focus(page, "a_number")
    assert page.locator(WAITING).count() == 0
    assert results_events() == 2


def test_two_laptops_entering_the_same_boards_at_once(
    live_server, laptops, paired, artifacts
):
    """Board 1: the two slips differ (one is stored, the other is a conflict shown
    with both scores and the amend link); board 2: the same slip on both (one is
    stored, the other reads "Already recorded"). Which laptop is first is the
    network's business: the test accepts either, and requires one of each."""
    first_context, first = laptops()
    second_context, second = laptops()
    open_console(first, live_server, paired)
    open_console(second, live_server, paired)
    for context in (first_context, second_context):
        context.set_offline(True)
    type_slip(first, 1, 412, 2, 388)
    first.locator(WAITING, has_text="#1 412").wait_for()
    wait_for_focus(first, "a_number")
    type_slip(first, 3, 350, 4, 420)
    type_slip(second, 2, 390, 1, 400)
    second.locator(WAITING, has_text="#2 390").wait_for()
    wait_for_focus(second, "a_number")
    type_slip(second, 4, 420, 3, 350)
    for page in (first, second):
        page.locator(f"{QUEUE} [data-queue-count]", has_text="2").wait_for()

    # Both back at once.
    first_context.set_offline(False)
    second_context.set_offline(False)
    for page in (first, second):
        page.locator(f"{QUEUE} [data-queue-count]", has_text="0").wait_for()
        page.locator(f"{QUEUE} li.queued.sent").first.wait_for()

    assert results_events() == 2  # one result per board, never two
    boards = dict(
        PlayerRound.objects.filter(
            tournament_id=paired, round=1, number__in=(1, 3)
        ).values_list("number", "own_score")
    )
    assert boards[3] == 350
    texts = [page.locator(QUEUE).inner_text() for page in (first, second)]
    # Board 2: the same slip, stored by one laptop, "Already recorded" on the other.
    assert (
        sum("Recorded: #3 Cy Cole 350 – 420 #4 Di Dane." in t for t in texts)
        + sum("Recorded: #4 Di Dane 420 – 350 #3 Cy Cole." in t for t in texts)
        == 1
    )
    assert sum("Already recorded:" in t for t in texts) == 1
    # Board 1: whichever slip was stored, the other laptop shows the conflict with
    # both scores and the board's amend link, and keeps the slip until dismissed.
    # Each side's scores as its slip has them (the second laptop typed #2 first).
    if boards[1] == 412:
        loser, typed, kept = second, "390 – 400", "#2 Ben Baker 388 – 412 #1 Ann Able"
    else:
        assert boards[1] == 400
        loser, typed, kept = first, "412 – 388", "#1 Ann Able 400 – 390 #2 Ben Baker"
    conflict = loser.locator(f"{QUEUE} li.queued.conflict")
    conflict.wait_for()
    text = conflict.inner_text()
    assert f"This slip says {typed}" in text
    assert kept in text
    assert "after this slip was typed" in text
    loser.screenshot(path=str(artifacts / "console-offline-conflict.png"))
    amend = conflict.get_by_role("link", name="Amend board 1")
    assert amend.get_attribute("href").endswith("/rounds/1/boards/1/amend/")
    loser.reload()
    loser.locator(f"{QUEUE} li.queued.conflict", has_text=typed).wait_for()
    loser.locator(f"{QUEUE} li.queued.conflict").get_by_role(
        "button", name="Dismiss"
    ).click()
    loser.locator(f"{QUEUE} li.queued.conflict").wait_for(state="detached")
    assert results_events() == 2


@pytest.fixture
def venue_lan(browser, live_server, settings, csp_violations):
    """The test server as a laptop on the venue's network sees it: by a name that
    is not localhost, over plain http (a Chromium of its own maps ``venue.lan`` to
    the test server), so the page is not a secure context and no worker may
    register."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "venue.lan"]
    port = live_server.url.rsplit(":", 1)[1]
    lan_browser = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP venue.lan 127.0.0.1"],
        headless=True,
    )
    context = lan_browser.new_context(viewport={"width": 1280, "height": 900})
    context.expose_function(
        "reportCspViolation", lambda text: csp_violations.append(text)
    )
    context.add_init_script(REPORT_CSP_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    yield SimpleNamespace(url=f"http://venue.lan:{port}"), context, page
    context.close()
    lan_browser.close()
    assert close_streams()
    assert not csp_violations, f"Content-Security-Policy violations: {csp_violations}"


def test_over_plain_http_the_page_says_offline_reload_is_unavailable(venue_lan, paired):
    """A browser registers no service worker outside a secure context (plain http
    on a LAN address): the page says so plainly, and slips typed with the network
    cut are still kept and sent."""
    server, context, page = venue_lan
    sign_in(page, server, "mara")
    page.goto(results_url(server, paired))
    wait_for_focus(page, "a_number")
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'serviceWorker' in navigator") is False
    note = page.locator("#offline-reload")
    note.filter(has_text="Offline reload is not available").wait_for()
    assert "not served over https" in note.inner_text()
    context.set_offline(True)
    type_slip(page, 5, 401, 6, 377)
    page.locator(WAITING, has_text="#5 401 – 377 #6").wait_for()
    # A slip the server will refuse (no player 12): typed offline, it could not
    # be checked as it was typed.
    wait_for_focus(page, "a_number")
    type_slip(page, 12, 380, 8, 360)
    page.locator(WAITING, has_text="#12 380 – 360 #8").wait_for()
    context.set_offline(False)
    page.locator(
        f"{QUEUE} li.queued.sent", has_text="Recorded: #5 Ed Eames 401 – 377"
    ).wait_for()
    refused = page.locator(f"{QUEUE} li.queued.refused")
    refused.filter(has_text="No player number 12 in division A.").wait_for()
    assert results_events() == 1
    # Back to the slip box, to be corrected and sent as any slip.
    refused.get_by_role("button", name="Back to the slip box").click()
    refused.wait_for(state="detached")
    assert page.input_value("#id_a_number") == "12"
    assert page.input_value("#id_b_score") == "360"


def test_signing_out_drops_the_kept_console(live_server, laptops, paired):
    """The worker keeps a user's console only for that user: after signing out,
    a reload of the console without the network finds nothing kept."""
    context, page = laptops()
    open_console(page, live_server, paired)
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_selector("text=Sign in")
    # The worker drops the kept pages when the sign-out passes it; wait for it.
    deadline = time.monotonic() + WAIT_MS / 1000
    while page.evaluate(KEPT_PAGES):
        assert time.monotonic() < deadline, "the kept console was not dropped"
        page.wait_for_timeout(100)
    context.set_offline(True)
    page.goto(results_url(live_server, paired))
    page.get_by_text("this page was not kept in this browser").wait_for()
    assert page.locator("#slip-queue").count() == 0
