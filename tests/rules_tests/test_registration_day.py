"""The registration day in the rules: check-in, a move between divisions before a
player's first pairing, and a division that plays fewer rounds (tsh's
max_div_rounds)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.pairing import pair_next_round
from rules.pairing.from_state import pairing_inputs
from rules.tournament import (
    EVENT_TYPES,
    Board,
    DivisionAdded,
    DivisionRoundsSet,
    PairingMethod,
    PlayerCheckedIn,
    PlayerMoved,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentError,
    apply,
    derive_cards,
    replay,
)


def _log() -> list:
    return [
        TournamentCreated(
            name="Registration",
            start_date="2026-11-27",
            end_date="2026-11-27",
            rounds=7,
        ),
        DivisionAdded("A"),
        DivisionAdded("B"),
        PlayerRegistered("a1", "A", "Ann", 1800),
        PlayerRegistered("a2", "A", "Bob", 1700),
        PlayerRegistered("a3", "A", "Cy", 1600),
        PlayerRegistered("a4", "A", "Di", 1500),
        PlayerRegistered("b1", "B", "Eve", 1200),
        PlayerRegistered("b2", "B", "Fay", 1100),
    ]


def _refused(state, event, code: str, field: str) -> TournamentError:
    with pytest.raises(TournamentError) as caught:
        apply(state, event)
    assert (caught.value.code, caught.value.field) == (code, field)
    return caught.value


def test_the_three_events_are_registered_under_their_names():
    assert EVENT_TYPES["player_checked_in"] is PlayerCheckedIn
    assert EVENT_TYPES["player_moved"] is PlayerMoved
    assert EVENT_TYPES["division_rounds_set"] is DivisionRoundsSet


def test_check_in_marks_a_player_present_and_can_be_undone():
    state = replay([*_log(), PlayerCheckedIn("a1")])
    assert state.players["a1"].checked_in
    assert not state.players["a2"].checked_in
    _refused(state, PlayerCheckedIn("a1"), "nothing_to_change", "present")
    state = apply(state, PlayerCheckedIn("a1", present=False))
    assert not state.players["a1"].checked_in


def test_check_in_is_refused_once_round_1_is_paired():
    state = replay(
        [*_log(), RoundPaired("A", 1, (Board(1, "a1", "a2"), Board(2, "a3", "a4")))]
    )
    error = _refused(state, PlayerCheckedIn("a1"), "round_already_paired", "player_id")
    assert "before round 1" in error.message
    # Division B has no round paired: its check-in goes on.
    assert apply(state, PlayerCheckedIn("b1")).players["b1"].checked_in


def test_a_move_before_the_first_pairing_renumbers_both_divisions():
    state = replay([*_log(), PlayerMoved("a2", "B")])
    assert state.division_players["A"] == ("a1", "a3", "a4")
    assert state.division_players["B"] == ("b1", "b2", "a2")
    assert [state.players[p].number for p in ("a1", "a3", "a4")] == [1, 2, 3]
    assert (state.players["a2"].division, state.players["a2"].number) == ("B", 3)
    assert dict(state.cards) == derive_cards(state)
    # Division A pairs without the player who left, B with them.
    event = pair_next_round(state, "B", 1, PairingMethod.SWISS, coin_flips=[True] * 8)
    paired = {p for game in event.games for p in (game.first, game.second)}
    assert paired | set(event.byes) == {"b1", "b2", "a2"}


def test_a_move_after_the_first_pairing_is_refused_with_the_round():
    state = replay(
        [*_log(), RoundPaired("A", 1, (Board(1, "a1", "a2"), Board(2, "a3", "a4")))]
    )
    error = _refused(
        state, PlayerMoved("a2", "B"), "player_already_paired", "player_id"
    )
    assert "round 1 of division A" in error.message
    assert "before their first pairing" in error.message


def test_a_move_to_a_paired_division_is_a_late_entry_there():
    state = replay(
        [
            *_log(),
            PlayerRegistered("a5", "A", "Gus", 1400),
            RoundPaired("B", 1, (Board(1, "b1", "b2"),)),
        ]
    )
    state = apply(state, PlayerMoved("a5", "B"))
    assert state.players["a5"].joined_after_round == 1
    assert dict(state.cards) == derive_cards(state)


def test_a_move_names_a_division_that_exists_and_is_another():
    state = replay(_log())
    _refused(state, PlayerMoved("a1", "Z"), "unknown_division", "division")
    _refused(state, PlayerMoved("a1", "A"), "nothing_to_change", "division")


def test_a_division_may_play_fewer_rounds_than_the_tournament():
    state = replay([*_log(), DivisionRoundsSet("B", 2)])
    assert (state.rounds_of("A"), state.rounds_of("B")) == (7, 2)
    for round_ in (1, 2):
        state = apply(state, RoundPaired("B", round_, (Board(1, "b1", "b2"),)))
        state = apply(
            state, ResultRecorded(round_, "b1", "b2", score_a=400, score_b=300)
        )
    error = _refused(
        state, RoundPaired("B", 3, (Board(1, "b1", "b2"),)), "invalid_round", "round"
    )
    assert "Division B plays 2 rounds" in error.message
    with pytest.raises(TournamentError) as caught:
        pair_next_round(state, "B", 3, PairingMethod.SWISS, coin_flips=[True] * 8)
    assert caught.value.field == "round"
    # Division A still plays the tournament's 7.
    assert pairing_inputs(state, "A", 1).rounds == 7


def test_the_pairing_counts_the_rounds_left_in_the_division():
    """Gibsonization reads how many rounds are left: the division's, not the
    tournament's."""
    state = replay([*_log(), DivisionRoundsSet("A", 3)])
    inputs = pairing_inputs(state, "A", 1)
    assert (inputs.rounds, inputs.rounds_left) == (3, 3)


