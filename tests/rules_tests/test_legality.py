"""Legality of turns (RULES.md, "A turn"): where tiles go, whose turn, which tiles."""

from __future__ import annotations

import pytest

from rules.board import Board
from rules.errors import (
    BagTooSmallError,
    BoardMismatchError,
    ExchangeNotAllowedError,
    FirstPlayCenterError,
    FirstPlayTooShortError,
    GameAlreadyStartedError,
    GameNotStartedError,
    GapError,
    IncompleteWordError,
    InvalidEventError,
    InvalidPositionError,
    NotConnectedError,
    NoTilesError,
    NotInLineError,
    OccupiedSquareError,
    OffBoardError,
    OutOfTurnError,
    RackMismatchError,
    RackNotRefilledError,
    RackOverflowError,
    RulesError,
    TilesNotOnRackError,
    TileUnavailableError,
)
from rules.events import GameStarted, TilesDrawn, TilesPlaced
from rules.moves import Placement, placement_from_tiles
from rules.ruleset import ruleset
from rules.state import apply
from rules.tiles import TileKind, TileSet
from tests.rules_tests.support import Game, board_from


def opened() -> Game:
    """ann opened with WINDY at 8D and drew back to seven; bob to move."""
    game = Game("DINNVWY", "ADEEGIL")
    game.place(0, "8D", "WINDY")
    game.draw(0, "AEJOS")
    return game


def test_first_play_must_cover_the_centre():
    """The first play covers H8; one elsewhere is refused with the squares named."""
    game = Game("DINNVWY", "ADEEGIL")
    with pytest.raises(FirstPlayCenterError) as error:
        game.place(0, "7D", "WINDY")
    assert error.value.code == "first_play_center"
    assert "7D-7H" in error.value.message
    with pytest.raises(FirstPlayCenterError):
        game.place(0, "H9", "WIND")  # down from H9: misses H8 by one


def test_first_play_places_at_least_two_tiles():
    """A one-tile first play is refused even on the centre."""
    game = Game("DINNVWY", "ADEEGIL")
    with pytest.raises(FirstPlayTooShortError) as error:
        game.place(0, "8H", "W")
    assert error.value.code == "first_play_too_short"


def test_first_play_may_read_down():
    """A down word through H8 is a legal opening."""
    state = Game("DINNVWY", "ADEEGIL").place(0, "H4", "WINDY")
    assert state.board.letter_at("H8") == "Y"
    assert state.scores == (32, 0)


def test_later_plays_must_connect():
    """A play that touches no tile is refused with a message naming its squares."""
    game = opened()
    with pytest.raises(NotConnectedError) as error:
        game.place(1, "2A", "AGE")
    assert error.value.code == "not_connected"
    assert error.value.message == (
        "Tiles at 2A-2C do not connect to any tile on the board"
    )


def test_play_through_a_tile_connects():
    """A play through a tile on the board is connected."""
    state = opened().place(1, "E7", "A.E")
    assert state.board.letter_at("E7") == "A"
    assert state.turns[-1].word == "A.E"


def test_dot_on_an_empty_square_is_a_gap():
    """'.' stands for a tile on the board: on an empty square it is a gap."""
    with pytest.raises(GapError) as error:
        opened().place(1, "9D", "A.E")
    assert error.value.code == "gap"
    assert "9E" in error.value.message


def test_letters_for_played_through_tiles_must_match():
    """Older records write the played-through letter: accepted when it matches."""
    game = opened()
    state = game.place(1, "E7", "AIE")
    assert state.turns[-1].word == "A.E"
    with pytest.raises(BoardMismatchError) as error:
        opened().place(1, "E7", "AXE")
    assert "E8" in error.value.message


def test_off_board_plays_are_refused():
    """A word that runs past the edge is refused."""
    with pytest.raises(OffBoardError) as error:
        Game("DINNVWY", "ADEEGIL").place(0, "8L", "WINDY")
    assert error.value.code == "off_board"
    with pytest.raises(OffBoardError):
        Game("DINNVWY", "ADEEGIL").place(0, "H12", "WINDY")


