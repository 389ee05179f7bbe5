"""Issue 32, item 10: in a 17-player, 20-round Gibsonized division the final rounds
paired the same opponents in consecutive rounds, and pairings never said who was
Gibsonized.

The division's repeat rule holds in every round (no pair beyond ``max_repeats``),
and no pair meets in two consecutive rounds unless a prize rule makes them (Chew
pairs the leaders with players who can still catch them); the
event's results are drawn from a seeded generator, so each run plays the same event.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.contention import Standing, best_finishes
from rules.division_rules import PairingOptions
from rules.pairing import coin_flips_needed, pair_next_round
from rules.tournament import (
    DivisionAdded,
    PairingRulesSet,
    PlayerRegistered,
    ResultRecorded,
    TournamentCreated,
    apply,
    replay,
)
from rules.tournament.standings import ranked_player_ids

PLAYERS = 17
ROUNDS = 20
PLACES = 3
LIMIT = 1


def _division(options: PairingOptions):
    events = [
        TournamentCreated(
            name="Long", start_date="2026-11-27", end_date="2026-11-29", rounds=ROUNDS
        ),
        DivisionAdded(name="A"),
        *(
            PlayerRegistered(
                player_id=f"p{i:02}", division="A", name=f"P {i:02}", rating=2000 - i
            )
            for i in range(PLAYERS)
        ),
    ]
    return apply(replay(events), PairingRulesSet(division="A", options=options))


def _contenders_for_first(state, round_: int) -> set[str]:
    """The players who can still finish first before ``round_`` is played."""
    ranked = ranked_player_ids(state, "A", round_ - 1)
    standing = []
    for player_id in ranked:
        totals = state.cards[player_id].totals_after(round_ - 1)
        standing.append(
            Standing(player_id, 2 * totals.wins + totals.draws, totals.spread)
        )
    best = best_finishes(standing, ROUNDS - round_ + 1, 0)
    return {player_id for player_id, place in best.items() if place == 1}


@pytest.mark.parametrize("method", ["swiss", "chew"])
@pytest.mark.parametrize("seed", range(6))
def test_a_17_player_20_round_gibsonized_division_holds_its_repeat_rule(method, seed):
    rng = random.Random(seed)
    options = PairingOptions(gibson=True, prize_places=PLACES, max_repeats=LIMIT)
    state = _division(options)
    # A runaway leader (clinches first and is Gibsonized), the rest close.
    strength = {p: 480 - 12 * i for i, p in enumerate(state.division_players["A"])}
    strength["p00"] += 400
    meetings: Counter[frozenset[str]] = Counter()
    last_round: set[frozenset[str]] = set()
    gibsonized = 0
    for round_ in range(1, ROUNDS + 1):
        flips = [bool(rng.getrandbits(1)) for _ in range(coin_flips_needed(state, "A"))]
        event = pair_next_round(state, "A", round_, method, flips, options=options)
        leaders = _contenders_for_first(state, round_)
        state = apply(state, event)
        games = {frozenset((g.first, g.second)) for g in event.games}
        for pair in games:
            meetings[pair] += 1
            assert meetings[pair] <= LIMIT + 1, f"round {round_}: {sorted(pair)}"
            if pair in last_round:
                # Only Chew's leaders' rule may make two players who can both
                # still finish first meet again (COP, too, weighs a leader's game
                # against a catcher above a back-to-back game).
                assert method == "chew", (round_, sorted(pair))
                assert pair <= leaders, (round_, sorted(pair))
        last_round = games
        gibsonized += bool(event.gibsons)
        for game in event.games:
            a = strength[game.first] + rng.randint(0, 200)
            b = strength[game.second] + rng.randint(0, 200)
            state = apply(
                state,
                ResultRecorded(
                    round=round_,
                    player_a=game.first,
                    player_b=game.second,
                    score_a=a + (a == b),
                    score_b=b,
                ),
            )
    assert gibsonized, "the strongest player clinches first before the last round"


def test_the_pairing_records_who_it_gibsonized():
    """A clinched leader is named in the RoundPaired event, which every reader
    marks from; nobody else is."""
    options = PairingOptions(gibson=True, prize_places=1)
    state = _division(options)
    rng = random.Random(7)
    for round_ in range(1, ROUNDS + 1):
        flips = [bool(rng.getrandbits(1)) for _ in range(coin_flips_needed(state, "A"))]
        event = pair_next_round(state, "A", round_, "swiss", flips, options=options)
        state = apply(state, event)
        if event.gibsons:
            assert event.gibsons == ("p00",)
            assert state.round_state("A", round_).pairing.gibsons == ("p00",)
            return
        for game in event.games:
            # p00 wins every game by 300: first place is clinched early.
            first_wins = game.first == "p00" or (
                game.second != "p00" and game.first < game.second
            )
            state = apply(
                state,
                ResultRecorded(
                    round=round_,
                    player_a=game.first,
                    player_b=game.second,
                    score_a=600 if first_wins else 300,
                    score_b=300 if first_wins else 600,
                ),
            )
    pytest.fail("the leader was never Gibsonized")
