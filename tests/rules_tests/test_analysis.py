"""Analysis of a turn: the plays a rack allowed, ranked by score or by equity,
checked against best plays worked out by hand on small positions (premium squares
from RULES.md, "Equipment")."""

from __future__ import annotations

import dataclasses

import pytest

from rules.analysis import AnalysisError, LeaveTable, analyse
from rules.events import GameStarted, TilesPlaced
from rules.movegen import WordGraph
from rules.ruleset import ruleset
from rules.state import Bag, apply
from rules.tilesets import tile_set
from tests.rules_tests.support import Game

# WINDY on 8D-8H; the rack AJKQSXZ, and a word list of AS, YA and WINDY (so the J,
# K, Q, X and Z cannot be played). By hand:
# - 9H AS: A on H9 (no premium) makes YA down with the Y on H8 (4+1 = 5), S on I9
#   (double letter) makes AS = 1+2 = 3; 8 in all. Nothing else places both tiles:
#   G9 makes DA, row 7 makes AY or SY, an A on I8 makes WINDYA.
# - H8 .A (YA down, H9 plain): 4+1 = 5. YA across is no play: it would be WINDYA.
WORDS = ["AS", "YA", "WINDY"]
RACK = "AJKQSXZ"


def windy() -> Game:
    game = Game("DINNVWY", RACK)
    game.place(0, "8D", "WINDY")
    return game


def moves(analysis) -> list[tuple[str, int, int]]:
    return [(play.gcg(), play.score, play.rank) for play in analysis.plays]


def test_plays_are_ranked_by_score_with_ties_sharing_a_rank():
    """The best play scores 8, YA down 5."""
    analysis = analyse(windy().now, RACK, WordGraph.from_words(WORDS))
    assert moves(analysis) == [("9H AS", 8, 1), ("H8 .A", 5, 2)]
    assert analysis.candidates == 2
    assert analysis.plays[0].words == ("AS", "YA")
    assert analysis.plays[1].leave == "JKQSXZ"
    assert not analysis.by_equity


def test_the_move_made_is_ranked_among_the_candidates():
    """YA down, played, ranks second of two."""
    game = windy()
    before = game.now
    after = game.place(1, "H8", ".A")
    analysis = analyse(
        before, RACK, WordGraph.from_words(WORDS), played=after.turns[-1]
    )
    assert analysis.played_rank == 2
    assert analysis.played is not None
    assert (analysis.played.gcg(), analysis.played.score) == ("H8 .A", 5)


def test_a_play_forming_a_word_not_in_the_list_is_not_ranked():
    """YAS down is a legal placement but not a word of the list: no rank."""
    game = windy()
    before = game.now
    after = game.add(TilesPlaced(player=1, position="H8", word=".AS"))
    analysis = analyse(
        before, RACK, WordGraph.from_words(WORDS), played=after.turns[-1]
    )
    assert analysis.played is None
    assert analysis.played_rank is None
    assert analysis.candidates == 2


def test_a_bingo_scores_its_bonus_and_the_premiums_under_it():
    """RETAINS on the empty board: 7 points doubled by H8, plus 50; a tile on a
    double-letter square (D8, L8, H4, H12) adds 1 more. Only 8E and H5 reach
    neither: 64 against 66 for the other twelve placements."""
    game = Game("AEINRST")
    analysis = analyse(game.now, "AEINRST", WordGraph.from_words(["RETAINS"]), limit=20)
    scores = [(play.gcg(), play.score, play.rank) for play in analysis.plays]
    assert analysis.candidates == 14
    assert [score for _, score, _ in scores].count(66) == 12
    assert sorted(scores[-2:]) == [("8E RETAINS", 64, 13), ("H5 RETAINS", 64, 13)]
    assert all(play.leave == "" for play in analysis.plays)


def test_with_a_leave_table_plays_and_exchanges_rank_by_equity():
    """The table lists one leave: keeping JKQSXZ is worth 8 (any other leave is
    not listed: 0). YA keeps it: 5+8 = 13; AS: 8+0; exchanging the A keeps it: 8;
    every other exchange, and the pass, keep something else: 0."""
    leaves = LeaveTable.from_lines("# leave,value\nZXSQKJ,8\n")
    game = windy()
    before = game.now
    after = game.pass_(1)
    analysis = analyse(
        before, RACK, WordGraph.from_words(WORDS), leaves=leaves, played=after.turns[-1]
    )
    ranked = [(play.gcg(), play.equity, play.rank) for play in analysis.plays]
    assert ranked[:3] == [("H8 .A", 13.0, 1), ("9H AS", 8.0, 2), ("-A", 8.0, 2)]
    assert {play.equity for play in analysis.plays[3:]} == {0.0}
    # 2 placements, 127 distinct exchanges of 7 different tiles, and the pass.
    assert analysis.candidates == 2 + 127 + 1
    assert analysis.by_equity
    assert analysis.played is not None
    assert analysis.played.kind == "pass"
    assert analysis.played_rank == 4


def test_exchanges_are_candidates_only_while_the_bag_allows_one():
    """With fewer than 7 tiles in the bag, an exchange is not a move."""
    state = dataclasses.replace(windy().now, bag=Bag(3, "EEE"))
    analysis = analyse(
        state, RACK, WordGraph.from_words(WORDS), leaves=LeaveTable({"S": 8.0})
    )
    assert {play.kind for play in analysis.plays} == {"placement"}


def test_a_malformed_leave_table_names_its_line():
    with pytest.raises(AnalysisError) as error:
        LeaveTable.from_lines("A,1.5\nB,x\n")
    assert error.value.code == "leave_table"
    assert "Line 2" in error.value.message
    with pytest.raises(AnalysisError, match="Line 1"):
        LeaveTable.from_lines("A1,3\n")


def test_only_english_tiles_can_be_analysed():
    """The move generator knows the letters A-Z only."""
    state = apply(
        None,
        GameStarted(
            players=("a", "b"), ruleset=ruleset("naspa"), tile_set=tile_set("spanish")
        ),
    )
    with pytest.raises(AnalysisError) as error:
        analyse(state, "AE", WordGraph.from_words(WORDS))
    assert error.value.code == "tile_set"
