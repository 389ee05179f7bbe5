"""Pairing the last rounds: Gibsons, Chew, COP; InitFontes; repeats and boards."""

from __future__ import annotations

import pytest

from rules.contention import Standing, best_finishes, can_catch, gibsons
from rules.division_rules import FixedBoard
from rules.matching import min_cost_perfect_matching
from rules.pairing import (
    PairingInputs,
    PairingOptions,
    System,
    assign_boards,
    init_fontes_groups,
    pair_chew,
    pair_cop,
    pair_init_fontes,
    pair_next_round,
    pair_ranked,
    pair_round,
    pair_swiss,
    round_repeats,
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


def inputs(records, *, rounds_left, played=(), rounds=10):
    """Inputs for players given best first as (id, points, spread)."""
    return PairingInputs(
        ranked=tuple(p for p, _, _ in records),
        score_groups={p: w for p, w, _ in records},
        played=tuple(played),
        byes={},
        firsts={},
        seconds={},
        spreads={p: s for p, _, s in records},
        rounds_left=rounds_left,
        rounds=rounds,
    )


def games(pairing):
    return {frozenset((g.first, g.second)) for g in pairing.games}


# --- Contention -----------------------------------------------------------------------


def test_catching_up_on_spread_counts_both_players_moving():
    """Two wins behind with one round left: caught only if 2 x 500 closes the
    spread gap, exactly closing it included."""
    leader = Standing("a", 10, 1000)
    assert can_catch(leader, Standing("b", 8, 0), 1, 500)
    assert not can_catch(leader, Standing("b", 8, -1), 1, 500)
    assert not can_catch(leader, Standing("b", 6, 900), 1, 500)
    assert can_catch(leader, Standing("b", 6, 0), 2, 500)


def test_gibsons_are_consecutive_from_the_top_within_the_prize_places():
    """1st and 2nd are decided; 3rd could still be caught by 4th."""
    field = [
        Standing("a", 16, 0),
        Standing("b", 12, 0),
        Standing("c", 8, 0),
        Standing("d", 8, -10),
    ]
    assert gibsons(field, 1, 500, places=3) == ("a", "b")
    assert gibsons(field, 1, 500, places=1) == ("a",)
    assert best_finishes(field, 1, 500) == {"a": 1, "b": 2, "c": 3, "d": 3}


# --- Gibsonization --------------------------------------------------------------------


RECORDS = [
    ("lead", 16, 600),
    ("b", 10, 100),
    ("c", 10, 50),
    ("d", 9, 0),
    ("e", 4, -100),
    ("f", 4, -200),
    ("g", 2, -300),
    ("h", 2, -400),
]


def test_a_clinched_leader_meets_the_highest_player_out_of_the_money():
    """With two places paid and one round left, e (2 wins behind the money with
    one round to go) is the highest-ranked player who cannot reach a prize."""
    options = PairingOptions(gibson=True, prize_places=2)
    plain = inputs(RECORDS, rounds_left=1)
    pairing = pair_swiss(
        plain.ranked, score_groups=plain.score_groups, coin_flips=[True] * 4
    )
    assert frozenset(("lead", "e")) not in games(pairing)  # plain Swiss does not
    gibsonized = pair_ranked(
        System.SWISS, inputs(RECORDS, rounds_left=1), options, [True] * 4
    )
    assert frozenset(("lead", "e")) in games(gibsonized)


def test_the_gibson_prefers_an_opponent_met_least():
    """e already met the leader: f, the next non-contender, is chosen."""
    options = PairingOptions(gibson=True, prize_places=2)
    pairing = pair_ranked(
        System.KING_OF_THE_HILL,
        inputs(RECORDS, rounds_left=1, played=[("lead", "e")]),
        options,
        [True] * 4,
    )
    assert frozenset(("lead", "f")) in games(pairing)


def test_a_gibson_has_the_bye_in_an_odd_field():
    """Seven players: the clinched leader sits out."""
    pairing = pair_chew(
        inputs(RECORDS[:7], rounds_left=1),
        PairingOptions(prize_places=2),
        [True] * 4,
    )
    assert pairing.byes == ("lead",)


# --- Chew and COP ---------------------------------------------------------------------


CONTEST = [
    ("a", 14, 300),
    ("b", 14, 200),
    ("c", 12, 250),
    ("d", 12, 100),
    ("e", 8, 0),
    ("f", 8, -50),
    ("g", 6, -300),
    ("h", 4, -500),
]


def test_chew_pairs_the_leaders_who_can_catch_each_other():
    """Two rounds left, one prize: a-d... the four who can still win play each
    other (1v4, 2v3), the rest Swiss."""
    pairing = pair_chew(
        inputs(CONTEST, rounds_left=2), PairingOptions(prize_places=1), [True] * 4
    )
    assert {frozenset(("a", "d")), frozenset(("b", "c"))} <= games(pairing)


def test_cop_is_king_of_the_hill_among_cashers_in_the_last_round():
    """Last round, three places paid: the cashers play 1v2, 3v4, even if 1 and 2
    already met (COP weighs repeats, it does not forbid them)."""
    pairing = pair_cop(
        inputs(CONTEST, rounds_left=1, played=[("a", "b")]),
        PairingOptions(prize_places=3),
        [True] * 4,
    )
    assert {frozenset(("a", "b")), frozenset(("c", "d"))} <= games(pairing)


def test_cop_honours_a_repeat_limit_before_its_weights():
    """With a limit of no repeats, a and b (who met) are kept apart."""
    pairing = pair_cop(
        inputs(CONTEST, rounds_left=1, played=[("a", "b")]),
        PairingOptions(prize_places=3, max_repeats=0),
        [True] * 4,
    )
    assert frozenset(("a", "b")) not in games(pairing)


def test_min_cost_perfect_matching_picks_the_cheapest_whole_pairing():
    """Greedy would take the cheap (0, 1); the whole round is cheaper without."""
    costs = {(0, 1): 1, (2, 3): 100, (0, 2): 5, (1, 3): 5, (0, 3): 50, (1, 2): 50}
    assert min_cost_perfect_matching(4, costs) == [2, 3, 0, 1]


# --- InitFontes -----------------------------------------------------------------------


def test_init_fontes_groups_take_one_player_from_each_quarter():
    """Sixteen players, three rounds: four groups of four, one per quartile."""
    players = [f"r{i}" for i in range(1, 17)]
    groups = init_fontes_groups(players, 3)
    assert len(groups) == 4
    for group in groups:
        quartiles = sorted((int(p[1:]) - 1) // 4 for p in group)
        assert quartiles == [0, 1, 2, 3]


@pytest.mark.parametrize("n", [8, 9, 13, 16, 21])
def test_init_fontes_rounds_never_repeat(n):
    """Three opening rounds: everyone seated each round, nobody meets twice."""
    players = [f"r{i}" for i in range(n)]
    met = set()
    for round_ in (1, 2, 3):
        pairing = pair_init_fontes(players, 3, round_)
        seated = [p for g in pairing.games for p in (g.first, g.second)]
        assert sorted(seated + list(pairing.byes)) == sorted(players)
        for game in pairing.games:
            pair = frozenset((game.first, game.second))
            assert pair not in met
            met.add(pair)


# --- Repeats, boards, recording -------------------------------------------------------


def state_after_round_one():
    state = replay(
        [
            TournamentCreated("Club", "2025-03-01", "2025-03-01", 5),
            DivisionAdded("A"),
            *[PlayerRegistered(f"p{i}", "A", f"P{i}", 2000 - i) for i in range(1, 5)],
            RoundPaired("A", 1, (Board(1, "p1", "p2"), Board(2, "p3", "p4"))),
        ]
    )
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 300))
    return apply(state, ResultRecorded(1, "p3", "p4", 400, 300))


