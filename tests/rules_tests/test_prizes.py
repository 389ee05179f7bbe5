"""Prize winners on a hand-built tournament (golden), ties split as the table says."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.prizes import (
    Prize,
    PrizeKind,
    PrizeTable,
    RatingClass,
    TieBreak,
    TieRule,
    player_classes,
    prize_winners,
)
from rules.tournament import (
    Board,
    DivisionAdded,
    PlayerRegistered,
    Ranking,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentError,
    replay,
)

CLASSES = (RatingClass("A", lowest=1500), RatingClass("B", highest=1499))

# Round by round: (first, second, first's score, second's score).
RESULTS = {
    1: [("p1", "p4", 400, 350), ("p2", "p5", 380, 390), ("p3", "p6", 450, 300)],
    2: [("p1", "p5", 420, 400), ("p3", "p2", 500, 300), ("p4", "p6", 410, 360)],
    3: [("p1", "p3", 350, 380), ("p5", "p4", 300, 340), ("p2", "p6", 410, 400)],
}


def event():
    """Final standings (tsh ranking): p3 3-0 +380; p1 and p4 2-1 +40 (tied 2nd);
    p5 1-2 -50; p2 1-2 -200; p6 0-3."""
    ratings = {"p1": 1900, "p2": 1800, "p3": 1700, "p4": 1400, "p5": 1300, "p6": 1200}
    events = [
        TournamentCreated("Open", "2025-05-01", "2025-05-01", 3, ranking=Ranking.TSH),
        DivisionAdded("A"),
        *[PlayerRegistered(p, "A", p.upper(), r) for p, r in ratings.items()],
    ]
    for round_, games in RESULTS.items():
        boards = tuple(Board(i, a, b) for i, (a, b, _, _) in enumerate(games, 1))
        events.append(RoundPaired("A", round_, boards))
        events += [ResultRecorded(round_, a, b, sa, sb) for a, b, sa, sb in games]
    return replay(events)


def awards(*prizes, classes=CLASSES):
    won = prize_winners(event(), "A", PrizeTable(prizes=prizes, classes=classes))
    return [(a.prize_index, a.player_id, a.amount, a.value, a.round) for a in won]


def test_classes_follow_the_rating_bands():
    """Each player is in the first class whose band holds their rating."""
    assert player_classes(event(), "A", CLASSES) == {
        "p1": "A",
        "p2": "A",
        "p3": "A",
        "p4": "B",
        "p5": "B",
        "p6": "B",
    }


def test_place_prizes_split_pools_the_places_the_tied_players_occupy():
    """p1 and p4 tie for 2nd: each gets half of 2nd and half of 3rd."""
    won = awards(
        Prize(PrizeKind.PLACE, 10000, place=1),
        Prize(PrizeKind.PLACE, 6000, place=2),
        Prize(PrizeKind.PLACE, 4000, place=3),
        Prize(PrizeKind.PLACE, 1000, place=4),
    )
    assert won == [
        (0, "p3", 10000, 1, None),
        (1, "p1", 3000, 2, None),
        (1, "p4", 3000, 2, None),
        (2, "p1", 2000, 2, None),
        (2, "p4", 2000, 2, None),
        (3, "p5", 1000, 4, None),
    ]


def test_place_prizes_to_all_tied_players():
    """``all``: each tied player gets the whole prize."""
    won = awards(Prize(PrizeKind.PLACE, 6000, place=2, ties=TieRule.ALL))
    assert won == [(0, "p1", 6000, 2, None), (0, "p4", 6000, 2, None)]


def test_place_prizes_by_the_tables_tie_break():
    """``tie_break`` (lower rating): p4 (1400) takes 2nd, p1 (1900) 3rd."""
    rule = {"ties": TieRule.TIE_BREAK, "tie_break": TieBreak.LOWER_RATING}
    won = awards(
        Prize(PrizeKind.PLACE, 6000, place=2, **rule),
        Prize(PrizeKind.PLACE, 4000, place=3, **rule),
    )
    assert won == [(0, "p4", 6000, 2, None), (1, "p1", 4000, 2, None)]


def test_exclusive_prizes_pass_over_a_player_who_already_won():
    """p4 shares 2nd place money, so the class B prize of the same exclusive group
    goes to the next class B player, p5; most wins in class B is not exclusive."""
    won = awards(
        Prize(PrizeKind.PLACE, 10000, place=1, exclusive="cash"),
        Prize(PrizeKind.PLACE, 6000, place=2, exclusive="cash"),
        Prize(PrizeKind.PLACE, 3000, rating_class="B", exclusive="cash"),
        Prize(PrizeKind.MOST_WINS, 1500, rating_class="B"),
    )
    assert won == [
        (0, "p3", 10000, 1, None),
        (1, "p1", 3000, 2, None),
        (1, "p4", 3000, 2, None),
        (2, "p5", 3000, 4, None),
        (3, "p4", 1500, 4, None),  # two wins: value is twice the wins
    ]


def test_game_prizes():
    """High game 500 (p3, round 2); low win 340 (p4, round 3); best upset: p5
    (1300) beat p2 (1800), a 500-point gap; high loss ties at 400 (p5 round 2,
    p6 round 3) and is split."""
    won = awards(
        Prize(PrizeKind.HIGH_GAME, 2000),
        Prize(PrizeKind.LOW_WIN, 1000),
        Prize(PrizeKind.BEST_UPSET, 2500),
        Prize(PrizeKind.HIGH_LOSS, 1500),
    )
    assert won == [
        (0, "p3", 2000, 500, 2),
        (1, "p4", 1000, 340, 3),
        (2, "p5", 2500, 500, 1),
        (3, "p5", 750, 400, 2),
        (3, "p6", 750, 400, 3),
    ]


def test_an_unrated_newcomer_wins_no_best_upset():
    """A newcomer without a rating who beats an 1800 makes no upset (tsh's upset
    reports skip unrated players; no rating gap without a rating): the prize goes
    to the biggest upset between rated players, as the reports list it."""
    events = [
        TournamentCreated("Open", "2025-05-01", "2025-05-01", 1),
        DivisionAdded("A"),
        PlayerRegistered("new", "A", "NEW", 0),
        PlayerRegistered("top", "A", "TOP", 1800),
        PlayerRegistered("low", "A", "LOW", 1400),
        PlayerRegistered("mid", "A", "MID", 1500),
        RoundPaired("A", 1, (Board(1, "new", "top"), Board(2, "low", "mid"))),
        ResultRecorded(1, "new", "top", 420, 380),
        ResultRecorded(1, "low", "mid", 400, 390),
    ]
    table = PrizeTable(prizes=(Prize(PrizeKind.BEST_UPSET, 1000),))
    won = prize_winners(replay(events), "A", table)
    assert [(a.player_id, a.value, a.opponent) for a in won] == [("low", 100, "mid")]


def test_game_prize_tie_broken_by_the_earlier_game_and_limited_to_rounds():
    """The high loss tie goes to the earlier game; limited to round 3, p6 alone."""
    won = awards(
        Prize(
            PrizeKind.HIGH_LOSS,
            1500,
            ties=TieRule.TIE_BREAK,
            tie_break=TieBreak.EARLIER_ROUND,
        ),
        Prize(PrizeKind.HIGH_LOSS, 1500, first_round=3, last_round=3),
    )
    assert won == [(0, "p5", 1500, 400, 2), (1, "p6", 1500, 400, 3)]


def test_a_three_way_split_keeps_exact_fractions():
    """Split three ways, a prize leaves thirds of a cent: kept exact."""
    state = event()
    table = PrizeTable(prizes=(Prize(PrizeKind.PLACE, 1000, place=1),))
    # After round 1 p1, p3 and p5 are 1-0 but with different spreads; by wins
    # alone (most wins) the three tie.
    most = PrizeTable(prizes=(Prize(PrizeKind.MOST_WINS, 1000),))
    won = prize_winners(state, "A", most, after_round=1)
    # Listed by the tie-break (player number by default).
    assert [(a.player_id, a.amount, a.shared_with) for a in won] == [
        ("p1", Fraction(1000, 3), 3),
        ("p3", Fraction(1000, 3), 3),
        ("p5", Fraction(1000, 3), 3),
    ]
    assert sum(a.amount for a in won) == 1000
    assert [a.player_id for a in prize_winners(state, "A", table, after_round=1)] == [
        "p3"
    ]


def test_a_prize_nobody_qualifies_for_has_no_award():
    """Nobody in class B has a 4th place: no award."""
    assert awards(Prize(PrizeKind.PLACE, 500, place=4, rating_class="B")) == []


@pytest.mark.parametrize(
    ("table", "field"),
    [
        (PrizeTable((Prize(PrizeKind.PLACE, -1),)), "prizes[0]"),
        (PrizeTable((Prize(PrizeKind.PLACE, 10, place=0),)), "prizes[0]"),
        (PrizeTable((Prize(PrizeKind.PLACE, 10, rating_class="Z"),)), "prizes[0]"),
        (PrizeTable((Prize(PrizeKind.PLACE, 10, first_round=2),)), "prizes[0]"),
        (PrizeTable((Prize(PrizeKind.HIGH_GAME, 10, last_round=9),)), "prizes[0]"),
        (PrizeTable((), (RatingClass("A", 1600, 1500),)), "classes"),
        (PrizeTable((), (RatingClass("A"), RatingClass("A"))), "classes"),
    ],
)
def test_a_table_that_makes_no_sense_is_refused(table, field):
    """Bad amounts, places, classes and round limits are refused with the field."""
    with pytest.raises(TournamentError) as caught:
        prize_winners(event(), "A", table)
    assert (caught.value.code, caught.value.field) == ("invalid_prize", field)


def test_exclusive_place_prizes_pay_by_rank():
    """Issue 32: an exclusive group of place prizes pays the places by rank, as the
    same table without the group does (p1 and p4 tied 2nd pool 2nd and 3rd)."""
    table = [
        (10000, 1),
        (6000, 2),
        (4000, 3),
        (1000, 4),
    ]
    plain = awards(*[Prize(PrizeKind.PLACE, a, place=p) for a, p in table])
    exclusive = awards(
        *[Prize(PrizeKind.PLACE, a, place=p, exclusive="cash") for a, p in table]
    )
    assert exclusive == plain
    assert [(i, p) for i, p, *_ in exclusive] == [
        (0, "p3"),
        (1, "p1"),
        (1, "p4"),
        (2, "p1"),
        (2, "p4"),
        (3, "p5"),
    ]


def test_exclusive_places_by_rank_with_a_tie_break():
    """Places by the table's tie-break in an exclusive group: 1st p3, 2nd p4 (the
    lower rating), 3rd p1, 4th p5: nobody is skipped for the champion's prize."""
    rule = {"ties": TieRule.TIE_BREAK, "tie_break": TieBreak.LOWER_RATING}
    won = awards(
        *[
            Prize(PrizeKind.PLACE, a, place=p, exclusive="cash", **rule)
            for a, p in [(100, 1), (50, 2), (25, 3), (10, 4)]
        ]
    )
    assert [(i, p) for i, p, *_ in won] == [(0, "p3"), (1, "p4"), (2, "p1"), (3, "p5")]


