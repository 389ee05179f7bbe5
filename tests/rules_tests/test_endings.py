"""The end of the game (RULES.md, "End of the game"): going out, scoreless turns,
director's endings, rack adjustments and time penalties."""

from __future__ import annotations

import pytest

from rules.errors import (
    EndReasonError,
    GameNotOverError,
    GameOverError,
    InvalidEventError,
    RackMismatchError,
    RackUnknownError,
)
from rules.events import (
    EndReason,
    GameStarted,
    ScoreCorrected,
    TilesDrawn,
    TilesPlaced,
    TimePenalty,
)
from rules.ruleset import ruleset
from rules.state import TurnKind
from rules.tiles import TileKind, TileSet
from tests.rules_tests.support import Game

MINI = TileSet("mini", (TileKind("A", 7, 1), TileKind("T", 6, 1), TileKind("Q", 1, 10)))
RACKS = ("AEIOUBC", "DEFGHIJ")  # worth 11 and 22


def gone_out(rules: str) -> Game:
    """ann goes out with her opening play; bob is left with AAATTTQ (16 points)."""
    game = Game(rules=rules)
    game.events.clear()
    game.state = None
    game.add(GameStarted(players=("ann", "bob"), ruleset=ruleset(rules), tile_set=MINI))
    game.add(TilesDrawn(player=0, tiles="AAAATTT"))
    game.add(TilesDrawn(player=1, tiles="AAATTTQ"))
    game.add(TilesPlaced(player=0, position="8B", word="ATATATA"))
    return game


def test_went_out_classic_moves_each_rack_once():
    """classic: the opponent loses their rack's value, the player out gains it."""
    game = gone_out("classic")
    before = game.now.scores
    state = game.end()
    assert state.end_reason is EndReason.WENT_OUT
    assert state.adjustments == (16, -16)
    assert state.scores == (before[0] + 16, -16)
    assert state.scores_before_adjustments == before
    assert state.ended_by == 0
    assert [turn.kind for turn in state.turns[-2:]] == [
        TurnKind.END_BONUS,
        TurnKind.END_RACK,
    ]


@pytest.mark.parametrize("rules", ["naspa", "wespa"])
def test_went_out_naspa_and_wespa_add_twice_the_opponents_rack(rules):
    """naspa/wespa: the player out adds twice the opponent's rack; the opponent keeps
    their score."""
    game = gone_out(rules)
    before = game.now.scores
    state = game.end(player=0)
    assert state.adjustments == (32, 0)
    assert state.scores == (before[0] + 32, 0)
    assert state.turns[-1].kind is TurnKind.END_BONUS
    assert state.turns[-1].tiles == "AAAQTTT"


def test_no_more_turns_once_a_player_went_out():
    """After a player goes out, only the end (or a challenge) may be recorded."""
    game = gone_out("naspa")
    with pytest.raises(GameOverError) as error:
        game.pass_(1)
    assert "ann went out" in error.value.message
    with pytest.raises(EndReasonError):
        game.end(EndReason.SCORELESS_TURNS)
    with pytest.raises(EndReasonError):
        game.end(EndReason.WENT_OUT, player=1)


def test_classic_ends_when_every_player_passed_twice():
    """classic: four passes in a row end a two-player game."""
    game = Game(*RACKS, rules="classic")
    for player in (0, 1, 0):
        game.pass_(player)
    assert game.now.pending_end is None
    state = game.pass_(1)
    assert state.pending_end is EndReason.SCORELESS_TURNS
    state = game.end(EndReason.SCORELESS_TURNS)
    assert state.adjustments == (-11, -22)
    assert state.scores == (-11, -22)
    assert state.winner == 0


def test_classic_exchanges_break_the_run_of_passes():
    """classic: an exchange is not a pass, so the run starts again after it."""
    game = Game(*RACKS, rules="classic")
    game.pass_(0)
    game.pass_(1)
    game.pass_(0)
    game.exchange(1, "J")
    game.draw(1, "K")
    assert game.now.scoreless_turns == 0
    for player in (0, 1, 0):
        game.pass_(player)
    assert game.now.pending_end is None
    assert game.pass_(1).pending_end is EndReason.SCORELESS_TURNS


def test_six_scoreless_turns_count_exchanges():
    """naspa/wespa: six scoreless turns end the game, exchanges included."""
    game = Game(*RACKS, rules="naspa")
    game.exchange(0, "C")
    game.draw(0, "R")
    for player in (1, 0, 1, 0):
        game.pass_(player)
    assert game.now.scoreless_turns == 5
    assert game.now.pending_end is None
    state = game.pass_(1)
    assert state.pending_end is EndReason.SCORELESS_TURNS
    with pytest.raises(GameOverError):
        game.pass_(0)


def test_a_placement_scoring_zero_resets_the_run():
    """Any placement resets the count, even one worth nothing (two blanks)."""
    game = Game("DEFGHIJ", "??AEIOU", rules="naspa")
    for player in (0, 1, 0, 1, 0):
        game.pass_(player)
    assert game.now.scoreless_turns == 5
    state = game.place(1, "8G", "ab")
    assert state.turns[-1].score == 0
    assert state.scoreless_turns == 0
    assert state.pending_end is None


def test_scoreless_end_needs_enough_turns():
    """Ending on scoreless turns before the rules say so is refused."""
    game = Game(*RACKS)
    game.pass_(0)
    with pytest.raises(EndReasonError) as error:
        game.end(EndReason.SCORELESS_TURNS)
    assert "1 consecutive" in error.value.message
    with pytest.raises(EndReasonError):
        game.end(EndReason.WENT_OUT)