def test_round_repeats_lists_the_games_whose_players_met():
    """A hand pairing repeating p1-p2 shows the repeat and the round it was."""
    state = state_after_round_one()
    repeats = round_repeats(state, "A", 2, [("p2", "p1"), Board(2, "p3", "p1")])
    assert [(r.players, r.rounds, r.times) for r in repeats] == [
        (("p2", "p1"), (1,), 1)
    ]


def test_fixed_boards_keep_a_player_on_their_board():
    """p4 pinned to board 1 plays there; the other game takes board 2."""
    state = state_after_round_one()
    options = PairingOptions(fixed_boards=(FixedBoard("p4", 1),))
    pairing = pair_round(state, "A", 2, System.SWISS, [True] * 2, options=options)
    board = {p: g.board for g in pairing.games for p in (g.first, g.second)}
    assert board["p4"] == 1
    assert sorted(g.board for g in pairing.games) == [1, 2]


def test_two_games_on_one_fixed_board_is_refused():
    """Two pinned players in different games cannot share a board."""
    with pytest.raises(TournamentError) as caught:
        assign_boards([("a", "b"), ("c", "d")], {"a": 1, "c": 1})
    assert (caught.value.code, caught.value.field) == ("board_conflict", "fixed_boards")


def test_bad_options_are_refused_naming_the_option():
    """A negative repeat limit is an invalid setting of options.max_repeats."""
    with pytest.raises(TournamentError) as caught:
        pair_round(
            state_after_round_one(),
            "A",
            2,
            System.SWISS,
            options=PairingOptions(max_repeats=-1),
        )
    assert (caught.value.code, caught.value.field) == (
        "invalid_setting",
        "options.max_repeats",
    )


def test_default_options_pair_as_before():
    """No options and default options give the same event (old events replay)."""
    state = state_after_round_one()
    plain = pair_next_round(state, "A", 2, PairingMethod.SWISS, [True] * 2)
    assert plain == pair_next_round(
        state, "A", 2, "swiss", [True] * 2, options=PairingOptions()
    )


def test_every_pair_is_seated_once_over_a_whole_event_by_cop():
    """COP from round 2 to the end of a 7-player event: six different byes."""
    state = replay(
        [
            TournamentCreated("Club", "2025-03-01", "2025-03-01", 6),
            DivisionAdded("A"),
            *[PlayerRegistered(f"p{i}", "A", f"P{i}", 2000 - i) for i in range(1, 8)],
        ]
    )
    byes = []
    for round_ in range(1, 7):
        method = System.SWISS if round_ == 1 else System.COP
        pairing = pair_round(state, "A", round_, method, [True] * 4)
        byes += pairing.byes
        state = apply(state, RoundPaired("A", round_, pairing.games, pairing.byes))
        for game in pairing.games:
            state = apply(
                state, ResultRecorded(round_, game.first, game.second, 420, 380)
            )
    assert len(byes) == len(set(byes)) == 6
