"""What one score slip costs the server, entered through the console's view.

    python bench/slip_bench.py [--divisions 2] [--players 40] [--rounds 4]
                               [--queries] [--profile N]

On a throwaway embedded PostgreSQL: a tournament of ``--divisions`` divisions of
``--players`` players; each round is paired (Swiss) in every division, then every
slip is POSTed to the manage-results URL with Django's test ``Client``, as the
browser sends it: alternately as a plain form post (answered with a redirect) and
as htmx (``HX-Request``: answered with the panel, ready for the next slip). Per
slip it records the server time (wall clock, and this process's CPU time: the
server's Python without PostgreSQL, steadier on a shared machine), the SQL
statements (CaptureQueriesContext) and the calls of
``core.aggregate.tournament_state`` (the aggregate's loads) and of the store's
``_state_at`` (a stream state materialised, cached or replayed).

The first round's slips warm the process (imports, templates, the state cache)
and are left out of the figures. Prints median and p95 per variant.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _setup_django() -> None:
    """Production-like settings on a throwaway embedded PostgreSQL, as bench/run.py
    sets them (not imported from it: its module imports the apps before set-up)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # DEBUG on would keep every query and make the figures a debug server's.
    os.environ["DEBUG"] = "0"
    from bench.keys import use_bench_keys

    use_bench_keys()
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.pop("DATABASE_URL", None)
    os.environ["EMBEDDED_PG_TEMP"] = "1"
    import django

    django.setup()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _count(module_name: str, name: str) -> list[int]:
    """Wrap the function `name` of `module_name` wherever it was imported by name;
    the counter of its calls."""
    original = getattr(sys.modules[module_name], name)
    calls = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    # Modules that did `from … import name` hold their own reference.
    for module in list(sys.modules.values()):
        if getattr(module, name, None) is original:
            setattr(module, name, counted)
    return calls


def _tournament(divisions: int, players: int) -> tuple[Any, Any]:
    from django.contrib.auth import get_user_model

    from tournaments.players import services as players_services
    from tournaments.setup import services as setup_services

    user = get_user_model().objects.create_user("slip-director", is_staff=True)
    names = [chr(ord("A") + i) for i in range(divisions)]
    created = setup_services.tournament_create(
        user=user,
        name="Slip bench",
        start_date="2026-07-01",
        end_date="2026-07-03",
        rounds=7,
        preset="naspa",
        divisions=names,
    )
    tid = created.stream.id
    rng = random.Random(29)
    for division in names:
        players_services.players_register(
            tournament_id=tid,
            division=division,
            entries=[
                (f"Player {division}{n:03d}", 2100 - 8 * n + rng.randrange(40), "")
                for n in range(1, players + 1)
            ],
            user=user,
        )
    return tid, user


def _slips(tid: Any, division: str, round_: int, rng: random.Random) -> list[dict]:
    """The round's slips as a director types them: numbers and final scores (never
    tied, so no scores before the adjustments are asked for)."""
    from tournaments.pairing import selectors

    slips = []
    for board in selectors.round_boards(tid, division, round_):
        if board.second is None:
            continue
        a = rng.randrange(300, 520)
        b = rng.randrange(300, 520)
        if a == b:
            b += 1
        first, second = board.first, board.second
        if rng.random() < 0.5:  # either player's slip
            first, second, a, b = second, first, b, a
        slips.append(
            {
                "a_number": first.number,
                "a_score": a,
                "b_number": second.number,
                "b_score": b,
            }
        )
    return slips


class Slip(NamedTuple):
    seconds: float
    cpu: float  # this process's CPU seconds (the server's Python, not PostgreSQL)
    queries: int
    sql: list[str]
    loads: int  # tournament_state calls
    states: int  # the store's states materialised (cached or replayed)


def _measure(
    post: Callable[[], Any], loads: list[int], states: list[int]
) -> tuple[Slip, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    before = loads[0], states[0]
    with CaptureQueriesContext(connection) as queries:
        start, cpu = time.perf_counter(), time.process_time()
        response = post()
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    sql = [query["sql"] for query in queries.captured_queries]
    slip = Slip(
        elapsed, cpu, len(sql), sql, loads[0] - before[0], states[0] - before[1]
    )
    return slip, response.status_code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--divisions", type=int, default=2)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument(
        "--queries", action="store_true", help="print the SQL of one slip of each"
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="profile the measured slips; print the N costliest functions",
    )
    options = parser.parse_args()
    _setup_django()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    import config.urls  # noqa: F401  (every view module loaded before the wrap)
    from tournaments.pairing import services as pairing_services

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    loads = _count("tournaments.core.aggregate", "tournament_state")
    states = _count("games.eventstore.store", "_state_at")
    tid, user = _tournament(options.divisions, options.players)
    client = Client()
    client.force_login(user)
    rng = random.Random(1)
    profile = cProfile.Profile() if options.profile else None
    rows: dict[str, list[Slip]] = {"form": [], "htmx": []}
    divisions = [chr(ord("A") + i) for i in range(options.divisions)]
    for round_ in range(1, options.rounds + 1):
        for division in divisions:
            pairing_services.round_pair(
                tournament_id=tid,
                division=division,
                round_=round_,
                method="swiss",
                user=user,
            )
        for division in divisions:
            url = reverse("manage-results", args=[tid, division, round_])
            for index, data in enumerate(_slips(tid, division, round_, rng)):
                htmx = index % 2 == 1
                headers = {"HX-Request": "true"} if htmx else {}
                if profile is not None and round_ > 1:
                    profile.enable()
                slip, status = _measure(
                    lambda url=url, data=data, headers=headers: client.post(
                        url, data, headers=headers
                    ),
                    loads,
                    states,
                )
                if profile is not None:
                    profile.disable()
                if status != (200 if htmx else 302):
                    raise SystemExit(f"slip {data} answered {status}")
                if round_ > 1:  # the first round warms the process
                    rows["htmx" if htmx else "form"].append(slip)
        print(f"round {round_}/{options.rounds} entered", flush=True)
    print(
        f"{options.divisions} divisions x {options.players} players, "
        f"rounds 2-{options.rounds} measured"
    )
    for name, label in (("form", "plain post (302)"), ("htmx", "htmx (panel)")):
        measured = rows[name]
        ms = [1000 * slip.seconds for slip in measured]
        cpu = [1000 * slip.cpu for slip in measured]
        print(
            f"{label}: {len(ms)} slips, median {statistics.median(ms):.1f} ms, "
            f"p95 {percentile(ms, 0.95):.1f} ms (CPU median "
            f"{statistics.median(cpu):.1f} ms, p95 {percentile(cpu, 0.95):.1f} ms); "
            + "; ".join(
                f"{what} median {statistics.median(values):g} "
                f"(min {min(values)}, max {max(values)})"
                for what, values in (
                    ("queries", [slip.queries for slip in measured]),
                    ("tournament_state calls", [slip.loads for slip in measured]),
                    ("store states", [slip.states for slip in measured]),
                )
            )
        )
        if options.queries:
            for sql in measured[-1].sql:
                print("   ", " ".join(sql.split())[:150])
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(options.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
