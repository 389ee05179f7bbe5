"""Fixtures for the reliability tests: users, a paired tournament, a game, and the
way to reach the test database from another process."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.cache import cache
from django.db import connection

from games import services as game_services
from games.eventstore.cache import state_cache
from tournaments.core import aggregate
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services

PROJECT_DIR = Path(__file__).resolve().parents[2]

# The fuzzers draw the same inputs on every run, so that a failure in the suite is
# reproducible; FUZZ_RANDOM=1 draws new ones (to hunt for more defects).
DERANDOMIZE = os.environ.get("FUZZ_RANDOM") != "1"


@pytest.fixture(autouse=True)
def _fresh_state_and_cache():
    """Each test starts with an empty state cache and no sign-in failures counted."""
    state_cache.clear()
    cache.clear()
    yield
    state_cache.clear()
    cache.clear()


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("mara", password="pw-mara-123")


@pytest.fixture
def second_director(django_user_model):
    return django_user_model.objects.create_user("dana", password="pw-dana-123")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("oscar", password="pw-oscar-123")


def make_tournament(
    user,
    *,
    players: int = 8,
    name: str = "Riverside Open",
    names: list[str] | None = None,
    rounds: int = 5,
    pair_by_hand: bool = True,
    preset: str = "classic",
):
    """A published tournament of `players` players (or of `names`) with round 1
    paired by hand (1 v 2, 3 v 4, …) unless told not to. Returns (tournament_id,
    player ids in number order)."""
    names = names or [f"Player {n}" for n in range(1, players + 1)]
    result = setup_services.tournament_create(
        user=user,
        name=name,
        start_date="2026-11-21",
        end_date="2026-11-22",
        rounds=rounds,
        venue="Riverside Library",
        preset=preset,
    )
    tournament_id = result.stream.id
    players_services.players_register(
        tournament_id=tournament_id,
        division="A",
        entries=[(player, 1500 - n, "") for n, player in enumerate(names, start=1)],
        user=user,
    )
    _, state = aggregate.tournament_state(tournament_id)
    ids = sorted(state.rules.players, key=lambda pid: state.rules.players[pid].number)
    if pair_by_hand:
        pairing_services.round_pair(
            tournament_id=tournament_id,
            division="A",
            round_=1,
            method="manual",
            games=[(n // 2 + 1, ids[n], ids[n + 1]) for n in range(0, len(ids) - 1, 2)],
            user=user,
        )
    return tournament_id, ids


def record_result(user, tournament_id, first: str, second: str, scores=(400, 300)):
    """Record a round-1 result: `first` scores scores[0], `second` scores[1]."""
    return results_services.result_record(
        tournament_id=tournament_id,
        round_=1,
        player_a=first,
        player_b=second,
        score_a=scores[0],
        score_b=scores[1],
        user=user,
    )


@pytest.fixture
def paired(director):
    return make_tournament(director)


def start_game(user, *, context=None):
    """A game of Ann and Ben with known racks and WINDY played at 8D.

    Returns (game_id, version of the WINDY turn).
    """
    result = game_services.game_start(
        user=user,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "ADEEGIL"],
        context=context,
        seed=7,
    )
    placed = game_services.game_place(
        game_id=result.stream.id, position="8D", word="WINDY", user=user
    )
    return result.stream.id, placed.version


def database_url() -> str:
    """A DATABASE_URL for the database this test process is using (the test DB)."""
    settings = connection.settings_dict
    user = quote(settings["USER"] or "", safe="")
    password = quote(settings["PASSWORD"] or "", safe="")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings["HOST"] or ""
    port = f":{settings['PORT']}" if settings["PORT"] else ""
    if host.startswith("/"):
        # A Unix socket directory travels as ?host= (see config.env).
        return f"postgresql://{credentials}{port}/{settings['NAME']}?host={quote(host)}"
    return f"postgresql://{credentials}{host}{port}/{settings['NAME']}"


def subprocess_env(**extra: str) -> dict[str, str]:
    """The environment of a child Django process on the test database."""
    env = {
        key: value
        for key, value in os.environ.items()
        # Settings of this test process (browser tests allow async-unsafe calls),
        # not of the child's deployment.
        if key
        not in {
            "EMBEDDED_PG_TEMP",
            "SECRET_KEY",
            "DJANGO_SETTINGS_MODULE",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    env.update(
        DATABASE_URL=database_url(),
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="1",
        PYTHONPATH=str(PROJECT_DIR),
        CONN_MAX_AGE="0",
    )
    env.update(extra)
    return env


def manage(*args: str) -> list[str]:
    return [sys.executable, str(PROJECT_DIR / "manage.py"), *args]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn_server(**env: str) -> Iterator[str]:
    """A gunicorn process of its own (one worker) on the test database unless `env`
    says otherwise; yields its URL once it answers, and stops it afterwards."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--workers=1",
            f"--bind=127.0.0.1:{port}",
            "config.wsgi",
        ],
        cwd=PROJECT_DIR,
        env=subprocess_env(**env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/health", timeout=5)
                break
            except urllib.error.HTTPError:
                break  # it answers, whatever it says of the database
            except (urllib.error.URLError, ConnectionError):
                assert process.poll() is None, process.stderr.read().decode()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def http(
    url: str, *, data: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of a request to a server of the test's own."""
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
