"""Who wins (RULES.md, "Winner"): final score, then the pre-adjustment tie-break,
else a draw; or every tie a draw with ``ties_are_draws``."""

from __future__ import annotations

from rules.events import EndReason
from rules.outcome import decide
from rules.ruleset import ruleset
from tests.rules_tests.support import Game


def test_highest_final_score_wins():
    """The higher final score wins outright, without the tie-break."""
    outcome = decide((420, 380), (400, 390))
    assert outcome.winner == 0
    assert not outcome.decided_by_tiebreak
    assert (outcome.points(0), outcome.points(1)) == (1.0, 0.0)


def test_tie_goes_to_the_higher_score_before_adjustments():
    """Tied final scores: the higher score before the rack adjustments wins."""
    outcome = decide((400, 400), (390, 395))
    assert outcome.winner == 1
    assert outcome.decided_by_tiebreak


def test_tie_on_both_scores_is_a_draw():
    """Tied before and after the adjustments: a draw, half a point each."""
    outcome = decide((400, 400), (395, 395))
    assert outcome.winner is None
    assert outcome.drawn == (0, 1)
    assert (outcome.points(0), outcome.points(1)) == (0.5, 0.5)


def test_ties_are_draws_option_ignores_the_tie_break():
    """With ties_are_draws every tie on final score is a draw."""
    outcome = decide((400, 400), (390, 395), ties_are_draws=True)
    assert outcome.winner is None
    assert not outcome.decided_by_tiebreak
    assert outcome.points(1) == 0.5


def test_a_named_loser_cannot_win():
    """A player who resigned loses even with the higher score."""
    outcome = decide((500, 300), (500, 300), loser=0)
    assert outcome.winner == 1
    assert outcome.points(0) == 0.0


def test_three_way_tie_keeps_only_the_best_pre_adjustment_scores():
    """Among several tied players the tie-break picks the best; equal ones draw."""
    assert decide((300, 300, 300), (280, 290, 285)).winner == 1
    drawn = decide((300, 300, 200), (290, 290, 300))
    assert drawn.winner is None
    assert drawn.drawn == (0, 1)


def tied_game(ties_are_draws: bool) -> Game:
    """ann scores 8 then both pass out: final -5 each, ann 8 and bob 0 before."""
    rules = ruleset("classic", ties_are_draws=ties_are_draws)
    game = Game("AEIOUBC", "AEIO??S", rules=rules)
    game.place(0, "8H", "BE")
    game.draw(0, "KL")
    for player in (1, 0, 1, 0):
        game.pass_(player)
    game.end(EndReason.SCORELESS_TURNS)
    return game


def test_game_tie_decided_by_pre_adjustment_score():
    """A finished game tied on final score goes to the better pre-adjustment score."""
    state = tied_game(ties_are_draws=False).now
    assert state.scores == (-5, -5)
    assert state.scores_before_adjustments == (8, 0)
    assert state.winner == 0
    assert state.decided_by_tiebreak
    assert not state.is_draw


def test_game_tie_is_a_draw_when_ties_are_draws():
    """The same game is a draw under ties_are_draws."""
    state = tied_game(ties_are_draws=True).now
    assert state.winner is None
    assert state.is_draw
    assert not state.decided_by_tiebreak


def test_game_tied_before_and_after_is_a_draw():
    """Equal racks and no plays: tied both ways, a draw."""
    game = Game("AEIOUBC", "BCAEIOU", rules="classic")
    for player in (0, 1, 0, 1):
        game.pass_(player)
    state = game.end(EndReason.SCORELESS_TURNS)
    assert state.scores == (-11, -11)
    assert state.is_draw
    assert state.final_scores == (-11, -11)
    assert Game("A").now.final_scores is None


def test_a_draw_is_half_a_point_everywhere():
    """The points of a result are said once (rules.outcome) for every reader."""
    from rules.outcome import half_points, points_of, record_points
    from rules.tournament import Outcome

    assert [points_of(o) for o in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)] == [
        1.0,
        0.5,
        0.0,
    ]
    assert record_points(wins=4, draws=1) == 4.5
    assert half_points(wins=4, draws=1) == 9
    assert decide((400, 400), (390, 390)).points(0) == points_of("draw")
