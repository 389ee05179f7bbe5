"""Load for the HTTP benchmark: 50 readers and 5 directors entering results.

Started by bench/run.py with BENCH_PLAN pointing at a JSON file: the tournament id,
divisions, players, game ids, an API token and the pairings still to be scored; and
BENCH_MIX: "api" (readers of the JSON API) or "pages" (of the HTML pages).
BENCH_DIRECTORS and BENCH_DIRECTOR_WAIT (seconds between two results of one
director) change the directors (5, 0.05-0.2 s); BENCH_ACKED_OUT names a file that
gets every result the server acknowledged (201), to be looked for afterwards.
"""

from __future__ import annotations

import json
import os
import random

from locust import FastHttpUser, between, events, task

with open(os.environ["BENCH_PLAN"], encoding="utf-8") as plan_file:
    PLAN = json.load(plan_file)
PENDING = list(PLAN["pending"])  # shared by the writers (one process, gevent)
MIX = os.environ.get("BENCH_MIX", "api")  # which readers: "api" or "pages"
TID = PLAN["tournament_id"]

# Every read's response time, for the reads' own percentiles: locust's "Aggregated"
# row counts the directors' result entries too, and the target is for reads. Kept
# whole (tens of thousands of floats) so the percentiles are exact.
READ_TIMES: list[float] = []
READ_FAILURES = [0]
ACKED: list[dict] = []  # results the server answered 201
DIRECTORS = int(os.environ.get("BENCH_DIRECTORS", "5"))
DIRECTOR_WAIT = float(os.environ.get("BENCH_DIRECTOR_WAIT", "0"))


@events.request.add_listener
def _note_read(request_type: str, response_time: float, exception, **_) -> None:
    if request_type == "GET":
        READ_TIMES.append(response_time)
        if exception is not None:
            READ_FAILURES[0] += 1


@events.quitting.add_listener
def _write_acked(**_) -> None:
    path = os.environ.get("BENCH_ACKED_OUT")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(ACKED, out)


@events.quitting.add_listener
def _write_reads(**_) -> None:
    path = os.environ.get("BENCH_READS_OUT")
    if not path:
        return
    times = sorted(READ_TIMES)

    def percentile(fraction: float) -> float:
        # As bench/run.py's percentile() (this file is loaded by locust alone).
        return times[min(len(times) - 1, max(0, round(fraction * (len(times) - 1))))]

    with open(path, "w", encoding="utf-8") as out:
        json.dump(
            {
                "requests": len(times),
                "failures": READ_FAILURES[0],
                "p50_ms": percentile(0.50) if times else None,
                "p95_ms": percentile(0.95) if times else None,
                "p99_ms": percentile(0.99) if times else None,
            },
            out,
        )


class ApiReader(FastHttpUser):
    """An app reloading standings, scorecards and games through the JSON API."""

    abstract = MIX != "api"  # locust runs only the concrete reader class
    fixed_count = 50
    wait_time = between(0.05, 0.2)

    @task(4)
    def standings(self) -> None:
        division = random.choice(PLAN["divisions"])
        self.client.get(
            f"/api/tournaments/{TID}/standings?division={division}",
            name="standings",
        )

    @task(2)
    def scorecard(self) -> None:
        player = random.choice(PLAN["players"])
        self.client.get(
            f"/api/tournaments/{TID}/players/{player}/scorecard", name="scorecard"
        )

    @task(3)
    def game(self) -> None:
        game = random.choice(PLAN["games"])
        self.client.get(f"/api/games/{game}/", name="game")


class PageReader(FastHttpUser):
    """A player's browser reloading the same as HTML pages."""

    abstract = MIX != "pages"
    fixed_count = 50
    wait_time = between(0.05, 0.2)

    @task(4)
    def standings(self) -> None:
        division = random.choice(PLAN["divisions"])
        self.client.get(
            f"/tournaments/{TID}/divisions/{division}/standings/", name="standings"
        )

    @task(2)
    def scorecard(self) -> None:
        player = random.choice(PLAN["players"])
        self.client.get(f"/tournaments/{TID}/players/{player}/", name="scorecard")

    @task(3)
    def game(self) -> None:
        game = random.choice(PLAN["games"])
        self.client.get(f"/games/{game}/", name="game")


class Director(FastHttpUser):
    """A director typing in results from score slips."""

    fixed_count = DIRECTORS
    wait_time = (
        between(0.05, 0.2)
        if not DIRECTOR_WAIT
        else between(0.8 * DIRECTOR_WAIT, 1.2 * DIRECTOR_WAIT)
    )

    @task
    def enter_result(self) -> None:
        if not PENDING:
            return
        pairing = PENDING.pop()
        response = self.client.post(
            f"/api/tournaments/{TID}/results",
            json=pairing,
            headers={"Authorization": f"Token {PLAN['token']}"},
            name="enter result",
        )
        if response.status_code == 201:
            ACKED.append(pairing)
