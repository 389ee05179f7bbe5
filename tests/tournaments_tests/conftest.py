"""Fixtures for tournament tests: a director and a small tournament."""

from __future__ import annotations

import pytest

from games.eventstore.cache import state_cache
from tournaments.models import Player
from tournaments.pairing import services as pairing_services
from tournaments.players import services as players_services
from tournaments.results import services as results_services
from tournaments.setup import services as setup_services


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    """Each test starts with an empty per-process state cache."""
    state_cache.clear()
    yield
    state_cache.clear()


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("mara", password="pw-mara-123")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("oscar", password="pw-oscar-123")


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


@pytest.fixture
def club(director):
    """A 7-round club tournament (classic rules) with 11 players in division A."""
    result = setup_services.tournament_create(
        user=director,
        name="Riverside Club Championship",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=7,
        venue="Riverside Library",
    )
    tournament_id = result.stream.id
    players_services.players_register(
        tournament_id=tournament_id,
        division="A",
        entries=[(name, rating, "") for name, rating in NAMES],
        user=director,
    )
    return tournament_id


@pytest.fixture
def club_night(director):
    """4 rounds, Ann, Ben, Cy and Zoë: round 1 played, round 2 paired."""
    tid = setup_services.tournament_create(
        user=director,
        name="Riverside Club Night",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=4,
        published=True,
    ).stream.id
    players_services.players_register(
        tournament_id=tid,
        division="A",
        entries=[
            ("Ann Able", 1800, ""),
            ("Ben Baker", 1700, ""),
            ("Cy Cole", 1600, ""),
            ("Zoë Zane", 1500, ""),
        ],
        user=director,
    )
    ids = dict(
        Player.objects.filter(tournament_id=tid).values_list("number", "player_id")
    )

    def pair(round_, games):
        pairing_services.round_pair(
            tournament_id=tid,
            division="A",
            round_=round_,
            method="manual",
            games=[(board, ids[a], ids[b]) for board, a, b in games],
            user=director,
        )

    pair(1, [(1, 1, 2), (2, 3, 4)])
    results_services.result_record(
        tournament_id=tid,
        round_=1,
        player_a=ids[1],
        player_b=ids[2],
        score_a=420,
        score_b=380,
        user=director,
    )
    results_services.result_record(
        tournament_id=tid,
        round_=1,
        player_a=ids[3],
        player_b=ids[4],
        score_a=350,
        score_b=402,
        user=director,
    )
    pair(2, [(1, 4, 1), (2, 2, 3)])
    return tid, ids
