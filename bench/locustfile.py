"""Load for the HTTP benchmark: 50 readers and 5 directors entering results.

Started by bench/run.py with BENCH_PLAN pointing at a JSON file: the tournament id,
divisions, players, game ids, an API token and the pairings still to be scored; and
BENCH_MIX: "api" (readers of the JSON API) or "pages" (of the HTML pages).
"""

from __future__ import annotations

import json
import os
import random

from locust import FastHttpUser, between, task

with open(os.environ["BENCH_PLAN"], encoding="utf-8") as plan_file:
    PLAN = json.load(plan_file)
PENDING = list(PLAN["pending"])  # shared by the writers (one process, gevent)
MIX = os.environ.get("BENCH_MIX", "api")  # which readers: "api" or "pages"
TID = PLAN["tournament_id"]


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

    fixed_count = 5
    wait_time = between(0.05, 0.2)

    @task
    def enter_result(self) -> None:
        if not PENDING:
            return
        pairing = PENDING.pop()
        self.client.post(
            f"/api/tournaments/{TID}/results",
            json=pairing,
            headers={"Authorization": f"Token {PLAN['token']}"},
            name="enter result",
        )
