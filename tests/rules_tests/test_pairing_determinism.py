"""Pairing is a function of the log alone (issue 32, item 10).

A server's workers each have their own hash seed, so a pairing that depended on
the iteration order of a set or of a string-keyed mapping could differ between two
workers replaying the same log. Two properties:

- the same logs, paired in child processes under different ``PYTHONHASHSEED``s,
  give the same pairings, by every system, Gibsonized or not;
- the order in which the inputs' mappings and earlier meetings are listed does not
  change a pairing.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.division_rules import PairingOptions
from rules.pairing import (
    PairingInputs,
    System,
    pair_ranked,
    pair_round,
    pairing_inputs,
)
from rules.tournament import (
    DivisionAdded,
    PlayerRegistered,
    Ranking,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentState,
    apply,
    replay,
)

SYSTEMS = [System.KING_OF_THE_HILL, System.SWISS, System.CHEW, System.COP]
ROOT = Path(__file__).resolve().parents[2]


def played_log(seed: int, players: int, rounds: int, played: int) -> TournamentState:
    """A division of `players` with `played` rounds paired Swiss and scored at
    random (from `seed`), names chosen so their hashes differ between seeds."""
    rng = random.Random(seed)
    names = [
        f"{rng.choice('ABCDEFGH')}{i:02d}-{rng.randrange(10**6)}"
        for i in range(players)
    ]
    state = replay(
        [
            TournamentCreated(
                "T", "2025-01-01", "2025-01-02", rounds, ranking=Ranking.TSH
            ),
            DivisionAdded("A"),
            # Equal ratings: the order of the field rests on ties broken by the rules.
            *[PlayerRegistered(p, "A", p.upper(), 1500) for p in names],
        ]
    )
    for round_ in range(1, played + 1):
        flips = [rng.random() < 0.5 for _ in range(players)]
        pairing = pair_round(state, "A", round_, System.SWISS, flips)
        state = apply(state, RoundPaired("A", round_, pairing.games, pairing.byes))
        for game in pairing.games:
            # Few distinct scores: many ties in wins and spread.
            a, b = rng.choice([(400, 350), (350, 400), (390, 389), (420, 300)])
            state = apply(state, ResultRecorded(round_, game.first, game.second, a, b))
    return state


def pairings_of_every_system() -> list[object]:
    """What the child process prints: every system's pairing of the next round of
    a few logs, with and without Gibsons."""
    out: list[object] = []
    for seed, players, rounds, played in [(1, 17, 20, 16), (2, 9, 6, 4), (3, 12, 8, 7)]:
        state = played_log(seed, players, rounds, played)
        for system in SYSTEMS:
            for gibson in (False, True):
                options = PairingOptions(gibson=gibson, prize_places=3, max_repeats=1)
                flips = [bool(i % 3) for i in range(players)]
                pairing = pair_round(
                    state, "A", played + 1, system, flips, options=options
                )
                out.append(
                    [
                        [[g.board, g.first, g.second] for g in pairing.games],
                        list(pairing.byes),
                    ]
                )
    return out


CHILD = (
    "import json\n"
    "from tests.rules_tests.test_pairing_determinism import pairings_of_every_system\n"
    "print(json.dumps(pairings_of_every_system()))\n"
)


def _in_child(hash_seed: str) -> object:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_the_same_log_pairs_the_same_under_every_hash_seed():
    seeds = ["0", "1", "8", "13", "4242"]
    results = {seed: _in_child(seed) for seed in seeds}
    first = results[seeds[0]]
    assert first, "no pairing was made"
    for seed in seeds[1:]:
        assert results[seed] == first, f"PYTHONHASHSEED={seed} paired differently"


def _reordered(inputs: PairingInputs, rng: random.Random) -> PairingInputs:
    def shuffled(mapping):
        items = list(mapping.items())
        rng.shuffle(items)
        return dict(items)

    played = list(inputs.played)
    rng.shuffle(played)
    return replace(
        inputs,
        score_groups=shuffled(inputs.score_groups),
        played=tuple(tuple(reversed(p)) if rng.random() < 0.5 else p for p in played),
        byes=shuffled(inputs.byes),
        firsts=shuffled(inputs.firsts),
        seconds=shuffled(inputs.seconds),
        spreads=shuffled(inputs.spreads),
        previous=shuffled(inputs.previous),
    )


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(4, 13),
    system=st.sampled_from(SYSTEMS),
    gibson=st.booleans(),
    shuffle=st.integers(0, 10**6),
)
def test_the_order_inputs_are_listed_in_does_not_change_a_pairing(
    seed, players, system, gibson, shuffle
):
    state = played_log(seed, players, rounds=8, played=5)
    inputs = pairing_inputs(state, "A", 6)
    options = PairingOptions(gibson=gibson, prize_places=2, max_repeats=1)
    flips = [True, False] * players
    expected = pair_ranked(system, inputs, options, flips)
    again = pair_ranked(
        system, _reordered(inputs, random.Random(shuffle)), options, flips
    )
    assert again == expected