def test_the_whole_word_must_be_recorded():
    """A recorded word that stops short of a touching tile is refused."""
    with pytest.raises(IncompleteWordError) as error:
        opened().place(1, "8I", "S")  # WINDY continues to the left
    assert error.value.code == "word_incomplete"


def test_a_play_must_place_a_tile():
    """A word made only of tiles already on the board places nothing."""
    with pytest.raises(NoTilesError):
        opened().place(1, "8D", ".....")


def test_tiles_must_be_on_the_rack():
    """Tiles not on a known rack are refused, naming the missing tile."""
    with pytest.raises(TilesNotOnRackError) as error:
        Game("DINNVWY", "ADEEGIL").place(0, "8D", "WINDS")
    assert error.value.code == "not_on_rack"
    assert "no S" in error.value.message


def test_a_blank_needs_a_blank_on_the_rack():
    """A lower-case letter uses a blank; without one on the rack it is refused."""
    with pytest.raises(TilesNotOnRackError):
        Game("DINNVWY", "ADEEGIL").place(0, "8D", "wINDY")
    state = Game("?INNVWY", "ADEEGIL").place(0, "8D", "wINNY")
    assert state.racks[0].known == "VW"
    assert state.board.letter_at("D8") == "w"


def test_unknown_rack_tiles_can_be_any_tile_left():
    """With an unrecorded rack, the play reveals its tiles from what is unseen."""
    game = Game("", "")
    game.draw(0, unknown=7)
    game.draw(1, unknown=7)
    state = game.place(0, "8D", "WINDY")
    assert state.racks[0].unknown == 2
    assert state.racks[0].known == ""
    assert state.turns[-1].rack == "DINWY"


def test_an_unknown_rack_cannot_hold_tiles_all_gone():
    """A revealed tile must still be unseen: a third blank is refused."""
    game = Game("??AAAAA", "")
    game.draw(1, unknown=7)
    game.place(0, "8H", "aA")  # one blank on the board, the other on ann's rack
    game.draw(0, "EE")
    with pytest.raises(TileUnavailableError) as error:
        game.place(1, "8H", "..b")
    assert error.value.code == "tile_unavailable"


def test_out_of_turn_is_refused():
    """Only the player whose turn it is may act; the message names both."""
    with pytest.raises(OutOfTurnError) as error:
        Game("DINNVWY", "ADEEGIL").place(1, "8D", "GLIDE")
    assert error.value.code == "out_of_turn"
    assert error.value.message == "It is ann's turn, not bob's"
    with pytest.raises(OutOfTurnError):
        opened().pass_(0)


def test_a_rack_must_be_refilled_before_the_next_turn():
    """A player whose draw was not recorded cannot take their next turn."""
    game = Game("DINNVWY", "ADEEGIL")
    game.place(0, "8D", "WINDY")
    game.pass_(1)
    with pytest.raises(RackNotRefilledError) as error:
        game.pass_(0)
    assert "2 tiles" in error.value.message


def test_draws_respect_rack_size_and_bag():
    """A draw cannot overfill a rack, take more than the bag holds, or take a tile
    that cannot be in the bag."""
    game = Game("DINNVWY", "")
    with pytest.raises(RackOverflowError):
        game.draw(0, "A")
    with pytest.raises(TileUnavailableError) as error:
        game.draw(1, "QQ")
    assert "Q" in error.value.message
    with pytest.raises(InvalidEventError):
        game.draw(1)
    tiny = TileSet("tiny", (TileKind("A", 5, 1),))
    state = apply(
        None, GameStarted(players=("a", "b"), ruleset=ruleset(), tile_set=tiny)
    )
    state = apply(state, TilesDrawn(player=0, tiles="AAA"))
    with pytest.raises(BagTooSmallError) as small:
        apply(state, TilesDrawn(player=1, unknown=3))
    assert "holds only 2" in small.value.message


def test_exchange_returns_tiles_after_the_draw():
    """Exchanged tiles go back to the bag once the new ones are drawn."""
    game = Game("DINNVWY", "ADEEGIL")
    state = game.exchange(0, "VW")
    assert state.bag.count == 86
    assert state.racks[0].known == "DINNY"
    assert state.bag.candidates.count("V") == 1  # the other V is set aside
    state = game.draw(0, "AE")
    assert state.bag.count == 86
    assert state.bag.candidates.count("V") == 2
    assert state.aside is None