def test_a_class_prize_listed_first_hands_a_place_down():
    """The class B prize is listed first and goes to p4 (the best B player); the
    place prizes of the same group then pass p4 over: 2nd is p1's alone, 3rd goes to
    the next player in order, p5."""
    rule = {"ties": TieRule.TIE_BREAK, "tie_break": TieBreak.LOWER_RATING}
    won = awards(
        Prize(PrizeKind.PLACE, 500, rating_class="B", exclusive="cash"),
        Prize(PrizeKind.PLACE, 100, place=1, exclusive="cash", **rule),
        Prize(PrizeKind.PLACE, 50, place=2, exclusive="cash", **rule),
        Prize(PrizeKind.PLACE, 25, place=3, exclusive="cash", **rule),
    )
    assert [(i, p) for i, p, *_ in won] == [(0, "p4"), (1, "p3"), (2, "p1"), (3, "p5")]


def test_a_tie_shrunk_to_one_player_is_no_pool():
    """p4 (tied 2nd with p1) takes the class B prize listed first: p1 alone is
    2nd and takes 2nd's money; 3rd is not p1's too but the next player's, p5."""
    split = {"exclusive": "cash"}
    won = awards(
        Prize(PrizeKind.PLACE, 500, rating_class="B", exclusive="cash"),
        Prize(PrizeKind.PLACE, 10000, place=1, **split),
        Prize(PrizeKind.PLACE, 6000, place=2, **split),
        Prize(PrizeKind.PLACE, 4000, place=3, **split),
    )
    assert [(i, p, amount) for i, p, amount, *_ in won] == [
        (0, "p4", 500),
        (1, "p3", 10000),
        (2, "p1", 6000),
        (3, "p5", 4000),
    ]


def test_two_tied_players_pool_two_places_never_three():
    """The champion p3 takes the class A prize listed first; 1st place's money
    comes down to p1 and p4 (tied next): they pool 1st and 2nd, and 3rd goes to
    the next player, p5."""
    split = {"exclusive": "cash"}
    won = awards(
        Prize(PrizeKind.PLACE, 700, rating_class="A", exclusive="cash"),
        Prize(PrizeKind.PLACE, 10000, place=1, **split),
        Prize(PrizeKind.PLACE, 6000, place=2, **split),
        Prize(PrizeKind.PLACE, 4000, place=3, **split),
    )
    assert [(i, p, amount) for i, p, amount, *_ in won] == [
        (0, "p3", 700),
        (1, "p1", 5000),
        (1, "p4", 5000),
        (2, "p1", 3000),
        (2, "p4", 3000),
        (3, "p5", 4000),
    ]
