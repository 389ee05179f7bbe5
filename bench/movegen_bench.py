"""Benchmark of rules.movegen: greedy self-play games over a real word list.

Run from the project root::

    .venv/bin/python bench/movegen_bench.py [--games 20] [--seed 1]

The word list is web2 from the ``english-words`` package when it is installed
(``.venv/bin/pip install english-words==2.0.2``; it is not a project dependency), else
a synthetic list. Each game draws from a bag shuffled by a seeded ``random.Random``;
each turn plays the generated play with the highest letter-value sum of the words it
forms (no premium squares: the move generator has no scorer, and the ranking only
needs to be plausible), exchanges the whole rack when nothing can be played and the bag
allows it, and passes otherwise. It reports the graph's build time and size and the
time of each ``generate`` call, split by racks without and with blanks.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

# A plain script: make the project importable when run as bench/movegen_bench.py.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.movegen import (
    BOARD_SIZE,
    RACK_SIZE,
    Placement,
    WordGraph,
    generate,
    words_formed,
)

# English tile set (RULES.md): letter -> (count, value); "?" is the blank.
TILES: dict[str, tuple[int, int]] = {
    "A": (9, 1), "B": (2, 3), "C": (2, 3), "D": (4, 2), "E": (12, 1), "F": (2, 4),
    "G": (3, 2), "H": (2, 4), "I": (9, 1), "J": (1, 8), "K": (1, 5), "L": (4, 1),
    "M": (2, 3), "N": (6, 1), "O": (8, 1), "P": (2, 3), "Q": (1, 10), "R": (6, 1),
    "S": (4, 1), "T": (6, 1), "U": (4, 1), "V": (2, 4), "W": (2, 4), "X": (1, 8),
    "Y": (2, 4), "Z": (1, 10), "?": (2, 0),
}  # fmt: skip


def load_words() -> tuple[str, list[str]]:
    """The benchmark's word list and a name for it."""
    try:
        from english_words import get_english_words_set  # type: ignore[import-untyped]
    except ImportError:
        return "synthetic", synthetic_words(200_000, random.Random(0))
    return "english-words web2", sorted(
        get_english_words_set(["web2"], lower=True, alpha=True)
    )


def synthetic_words(count: int, rng: random.Random) -> list[str]:
    """``count`` pronounceable pseudo-words (alternating consonant and vowel runs),
    so that the graph and the boards have roughly a real lexicon's shape."""
    vowels = "AEIOUAEIOEEA"
    consonants = "BCDFGHLMNPRSTTNRSLDCMPWY"
    words: set[str] = set()
    while len(words) < count:
        length = rng.choice((2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 10, 11))
        vowel = rng.random() < 0.3
        letters = []
        for _ in range(length):
            letters.append(rng.choice(vowels if vowel else consonants))
            vowel = not vowel if rng.random() < 0.8 else vowel
        words.add("".join(letters))
    return sorted(words)


def value(letter: str) -> int:
    """A tile's face value; lowercase (a blank) is worth nothing."""
    return 0 if letter.islower() else TILES[letter][1]


def rank(play: Placement) -> int:
    """The letter-value sum of every word formed, +50 for using 7 tiles."""
    # Cross words are uppercase even where a blank sits; close enough for ranking.
    total = sum(value(letter) for letter in play.word)
    total += sum(value(letter) for word in play.cross_words for letter in word)
    return total + (50 if len(play.tiles) == RACK_SIZE else 0)


@dataclass
class Stats:
    """Timings in milliseconds and play counts, one entry per generate() call."""

    ms: list[float] = field(default_factory=list)
    plays: list[int] = field(default_factory=list)

    def report(self, label: str) -> str:
        if not self.ms:
            return f"{label}: no calls"
        ordered = sorted(self.ms)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        return (
            f"{label}: {len(self.ms)} calls, mean {statistics.fmean(self.ms):.1f} ms, "
            f"median {statistics.median(self.ms):.1f} ms, p95 {p95:.1f} ms, "
            f"max {ordered[-1]:.1f} ms; plays/call mean "
            f"{statistics.fmean(self.plays):.0f}, max {max(self.plays)}"
        )


def draw(rack: list[str], bag: list[str]) -> None:
    while len(rack) < RACK_SIZE and bag:
        rack.append(bag.pop())


def take(rack: list[str], tiles: Iterable[str]) -> None:
    for tile in tiles:
        rack.remove(tile)


def play_game(
    graph: WordGraph, rng: random.Random, plain: Stats, blanks: Stats
) -> tuple[int, int]:
    """One greedy two-player game; returns (placements, words checked)."""
    bag = [letter for letter, (count, _) in TILES.items() for _ in range(count)]
    rng.shuffle(bag)
    board = [["."] * BOARD_SIZE for _ in range(BOARD_SIZE)]
    racks: list[list[str]] = [[], []]
    for rack in racks:
        draw(rack, bag)
    scoreless = placements = checked = 0
    turn = 0
    while scoreless < 6:
        rack = racks[turn % 2]
        rows = ["".join(row) for row in board]
        started = time.perf_counter()
        plays = generate(rows, "".join(sorted(rack)), graph)
        elapsed = (time.perf_counter() - started) * 1000
        stats = blanks if "?" in rack else plain
        stats.ms.append(elapsed)
        stats.plays.append(len(plays))
        if plays:
            best = max(plays, key=rank)  # max keeps the first of equals: deterministic
            for word in words_formed(rows, best.tiles):
                assert word in graph, (word, best)
                checked += 1
            for row, col, letter in best.tiles:
                board[row][col] = letter
            take(rack, best.rack_tiles())
            draw(rack, bag)
            placements += 1
            scoreless = 0
            if not rack:
                break  # went out
        elif len(bag) >= RACK_SIZE:
            returned = rack[:]
            rack.clear()
            draw(rack, bag)
            bag.extend(returned)
            rng.shuffle(bag)
            scoreless += 1
        else:
            scoreless += 1
        turn += 1
    return placements, checked


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    source, words = load_words()
    tracemalloc.start()
    started = time.perf_counter()
    graph = WordGraph.from_words(words)
    build = time.perf_counter() - started
    memory, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # Untraced again, for honest build timing (tracemalloc slows allocation down).
    started = time.perf_counter()
    WordGraph.from_words(words)
    build_untraced = time.perf_counter() - started
    print(f"word list: {source}, {len(words)} entries -> {len(graph)} words")
    print(
        f"graph: {graph.node_count} nodes, built in {build_untraced:.2f} s "
        f"({build:.2f} s under tracemalloc), {memory / 2**20:.1f} MiB held, "
        f"{peak / 2**20:.1f} MiB peak while building"
    )

    rng = random.Random(args.seed)
    plain, blanks = Stats(), Stats()
    placements = checked = 0
    started = time.perf_counter()
    for _ in range(args.games):
        placed, words_checked = play_game(graph, rng, plain, blanks)
        placements += placed
        checked += words_checked
    total = time.perf_counter() - started
    print(
        f"{args.games} games, {placements} placements, {checked} words re-checked, "
        f"{total:.1f} s in all"
    )
    print(plain.report("racks without blanks"))
    print(blanks.report("racks with blanks"))
    both = Stats(plain.ms + blanks.ms, plain.plays + blanks.plays)
    print(both.report("all racks"))


if __name__ == "__main__":
    main()
