"""Challenges (RULES.md, "Challenges"): phonies withdrawn, and each rule for a valid
play challenged."""

from __future__ import annotations

import pytest

from rules.errors import (
    ChallengesNotAllowedError,
    DrawBeforeWithdrawalError,
    InvalidEventError,
    NoPlayToChallengeError,
    PhonyRefusedError,
    WordNotFormedError,
)
from rules.events import (
    ChallengeOutcome,
    EndReason,
    GameStarted,
    TilesDrawn,
    TilesPlaced,
)
from rules.lexicon import Lexicon, adjudicate
from rules.ruleset import ruleset
from rules.state import TurnKind, last_play_words, replay, validate_append
from rules.tiles import TileKind, TileSet
from tests.rules_tests.support import Game


def windy(rules: str = "naspa", **overrides: object) -> Game:
    """ann has just played WINDY at 8D for 32; bob has not moved."""
    game = Game("DINNVWY", "ADEEGIL", rules=ruleset(rules, **overrides))
    game.place(0, "8D", "WINDY")
    return game


def test_phony_withdrawn_returns_tiles_and_removes_the_score():
    """A phony goes back to the rack, its score is removed, and the turn is over."""
    game = windy()
    state = game.phony(1)
    assert state.board.is_empty
    assert state.racks[0].known == "DINNVWY"
    assert state.scores == (0, 0)
    assert state.turn == 1
    placement, withdrawal = state.turns
    assert placement.withdrawn
    assert withdrawal.kind is TurnKind.PHONY_WITHDRAWN
    assert withdrawal.score == -32
    assert withdrawal.cumulative == 0
    assert state.discrepancies == ()


def test_phony_withdrawn_counts_as_a_scoreless_turn():
    """The withdrawn play counts as a scoreless turn (it no longer resets the run)."""
    game = windy()
    game.phony(1)
    assert game.now.scoreless_turns == 1
    state = game.pass_(1)
    assert state.scoreless_turns == 2


def test_after_a_withdrawn_opening_the_next_play_must_cover_the_centre():
    """The board is empty again, so the first-play rule applies to the next play."""
    game = windy()
    game.phony(1)
    state = game.place(1, "8G", "GLIDE")
    assert state.board.letter_at("H8") == "L"


def test_withdrawal_must_come_before_the_draw():
    """A phony withdrawn after its player drew is refused: the tiles would overflow."""
    game = windy()
    game.draw(0, "ABCDE")
    with pytest.raises(DrawBeforeWithdrawalError) as error:
        game.phony(1)
    assert error.value.code == "drawn_before_withdrawal"


@pytest.mark.parametrize("recorded", [-30, 0, -45])
def test_withdrawal_removes_exactly_the_points_credited(recorded):
    """Issue 20, rule 4: a withdrawal recorded as anything but -32 for a 32-point
    play still removes 32; the recorded figure is reported, never credited."""
    state = windy().phony(1, score=recorded)
    assert state.scores == (0, 0)
    assert state.turns[-1].score == -32
    assert [(d.kind, d.recorded, d.computed) for d in state.discrepancies] == [
        ("challenge", recorded, -32)
    ]


def test_valid_play_under_single_challenge_changes_nothing():
    """Free challenge: a valid play challenged costs nobody anything."""
    game = windy("naspa", challenge="single")
    state = game.valid(1)
    assert state.scores == (32, 0)
    assert state.turn == 1
    assert state.turns[-1].kind is TurnKind.CHALLENGE
    assert state.scoreless_turns == 0


def test_valid_play_under_double_challenge_costs_the_challenger_a_turn():
    """Double challenge: the challenger loses their next turn (a scoreless turn)."""
    game = windy("naspa")
    game.draw(0, "AEJOS")
    state = game.valid(1)
    assert state.turn == 0
    assert state.turns[-1].kind is TurnKind.LOST_TURN
    assert state.turns[-1].player == 1
    assert state.scoreless_turns == 1
    assert state.scores == (32, 0)
    assert game.place(0, "E7", "J.").scores == (32 + 9, 0)
    assert game.now.turn == 1


def test_five_point_bonus_per_word_challenged():
    """Five-point rule: +5 to the challenged player for each word challenged."""
    state = windy("wespa").valid(1, words=("WINDY",))
    assert state.scores == (37, 0)
    assert state.turns[-1].kind is TurnKind.CHALLENGE_BONUS
    assert state.turns[-1].player == 0
    assert state.turn == 1  # the challenger keeps their turn


def test_bonus_counts_each_word_challenged():
    """Challenging two words of a play gives two bonuses."""
    game = Game("DINNVWY", "ADEEGIL", rules="wespa")
    game.place(0, "8D", "WINDY")
    game.draw(0, "AEJOS")
    game.place(1, "9C", "AGE")  # AGE, and WG and IE down
    assert set(last_play_words(game.now)) == {"AGE", "WG", "IE"}
    state = game.valid(0, words=("AGE", "IE"))
    assert state.scores == (32, game.now.turns[-2].score + 10)


def test_ten_point_bonus():
    """Ten-point rule: +10 per word."""
    assert windy("naspa", challenge="ten_point").valid(1).scores == (42, 0)