def test_exchange_needs_seven_in_the_bag():
    """An exchange is refused when the bag holds fewer tiles than the minimum."""
    small = Game("AAAAAAA", rules=ruleset("naspa", exchange_minimum=95))
    with pytest.raises(ExchangeNotAllowedError) as error:
        small.exchange(0, "A")
    assert error.value.code == "exchange_not_allowed"
    assert "holds 93 tiles" in error.value.message


def test_exchanged_tiles_must_be_on_the_rack():
    """Exchanging tiles that are not on the rack is refused."""
    with pytest.raises(TilesNotOnRackError):
        Game("DINNVWY", "ADEEGIL").exchange(0, "QQ")
    with pytest.raises(TilesNotOnRackError):
        Game("DINNVWY", "ADEEGIL").exchange(0, unknown=8)


def test_recorded_racks_must_be_possible():
    """A rack recorded on a turn must fit what is known of the rack."""
    game = Game("DINNVWY", "ADEEGIL")
    with pytest.raises(RackMismatchError) as error:
        game.add(TilesPlaced(player=0, position="8D", word="WINDY", rack="ABCDEFG"))
    assert error.value.code == "rack_mismatch"
    state = game.add(TilesPlaced(player=0, position="8D", word="WINDY", rack="YWVNNID"))
    assert state.turns[-1].recorded_rack == "YWVNNID"


def test_illegal_events_change_nothing():
    """apply raises without changing the state; the next legal event still applies."""
    game = opened()
    before = game.now
    with pytest.raises(RulesError):
        game.place(1, "2A", "AGE")
    assert game.now is before
    assert game.now == before
    assert game.place(1, "E7", "A.E").scores == (32, 3)


def test_the_stream_must_start_with_the_game():
    """The first event starts the game; starting twice is refused."""
    with pytest.raises(GameNotStartedError):
        apply(None, TilesPlaced(player=0, position="8D", word="WINDY"))
    game = Game("DINNVWY")
    with pytest.raises(GameAlreadyStartedError):
        game.add(GameStarted(players=("a", "b"), ruleset=ruleset()))
    with pytest.raises(InvalidEventError):
        apply(None, GameStarted(players=("solo",), ruleset=ruleset()))
    with pytest.raises(InvalidEventError):
        apply(None, GameStarted(players=("a", "a"), ruleset=ruleset()))


def test_unknown_players_and_positions_are_refused():
    """A player number that does not exist, or a bad position, is refused."""
    game = Game("DINNVWY")
    with pytest.raises(InvalidEventError):
        game.draw(5, "A")
    with pytest.raises(InvalidPositionError):
        game.place(0, "Z9", "WINDY")
    with pytest.raises(InvalidEventError):
        game.place(0, "8D", "W1NDY")


def test_placement_from_tiles_builds_the_whole_word():
    """Tiles entered one by one become the GCG placement, played-through tiles '.'."""
    board = board_from(("8D", "WINDY"))
    play = placement_from_tiles(board, [("C8", "S"), ("I8", "S")])
    assert play.gcg() == "8C S.....S"
    down = placement_from_tiles(board, [("E7", "A"), ("E9", "E")])
    assert down.gcg() == "E7 A.E"
    single = placement_from_tiles(board, [("H9", "O")])
    assert single.gcg() == "H8 .O"
    assert Placement.from_gcg("h8", ".O") == single


def test_placement_from_tiles_refuses_bad_shapes():
    """Tiles not in one line, with a gap, on an occupied square, or none at all."""
    board = board_from(("8D", "WINDY"))
    with pytest.raises(NotInLineError) as error:
        placement_from_tiles(board, [("C7", "A"), ("D9", "B")])
    assert error.value.code == "not_in_line"
    with pytest.raises(GapError):
        placement_from_tiles(board, [("A8", "A"), ("C8", "B")])
    with pytest.raises(OccupiedSquareError):
        placement_from_tiles(board, [("D8", "A")])
    with pytest.raises(OccupiedSquareError):
        placement_from_tiles(board, [("A1", "A"), ("a1", "B")])
    with pytest.raises(NoTilesError):
        placement_from_tiles(Board(), [])
