"""Issue 34, item 5: pairings that explain themselves.

A system pairing keeps, in its ``RoundPaired``, why each board is what it is: the
ranks and score groups it was paired on, the repeats it avoided (players nearer in
the standings the chooser had met) and the opponents passed over to keep the rest
of the round free of repeats, who goes first and why, the bye's reason; a hand
pairing keeps what the system would have done. The cases are small enough to
check by hand (each says why).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.division_rules import PairingOptions
from rules.pairing import (
    PairingInputs,
    System,
    differences,
    pair_next_round,
    pair_ranked,
    would_pair,
)
from rules.tournament import (
    Board,
    DivisionAdded,
    PairingMethod,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentError,
    apply,
    replay,
)


def _field(players: int, rounds: int = 4):
    return replay(
        [
            TournamentCreated(
                name="Why",
                start_date="2026-11-27",
                end_date="2026-11-27",
                rounds=rounds,
            ),
            DivisionAdded(name="A"),
            *(
                PlayerRegistered(
                    player_id=f"p{i}", division="A", name=f"P{i}", rating=2000 - i
                )
                for i in range(1, players + 1)
            ),
        ]
    )


def _won(state, round_, winner, loser, by):
    return apply(
        state,
        ResultRecorded(
            round=round_, player_a=winner, player_b=loser, score_a=400 + by, score_b=400
        ),
    )


def _pair(state, round_, flips=(True, False, True)):
    event = pair_next_round(state, "A", round_, PairingMethod.SWISS, flips)
    return apply(state, event), event


def _two_rounds():
    """Four players after two Swiss rounds: p1 2 wins; p2 1 win (+40); p3 1 win
    (-80); p4 none. Round 1 paired 1v3 and 2v4 (Swiss distance in one group of
    four), round 2 the score groups: 1v2 and 3v4."""
    state, _ = _pair(_field(4), 1)
    state = _won(_won(state, 1, "p1", "p3", 100), 1, "p2", "p4", 50)
    state, event = _pair(state, 2)
    assert {frozenset((g.first, g.second)) for g in event.games} == {
        frozenset(("p1", "p2")),
        frozenset(("p3", "p4")),
    }
    return _won(_won(state, 2, "p1", "p2", 10), 2, "p3", "p4", 20)


def test_the_leader_s_board_names_the_repeats_it_avoided():
    # Round 3: p1 has met p2 (last round) and p3 (round 1), both nearer than p4;
    # the only pairing without a repeat is 1v4, 2v3.
    _state, event = _pair(_two_rounds(), 3)
    reasons = event.reasons
    assert reasons is not None
    assert reasons.system == "swiss"
    assert reasons.based_on_round == 2
    assert reasons.repeat_limit == 0
    assert reasons.over_limit == 0
    assert reasons.back_to_back == 0
    by_pair = {frozenset((b.first, b.second)): b for b in reasons.boards}
    leader = by_pair[frozenset(("p1", "p4"))]
    assert leader.chooser == "p1"
    assert leader.passed_over_met == ("p2", "p3")  # nearest first
    assert leader.passed_over == ()
    assert leader.met_before == 0
    ranks = {leader.first: leader.rank_first, leader.second: leader.rank_second}
    assert ranks == {"p1": 1, "p4": 4}
    groups = {leader.first: leader.group_first, leader.second: leader.group_second}
    assert groups == {"p1": 4, "p4": 0}  # two wins, none: in half points
    other = by_pair[frozenset(("p2", "p3"))]
    assert other.chooser == "p2"
    assert other.passed_over_met == ()


def test_the_reasons_are_the_event_s_own_boards_and_who_goes_first():
    state = _two_rounds()
    state, event = _pair(state, 3)
    assert {(b.board, b.first, b.second) for b in event.reasons.boards} == {
        (g.board, g.first, g.second) for g in event.games
    }
    # Who goes first, as the reason says: fewer firsts, else more seconds, else
    # the recorded coin flips in board order of consumption.
    flips = list(event.coin_flips)
    for board in event.reasons.boards:
        first = state.cards[board.first].entries[:2]
        second = state.cards[board.second].entries[:2]
        f1 = sum(1 for e in first if e and e.went_first is True)
        f2 = sum(1 for e in second if e and e.went_first is True)
        s1 = sum(1 for e in first if e and e.went_first is False)
        s2 = sum(1 for e in second if e and e.went_first is False)
        if board.first_by == "fewer_firsts":
            assert f1 < f2
        elif board.first_by == "more_seconds":
            assert f1 == f2
            assert s1 > s2
        else:
            assert board.first_by == "coin_flip"
            assert (f1, s1) == (f2, s2)
            assert board.coin_flip is not None
    used = [b.coin_flip for b in event.reasons.boards if b.first_by == "coin_flip"]
    assert sorted(used) == sorted(flips)


def test_an_opponent_passed_over_to_keep_the_rest_of_the_round_clean():
    # King of the Hill under a limit of no repeats: p1 would meet p2, but then
    # p3 and p4 (who met) would have to meet again; so 1v3 and 2v4.
    inputs = PairingInputs(
        ranked=("p1", "p2", "p3", "p4"),
        score_groups={},
        played=(("p3", "p4"),),
        byes={},
        firsts={},
        seconds={},
    )
    pairing = pair_ranked(
        System.KING_OF_THE_HILL,
        inputs,
        PairingOptions(max_repeats=0),
        (True, True),
    )
    by_chooser = {b.chooser: b for b in pairing.reasons.boards}
    assert by_chooser["p1"].passed_over == ("p2",)
    assert by_chooser["p1"].passed_over_met == ()
    assert {by_chooser["p1"].first, by_chooser["p1"].second} == {"p1", "p3"}


def test_the_bye_says_fewest_byes_then_lowest_ranked():
    state, event = _pair(_field(5), 1)
    assert event.byes == ("p5",)
    (bye,) = event.reasons.byes
    assert (bye.player, bye.byes_before, bye.rank) == ("p5", 0, 5)
    for game in event.games:
        state = _won(state, 1, game.first, game.second, 30)
    state, event = _pair(state, 2)
    (bye,) = event.reasons.byes
    # p5 had the bye: the lowest-ranked among those with none has it now.
    assert bye.player != "p5"
    assert bye.byes_before == 0
    ranking = _ranking(state, 1)
    assert ranking[bye.player] == bye.rank
    assert {p for p, rank in ranking.items() if rank > bye.rank} <= {"p5"}


def _ranking(state, after):
    from rules.tournament.standings import ranked_player_ids

    return {p: i + 1 for i, p in enumerate(ranked_player_ids(state, "A", after))}


def test_a_hand_pairing_keeps_what_the_system_would_have_done():
    state = _two_rounds()
    reasons = would_pair(state, "A", 3, (True, True))
    assert {frozenset((b.first, b.second)) for b in reasons.boards} == {
        frozenset(("p1", "p4")),
        frozenset(("p2", "p3")),
    }
    # The director pairs 1v3 and 2v4 by hand: everyone has another opponent.
    assert differences(reasons, [("p1", "p3"), ("p2", "p4")]) == (
        "p1",
        "p2",
        "p3",
        "p4",
    )
    assert differences(reasons, [("p4", "p1"), ("p3", "p2")]) == ()
    hand = RoundPaired(
        division="A",
        round=3,
        games=(Board(1, "p1", "p3"), Board(2, "p2", "p4")),
        reasons=reasons,
    )
    # The rules accept it; the state keeps the games, the log the reasons.
    assert apply(state, hand).round_state("A", 3).pairing.games == hand.games


def test_the_system_cannot_pair_says_why():
    state, _ = _pair(_field(4), 1)  # round 1 has no results yet
    reasons = would_pair(state, "A", 2)
    assert reasons.boards == ()
    assert "Round 1" in reasons.unavailable


def test_reasons_that_are_not_the_pairing_s_own_are_refused():
    state = _two_rounds()
    event = pair_next_round(state, "A", 3, PairingMethod.SWISS, (True, True))
    wrong = replace(
        event.reasons,
        boards=(
            replace(event.reasons.boards[0], second="p2"),
            *event.reasons.boards[1:],
        ),
    )
    with pytest.raises(TournamentError) as refused:
        apply(state, replace(event, reasons=wrong))
    assert refused.value.code == "invalid_pairing"
    assert refused.value.field == "reasons"