def test_recorded_bonus_without_words_is_checked_against_the_play():
    """Without the words recorded, a bonus for up to every word formed is right; a
    bonus for more words than the play formed is kept and reported."""
    fine = windy("wespa").valid(1, score=5)
    assert fine.discrepancies == ()
    too_much = windy("wespa").valid(1, score=10)
    assert too_much.scores == (42, 0)
    assert [(d.recorded, d.computed) for d in too_much.discrepancies] == [(10, 5)]


def test_void_rule_has_no_challenges():
    """Under the void rule a challenge is refused."""
    with pytest.raises(ChallengesNotAllowedError) as error:
        windy("naspa", challenge="void").valid(1)
    assert error.value.code == "challenges_not_allowed"


def test_challenge_must_follow_the_play():
    """Once the next turn has begun, the play can no longer be challenged."""
    game = windy()
    game.draw(0, "AEJOS")
    game.pass_(1)
    with pytest.raises(NoPlayToChallengeError) as error:
        game.phony(1)
    assert error.value.code == "no_play_to_challenge"
    with pytest.raises(NoPlayToChallengeError):
        Game("DINNVWY", "ADEEGIL").valid(1)


def test_a_play_is_challenged_once_and_not_by_its_player():
    """A second challenge, or one by the player who made the play, is refused."""
    game = windy("wespa")
    with pytest.raises(InvalidEventError):
        game.valid(0)
    game.valid(1)
    with pytest.raises(NoPlayToChallengeError):
        game.valid(1)


def test_challenged_words_must_be_formed_by_the_play():
    """A challenge naming a word the play did not form is refused."""
    with pytest.raises(WordNotFormedError) as error:
        windy("wespa").valid(1, words=("WINDS",))
    assert "WINDY" in error.value.message


MINI = TileSet("mini", (TileKind("A", 7, 1), TileKind("T", 7, 1)))


def mini_game(rules: str) -> Game:
    """ann goes out with her opening play: the bag of 14 tiles is empty."""
    game = Game(rules=rules)
    game.events.clear()
    game.state = None
    game.add(GameStarted(players=("ann", "bob"), ruleset=ruleset(rules), tile_set=MINI))
    game.add(TilesDrawn(player=0, tiles="AAAATTT"))
    game.add(TilesDrawn(player=1, tiles="AAATTTT"))
    game.add(TilesPlaced(player=0, position="8B", word="ATATATA"))
    return game


def test_going_out_with_a_phony_does_not_end_the_game():
    """A going-out play withdrawn as a phony cancels the end."""
    game = mini_game("naspa")
    assert game.now.pending_end is EndReason.WENT_OUT
    state = game.phony(1)
    assert state.pending_end is None
    assert state.racks[0].known == "AAAATTT"
    assert state.turn == 1


def test_valid_challenge_of_a_going_out_play_ends_normally():
    """Under double challenge a valid going-out play costs no turn; the game ends."""
    game = mini_game("naspa")
    state = game.valid(1)
    assert state.turns[-1].kind is TurnKind.CHALLENGE
    state = game.end()
    assert state.end_reason is EndReason.WENT_OUT
    assert state.adjustments == (2 * 7, 0)


def test_lost_turn_of_a_challenger_who_is_not_next():
    """With three players, a challenger who is not next loses their next turn later."""
    game = Game("DINNVWY", "ADEEGIL", "ABCDEFG")
    game.place(0, "8D", "WINDY")
    game.draw(0, "AEJOS")
    state = game.valid(2)
    assert state.turn == 1
    assert state.lost_turns == (0, 0, 1)
    state = game.pass_(1)
    assert state.turn == 0
    assert state.turns[-1].kind is TurnKind.LOST_TURN
    assert state.turns[-1].player == 2
    assert state.lost_turns == ()
    assert state.scoreless_turns == 2


def test_lexicon_adjudicates_a_challenge():
    """With a lexicon, the ruling follows the words the play formed."""
    game = windy()
    words = Lexicon.from_lines(["windy", "glide"])
    ruling = adjudicate(game.now, words, challenger=1)
    assert ruling.outcome is ChallengeOutcome.VALID
    assert adjudicate(game.now, Lexicon.from_lines(["WIND"]), 1).outcome is (
        ChallengeOutcome.PHONY
    )
    assert adjudicate(game.now, words, 1, ["windy"]).words == ("WINDY",)
    game.add(ruling)
    with pytest.raises(NoPlayToChallengeError):
        adjudicate(game.now, words, 1)


def test_void_rule_with_a_lexicon_refuses_invalid_plays():
    """Under the void rule, validate_append refuses a play with an unlisted word."""
    game = Game("DINNVWY", "ADEEGIL", rules=ruleset("naspa", challenge="void"))
    words = Lexicon.from_lines(["WINDY"], name="TINY")
    bad = TilesPlaced(player=0, position="8E", word="WIND")
    with pytest.raises(PhonyRefusedError) as error:
        validate_append(game.events, [bad], lexicon=words)
    assert error.value.code == "phony_refused"
    assert "WIND is not in TINY" in error.value.message
    assert error.value.version == len(game.events) + 1
    good = TilesPlaced(player=0, position="8D", word="WINDY")
    state = validate_append(game.events, [good], lexicon=words)
    assert state.scores == (32, 0)
    assert replay([*game.events, good]) == state