def test_end_of_game_needs_every_rack_known():
    """Racks left must be known to score them; recorded racks reveal them."""
    game = Game("", "", rules="classic")
    game.draw(0, unknown=7)
    game.draw(1, unknown=7)
    for player in (0, 1, 0, 1):
        game.pass_(player)
    with pytest.raises(RackUnknownError) as error:
        game.end(EndReason.SCORELESS_TURNS)
    assert error.value.code == "rack_unknown"
    with pytest.raises(RackMismatchError):
        game.end(EndReason.SCORELESS_TURNS, racks=("AB", "CDEFGHI"))
    state = game.end(EndReason.SCORELESS_TURNS, racks=("AEIOUBC", "DEFGHIJ"))
    assert state.scores == (-11, -22)
    assert state.racks[0].known == "ABCEIOU"


def test_recorded_adjustments_are_kept_and_reported():
    """An adjustment recorded differently is kept, and reported as a discrepancy."""
    game = gone_out("naspa")
    state = game.end(adjustments=(28, 0))
    assert state.adjustments == (28, 0)
    assert [(d.kind, d.recorded, d.computed) for d in state.discrepancies] == [
        ("adjustment", 28, 32)
    ]


@pytest.mark.parametrize(
    "reason", [EndReason.RESIGNED, EndReason.FORFEIT, EndReason.TIMED_OUT]
)
def test_player_who_resigns_forfeits_or_times_out_loses(reason):
    """The named player loses whatever the scores; no rack is counted."""
    game = Game(*RACKS)
    game.place(0, "8H", "BE")
    state = game.end(reason, player=0)
    assert state.end_reason is reason
    assert state.scores == (8, 0)
    assert state.winner == 1
    assert state.turns[-1].kind is TurnKind.GAME_ENDED
    with pytest.raises(InvalidEventError):
        Game(*RACKS).end(reason)


def test_adjudication_sets_the_final_scores():
    """An adjudicated game ends on the scores given."""
    game = Game(*RACKS)
    game.place(0, "8H", "BE")
    state = game.end(EndReason.ADJUDICATED, final_scores=(300, 310))
    assert state.scores == (300, 310)
    assert state.adjustments == (292, 310)
    assert state.winner == 1
    assert {turn.kind for turn in state.turns_of(game.version)} == {
        TurnKind.ADJUDICATION
    }
    decided = Game(*RACKS).end(EndReason.DIRECTOR_DECISION)
    assert decided.scores == (0, 0)
    assert decided.is_draw  # naspa: ties are draws
    with pytest.raises(InvalidEventError):
        Game(*RACKS).end(EndReason.DIRECTOR_DECISION, final_scores=(1,))
    with pytest.raises(InvalidEventError):
        gone_out("naspa").end(final_scores=(1, 2))


def test_nothing_happens_after_the_end():
    """Turns, draws and a second end are refused once the game is over."""
    game = gone_out("naspa")
    game.end()
    with pytest.raises(GameOverError):
        game.pass_(1)
    with pytest.raises(GameOverError):
        game.draw(1, "A")
    with pytest.raises(GameOverError):
        game.end()
    with pytest.raises(GameOverError):
        game.valid(1)


def test_time_penalty_is_ten_points_per_started_minute_after_the_end():
    """A time penalty comes after the adjustments: 10 points per minute over."""
    game = gone_out("naspa")
    before = game.now.scores
    game.end()
    final = game.now.scores
    state = game.add(TimePenalty(player=0, minutes=2))
    assert state.scores == (final[0] - 20, final[1])
    assert state.turns[-1].kind is TurnKind.TIME_PENALTY
    assert state.turns[-1].score == -20
    # The tie-break score is the one before the rack adjustments and the penalty.
    assert state.scores_before_adjustments == before


def test_time_penalty_can_change_the_winner():
    """The winner is decided on the scores after time penalties."""
    game = Game(*RACKS, rules="classic")
    game.place(0, "8H", "BE")  # ann 8
    game.draw(0, "KL")
    for player in (1, 0, 1, 0):
        game.pass_(player)
    state = game.end(EndReason.SCORELESS_TURNS)
    assert state.scores == (-5, -22)  # ann 8 less ACIKLOU (13)
    assert state.winner == 0
    state = game.add(TimePenalty(player=0, minutes=3, score=-30))
    assert state.scores == (-35, -22)
    assert state.winner == 1


def test_time_penalty_before_the_end_is_refused():
    """Time penalties are recorded after the end of the game."""
    with pytest.raises(GameNotOverError) as error:
        Game(*RACKS).add(TimePenalty(player=0, minutes=1))
    assert error.value.code == "game_not_over"


def test_recorded_time_penalty_that_differs_is_kept():
    """A penalty recorded as -15 for one minute is kept and reported."""
    game = gone_out("naspa")
    game.end()
    state = game.add(TimePenalty(player=1, minutes=1, score=-15))
    assert state.scores[1] == -15
    assert state.discrepancies[-1].kind == "time_penalty"
    assert (state.discrepancies[-1].recorded, state.discrepancies[-1].computed) == (
        -15,
        -10,
    )


def test_score_correction_moves_score_and_tie_break():
    """A director's correction changes the score and the pre-adjustment score."""
    game = gone_out("naspa")
    game.end()
    total = game.now.scores[0]
    state = game.add(ScoreCorrected(player=1, amount=total + 5, reason="misread"))
    assert state.scores[1] == total + 5
    assert state.scores_before_adjustments[1] == total + 5
    assert state.winner == 1
    assert state.turns[-1].kind is TurnKind.SCORE_CORRECTION
    assert state.turns[-1].detail == "misread"
