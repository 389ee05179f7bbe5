"""Issue 32, items 8 and 9: round robin with late entries and withdrawals, the
whole schedule foretold for the scorecards, and the round schedule (tsh's
``autopair``) that pairs a round once the results it depends on are in."""

from __future__ import annotations

from collections import Counter

import pytest

from rules import tsh
from rules.pairing import (
    next_due_round,
    pair_next_round,
    pair_round_robin,
    pair_scheduled,
    projected_opponents,
)
from rules.tournament import (
    PairingMethod,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundScheduleSet,
    ScheduledRound,
    TournamentError,
    WithdrawalPolicy,
    apply,
)
from tests.rules_tests.test_pairing import created

RR = PairingMethod.ROUND_ROBIN


def finish(state, round_):
    """Record a result for every game of the round (the first mover wins)."""
    for game in state.round_state("A", round_).pairing.games:
        state = apply(state, ResultRecorded(round_, game.first, game.second, 400, 300))
    return state


def opponents(event):
    seen = {}
    for game in event.games:
        seen[game.first], seen[game.second] = game.second, game.first
    return seen


def late_entry(state, player_id="late"):
    return apply(state, PlayerRegistered(player_id, "A", f"Late {player_id}", 1500))


# --- Round robin: late entries and withdrawals ----------------------------------


def test_a_late_entry_takes_the_bye_seat_of_an_odd_round_robin():
    """7 players, a late entry after round 1: from round 2 on the late entry meets
    the player the table gave the bye, and nobody has a bye any more."""
    state = created(7)
    state = finish(apply(state, pair_next_round(state, "A", 1, RR)), 1)
    state = late_entry(state)
    starters = [f"p{i}" for i in range(1, 8)]
    met = Counter()
    for round_ in range(2, 8):
        event = pair_next_round(state, "A", round_, RR)
        table = pair_round_robin(starters, round_)
        assert event.byes == ()
        assert opponents(event)["late"] == table.byes[0]
        state = finish(apply(state, event), round_)
        met.update(frozenset((g.first, g.second)) for g in event.games)
    assert max(met.values()) == 1, "nobody meets anyone twice"
    assert sum(1 for pair in met if "late" in pair) == 6


def test_a_late_entry_takes_the_seat_of_a_player_withdrawn_not_paired():
    """8 players; one withdraws (not paired) from round 3, a late entry arrives
    after round 2: the late entry meets the withdrawn player's opponents."""
    state = created(8)
    for round_ in (1, 2):
        state = finish(apply(state, pair_next_round(state, "A", round_, RR)), round_)
    state = apply(state, PlayerWithdrawn("p3", 3, WithdrawalPolicy.NOT_PAIRED))
    state = late_entry(state)
    table = pair_round_robin([f"p{i}" for i in range(1, 9)], 3)
    event = pair_next_round(state, "A", 3, RR)
    assert opponents(event)["late"] == opponents(table)["p3"]
    assert event.byes == ()


def test_a_late_entry_without_a_free_seat_is_refused_by_name():
    """An even field and nobody withdrawn: the table has no seat, and the pairing
    says so instead of leaving the late entry out."""
    state = created(8)
    state = finish(apply(state, pair_next_round(state, "A", 1, RR)), 1)
    state = late_entry(state)
    with pytest.raises(TournamentError) as raised:
        pair_next_round(state, "A", 2, RR)
    assert raised.value.code == "no_round_robin_seat"
    assert "Late late" in raised.value.message


def test_the_scorecards_foretell_every_round_robin_round():
    """After round 1 of a 6-player round robin each player's rounds 2..5 are
    foretold, and they are what the pairings then give."""
    state = created(6, rounds=5)
    schedule = tuple(ScheduledRound(r, RR, r - 1) for r in range(1, 6))
    state = apply(state, RoundScheduleSet("A", schedule))
    state = finish(apply(state, pair_next_round(state, "A", 1, RR)), 1)
    foretold = projected_opponents(state, "A")
    assert set(foretold) == {f"p{i}" for i in range(1, 7)}
    assert all(set(rounds) == {2, 3, 4, 5} for rounds in foretold.values())
    for round_ in range(2, 6):
        event = pair_next_round(state, "A", round_, RR)
        for player_id, opponent in opponents(event).items():
            assert foretold[player_id][round_] == opponent
        state = finish(apply(state, event), round_)
    assert projected_opponents(state, "A") == {}


