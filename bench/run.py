"""Benchmark a whole tournament, from a seed, against the alternatives.

    python bench/run.py --scale small|club|national [--seed N] [--skip-http]

Runs on a throwaway embedded PostgreSQL (or ``--database-url``, where it creates and
drops its own databases) and measures, in one run:

1. append: events per second through our store (rules validation and projections
   included), and the same events through the ``eventsourcing`` library's PostgreSQL
   recorders on the same server; the keyed chain (HMAC) against a plain sha256
   chain, interleaved in the same run; ``verify_events`` over the whole log;
2. replay: rebuilding every projection from the whole log (a subprocess, so its peak
   RSS is its own) against merely reading the same rows with one psycopg server-side
   cursor;
3. rules: events per second replayed in pure Python;
4. standings after a new result, with the whole log present (warm and cold cache);
5. HTTP under load: gunicorn (production settings) and locust (50 readers, 5
   directors entering results) on loopback, twice: readers of the JSON API, then of
   the HTML pages (each phase enters half the results); every result checked
   afterwards;
6. bulk ingest (bench/ingest.py): the same games again as new streams through the
   bulk path, and GCG files through ``import_gcg``'s bulk path, each against the
   ``eventsourcing`` recorders on the same events (last: it adds to the log).

Prints a table and writes bench/results-<scale>.json. Games are simulated move by
move with real words (games.simulate); at national scale a pool of distinct games is
simulated and dealt to the pairings (the events are real games, repeated).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import platform
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@dataclass(frozen=True)
class Scale:
    divisions: int
    players: int  # per division
    rounds: int
    pool: int  # distinct simulated games
    http_seconds: int
    gcg_files: int  # files for the bulk import_gcg stage


SCALES = {
    "small": Scale(
        divisions=1, players=10, rounds=5, pool=10, http_seconds=15, gcg_files=60
    ),
    "club": Scale(
        divisions=2, players=16, rounds=7, pool=40, http_seconds=20, gcg_files=1000
    ),
    # The live feed's load (--servers): results left to enter in every phase, at
    # a director's pace, for 60 s.
    "load": Scale(
        divisions=4, players=64, rounds=8, pool=60, http_seconds=60, gcg_files=100
    ),
    "national": Scale(
        divisions=4,
        players=125,
        rounds=31,
        pool=240,
        http_seconds=30,
        gcg_files=10_000,
    ),
}


def _setup_django(database_url: str | None) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # Production-like settings: DEBUG on would keep every query in memory.
    os.environ["DEBUG"] = "0"
    # Fixed keys (bench/keys.py): a rerun against a kept database needs the keys
    # that wrote it.
    from bench.keys import use_bench_keys

    use_bench_keys()
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["EMBEDDED_PG_TEMP"] = "1"
    import django

    django.setup()


# What services.result_record takes from a pending result (besides the round).
RESULT_FIELDS = (
    "player_a",
    "player_b",
    "score_a",
    "score_b",
    "pre_adjustment_a",
    "pre_adjustment_b",
    "game_id",
)
# Fresh processes entering one result each, per variant (kept state, replay).
FRESH_WORKER_PAIRS = 3


def _simulate(seed: int, index: int) -> list[tuple[str, int, dict[str, Any]]]:
    """One pooled game, encoded (runs in a worker process)."""
    _setup_worker()
    from games.eventstore.codec import Codec
    from games.simulate import english_word_graph, simulate_game
    from rules import events as ev
    from rules.ruleset import ruleset

    codec = Codec()
    codec.register_all(ev.EVENT_TYPES)
    game = simulate_game(
        ("First", "Second"),
        ruleset("classic"),
        english_word_graph(),
        random.Random(f"{seed}-{index}"),
    )
    return [codec.encode(event) for event in game.events]


def _setup_worker() -> None:
    sys.path.insert(0, str(ROOT))


def simulate_pool(seed: int, size: int) -> list[list[tuple[str, int, dict]]]:
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(_simulate, [seed] * size, range(size)))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


class Bench:
    def __init__(
        self, scale_name: str, seed: int, skip_http: bool, skip: Sequence[str] = ()
    ) -> None:
        self.scale_name = scale_name
        self.scale = SCALES[scale_name]
        self.seed = seed
        self.skip_http = skip_http
        self.skip = {*skip, *(["http"] if skip_http else [])}
        # CI's run (--ci): each stage once and short, to prove it runs.
        self.ci = False
        self.results: dict[str, Any] = {
            "scale": scale_name,
            "seed": seed,
            "machine": {
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                "platform": platform.platform(),
                "processor": platform.processor() or platform.machine(),
            },
        }

    # --- set-up --------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        settings = connection.settings_dict
        self.results["postgres"] = connection.cursor().connection.info.server_version
        self.conninfo = {
            "dbname": settings["NAME"],
            "host": settings["HOST"],
            "port": settings["PORT"] or 5432,
            "user": settings["USER"],
            "password": settings["PASSWORD"],
        }
        started = time.perf_counter()
        self.pool = simulate_pool(self.seed, self.scale.pool)
        self.results["pool"] = {
            "games": len(self.pool),
            "events_per_game": statistics.mean(len(g) for g in self.pool),
            "seconds": time.perf_counter() - started,
        }
        print(f"simulated {len(self.pool)} distinct games", flush=True)
        self.build_tournament()
        # The append stage's anchors right after it, not minutes apart.
        if not getattr(self, "skip_eventsourcing", False):
            self.bench_eventsourcing()
            if "append" not in self.skip:
                self.bench_append_interleaved()
        for name, stage in (
            ("chain", self.bench_chain),
            ("verify", self.bench_verify),
            ("rules", self.bench_rules),
            ("amend_impact", self.bench_amend_impact),
            ("standings", self.bench_standings_after_result),
            ("replay", self.bench_replay),
            ("http", self.bench_http),
            ("pages", self.bench_pages),
            ("bulk", self.bench_bulk),
        ):
            if name not in self.skip:
                stage()
        return self.results

    def bench_pages(self) -> None:
        from bench.pages_bench import bench_pages

        bench_pages(self)

    def build_tournament(self) -> None:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        from games.eventstore.codec import Codec
        from games.eventstore.store import append
        from games.eventstore.streams import NewEvent, StreamKey
        from rules import events as ev
        from tournaments.pairing import selectors
        from tournaments.pairing import services as pairing_services
        from tournaments.players import services as players_services
        from tournaments.results import services as results_services
        from tournaments.setup import services as setup_services

        # Staff: by default only staff accounts may create tournaments.
        user = get_user_model().objects.create_user("bench-director", is_staff=True)
        self.user = user
        self.token = Token.objects.create(user=user).key
        scale = self.scale
        divisions = [chr(ord("A") + i) for i in range(scale.divisions)]
        created = setup_services.tournament_create(
            user=user,
            name=f"Benchmark {self.scale_name}",
            start_date="2026-07-01",
            end_date="2026-07-05",
            rounds=scale.rounds,
            preset="naspa",
            divisions=divisions,
        )
        tid = created.stream.id
        self.tid = tid
        rng = random.Random(self.seed)
        for division in divisions:
            players_services.players_register(
                tournament_id=tid,
                division=division,
                entries=[
                    (f"Player {division}{n:03d}", 2100 - 8 * n + rng.randrange(40), "")
                    for n in range(1, scale.players + 1)
                ],
                user=user,
            )
        codec = Codec()
        codec.register_all(ev.EVENT_TYPES)
        decoded_pool = [
            [codec.decode(name, version, payload) for name, version, payload in game]
            for game in self.pool
        ]
        game_seconds = 0.0
        game_events = 0
        result_seconds = 0.0
        results = 0
        self.game_ids: list[str] = []
        self.picks: list[int] = []  # the pooled game dealt to each board, in order
        # Each board's events as appended (its start naming the players), context
        # and players: the bulk stage writes them again.
        self.dealt: list[tuple[list[Any], dict[str, Any], tuple[str, str]]] = []
        self.pending: list[dict[str, Any]] = []
        last = scale.rounds
        for round_ in range(1, last + 1):
            for division in divisions:
                pairing_services.round_pair(
                    tournament_id=tid,
                    division=division,
                    round_=round_,
                    method="swiss",
                    user=user,
                )
                boards = [
                    board
                    for board in selectors.round_boards(tid, division, round_)
                    if board.second is not None
                ]
                for pairing in boards:
                    first_id = pairing.first.player_id
                    second_id = pairing.second.player_id
                    pick = rng.randrange(len(decoded_pool))
                    self.picks.append(pick)
                    events = decoded_pool[pick]
                    start = events[0]
                    start = ev.GameStarted(
                        players=(first_id, second_id),
                        ruleset=start.ruleset,
                        tile_set=start.tile_set,
                        lexicon=start.lexicon,
                    )
                    context = {
                        "tournament_id": str(tid),
                        "division": division,
                        "round": round_,
                        "board": pairing.board,
                        "player_ids": [first_id, second_id],
                        "owner_id": user.pk,
                    }
                    game_id = uuid.uuid4()
                    self.dealt.append(
                        ([start, *events[1:]], context, (first_id, second_id))
                    )
                    t0 = time.perf_counter()
                    appended = append(
                        StreamKey("game", game_id),
                        [NewEvent(start, context), *events[1:]],
                        expected_version=0,
                        recorded_by=user,
                    )
                    game_seconds += time.perf_counter() - t0
                    game_events += len(events)
                    self.game_ids.append(str(game_id))
                    state = appended.state.state
                    before = state.scores_before_adjustments or state.scores
                    result = {
                        "round": round_,
                        "player_a": first_id,
                        "player_b": second_id,
                        "score_a": state.scores[0],
                        "score_b": state.scores[1],
                        "pre_adjustment_a": before[0],
                        "pre_adjustment_b": before[1],
                        "game_id": str(game_id),
                    }
                    if round_ == last:
                        self.pending.append(result)
                        continue
                    t0 = time.perf_counter()
                    results_services.result_record(
                        tournament_id=tid,
                        round_=round_,
                        player_a=result["player_a"],
                        player_b=result["player_b"],
                        score_a=result["score_a"],
                        score_b=result["score_b"],
                        pre_adjustment_a=result["pre_adjustment_a"],
                        pre_adjustment_b=result["pre_adjustment_b"],
                        game_id=result["game_id"],
                        user=user,
                    )
                    result_seconds += time.perf_counter() - t0
                    results += 1
            print(f"round {round_}/{last} recorded", flush=True)
        self.game_events = game_events
        self.results["append"] = {
            "games": len(self.game_ids),
            "game_events": game_events,
            "game_append_seconds": game_seconds,
            "events_per_second": game_events / game_seconds,
            "results": results,
            "result_append_ms_mean": 1000 * result_seconds / max(results, 1),
        }

    # --- the keyed chain against a plain one --------------------------------

    def bench_chain(self, rounds: int | None = None) -> None:
        """Appends chained with the HMAC (as the store does) against the same appends
        chained with a plain sha256 over the same content (the baseline), in the
        same run, interleaved: whole games (one append each) and single notes (one
        event an append). Every append is rolled back, so neither side's figure
        includes the commit, and the log is left as it was."""
        import hashlib

        from django.db import transaction

        from games.eventstore import store
        from games.eventstore.codec import Codec
        from games.eventstore.streams import NewEvent, StreamKey
        from rules import events as ev

        class PlainKey:
            def link(self, previous: str, content: str) -> str:
                return hashlib.sha256(f"{previous}\n{content}".encode()).hexdigest()

            # The heads' and the feed's codes (games.eventstore.chain), plain too.
            def mac(self, data: bytes) -> str:
                return hashlib.sha256(data).hexdigest()

        class Rollback(Exception):
            pass

        codec = Codec()
        codec.register_all(ev.EVENT_TYPES)
        games = [
            [codec.decode(name, version, payload) for name, version, payload in game]
            for game in self.pool[:100]
        ]
        context = {"owner_id": self.user.pk}
        note_game = StreamKey("game", uuid.uuid4())
        placed = store.append(
            note_game,
            [NewEvent(games[0][0], context), *games[0][1:]],
            expected_version=0,
            recorded_by=self.user,
        )
        target = next(
            recorded.version
            for recorded in placed.recorded
            if isinstance(recorded.event, ev.TilesPlaced)
        )

        def rolled_back(call: Any) -> None:
            try:
                with transaction.atomic():
                    call()
                    raise Rollback
            except Rollback:
                pass

        def whole_games() -> float:
            events, t0 = 0, time.perf_counter()
            for game in games:
                rolled_back(
                    lambda game=game: store.append(
                        StreamKey("game", uuid.uuid4()),
                        [NewEvent(game[0], context), *game[1:]],
                        expected_version=0,
                        recorded_by=self.user,
                    )
                )
                events += len(game)
            return events / (time.perf_counter() - t0)

        def single_notes(count: int = 100 if self.ci else 500) -> float:
            # The game noted is appended under this side's key (a head's code is
            # checked under the key at each append), in a transaction rolled back
            # afterwards; each note in a savepoint rolled back, on both sides.
            note = ev.NoteAdded(target_version=target, text="a note")
            rate = 0.0
            with contextlib.suppress(Rollback), transaction.atomic():
                noted = StreamKey("game", uuid.uuid4())
                base = store.append(
                    noted,
                    [NewEvent(games[0][0], context), *games[0][1:]],
                    expected_version=0,
                    recorded_by=self.user,
                )
                t0 = time.perf_counter()
                for _ in range(count):
                    rolled_back(
                        lambda: store.append(
                            noted,
                            [note],
                            expected_version=base.version,
                            recorded_by=self.user,
                        )
                    )
                rate = count / (time.perf_counter() - t0)
                raise Rollback
            return rate

        keyed = store.log_key
        figures: dict[str, list[float]] = {
            "keyed_games": [],
            "plain_games": [],
            "keyed_notes": [],
            "plain_notes": [],
        }
        try:
            rounds = rounds or (1 if self.ci else 3)
            for _ in range(rounds):
                for side in ("keyed", "plain"):
                    store.log_key = keyed if side == "keyed" else PlainKey
                    figures[f"{side}_games"].append(whole_games())
                    figures[f"{side}_notes"].append(single_notes())
        finally:
            store.log_key = keyed
        best = {name: max(values) for name, values in figures.items()}
        self.results["chain"] = {
            "rounds": rounds,
            "games": len(games),
            **{f"{name}_per_second": value for name, value in best.items()},
            "games_ratio": best["keyed_games"] / best["plain_games"],
            "notes_ratio": best["keyed_notes"] / best["plain_notes"],
            "all": figures,
        }

    # --- verify_events -------------------------------------------------------

    def bench_verify(self) -> None:
        """verify_events over the whole log: the chains and heads alone, then with
        every projection compared with a replay (the command's default)."""
        import io

        from django.core.management import call_command

        timings = {}
        for label, options in (("chains", ["--skip-contents"]), ("full", [])):
            out, err = io.StringIO(), io.StringIO()
            t0 = time.perf_counter()
            call_command("verify_events", *options, stdout=out, stderr=err)
            timings[f"{label}_seconds"] = time.perf_counter() - t0
            if err.getvalue():
                raise RuntimeError(f"verify_events reported:\n{err.getvalue()}")
        from games.eventstore.models import StoredEvent

        self.results["verify"] = {"events": StoredEvent.objects.count(), **timings}

    # --- eventsourcing ------------------------------------------------------

    def bench_eventsourcing(self) -> None:
        """The recorders on the very events the append stage appended."""
        from bench import ingest
        from games.eventstore.codec import Codec
        from rules import events as ev

        codec = Codec()
        codec.register_all(ev.EVENT_TYPES)
        games = [
            [(name, payload) for name, _, payload in map(codec.encode, events)]
            for events, _, _ in self.dealt
        ]
        figures = ingest.recorder_rates(self.conninfo, games)
        ours = self.results["append"]["events_per_second"]
        for figure in figures.values():
            figure["ours_ratio"] = ours / figure["events_per_second"]
        self.results["eventsourcing"] = figures
        print("eventsourcing comparison done", flush=True)

    def bench_append_interleaved(self, games: int = 40) -> None:
        """Whole-game appends against the application recorder, alternating
        rounds (bench/append_bench.py)."""
        from bench import append_bench

        dealt = [(events, context) for events, context, _ in self.dealt[:games]]
        self.results["append_interleaved"] = append_bench.interleaved(
            dealt, self.user, self.conninfo
        )
        print("interleaved append done", flush=True)

    # --- bulk ingest --------------------------------------------------------

    def bench_bulk(self) -> None:
        from bench import ingest
        from games.eventstore.codec import Codec
        from rules import events as ev

        self.results["bulk_games"] = ingest.bench_bulk_games(
            self.dealt, self.user.pk, self.conninfo
        )
        print("bulk games done", flush=True)
        codec = Codec()
        codec.register_all(ev.EVENT_TYPES)
        decoded = [[codec.decode(*event) for event in game] for game in self.pool]
        self.results["bulk_gcg"] = ingest.bench_bulk_gcg(
            decoded, self.scale.gcg_files, self.seed, self.user, self.conninfo
        )
        print("bulk GCG done", flush=True)

    # --- rules --------------------------------------------------------------

    def bench_rules(self) -> None:
        from games.eventstore.codec import Codec
        from rules import events as ev
        from rules.state import replay

        codec = Codec()
        codec.register_all(ev.EVENT_TYPES)
        games = [
            [codec.decode(name, version, payload) for name, version, payload in game]
            for game in self.pool
        ]
        events = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 3:
            for game in games:
                replay(game)
                events += len(game)
        seconds = time.perf_counter() - t0
        self.results["rules"] = {
            "events": events,
            "seconds": seconds,
            "events_per_second": events / seconds,
        }

    def bench_amend_impact(self) -> None:
        """An amendment's preview against a replay (bench/amend_impact_bench.py)."""
        from bench import amend_impact_bench

        scale = (
            self.scale_name if self.scale_name in amend_impact_bench.SCALES else "club"
        )
        self.results["amend_impact"] = amend_impact_bench.measure(scale, repeats=3)

    # --- standings after a result -------------------------------------------

    def bench_standings_after_result(self) -> None:
        from games.eventstore.cache import state_cache
        from games.eventstore.store import current_version
        from tournaments.core import aggregate
        from tournaments.models import PlayerRound
        from tournaments.results import services as results_services

        sample = self.pending[: min(40, len(self.pending) // 2)]
        del self.pending[: len(sample)]
        timings = []

        def record(result: dict[str, Any]) -> float:
            t0 = time.perf_counter()
            results_services.result_record(
                tournament_id=self.tid,
                round_=result["round"],
                player_a=result["player_a"],
                player_b=result["player_b"],
                score_a=result["score_a"],
                score_b=result["score_b"],
                pre_adjustment_a=result["pre_adjustment_a"],
                pre_adjustment_b=result["pre_adjustment_b"],
                game_id=result["game_id"],
                user=self.user,
            )
            # The standings a reader sees next are the projection's rows.
            PlayerRound.objects.filter(
                tournament_id=self.tid, round=result["round"]
            ).count()
            return 1000 * (time.perf_counter() - t0)

        cold = None
        for index, result in enumerate(sample):
            if index == 0:
                state_cache.clear()
                cold = record(result)
                continue
            timings.append(record(result))
        warm_p50 = percentile(timings, 0.5)
        self.results["standings_after_result"] = {
            "results": len(timings),
            "warm_ms_p50": warm_p50,
            "warm_ms_p95": percentile(timings, 0.95),
            "warm_ms_max": max(timings) if timings else None,
            "cold_ms": cold,
            "events_in_tournament": current_version(
                aggregate.tournament_stream(self.tid)
            ),
            **self._fresh_workers(warm_p50),
            **self._directors_at_once(warm_p50),
        }
        print("standings-after-result done", flush=True)

    def _directors_at_once(self, warm_p50: float) -> dict[str, Any]:
        """Five directors' threads entering results at once in one process, no
        readers: what queueing on the tournament costs a result."""
        import threading

        from django.db import connections

        from tournaments.results import services as results_services

        sample = [self.pending.pop() for _ in range(min(25, len(self.pending) // 4))]
        if len(sample) < 5:
            self.pending.extend(sample)
            return {}
        timings: list[float] = []

        def director(results: list[dict[str, Any]]) -> None:
            try:
                for result in results:
                    t0 = time.perf_counter()
                    results_services.result_record(
                        tournament_id=self.tid,
                        **{key: result[key] for key in RESULT_FIELDS},
                        round_=result["round"],
                        user=self.user,
                    )
                    timings.append(1000 * (time.perf_counter() - t0))
            finally:
                connections.close_all()

        threads = [
            threading.Thread(target=director, args=(sample[n::5],)) for n in range(5)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        p95 = percentile(timings, 0.95)
        return {
            "five_directors_results": len(timings),
            "five_directors_ms_p50": percentile(timings, 0.5),
            "five_directors_ms_p95": p95,
            "five_directors_p95_to_warm_ratio": p95 / warm_p50,
        }

    def _fresh_workers(self, warm_p50: float) -> dict[str, Any]:
        """A result entered by a process that has just started (bench/cold_result):
        from the tournament's kept state, and replaying the whole tournament (the
        anchor), interleaved, median of each."""
        from games.eventstore.models import KeptState

        kept = KeptState.objects.filter(stream_id=self.tid).first()
        runs: dict[str, list[float]] = {"kept_state": [], "replay": []}
        # Leave most of the results to the HTTP stage (a small run has few).
        pairs = min(1 if self.ci else FRESH_WORKER_PAIRS, len(self.pending) // 8)
        if not pairs:
            return {}
        for _ in range(pairs):
            for label in runs:
                if not self.pending:
                    break
                result = {
                    **self.pending.pop(),
                    "tournament_id": str(self.tid),
                    "username": self.user.username,
                }
                args = [sys.executable, "bench/cold_result.py", json.dumps(result)]
                if label == "replay":
                    args.append("--replay")
                _, _, out = self._run_child(args)
                runs[label].append(float(out.split()[-1]))
        fresh = statistics.median(runs["kept_state"])
        replay = statistics.median(runs["replay"])
        return {
            "fresh_worker_ms": fresh,
            "fresh_worker_replay_ms": replay,
            "fresh_worker_runs": runs,
            "fresh_to_warm_ratio": fresh / warm_p50,
            "fresh_to_replay_ratio": fresh / replay,
            "kept_state_version": kept.version if kept else None,
            "kept_state_bytes": len(kept.state) if kept else None,
        }

    # --- replay -------------------------------------------------------------

    def _child_env(self) -> dict[str, str]:
        from django.db import connection

        settings = connection.settings_dict
        env = dict(os.environ)
        env.pop("EMBEDDED_PG_TEMP", None)
        env["DATABASE_URL"] = (
            f"postgresql://{settings['USER']}:{settings['PASSWORD']}@/"
            f"{settings['NAME']}?host={settings['HOST']}"
        )
        return env

    def _run_child(self, args: list[str]) -> tuple[float, float, str]:
        """Run a child process; return (seconds, peak RSS MB, stdout)."""
        t0 = time.perf_counter()
        process = subprocess.Popen(
            args,
            cwd=ROOT,
            env=self._child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        out, _ = process.communicate()
        seconds = time.perf_counter() - t0
        if process.returncode != 0:
            raise RuntimeError(f"{args} failed:\n{out}")
        # The largest peak among the children so far: the rebuild's (the raw read
        # child holds one batch of rows at a time).
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return seconds, usage.ru_maxrss / 1024, out

    def bench_replay(self) -> None:
        import psycopg

        python = sys.executable
        raw_script = (
            "import os, psycopg, time\n"
            "conn = psycopg.connect(os.environ['DATABASE_URL'])\n"
            "t0 = time.perf_counter()\n"
            "rows = 0\n"
            "with conn.transaction():\n"
            "    with conn.cursor(name='raw') as cur:\n"
            "        cur.itersize = 5000\n"
            "        cur.execute('SELECT * FROM event_log"
            " ORDER BY stream_type, stream_id, version')\n"
            "        for row in cur:\n"
            "            rows += 1\n"
            "print(rows, time.perf_counter() - t0)\n"
        )
        # Both start from a vacuumed log: the first read of freshly written rows
        # also sets their hint bits, which would slow whichever ran first.
        with psycopg.connect(**self.conninfo, autocommit=True) as admin:
            admin.execute("VACUUM (ANALYZE) event_log")
        raw_runs, rebuild_runs, rebuild_process_runs = [], [], []
        rows = 0
        rss_mb = 0.0
        # Two runs of each, interleaved, best kept: this machine's timings vary
        # by 10-20% from run to run (both runs are in the JSON).
        for _ in range(2):
            _, _, raw_out = self._run_child([python, "-c", raw_script])
            rows_text, raw_seconds = raw_out.split()[-2:]
            rows = int(rows_text)
            raw_runs.append(float(raw_seconds))
            process_seconds, rss_mb, rebuild_out = self._run_child(
                [
                    python,
                    "manage.py",
                    "rebuild_projections",
                    "--jobs",
                    "2",
                    "--verbosity",
                    "0",
                ]
            )
            inner = [
                line
                for line in rebuild_out.splitlines()
                if "events replayed in" in line
            ]
            rebuild_runs.append(
                float(inner[-1].split(" in ")[1].split()[0])
                if inner
                else process_seconds
            )
            rebuild_process_runs.append(process_seconds)
        self.results["replay"] = {
            "events": rows,
            "raw_read_seconds": min(raw_runs),
            "rebuild_seconds": min(rebuild_runs),
            "raw_read_runs": raw_runs,
            "rebuild_runs": rebuild_runs,
            "rebuild_process_runs": rebuild_process_runs,
            "ratio_to_raw_read": min(rebuild_runs) / min(raw_runs),
            "rebuild_peak_rss_mb": rss_mb,
        }
        print("replay done", flush=True)

    # --- HTTP ---------------------------------------------------------------

    def http_plan(self) -> dict[str, Any]:
        """What the load generator needs: ids, a token and the results to enter."""
        from tournaments.models import Player

        players = Player.objects.filter(tournament_id=self.tid)
        return {
            "tournament_id": str(self.tid),
            "divisions": sorted(set(players.values_list("division", flat=True))),
            "players": list(players.values_list("player_id", flat=True)),
            "games": self.game_ids,
            "token": self.token,
            "pending": self.pending,
        }

    def bench_http(self) -> None:
        from tournaments.models import PlayerRound

        port = 8765
        env = self._child_env()
        env.update(
            DEBUG="0",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            SECURE_SSL_REDIRECT="0",
        )
        gunicorn = self._gunicorn(port, env)
        phases: dict[str, dict[str, Any]] = {}
        try:
            self._wait_for(port)
            # One worker answered; let the others finish replaying the tournament
            # (config/gunicorn.conf.py warms each before it takes requests), so
            # the load starts on a server in its steady state.
            time.sleep(3)
            plan = self.http_plan()
            # Two phases, each entering half the results: readers of the JSON API
            # (an app), then of the HTML pages (a phone's browser).
            half = len(self.pending) // 2
            for mix, pending in (
                ("api", self.pending[:half]),
                ("pages", self.pending[half:]),
            ):
                phases[mix] = self._locust(port, {**plan, "pending": pending}, mix)
        finally:
            gunicorn.send_signal(signal.SIGTERM)
            gunicorn.wait(timeout=30)
        last_round = self.scale.rounds
        recorded = set(
            PlayerRound.objects.filter(
                tournament_id=self.tid,
                round=last_round,
                kind="game",
                went_first=True,
                has_result=True,
            ).values_list("player_id", "opponent_id")
        )
        for mix, pending in (
            ("api", self.pending[:half]),
            ("pages", self.pending[half:]),
        ):
            expected = {(r["player_a"], r["player_b"]) for r in pending}
            phases[mix]["results_to_enter"] = len(expected)
            phases[mix]["results_missing_afterwards"] = len(expected - recorded)
        self.results["http"] = phases["api"]
        self.results["http_pages"] = phases["pages"]
        print("http done", flush=True)

    def _gunicorn(
        self, port: int, env: dict[str, str], worker: str = "asgi"
    ) -> subprocess.Popen[bytes]:
        """gunicorn with config/gunicorn.conf.py: its ASGI worker (production), or
        ``gthread`` with config.wsgi (the threaded server before, the anchor)."""
        extra = (
            ["--worker-class", "gthread", "config.wsgi"] if worker == "gthread" else []
        )
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--config",
                str(ROOT / "config" / "gunicorn.conf.py"),
                "--bind",
                f"127.0.0.1:{port}",
                "--log-level",
                "warning",
                *extra,
            ],
            cwd=ROOT,
            env=env,
        )

    def bench_servers(self, feeds: int = 64, directors: int = 2) -> None:
        """The live feed's load: for gunicorn's gthread worker (before, the
        anchor) and its ASGI worker (now), in the same run, on a fresh server
        each: 50 readers of the HTML pages and `directors` directors entering
        results for the scale's seconds, then the same while `feeds` feed
        connections never read. Every acknowledged result is looked for
        afterwards."""
        from tournaments.models import PlayerRound

        env = self._child_env()
        env.update(
            DEBUG="0", ALLOWED_HOSTS="127.0.0.1,localhost", SECURE_SSL_REDIRECT="0"
        )
        plan = self.http_plan()
        phases = [
            (worker, count) for worker in ("gthread", "asgi") for count in (0, feeds)
        ]
        share = len(self.pending) // len(phases)
        # Each director enters its share over the whole phase, as at a venue.
        wait = self.scale.http_seconds * directors / max(share, 1)
        out: dict[str, Any] = {"feeds": feeds, "directors": directors}
        acked_all: list[dict[str, Any]] = []
        for index, (worker, count) in enumerate(phases):
            port = 8770 + index
            server = self._gunicorn(port, env, worker)
            try:
                self._wait_for(port)
                time.sleep(3)  # the other worker's warm-up
                pending = self.pending[index * share : (index + 1) * share]
                with NeverReading(port, f"/api/tournaments/{self.tid}/feed", count):
                    load_before = os.getloadavg()
                    stats = self._locust(
                        port,
                        {**plan, "pending": pending},
                        "pages",
                        directors=directors,
                        director_wait=wait,
                    )
                    stats["load_after"] = os.getloadavg()
                    stats["load_before"] = load_before
            finally:
                server.send_signal(signal.SIGTERM)
                try:
                    server.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()
            stats["results_offered"] = len(pending)
            acked_all += stats.get("acked", [])
            out[f"{worker}_{count}_feeds"] = stats
            print(f"servers: {worker} with {count} feeds done", flush=True)
        recorded = set(
            PlayerRound.objects.filter(
                tournament_id=self.tid,
                round=self.scale.rounds,
                kind="game",
                went_first=True,
                has_result=True,
            ).values_list("player_id", "opponent_id")
        )
        for _key, stats in out.items():
            if isinstance(stats, dict):
                acked = {(r["player_a"], r["player_b"]) for r in stats.pop("acked", [])}
                stats["results_acknowledged"] = len(acked)
                stats["acknowledged_lost"] = len(acked - recorded)
        base, new = out["gthread_0_feeds"]["reads"], out["asgi_0_feeds"]["reads"]
        out["asgi_to_gthread_rps"] = new["rps"] / base["rps"]
        out["asgi_to_gthread_p95"] = new["p95_ms"] / base["p95_ms"]
        self.results["servers"] = out

    def _locust(
        self,
        port: int,
        plan: dict[str, Any],
        mix: str,
        *,
        directors: int = 5,
        director_wait: float = 0.0,
    ) -> dict[str, Any]:
        """One headless locust run of the given reader mix; its stats."""
        with tempfile.TemporaryDirectory() as folder:
            plan_path = Path(folder) / "plan.json"
            plan_path.write_text(json.dumps(plan))
            prefix = Path(folder) / "locust"
            reads_path = Path(folder) / "reads.json"
            acked_path = Path(folder) / "acked.json"
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "locust",
                    "-f",
                    str(ROOT / "bench" / "locustfile.py"),
                    "--headless",
                    "--users",
                    str(50 + directors),
                    "--spawn-rate",
                    str(50 + directors),
                    "--run-time",
                    f"{self.scale.http_seconds}s",
                    "--host",
                    f"http://127.0.0.1:{port}",
                    "--csv",
                    str(prefix),
                    "--only-summary",
                    "--loglevel",
                    "WARNING",
                ],
                cwd=ROOT,
                env={
                    **os.environ,
                    "BENCH_PLAN": str(plan_path),
                    "BENCH_MIX": mix,
                    "BENCH_READS_OUT": str(reads_path),
                    "BENCH_ACKED_OUT": str(acked_path),
                    "BENCH_DIRECTORS": str(directors),
                    "BENCH_DIRECTOR_WAIT": str(director_wait),
                },
                check=False,
                timeout=self.scale.http_seconds + 120,
            )
            stats = self._read_locust(Path(f"{prefix}_stats.csv"))
            # Every read, without the result entries (the target is for reads).
            reads = json.loads(reads_path.read_text())
            reads["rps"] = reads["requests"] / self.scale.http_seconds
            stats["reads"] = reads
            if acked_path.exists():
                stats["acked"] = json.loads(acked_path.read_text())
            entry = stats.get("enter result")
            if entry and reads.get("p95_ms"):
                # The anchor of the same run: a director's result against a read.
                stats["entry_to_reads_p95_ratio"] = entry["p95_ms"] / reads["p95_ms"]
            return stats

    def _wait_for(self, port: int) -> None:
        import urllib.request

        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1)
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not start")

    def _read_locust(self, path: Path) -> dict[str, Any]:
        import csv

        rows = {row["Name"]: row for row in csv.DictReader(path.open())}
        out: dict[str, Any] = {}
        for name, row in rows.items():
            out[name] = {
                "requests": int(row["Request Count"]),
                "failures": int(row["Failure Count"]),
                "rps": float(row["Requests/s"]),
                "p50_ms": float(row["50%"]),
                "p95_ms": float(row["95%"]),
                "p99_ms": float(row["99%"]),
            }
        return out


class NeverReading:
    """`count` connections to a feed that never read a byte, kept open while the
    block runs: each is replaced by a fresh one every ``REPLACE_SECONDS`` (a
    client that comes back), so the server never runs out of them."""

    REPLACE_SECONDS = 20

    def __init__(self, port: int, path: str, count: int) -> None:
        import threading

        self.port, self.path, self.count = port, path, count
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.opened = 0

    def _open(self) -> Any:
        import socket

        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.sendall(
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        self.opened += 1
        return sock

    def _run(self) -> None:
        held: list[Any] = []
        try:
            while not self.stop.is_set():
                fresh = []
                for _ in range(self.count):
                    with contextlib.suppress(OSError):
                        fresh.append(self._open())
                for sock in held:
                    sock.close()
                held = fresh
                self.stop.wait(self.REPLACE_SECONDS)
        finally:
            for sock in held:
                sock.close()

    def __enter__(self) -> NeverReading:
        if self.count:
            self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        if self.count:
            self.thread.join(10)


def print_table(results: dict[str, Any]) -> None:
    lines: list[tuple[str, str]] = []
    if not results.get("http_only"):
        lines += _stage_lines(results)
    lines += _http_lines(results)
    from bench.pages_bench import page_lines

    lines += page_lines(results)
    width = max(len(label) for label, _ in lines)
    for label, value in lines:
        print(f"{label:<{width}}  {value}")


def _stage_lines(results: dict[str, Any]) -> list[tuple[str, str]]:
    append = results["append"]
    lines = [
        ("games / events appended", f"{append['games']} / {append['game_events']}"),
        ("append: ours (events/s)", f"{append['events_per_second']:,.0f}"),
    ]
    for label, figure in results.get("eventsourcing", {}).items():
        lines.append(
            (
                f"append: eventsourcing {label} (events/s)",
                f"{figure['events_per_second']:,.0f} "
                f"(ours {figure['ours_ratio']:.2f}x)",
            )
        )
    paired = results.get("append_interleaved")
    if paired:
        lines.append(
            (
                "append interleaved: ours / application recorder (events/s)",
                f"{paired['ours_events_per_second']:,.0f} / "
                f"{paired['anchor_events_per_second']:,.0f} "
                f"(median round {paired['ratio']:.2f}x, "
                f"best {paired['best_ratio']:.2f}x)",
            )
        )
    for stage, label in (("bulk_games", "games"), ("bulk_gcg", "GCG files")):
        bulk = results.get(stage)
        if not bulk:
            continue
        lines.append(
            (
                f"bulk {label}: ours (events/s)",
                f"{bulk['ours']['events_per_second']:,.0f} "
                f"(load {bulk['ours']['load_before'][0]:.1f})",
            )
        )
        for name, figure in bulk["anchors"].items():
            lines.append(
                (
                    f"bulk {label}: eventsourcing {name} (events/s)",
                    f"{figure['events_per_second']:,.0f} "
                    f"(ours {figure['ours_ratio']:.2f}x)",
                )
            )
    chain = results.get("chain")
    if chain:
        lines += [
            (
                "append: whole games, HMAC / plain sha256 (events/s)",
                f"{chain['keyed_games_per_second']:,.0f} / "
                f"{chain['plain_games_per_second']:,.0f} "
                f"({chain['games_ratio']:.3f}x)",
            ),
            (
                "append: one note each, HMAC / plain sha256 (appends/s)",
                f"{chain['keyed_notes_per_second']:,.0f} / "
                f"{chain['plain_notes_per_second']:,.0f} "
                f"({chain['notes_ratio']:.3f}x)",
            ),
        ]
    verify = results.get("verify")
    if verify:
        lines.append(
            (
                f"verify_events over {verify['events']:,} events: chains / full (s)",
                f"{verify['chains_seconds']:.1f} / {verify['full_seconds']:.1f}",
            )
        )
    replay = results.get("replay", {})
    if replay:
        lines += [
            ("replay: rebuild all projections (s)", f"{replay['rebuild_seconds']:.2f}"),
            ("replay: raw server-side read (s)", f"{replay['raw_read_seconds']:.2f}"),
            ("replay: ratio to raw read", f"{replay['ratio_to_raw_read']:.2f}x"),
            ("replay: rebuild peak RSS (MB)", f"{replay['rebuild_peak_rss_mb']:.0f}"),
        ]
    if "rules" in results:
        rate = results["rules"]["events_per_second"]
        lines.append(("rules: events/s (one core)", f"{rate:,.0f}"))
    standings = results.get("standings_after_result", {})
    if standings:
        lines += [
            (
                "standings after a result: warm p50/p95 (ms)",
                f"{standings['warm_ms_p50']:.1f} / {standings['warm_ms_p95']:.1f}",
            ),
            ("standings after a result: cold (ms)", f"{standings['cold_ms']:.0f}"),
        ]
    if "fresh_worker_ms" in standings:
        lines.append(
            (
                "standings after a result: fresh worker / replaying (ms)",
                f"{standings['fresh_worker_ms']:.0f} / "
                f"{standings['fresh_worker_replay_ms']:.0f} "
                f"({standings['fresh_to_warm_ratio']:.1f}x warm, "
                f"{standings['fresh_to_replay_ratio']:.2f}x replaying)",
            )
        )
    if "five_directors_ms_p95" in standings:
        lines.append(
            (
                "five directors at once, no readers: p50/p95 (ms)",
                f"{standings['five_directors_ms_p50']:.0f} / "
                f"{standings['five_directors_ms_p95']:.0f} "
                f"(p95 {standings['five_directors_p95_to_warm_ratio']:.1f}x warm)",
            )
        )
    return lines


def _http_lines(results: dict[str, Any]) -> list[tuple[str, str]]:
    lines: list[tuple[str, str]] = []
    for mix in ("http", "http_pages"):
        lines += _locust_lines(mix, results.get(mix, {}))
    servers = results.get("servers", {})
    for key, stats in servers.items():
        if not isinstance(stats, dict):
            lines.append(
                (
                    f"servers {key}",
                    f"{stats:.2f}" if isinstance(stats, float) else str(stats),
                )
            )
            continue
        reads, entry = stats["reads"], stats.get("enter result", {})
        lines.append(
            (
                f"servers {key}: page reads",
                f"{reads['requests']} req, {reads['failures']} failed, "
                f"{reads['rps']:.0f}/s, p50/p95 {reads['p50_ms']:.0f}/"
                f"{reads['p95_ms']:.0f} ms; load {stats['load_before'][0]:.1f}"
                f" -> {stats['load_after'][0]:.1f}",
            )
        )
        lines.append(
            (
                f"servers {key}: results",
                f"{stats['results_acknowledged']}/{stats['results_offered']} "
                f"acknowledged, {stats['acknowledged_lost']} lost; entry "
                f"{entry.get('failures', 0)} failed, p50/p95 "
                f"{entry.get('p50_ms', 0):.0f}/{entry.get('p95_ms', 0):.0f} ms",
            )
        )
    return lines


def _locust_lines(label: str, stats: dict[str, Any]) -> list[tuple[str, str]]:
    lines: list[tuple[str, str]] = []
    for name, figure in stats.items():
        if isinstance(figure, dict):
            lines.append(
                (
                    f"{label} {name}",
                    f"{figure['requests']} req, {figure['failures']} failed, "
                    f"{figure['rps']:.0f}/s, p50/p95/p99 {figure['p50_ms']:.0f}/"
                    f"{figure['p95_ms']:.0f}/{figure['p99_ms']:.0f} ms",
                )
            )
        else:
            lines.append((f"{label} {name}", str(figure)))
    return lines


STAGES = [
    "append",
    "chain",
    "verify",
    "rules",
    "amend_impact",
    "standings",
    "replay",
    "http",
    "pages",
    "bulk",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=sorted(SCALES), default="small")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=STAGES,
        help="leave a stage out (repeat for several)",
    )
    parser.add_argument(
        "--only", choices=STAGES, default=None, help="run this stage alone"
    )
    parser.add_argument(
        "--ci",
        action="store_true",
        help="CI's run (bench/ci_smoke.py): every stage, its load held 4 s, to prove "
        "it still runs; the figures mean nothing",
    )
    parser.add_argument(
        "--servers",
        action="store_true",
        help="only the live feed's load: gthread against the ASGI worker, each "
        "without and with 64 feed connections that never read (use --scale load)",
    )
    parser.add_argument("--output", default=None)
    parser.add_argument(
        "--save-plan",
        default=None,
        help="write the HTTP stage's plan here (with --database-url, the database "
        "is kept, so the HTTP stage can be rerun alone with --http-only)",
    )
    parser.add_argument(
        "--http-only",
        default=None,
        metavar="PLAN",
        help="run only the HTTP stage, against --database-url, with a saved plan",
    )
    args = parser.parse_args(argv)
    if args.http_only and not args.database_url:
        parser.error("--http-only needs --database-url (the database the plan is for)")
    if args.ci:
        SCALES[args.scale] = dataclasses.replace(SCALES[args.scale], http_seconds=3)
    _setup_django(args.database_url)
    bench = Bench(
        args.scale, args.seed, args.skip_http or bool(args.save_plan), args.skip
    )
    bench.ci = args.ci
    if args.only:
        bench.skip |= set(STAGES) - {args.only}
        bench.skip_eventsourcing = True
    if args.http_only:
        plan = json.loads(Path(args.http_only).read_text())
        bench.tid = plan["tournament_id"]
        bench.game_ids = plan["games"]
        bench.token = plan["token"]
        bench.pending = plan["pending"]
        bench.bench_http()
        print_table({**bench.results, "http_only": True})
        return 0
    if args.servers:
        bench.skip |= {
            "chain",
            "verify",
            "rules",
            "standings",
            "replay",
            "http",
            "bulk",
        }
        bench.skip_eventsourcing = True
    results = bench.run()
    if args.servers:
        bench.bench_servers()
        results = bench.results
    if args.save_plan:
        Path(args.save_plan).write_text(json.dumps(bench.http_plan()))
    output = Path(args.output or ROOT / "bench" / f"results-{args.scale}.json")
    output.write_text(json.dumps(results, indent=2, default=str) + "\n")
    print_table(results)
    print(f"written to {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
