"""The compiled rules core against the Python sources (README, "The compiled rules
core"), interleaved in the same run.

    python bench/compiled_bench.py [--scale small|full] [--rounds N]

Each round runs one child process per build, alternating (``RULES_PURE=1`` for the
Python sources), and each child measures the rules yardstick of bench/rules_bench.py
(events replayed a second of one core's time, the real games and a long synthetic
game) and a 500-player Swiss round (100 at small scale) paired after 10 rounds of
random history, and the kept state of a 500-player, 31-round division
(100 players, 5 rounds) unpickled as games.snapshots pickles it. The best of the
rounds is kept for each build and figure, and the ratio compiled/Python printed
with the load average. Needs a current build
(config/build_rules.py); ``--scale small`` runs in a few seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HISTORY_ROUNDS = 10
# Time on this process's core (time.process_time), not the wall clock: on a shared
# machine the wall clock counts the other processes' turns too.
clock = time.process_time


def _timed(action: Callable[[], int], seconds: float) -> tuple[int, float]:
    """Run ``action`` (which returns a unit count) for about ``seconds`` of CPU."""
    units = 0
    start = clock()
    while clock() - start < seconds:
        units += action()
    return units, clock() - start


def _pairing_ms(players_count: int, seconds: float) -> float:
    """Best CPU milliseconds to pair a Swiss round after 10 random rounds."""
    from rules.pairing.swiss import pair_swiss

    rng = random.Random(1)
    players = [f"p{n}" for n in range(players_count)]
    wins = dict.fromkeys(players, 0)
    played: list[tuple[str, str]] = []
    for _ in range(HISTORY_ROUNDS):
        order = players[:]
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            played.append((a, b))
            wins[a if rng.random() < 0.5 else b] += 2
    ranked = sorted(players, key=lambda p: (-wins[p], p))
    # Who goes first is not in the history: every game may need a flip.
    flips = [rng.random() < 0.5 for _ in range(players_count // 2)]
    best = float("inf")
    started = clock()
    while True:
        t0 = clock()
        pair_swiss(ranked, score_groups=wins, played=played, coin_flips=flips)
        best = min(best, 1000 * (clock() - t0))
        if clock() - started > seconds:
            return best


def _tournament_state(players_count: int, rounds: int) -> object:
    """A division's state after `rounds` random rounds, every result in."""
    from rules.tournament import (
        DivisionAdded,
        PlayerRegistered,
        ResultRecorded,
        RoundPaired,
        TournamentCreated,
        replay,
    )
    from rules.tournament.events import Board

    rng = random.Random(2)
    players = [f"p{n}" for n in range(players_count)]
    events: list[object] = [
        TournamentCreated("Nationals", "2025-08-01", "2025-08-05", rounds),
        DivisionAdded("A"),
        *(
            PlayerRegistered(p, "A", f"Player {p}", 2100 - n)
            for n, p in enumerate(players)
        ),
    ]
    for round_ in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        games = tuple(
            Board(n + 1, order[2 * n], order[2 * n + 1]) for n in range(len(order) // 2)
        )
        events.append(RoundPaired("A", round_, games))
        for game in games:
            score = rng.randint(300, 500)
            other = score + rng.choice((-1, 1)) * rng.randint(1, 150)
            events.append(ResultRecorded(round_, game.first, game.second, score, other))
    return replay(events)


def _state_load_ms(players_count: int, rounds: int, seconds: float) -> float:
    """Best CPU milliseconds to unpickle the state as the kept states pickle it
    (games.snapshots: calls of the classes), the collector paused as there."""
    import gc
    import io
    import pickle

    from games.snapshots import _dispatch_table

    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _dispatch_table()
    pickler.dump(_tournament_state(players_count, rounds))
    blob = buffer.getvalue()
    best = float("inf")
    started = clock()
    while True:
        gc.disable()
        t0 = clock()
        pickle.loads(blob)
        best = min(best, 1000 * (clock() - t0))
        gc.enable()
        if clock() - started > seconds:
            return best


def child(seconds: float, players: int) -> dict[str, float | bool]:
    """This process's figures (the build is the one ``rules`` chose)."""
    import rules

    rounds = 31 if players >= 500 else 5

    sys.path.insert(0, str(ROOT / "bench"))
    import rules_bench as yardstick

    real = [
        yardstick.read(path.read_bytes()).events
        for path in sorted(yardstick.GAMES.glob("*.gcg"))
    ]
    long_game = yardstick._long_game()
    events, elapsed = _timed(yardstick._replay_all(real), seconds)
    real_rate = events / elapsed
    events, elapsed = _timed(yardstick._replay_all([long_game]), seconds)
    synthetic_rate = events / elapsed
    return {
        "compiled": rules.COMPILED,
        "replay_real_events_per_s": real_rate,
        "replay_synthetic_events_per_s": synthetic_rate,
        f"pair_{players}_players_ms": _pairing_ms(players, seconds),
        f"load_state_{players}x{rounds}_ms": _state_load_ms(players, rounds, seconds),
    }


def _run(pure: bool, seconds: float, players: int) -> dict[str, float | bool]:
    env = {**os.environ, "RULES_PURE": "1" if pure else ""}
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(seconds), str(players)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float | bool] = json.loads(done.stdout.splitlines()[-1])
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=["small", "full"], default="full")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--child", nargs=2, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child(float(args.child[0]), int(args.child[1]))))
        return 0
    small = args.scale == "small"
    seconds, rounds, players = (0.2, 1, 100) if small else (3.0, 3, 500)
    rounds = args.rounds or rounds
    best: dict[bool, dict[str, float]] = {True: {}, False: {}}
    loads = []
    for _ in range(rounds):
        for pure in (True, False):
            loads.append(Path("/proc/loadavg").read_text().split()[0])
            figures = _run(pure, seconds, players)
            if not pure and not figures["compiled"]:
                # Still a pass (CI runs this small with nothing built): it ran.
                print("no current build (config/build_rules.py): Python only")
                return 0
            for name, value in figures.items():
                if isinstance(value, bool):
                    continue
                keep = min if name.endswith("_ms") else max
                best[pure][name] = keep(best[pure].get(name, value), value)
    print(f"python {sys.version.split()[0]}, best of {rounds}, load {' '.join(loads)}")
    for name in best[True]:
        pure_value, compiled_value = best[True][name], best[False][name]
        faster = (
            pure_value / compiled_value
            if name.endswith("_ms")
            else compiled_value / pure_value
        )
        print(
            f"  {name:32} python {pure_value:>11,.1f}  compiled "
            f"{compiled_value:>11,.1f}  ({faster:.2f}x faster compiled)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
