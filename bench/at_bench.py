"""What reading the past costs: a tournament's standings with ``?at=`` against the
present's, through the API with Django's test ``Client``.

    python bench/at_bench.py [--scale small|club|national] [--repeats N]

On a throwaway embedded PostgreSQL: one division of ``players`` players, ``rounds``
rounds paired by hand and every result entered. Then, alternately (best of
``--repeats`` each, the read cache emptied before every request so that each one is
built): the present's standings, and the standings at the log position after the
middle round's last result (``tournaments/core/past.py``: the log folded up to there,
its projections written into temporary tables, the view run over them). Prints
both, their ratio and the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCALES = {"small": (10, 3), "club": (40, 7), "national": (200, 20)}


def _setup_django() -> None:
    """As bench/slip_bench.py sets it up: production-like, embedded PostgreSQL."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "0"
    from bench.keys import use_bench_keys

    use_bench_keys()
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.pop("DATABASE_URL", None)
    os.environ["EMBEDDED_PG_TEMP"] = "1"
    import django

    django.setup()


def _tournament(players: int, rounds: int) -> tuple[object, int]:
    """The tournament's id and the log position after the middle round."""
    from django.contrib.auth import get_user_model

    from games.eventstore.models import StoredEvent
    from tournaments.models import Player
    from tournaments.pairing import services as pairing_services
    from tournaments.players import services as players_services
    from tournaments.results import services as results_services
    from tournaments.setup import services as setup_services

    user = get_user_model().objects.create_user("at-director", is_staff=True)
    tid = setup_services.tournament_create(
        user=user,
        name="At bench",
        start_date="2026-07-01",
        end_date="2026-07-03",
        rounds=rounds,
        published=True,
    ).stream.id
    players_services.players_register(
        tournament_id=tid,
        division="A",
        entries=[(f"Player {n:03d}", 2000 - n, "") for n in range(1, players + 1)],
        user=user,
    )
    ids = dict(
        Player.objects.filter(tournament_id=tid).values_list("number", "player_id")
    )
    rng = random.Random(34)
    middle = 0
    for round_ in range(1, rounds + 1):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        games = [
            (board, order[2 * board - 2], order[2 * board - 1])
            for board in range(1, players // 2 + 1)
        ]
        pairing_services.round_pair(
            tournament_id=tid,
            division="A",
            round_=round_,
            method="manual",
            games=[(board, ids[a], ids[b]) for board, a, b in games],
            user=user,
        )
        for _, a, b in games:
            score = rng.randrange(300, 500)
            results_services.result_record(
                tournament_id=tid,
                round_=round_,
                player_a=ids[a],
                player_b=ids[b],
                score_a=score,
                score_b=score + rng.choice((-1, 1)) * rng.randrange(1, 150),
                user=user,
            )
        if round_ == (rounds + 1) // 2:
            middle = StoredEvent.objects.filter(stream_id=tid).count()
    return tid, middle


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=sorted(SCALES), default="small")
    parser.add_argument("--repeats", type=int, default=7)
    options = parser.parse_args()
    _setup_django()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    players, rounds = SCALES[options.scale]
    tid, middle = _tournament(players, rounds)
    client = Client()
    url = reverse("api-standings", args=[tid])
    best = {"present": float("inf"), "past": float("inf")}
    for _ in range(options.repeats):
        for name, query in (("present", {}), ("past", {"at": str(middle)})):
            cache.clear()
            start = time.perf_counter()
            response = client.get(url, query)
            elapsed = time.perf_counter() - start
            assert response.status_code == 200, response.content
            best[name] = min(best[name], elapsed)
    load = Path("/proc/loadavg").read_text().split()[0]
    print(
        f"standings, {players} players x {rounds} rounds: present"
        f" {best['present'] * 1000:.1f} ms, at event {middle}"
        f" {best['past'] * 1000:.1f} ms, ratio {best['past'] / best['present']:.1f}"
        f" (best of {options.repeats}, load {load})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
