"""Fixtures for the page tests: a club tournament, a recorded game, signed-in
clients, and a headless Chromium for the end-to-end tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test thread; the live server's
# database work from that thread is still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from games import services as game_services
from games.eventstore.cache import state_cache
from games.livefeed import close_streams
from tournaments.models import Player
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.setup import services as setup_services

# How long a browser waits for a page, an element or a condition: generous, for a
# loaded 2-core machine (10 s failed CI on a busy one: the analysis table of
# test_player_pages). A wait ends as soon as its condition holds, so the ceiling
# costs nothing when the test passes.
WAIT_MS = 60_000

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

NAMES = [
    ("Ann Able", 1800),
    ("Ben Baker", 1750),
    ("Cy Cole", 1700),
    ("Di Dane", 1650),
    ("Ed Eames", 1600),
    ("Flo Fox", 1550),
    ("Gus Gray", 1500),
    ("Hal Hart", 1450),
    ("Ida Ives", 1400),
    ("Jo Jay", 1350),
    ("Kit Kay", 1300),
]
PASSWORD = "pw-web-12345"


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    """Each test starts with an empty per-process state cache."""
    state_cache.clear()
    yield
    state_cache.clear()


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("mara", password=PASSWORD)


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("oscar", password=PASSWORD)


@pytest.fixture
def player_user(django_user_model):
    return django_user_model.objects.create_user("dev", password=PASSWORD)


@pytest.fixture
def club(director):
    """A 7-round club tournament with 11 players in division A: NASPA rules, as
    the real games recorded for its boards were played (a tournament's games play
    under its rules), but a tie on final score decided by the score before the
    end-of-game adjustments (classic's rule, which the results tests exercise)."""
    result = setup_services.tournament_create(
        user=director,
        name="Riverside Club Championship",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=7,
        venue="Riverside Library",
        preset="naspa",
        ties_are_draws=False,
    )
    tournament_id = result.stream.id
    players_services.players_register(
        tournament_id=tournament_id,
        division="A",
        entries=[(name, rating, "") for name, rating in NAMES],
        user=director,
    )
    return tournament_id


def ids_by_number(tournament_id) -> dict[int, str]:
    return dict(
        Player.objects.filter(tournament_id=tournament_id).values_list(
            "number", "player_id"
        )
    )


def pair_by_hand(tournament_id, director, round_, boards, byes=()):
    """Pair a round by player numbers: boards as (board, first, second)."""
    ids = ids_by_number(tournament_id)
    pairing_services.round_pair(
        tournament_id=tournament_id,
        division="A",
        round_=round_,
        method="manual",
        games=[(board, ids[first], ids[second]) for board, first, second in boards],
        byes=[ids[number] for number in byes],
        user=director,
    )


ROUND_1 = [(1, 1, 2), (2, 3, 4), (3, 5, 6), (4, 7, 8), (5, 9, 10)]


@pytest.fixture
def paired(club, director):
    """The club tournament with round 1 paired by hand: 1v2 … 9v10, 11 has a bye."""
    pair_by_hand(club, director, 1, ROUND_1, byes=(11,))
    return club


@pytest.fixture
def game_id(paired, director, shared_gcg_dir):
    """doug_v_emely.gcg as round 1, board 1 (Ann Able v Ben Baker): a phony
    withdrawn, a bingo with a blank, and a going-out ending."""
    ids = ids_by_number(paired)
    result, _ = game_services.game_import_gcg(
        text=(shared_gcg_dir / "doug_v_emely.gcg").read_bytes(),
        user=director,
        context={
            "tournament_id": paired,
            "division": "A",
            "round": 1,
            "board": 1,
            "player_ids": [ids[1], ids[2]],
        },
    )
    return result.stream.id


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


# --- the browser ------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium (Debian's). Skipped only off CI when it is not installed."""
    if not Path(CHROMIUM).exists() and os.environ.get("CI") != "true":
        pytest.skip(f"{CHROMIUM} is not installed (CI installs it; see test.sh)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


# Every Content-Security-Policy violation a page reports reaches the test (the
# listener is Playwright's, so the page's own policy does not block it).
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation(
    `${event.effectiveDirective} blocked ${event.blockedURI || "inline"}` +
    ` at ${event.sourceFile}:${event.lineNumber} on ${document.location.pathname}`
  );
});
"""


@pytest.fixture
def csp_violations() -> list[str]:
    return []


@pytest.fixture
def page(browser, csp_violations):
    """A fresh browser page; the test fails if any page it opened broke the
    Content-Security-Policy (an inline script or style the policy refused)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.expose_function(
        "reportCspViolation", lambda text: csp_violations.append(text)
    )
    context.add_init_script(REPORT_CSP_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    yield page
    context.close()
    # The live pages' feeds end with the test, before its database is flushed.
    assert close_streams()
    assert not csp_violations, f"Content-Security-Policy violations: {csp_violations}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def sign_in(page, live_server, username: str) -> None:
    """Sign in through the login page, as a person would."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector(f"text={username}")