def test_division_rounds_are_checked():
    state = replay(_log())
    _refused(state, DivisionRoundsSet("A", 8), "invalid_setting", "rounds")
    _refused(state, DivisionRoundsSet("A", 0), "invalid_setting", "rounds")
    _refused(state, DivisionRoundsSet("Z", 3), "unknown_division", "division")
    _refused(state, DivisionRoundsSet("A", None), "nothing_to_change", "rounds")
    state = apply(
        state, RoundPaired("A", 1, (Board(1, "a1", "a2"), Board(2, "a3", "a4")))
    )
    state = apply(
        state, RoundPaired("A", 2, (Board(1, "a1", "a3"), Board(2, "a2", "a4")))
    )
    error = _refused(
        state, DivisionRoundsSet("A", 1), "rounds_already_paired", "rounds"
    )
    assert "2 rounds paired" in error.message
    state = apply(state, DivisionRoundsSet("A", 2))
    assert apply(state, DivisionRoundsSet("A", None)).rounds_of("A") == 7


def test_no_shows_withdrawn_before_round_1_are_not_paired():
    """The console's removal of no-shows is a withdrawal from round 1 under
    not_paired (tsh marks such a player inactive: they keep their line)."""
    state = replay(
        [
            *_log(),
            PlayerCheckedIn("a1"),
            PlayerCheckedIn("a2"),
            PlayerWithdrawn("a3", 1, "not_paired"),
            PlayerWithdrawn("a4", 1, "not_paired"),
        ]
    )
    event = pair_next_round(state, "A", 1, PairingMethod.SWISS, coin_flips=[True] * 8)
    assert {(g.first, g.second) for g in event.games} <= {("a1", "a2"), ("a2", "a1")}
    assert event.byes == ()


def _random_registration_event(data, state) -> object:
    division = data.draw(st.sampled_from(["A", "B"]))
    ids = list(state.division_players[division])
    kind = data.draw(
        st.sampled_from(["pair", "pair", "result", "move", "check", "rounds", "out"])
    )
    if kind == "rounds":
        return DivisionRoundsSet(
            division, data.draw(st.one_of(st.none(), st.integers(1, 7)))
        )
    if not ids:
        return DivisionAdded(division)  # refused: a no-op step
    player = data.draw(st.sampled_from(ids))
    if kind == "move":
        return PlayerMoved(player, "B" if division == "A" else "A")
    if kind == "check":
        return PlayerCheckedIn(player, data.draw(st.booleans()))
    if kind == "out":
        return PlayerWithdrawn(player, 1, "not_paired")
    round_ = state.paired_rounds(division) + data.draw(st.integers(0, 1))
    round_ = max(round_, 1)
    if kind == "pair":
        order = data.draw(st.permutations(ids))
        games = tuple(
            Board(i // 2 + 1, order[i], order[i + 1])
            for i in range(0, len(order) - 1, 2)
        )
        return RoundPaired(division, round_, games, tuple(order[len(games) * 2 :]))
    found = state.round_state(division, round_)
    if found is None or not found.pairing.games:
        return DivisionAdded(division)
    game = data.draw(st.sampled_from(list(found.pairing.games)))
    return ResultRecorded(round_, game.first, game.second, 400, 350)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_registration_day_replays_and_keeps_every_card_right(data):
    """Whatever the order of check-ins, moves, rounds per division, withdrawals,
    pairings and results (legal or refused), every card equals a recomputation,
    each division's numbers run 1..n, and a replay of the log gives the same
    state."""
    log = _log()
    state = replay(log)
    for _ in range(data.draw(st.integers(1, 40))):
        event = _random_registration_event(data, state)
        try:
            new_state = apply(state, event)
        except TournamentError:
            continue
        log.append(event)
        state = new_state
        assert dict(state.cards) == derive_cards(state)
        for division, ids in state.division_players.items():
            numbers = [state.players[p].number for p in ids]
            assert numbers == list(range(1, len(ids) + 1))
            assert {state.players[p].division for p in ids} <= {division}
            assert state.paired_rounds(division) <= state.rounds_of(division)
    assert replay(log) == state
