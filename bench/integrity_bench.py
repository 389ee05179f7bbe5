"""What authenticating heads and sealing the feed costs an append (issue 30, item 5).

    python bench/integrity_bench.py [--games 8] [--rounds 3]

On a throwaway embedded PostgreSQL: simulated games appended one event per append
(the move-by-move recorder, the worst case: every append pays a head code and a
seal after its commit) and whole games in one append each (a GCG import). Each is
measured "before" (the head's code left empty and no seal: the append as it was)
and "after", interleaved, ``--rounds`` times; the best of each is kept. Prints
events per second and the ratio after/before.
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from feed_bench import _games
from run import _setup_django


def _switch(after: bool) -> None:
    """The append as it is (after), or without the head's code and the seal."""
    from games.eventstore import chain, seal, store

    store.head_mac = chain.head_mac if after else (lambda *args: "")
    store.seal_after_commit = seal.seal_after_commit if after else (lambda: None)


def _one_event_an_append(games: list[list[object]]) -> int:
    from games.eventstore.store import append
    from games.eventstore.streams import StreamKey

    count = 0
    for events in games:
        stream = StreamKey("game", uuid.uuid4())
        for version, event in enumerate(events):
            append(stream, [event], expected_version=version)
        count += len(events)
    return count


def _one_game_an_append(games: list[list[object]]) -> int:
    from games.eventstore.store import append
    from games.eventstore.streams import StreamKey

    for events in games:
        append(StreamKey("game", uuid.uuid4()), events, expected_version=0)
    return sum(map(len, games))


def _rate(
    write: Callable[[list[list[object]]], int], games: list[list[object]]
) -> float:
    start = time.perf_counter()
    count = write(games)
    return count / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    _setup_django(None)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    games = _games(options.games)
    print(f"{options.games} games, {sum(map(len, games))} events each measure")
    _one_event_an_append(games[:2])  # warm up: imports, caches, the server's buffers
    measures = {"one event an append": _one_event_an_append}
    measures["one game an append"] = _one_game_an_append
    best: dict[tuple[str, bool], float] = {}
    for round_ in range(options.rounds):
        for after in (False, True) if round_ % 2 == 0 else (True, False):
            _switch(after)
            for name, write in measures.items():
                rate = _rate(write, games)
                best[(name, after)] = max(best.get((name, after), 0.0), rate)
                mode = "after " if after else "before"
                print(f"round {round_ + 1} {mode} {name}: {rate:,.0f} events/s")
    _switch(True)
    for name in measures:
        before, after = best[(name, False)], best[(name, True)]
        print(
            f"{name}: {before:,.0f} events/s before, {after:,.0f} after: "
            f"{after / before:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
