"""Swiss pairings never repeat while a non-repeating pairing exists (brute force)."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.pairing import pair_swiss, pairing_inputs
from rules.tournament import (
    DivisionAdded,
    PairingMethod,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    apply,
    replay,
)


def _matchings(players: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for index, partner in enumerate(rest):
        for tail in _matchings(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *tail]


def _repeats(pairs, met: set[frozenset[str]]) -> int:
    return sum(frozenset(pair) in met for pair in pairs)


def _fewest_repeats_by_bye(ranked, met) -> dict[str | None, int]:
    """For each possible bye (None: even field), the fewest repeats possible."""
    options = [None] if len(ranked) % 2 == 0 else list(ranked)
    best = {}
    for bye in options:
        field = [p for p in ranked if p != bye]
        best[bye] = min(_repeats(m, met) for m in _matchings(field))
    return best


def _check(pairing, ranked, met, byes) -> None:
    seated = [p for g in pairing.games for p in (g.first, g.second)]
    assert sorted(seated + list(pairing.byes)) == sorted(ranked)
    fewest = _fewest_repeats_by_bye(ranked, met)
    overall = min(fewest.values())
    ours = _repeats([(g.first, g.second) for g in pairing.games], met)
    # Never a repeat (or more repeats) while a better pairing of the field exists.
    assert ours == overall
    if pairing.byes:
        (bye,) = pairing.byes
        assert fewest[bye] == overall
        eligible = [p for p in ranked if fewest[p] == overall]
        least = min(byes.get(p, 0) for p in eligible)
        # The fewest-byes rule among the choices that keep the fewest repeats...
        assert byes.get(bye, 0) == least
        # ...and the lowest-ranked of those.
        lowest = [p for p in eligible if byes.get(p, 0) == least][-1]
        assert bye == lowest


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(2, 10),
    density=st.floats(0.0, 1.0),
    data=st.data(),
)
def test_swiss_has_the_fewest_repeats_on_any_history(n, density, data):
    """On random histories (dense ones force repeats), pair_swiss makes exactly the
    fewest repeats any pairing of the field can, and gives the bye by the
    fewest-byes rule among the choices that keep that minimum."""
    ranked = [f"x{i}" for i in range(n)]
    played = [
        pair
        for pair in ((a, b) for i, a in enumerate(ranked) for b in ranked[i + 1 :])
        if data.draw(st.floats(0, 1)) < density
    ]
    byes = {p: data.draw(st.integers(0, 2)) for p in ranked}
    pairing = pair_swiss(ranked, played=played, byes=byes, coin_flips=[True] * n)
    _check(pairing, ranked, {frozenset(p) for p in played}, byes)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 9), rounds=st.integers(1, 9), data=st.data())
def test_swiss_over_a_whole_event_with_random_results(n, rounds, data):
    """Round after round with random results, no Swiss pairing repeats while a
    non-repeating pairing of the whole field exists (checked by brute force), and
    the player with fewer firsts goes first."""
    state = replay(
        [
            TournamentCreated("Swiss", "2025-01-01", "2025-01-01", rounds),
            DivisionAdded("A"),
            *[PlayerRegistered(f"p{i}", "A", f"P{i}", 1500 + i) for i in range(n)],
        ]
    )
    for round_ in range(1, rounds + 1):
        inputs = pairing_inputs(state, "A", round_)
        pairing = pair_swiss(
            inputs.ranked,
            score_groups=inputs.score_groups,
            played=inputs.played,
            byes=inputs.byes,
            firsts=inputs.firsts,
            seconds=inputs.seconds,
            coin_flips=[True] * n,
        )
        met = {frozenset(pair) for pair in inputs.played}
        _check(pairing, list(inputs.ranked), met, inputs.byes)
        for game in pairing.games:
            # Who goes first: fewer firsts; equal, more seconds; equal, the coin.
            first = (
                inputs.firsts.get(game.first, 0),
                -inputs.seconds.get(game.first, 0),
            )
            second = (
                inputs.firsts.get(game.second, 0),
                -inputs.seconds.get(game.second, 0),
            )
            assert first <= second
        state = apply(
            state,
            RoundPaired(
                "A",
                round_,
                pairing.games,
                pairing.byes,
                PairingMethod.SWISS,
                pairing.coin_flips,
            ),
        )
        for game in pairing.games:
            score_a = data.draw(st.integers(200, 600))
            score_b = data.draw(
                st.integers(200, 600).filter(lambda s, a=score_a: s != a)
            )
            state = apply(
                state, ResultRecorded(round_, game.first, game.second, score_a, score_b)
            )
    assert state.paired_rounds("A") == rounds
