"""The game figures the prizes and the reports share (rules.figures)."""

from __future__ import annotations

import pytest

from rules.figures import Figure, PlayedSide, candidates, figure, upset


def side(score, opponent_score, outcome, rating=1500, opponent_rating=1600):
    return PlayedSide(score, opponent_score, outcome, rating, opponent_rating)


def test_an_upset_is_a_win_over_a_higher_rated_opponent_by_the_gap():
    assert upset(1500, 1600) == 100
    assert upset(1600, 1500) is None
    assert upset(1500, 1500) is None


@pytest.mark.parametrize(
    ("rating", "opponent_rating"), [(0, 1800), (None, 1800), (1500, 0), (0, 0)]
)
def test_an_unrated_player_neither_makes_nor_suffers_an_upset(rating, opponent_rating):
    """tsh's upset reports skip unrated players: no rating, no rating gap."""
    assert upset(rating, opponent_rating) is None
    won = side(400, 350, "win", rating, opponent_rating)
    assert figure(Figure.BIGGEST_UPSET, won) is None


def test_each_figure_counts_only_the_sides_it_is_about():
    won, lost, drawn = (
        side(400, 350, "win"),
        side(380, 410, "loss"),
        side(400, 400, "draw"),
    )
    assert [figure(Figure.HIGH_GAME, s) for s in (won, lost, drawn)] == [400, 380, 400]
    assert [figure(Figure.HIGH_LOSS, s) for s in (won, lost, drawn)] == [
        None,
        380,
        None,
    ]
    assert [figure(Figure.LOW_WIN, s) for s in (won, lost, drawn)] == [400, None, None]
    assert [figure(Figure.HIGH_COMBINED, s) for s in (won, lost, drawn)] == [
        750,
        790,
        800,
    ]
    assert [figure(Figure.BIGGEST_UPSET, s) for s in (won, lost, drawn)] == [
        100,
        None,
        None,
    ]
    assert Figure.LOW_WIN.lowest_first
    assert not Figure.HIGH_GAME.lowest_first


def test_candidates_keep_the_order_given():
    sides = [side(300, 310, "loss"), side(420, 300, "win"), side(390, 400, "loss")]
    assert candidates(Figure.HIGH_LOSS, sides) == [(300, sides[0]), (390, sides[2])]
