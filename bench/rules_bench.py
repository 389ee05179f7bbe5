"""Benchmark of the rules engine's hot path: replaying events, scoring placements.

Run from the project root::

    python bench/rules_bench.py [--seconds N]

Reports events replayed per second (scoring, legality and score sheet included) for
the six real games in ``shared/gcg`` replayed many times over and for a long
synthetic game, and microseconds per placement located and scored. The target is
50,000 events per second on one core. This is a measurement, not a test: nothing
fails when a figure is low.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.board import Position  # noqa: E402
from rules.events import Event, TilesPlaced  # noqa: E402
from rules.gcg import read  # noqa: E402
from rules.moves import locate  # noqa: E402
from rules.scoring import score_play  # noqa: E402
from rules.state import apply, replay  # noqa: E402
from tests.rules_tests.gamegen import GameOptions, random_game  # noqa: E402

GAMES = ROOT.parent / "shared" / "gcg"


def _timed(action: Callable[[], int], seconds: float) -> tuple[int, float]:
    """Run ``action`` (which returns a unit count) for about ``seconds``."""
    units = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        units += action()
        elapsed = time.perf_counter() - start
    return units, elapsed


def _replay_all(streams: Sequence[Sequence[Event]]) -> Callable[[], int]:
    def action() -> int:
        count = 0
        for events in streams:
            replay(events)
            count += len(events)
        return count

    return action


def _long_game() -> list[Event]:
    """The longest of a few seeded random games with many short plays."""
    options = GameOptions(exchange=0.3, pass_=0.02, max_tiles=1, max_turns=5000)
    games = [random_game(random.Random(seed), options=options) for seed in range(20)]
    return max(games, key=len)


def _placements(streams: Sequence[Sequence[Event]]) -> list[tuple[str, Position, str]]:
    """Every placement of the streams with the board it was played on."""
    found = []
    for events in streams:
        state = None
        for version, event in enumerate(events, start=1):
            if isinstance(event, TilesPlaced) and state is not None:
                found.append(
                    (state.board.squares, Position.from_gcg(event.position), event.word)
                )
            state = apply(state, event, version=version)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    args = parser.parse_args()
    real = [read(path.read_bytes()).events for path in sorted(GAMES.glob("*.gcg"))]
    long_game = _long_game()
    print(f"python {sys.version.split()[0]}, one core")
    print(f"real games: {len(real)}, {sum(map(len, real))} events in all")
    events, elapsed = _timed(_replay_all(real), args.seconds)
    print(f"  replay, real games:       {events / elapsed:>10,.0f} events/s")
    events, elapsed = _timed(_replay_all([long_game]), args.seconds)
    print(
        f"  replay, synthetic game:   {events / elapsed:>10,.0f} events/s "
        f"({len(long_game)} events)"
    )
    plays = _placements([*real, long_game])
    state = replay(real[0])
    values = state.values
    letters = state.tile_set.letters

    def score_all() -> int:
        for squares, position, word in plays:
            located = locate(squares, position, word, letters)
            board = list(squares)
            for index, tile in located.new_tiles:
                board[index] = tile
            score_play("".join(board), located, values)
        return len(plays)

    scored, elapsed = _timed(score_all, args.seconds)
    print(
        f"  placement located+scored: {elapsed / scored * 1e6:>10.1f} µs "
        f"({len(plays)} placements)"
    )


if __name__ == "__main__":
    main()
