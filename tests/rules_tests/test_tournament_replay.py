"""Incremental apply equals a full recomputation, whatever the director does."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.tournament import (
    Board,
    DivisionAdded,
    ForfeitRecorded,
    PlayerReactivated,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultAmended,
    ResultRecorded,
    RoundPaired,
    Totals,
    TournamentCreated,
    TournamentError,
    TournamentState,
    UnpairedRoundRecorded,
    WithdrawalPolicy,
    apply,
    derive_cards,
    replay,
)
from rules.tournament.standings import standings

ROUNDS = 6


def _setup(players: int, spread_cap: int | None, ties_are_draws: bool) -> list:
    return [
        TournamentCreated(
            name="Property",
            start_date="2025-01-01",
            end_date="2025-01-02",
            rounds=ROUNDS,
            spread_cap=spread_cap,
            ties_are_draws=ties_are_draws,
        ),
        DivisionAdded("A"),
        *[
            PlayerRegistered(f"p{i}", "A", f"Player {i}", 1000 + 7 * i)
            for i in range(players)
        ],
    ]


def _random_event(data: st.DataObject, state: TournamentState) -> object:
    ids = list(state.division_players["A"])
    paired = state.paired_rounds("A")
    kind = data.draw(
        st.sampled_from(
            [
                "pair",
                "pair",
                "result",
                "result",
                "result",
                "result",
                "result",
                "forfeit",
                "amend",
                "withdraw",
                "reactivate",
                "register",
                "unpaired",
            ]
        )
    )
    round_ = data.draw(st.integers(1, max(1, min(ROUNDS, paired + 1))))
    if kind == "pair":
        order = data.draw(st.permutations(ids))
        cut = data.draw(st.integers(0, len(order)))
        chosen = order[:cut]
        bye_count = data.draw(st.integers(0, min(2, len(chosen))))
        byes = tuple(chosen[:bye_count])
        rest = chosen[bye_count:]
        games = tuple(
            Board(i // 2 + 1, rest[i], rest[i + 1]) for i in range(0, len(rest) - 1, 2)
        )
        return RoundPaired("A", round_, games, byes)
    round_state = state.round_state("A", round_)
    games = [] if round_state is None else list(round_state.pairing.games)
    if kind in ("result", "amend", "forfeit") and games:
        game = data.draw(st.sampled_from(games))
        a, b = (game.first, game.second)
        if data.draw(st.booleans()):
            a, b = b, a
        if kind == "forfeit":
            return ForfeitRecorded(round_, a)
        score_a = data.draw(st.integers(-20, 600))
        score_b = data.draw(st.one_of(st.just(score_a), st.integers(-20, 600)))
        pre = data.draw(
            st.one_of(st.none(), st.tuples(st.integers(0, 600), st.integers(0, 600)))
        )
        pre_a, pre_b = (None, None) if pre is None else pre
        if kind == "amend" and data.draw(st.booleans()):
            return ResultAmended(
                round_, a, b, absentee=data.draw(st.sampled_from([a, b]))
            )
        cls = ResultAmended if kind == "amend" else ResultRecorded
        return cls(round_, a, b, score_a, score_b, pre_a, pre_b)
    player = data.draw(st.sampled_from(ids))
    if kind == "withdraw":
        policy = data.draw(st.sampled_from(list(WithdrawalPolicy)))
        return PlayerWithdrawn(player, round_, policy)
    if kind == "reactivate":
        return PlayerReactivated(player, data.draw(st.integers(1, ROUNDS)))
    if kind == "register":
        return PlayerRegistered(f"late{len(ids)}", "A", f"Late {len(ids)}", 900)
    return UnpairedRoundRecorded(
        round_, player, data.draw(st.sampled_from([-50, -75, 50, 100]))
    )


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    data=st.data(),
    players=st.integers(2, 7),
    spread_cap=st.one_of(st.none(), st.integers(1, 200)),
    ties_are_draws=st.booleans(),
)
def test_incremental_apply_equals_full_recomputation(
    data, players, spread_cap, ties_are_draws
):
    """After any sequence of director actions (legal or refused), the running totals
    and entries equal a from-scratch recomputation, the totals equal the round-by-round
    sums, and a replay of the accepted events gives the same state."""
    log = _setup(players, spread_cap, ties_are_draws)
    state = replay(log)
    for _ in range(data.draw(st.integers(1, 60))):
        event = _random_event(data, state)
        try:
            new_state = apply(state, event)
        except TournamentError:
            continue
        log.append(event)
        state = new_state
        assert dict(state.cards) == derive_cards(state)
    assert standings(state, "A") == tuple(
        dataclasses.replace(row, entry=None) for row in standings(state, "A", ROUNDS)
    )
    assert replay(log) == state
    # totals_after takes the running totals when no later round has an entry: it
    # must equal the rounds' sums, whatever the card.
    for card in state.cards.values():
        for round_ in range(ROUNDS + 1):
            summed = Totals()
            for entry in card.entries[:round_]:
                if entry is not None:
                    summed = summed + Totals.of(entry)
            assert card.totals_after(round_) == summed
