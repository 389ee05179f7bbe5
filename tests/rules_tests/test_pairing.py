"""System pairings: round robin, King of the Hill, Swiss, and who goes first."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from rules.pairing import (
    assign_firsts,
    coin_flips_needed,
    pair_king_of_the_hill,
    pair_next_round,
    pair_round_robin,
    pair_swiss,
    pairing_inputs,
)
from rules.records import EntryKind
from rules.tournament import (
    Board,
    DivisionAdded,
    PairingMethod,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentError,
    TournamentState,
    WithdrawalPolicy,
    apply,
    replay,
)


def created(players: int, rounds: int = 7) -> TournamentState:
    return replay(
        [
            TournamentCreated("Club", "2025-03-01", "2025-03-01", rounds),
            DivisionAdded("A"),
            *[
                PlayerRegistered(f"p{i}", "A", f"Player {i}", 2000 - 10 * i)
                for i in range(1, players + 1)
            ],
        ]
    )


def seated(games, byes=()):
    return [p for g in games for p in (g.first, g.second)] + list(byes)


# --- Round robin ----------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 17))
def test_round_robin_is_complete_and_fair(n):
    """Every pair meets exactly once per cycle, every player is seated once a round,
    odd fields give each player one bye, and firsts are balanced within one."""
    players = [f"x{i}" for i in range(n)]
    cycle = n - 1 if n % 2 == 0 else n
    met: Counter[frozenset[str]] = Counter()
    firsts: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    for round_ in range(1, cycle + 1):
        pairing = pair_round_robin(players, round_)
        assert sorted(seated(pairing.games, pairing.byes)) == sorted(players)
        assert [g.board for g in pairing.games] == list(
            range(1, len(pairing.games) + 1)
        )
        for game in pairing.games:
            met[frozenset((game.first, game.second))] += 1
            firsts[game.first] += 1
            seconds[game.second] += 1
        byes.update(pairing.byes)
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}
    assert byes == (Counter(players) if n % 2 else Counter())
    for player in players:
        assert abs(firsts[player] - seconds[player]) <= 1


@pytest.mark.parametrize("n", [4, 5, 8])
def test_round_robin_second_cycle_repeats_with_firsts_reversed(n):
    """A double round robin: cycle two has the same games, the other player first."""
    players = [f"x{i}" for i in range(n)]
    cycle = n - 1 if n % 2 == 0 else n
    for round_ in range(1, cycle + 1):
        one = pair_round_robin(players, round_)
        two = pair_round_robin(players, round_ + cycle)
        assert [(g.second, g.first) for g in two.games] == [
            (g.first, g.second) for g in one.games
        ]
        assert two.byes == one.byes


def test_round_robin_needs_two_players():
    """A round robin of one player is refused."""
    with pytest.raises(TournamentError) as caught:
        pair_round_robin(["solo"], 1)
    assert caught.value.code == "too_few_players"


# --- Who goes first -------------------------------------------------------------------


def test_fewest_firsts_goes_first_then_most_seconds_then_coin_flip():
    """Firsts balance: fewer firsts first; equal: more seconds; equal: the coin."""
    pairs = [("a", "b"), ("c", "d"), ("e", "f"), ("g", "h")]
    firsts = {"a": 2, "b": 1, "c": 1, "d": 1, "e": 0, "f": 0, "g": 1, "h": 1}
    seconds = {"a": 0, "b": 2, "c": 1, "d": 2, "e": 0, "f": 0, "g": 1, "h": 1}
    oriented, used = assign_firsts(
        pairs, firsts=firsts, seconds=seconds, coin_flips=[False, True, True]
    )
    assert oriented == (("b", "a"), ("d", "c"), ("f", "e"), ("g", "h"))
    assert used == (False, True)


def test_running_out_of_coin_flips_is_an_error():
    """Each tie consumes one coin flip; too few flips is refused."""
    with pytest.raises(TournamentError) as caught:
        assign_firsts([("a", "b")], firsts={}, seconds={}, coin_flips=[])
    assert caught.value.code == "not_enough_coin_flips"


# --- King of the Hill -----------------------------------------------------------------


def test_king_of_the_hill_pairs_neighbours_in_rank_order():
    """1v2, 3v4, 5v6 by the given ranking; repeats are allowed."""
    ranked = ["a", "b", "c", "d", "e", "f"]
    pairing = pair_king_of_the_hill(ranked, coin_flips=[True] * 3)
    assert [(g.first, g.second) for g in pairing.games] == [
        ("a", "b"),
        ("c", "d"),
        ("e", "f"),
    ]
    assert pairing.byes == ()
    assert pairing.coin_flips == (True, True, True)


def test_king_of_the_hill_bye_by_fewest_byes_rule():
    """Odd field: the bye goes to the lowest-ranked player with the fewest byes."""
    ranked = ["a", "b", "c", "d", "e"]
    pairing = pair_king_of_the_hill(
        ranked, byes={"e": 1}, firsts={"a": 1, "c": 1}, coin_flips=[]
    )
    assert pairing.byes == ("d",)
    assert [(g.first, g.second) for g in pairing.games] == [("b", "a"), ("e", "c")]


# --- Swiss ----------------------------------------------------------------------------


def test_swiss_pairs_top_half_against_bottom_half_of_a_score_group():
    """In a group of eight: 1v5, 2v6, 3v7, 4v8 (tsh's ideal Swiss distance)."""
    ranked = [f"r{i}" for i in range(1, 9)]
    pairing = pair_swiss(ranked, coin_flips=[True] * 4)
    assert [(g.first, g.second) for g in pairing.games] == [
        ("r1", "r5"),
        ("r2", "r6"),
        ("r3", "r7"),
        ("r4", "r8"),
    ]


def test_swiss_pairs_within_score_groups_first():
    """Players meet their own score group before anyone else."""
    ranked = ["w1", "w2", "w3", "w4", "l1", "l2", "l3", "l4"]
    groups = {p: (2 if p.startswith("w") else 0) for p in ranked}
    pairing = pair_swiss(ranked, score_groups=groups, coin_flips=[True] * 4)
    pairs = {frozenset((g.first, g.second)) for g in pairing.games}
    assert pairs == {
        frozenset(("w1", "w3")),
        frozenset(("w2", "w4")),
        frozenset(("l1", "l3")),
        frozenset(("l2", "l4")),
    }


def test_swiss_avoids_a_repeat_a_greedy_pairing_would_make():
    """Greedy top-down would leave c and d, who already met; Swiss must look ahead."""
    ranked = ["a", "b", "c", "d"]
    # Ideal Swiss: a-c then b-d; but b-d met, and a-d too; only a-b / c-d... met c-d.
    played = [("b", "d"), ("c", "d")]
    pairing = pair_swiss(ranked, played=played, coin_flips=[True] * 2)
    pairs = {frozenset((g.first, g.second)) for g in pairing.games}
    assert pairs == {frozenset(("a", "d")), frozenset(("b", "c"))}


def test_swiss_repeats_only_when_no_pairing_avoids_it():
    """Four players who all met: a repeat is unavoidable, and just two are made."""
    ranked = ["a", "b", "c", "d"]
    played = list(combinations(ranked, 2))
    pairing = pair_swiss(ranked, played=played, coin_flips=[True] * 2)
    assert len(pairing.games) == 2
    assert sorted(seated(pairing.games)) == ranked


def test_swiss_bye_goes_to_lowest_ranked_with_fewest_byes():
    """The bye: lowest-ranked among the players with the fewest byes."""
    ranked = ["a", "b", "c", "d", "e"]
    pairing = pair_swiss(ranked, byes={"e": 1, "d": 1}, coin_flips=[True] * 2)
    assert pairing.byes == ("c",)
    pairing = pair_swiss(ranked, coin_flips=[True] * 2)
    assert pairing.byes == ("e",)


def test_swiss_bye_yields_to_repeat_avoidance():
    """The bye moves up when giving it to the lowest-ranked player forces more
    repeats: a, b, c, d all met, so e's bye needs two repeats, d's only one."""
    ranked = ["a", "b", "c", "d", "e"]
    played = list(combinations(["a", "b", "c", "d"], 2))
    pairing = pair_swiss(ranked, played=played, coin_flips=[True] * 2)
    assert pairing.byes == ("d",)
    pairs = [frozenset((g.first, g.second)) for g in pairing.games]
    assert sum(frozenset(p) in pairs for p in played) == 1


# --- From the state -------------------------------------------------------------------


def test_pair_next_round_swiss_uses_standings_and_is_reproducible():
    """Round 2 Swiss follows the round-1 standings; the same coin flips give the same
    event, which the state accepts."""
    state = created(6)
    state = apply(
        state, pair_next_round(state, "A", 1, PairingMethod.SWISS, [True] * 3)
    )
    games = state.round_state("A", 1).pairing.games
    for game in games:
        state = apply(
            state,
            ResultRecorded(1, game.first, game.second, 300 + 10 * game.board, 350),
        )
    flips = [False, True, False]
    event = pair_next_round(state, "A", 2, PairingMethod.SWISS, flips)
    assert event == pair_next_round(
        state, "A", 2, PairingMethod.SWISS, event.coin_flips
    )
    winners = {g.second for g in games}
    top_board = {event.games[0].first, event.games[0].second}
    assert top_board <= winners
    state = apply(state, event)
    assert state.round_state("A", 2).pairing.method is PairingMethod.SWISS
    earlier = {frozenset((g.first, g.second)) for g in games}
    assert all(frozenset((g.first, g.second)) not in earlier for g in event.games)


@pytest.mark.parametrize(
    "method", [PairingMethod.SWISS, PairingMethod.KING_OF_THE_HILL]
)
def test_a_national_division_gets_a_coin_flip_for_every_game(method):
    """300 players: 150 games in round 1, each a tie for who goes first (a fixed
    64 flips refused any division over 128 players)."""
    state = replay(
        [
            TournamentCreated("Nationals", "2025-08-01", "2025-08-05", 31),
            DivisionAdded("A"),
            *[
                PlayerRegistered(f"p{i}", "A", f"Player {i}", 2100 - i)
                for i in range(1, 301)
            ],
        ]
    )
    needed = coin_flips_needed(state, "A")
    assert needed == 150
    event = pair_next_round(state, "A", 1, method, [True, False] * (needed // 2))
    assert len(event.games) == 150
    assert len(event.coin_flips) == 150
    state = apply(state, event)
    assert state.round_state("A", 1).pairing.games == event.games
    assert coin_flips_needed(state, "B") == 0


def test_pair_next_round_refuses_while_the_previous_round_is_incomplete():
    """Swiss pairings need every result of the round they are based on."""
    state = created(4)
    state = apply(
        state, pair_next_round(state, "A", 1, PairingMethod.SWISS, [True] * 2)
    )
    with pytest.raises(TournamentError) as caught:
        pair_next_round(state, "A", 2, PairingMethod.SWISS, [True] * 2)
    assert caught.value.code == "previous_round_incomplete"


def test_withdrawn_players_are_left_out_and_forfeit_policy_scores_a_loss():
    """System pairings skip withdrawn players; forfeit policy then scores a loss."""
    state = created(5)
    state = apply(state, PlayerWithdrawn("p2", 1, WithdrawalPolicy.FORFEIT))
    event = pair_next_round(state, "A", 1, PairingMethod.KING_OF_THE_HILL, [True] * 2)
    assert "p2" not in seated(event.games, event.byes)
    assert event.byes == ()
    state = apply(state, event)
    assert state.cards["p2"].entries[0].kind is EntryKind.WITHDRAWAL_FORFEIT


def test_round_robin_from_state_gives_the_bye_to_a_not_paired_withdrawal_opponent():
    """In a round robin, a not_paired withdrawal's scheduled opponent gets a bye."""
    state = created(4, rounds=3)
    state = apply(state, pair_next_round(state, "A", 1, PairingMethod.ROUND_ROBIN))
    for game in state.round_state("A", 1).pairing.games:
        state = apply(state, ResultRecorded(1, game.first, game.second, 400, 300))
    state = apply(state, PlayerWithdrawn("p3", 2, WithdrawalPolicy.NOT_PAIRED))
    event = pair_next_round(state, "A", 2, PairingMethod.ROUND_ROBIN)
    table = pair_round_robin(["p1", "p2", "p3", "p4"], 2)
    partner = next(
        g.first if g.second == "p3" else g.second
        for g in table.games
        if "p3" in (g.first, g.second)
    )
    assert event.byes == (partner,)
    assert len(event.games) == 1
    apply(state, event)


def test_pairing_inputs_count_byes_firsts_and_meetings():
    """The inputs of a system pairing come from the earlier rounds."""
    state = created(3)
    state = apply(state, RoundPaired("A", 1, (Board(1, "p2", "p3"),), ("p1",)))
    state = apply(state, ResultRecorded(1, "p2", "p3", 400, 300))
    inputs = pairing_inputs(state, "A", 2)
    assert inputs.ranked == ("p2", "p1", "p3")  # 1-0 +100, 1-0 +50, 0-1
    assert inputs.byes == {"p1": 1}
    assert inputs.firsts == {"p2": 1}
    assert inputs.seconds == {"p3": 1}
    assert inputs.played == (("p2", "p3"),)
    assert inputs.score_groups == {"p1": 2, "p2": 2, "p3": 0}


def test_pair_next_round_refuses_manual_method():
    """Manual pairings come from the director, not from the system."""
    with pytest.raises(TournamentError) as caught:
        pair_next_round(created(4), "A", 1, PairingMethod.MANUAL)
    assert (caught.value.code, caught.value.field) == ("invalid_setting", "method")