def test_a_round_robin_paired_by_click_is_foretold_to_the_end_of_its_cycle():
    """No schedule: round 1 paired as a round robin foretells the rest of the cycle
    (5 rounds for 6 players), within the tournament's rounds."""
    state = created(6, rounds=7)
    state = apply(state, pair_next_round(state, "A", 1, RR))
    foretold = projected_opponents(state, "A")
    assert set(foretold["p1"]) == {2, 3, 4, 5}


# --- The round schedule ---------------------------------------------------------


def test_a_scheduled_round_is_due_once_its_basis_is_complete():
    state = created(6, rounds=3)
    schedule = (
        ScheduledRound(1, RR, 0),
        ScheduledRound(2, PairingMethod.SWISS, 1),
        ScheduledRound(3, PairingMethod.KING_OF_THE_HILL, 2),
    )
    state = apply(state, RoundScheduleSet("A", schedule))
    assert state.schedule_of("A") == schedule
    assert next_due_round(state, "A") == schedule[0]
    event = pair_scheduled(state, "A", schedule[0])
    assert event.scheduled
    assert event.method is RR
    state = apply(state, event)
    assert next_due_round(state, "A") is None  # round 1 has no result yet
    games = state.round_state("A", 1).pairing.games
    state = apply(state, ResultRecorded(1, games[0].first, games[0].second, 400, 300))
    assert next_due_round(state, "A") is None  # two games still to come
    state = finish_rest(state, 1)
    assert next_due_round(state, "A") == schedule[1]


def finish_rest(state, round_):
    rs = state.round_state("A", round_)
    for game in rs.pairing.games:
        if rs.result_of(game.first, game.second) is None:
            state = apply(
                state, ResultRecorded(round_, game.first, game.second, 400, 300)
            )
    return state


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (ScheduledRound(0, RR, 0), "from 1 to 3"),
        (ScheduledRound(4, RR, 0), "from 1 to 3"),
        (ScheduledRound(2, PairingMethod.MANUAL, 1), "made by the director"),
        (ScheduledRound(2, RR, 2), "earlier round"),
    ],
)
def test_a_bad_schedule_line_is_refused_and_names_it(line, says):
    state = created(4, rounds=3)
    with pytest.raises(TournamentError) as raised:
        apply(state, RoundScheduleSet("A", (line,)))
    assert raised.value.code == "invalid_schedule"
    assert raised.value.field == "rounds"
    assert says in raised.value.message


def test_a_round_listed_twice_is_refused():
    state = created(4, rounds=3)
    line = ScheduledRound(1, RR, 0)
    with pytest.raises(TournamentError) as raised:
        apply(state, RoundScheduleSet("A", (line, line)))
    assert raised.value.code == "invalid_schedule"


# --- config.tsh's autopair lines ------------------------------------------------


def test_autopair_lines_become_a_division_schedule():
    """tsh's ``autopair DIVISION SOURCE TARGET COMMAND ARGS``: a round robin covers
    its cycle, the other systems one round each; a later line for a round wins."""
    config = (
        "division a a.t\n"
        "autopair a 0 1 rr a\n"
        "autopair a 5 6 cp 5 a\n"
        "autopair a 5 6 ns 1 5 a   # a later line for round 6\n"
        "autopair a 6 7 koth 0 6 a\n"
        "autopair a 6 7 pair1324 a\n"
        "autopair b 0 1 if 3 b\n"
    )
    lines = tsh.read_autopair(config)
    assert [line.line for line in lines] == [2, 3, 4, 5, 7]
    assert tsh.autopair_rounds(lines, "A", players=6, rounds=7) == (
        (1, RR, 0),
        (2, RR, 1),
        (3, RR, 2),
        (4, RR, 3),
        (5, RR, 4),
        (6, PairingMethod.SWISS, 5),
        (7, PairingMethod.KING_OF_THE_HILL, 6),
    )
    assert tsh.autopair_rounds(lines, "B", players=9, rounds=7) == (
        (1, PairingMethod.INIT_FONTES, 0),
        (2, PairingMethod.INIT_FONTES, 1),
        (3, PairingMethod.INIT_FONTES, 2),
    )


def test_a_double_round_robin_covers_two_cycles_within_the_rounds():
    lines = tsh.read_autopair("autopair a 0 1 rr 2 a\n")
    schedule = tsh.autopair_rounds(lines, "A", players=4, rounds=5)
    assert [entry[0] for entry in schedule] == [1, 2, 3, 4, 5]


def test_a_bad_autopair_round_is_refused_with_its_line():
    with pytest.raises(tsh.TshError) as raised:
        tsh.read_autopair("division a a.t\nautopair a x 1 rr a\n")
    assert raised.value.line == 2
