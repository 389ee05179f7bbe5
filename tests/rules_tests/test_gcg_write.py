"""Writing GCG: the format, and reading back what was written."""

from __future__ import annotations

import pytest

from rules.errors import GcgError
from rules.events import (
    ChallengeOutcome,
    EndReason,
    GameStarted,
    NoteAdded,
    PlayChallenged,
    ScoreCorrected,
    TurnPassed,
)
from rules.gcg import GcgMetadata, GcgPlayer, check_file, read, write
from rules.ruleset import ruleset
from rules.state import replay
from tests.rules_tests.support import GAME_FILES, GAMES, Game


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda path: path.name)
def test_read_write_read_gives_the_same_events(path):
    """Reading what was written gives back the same events and metadata."""
    record = read(path.read_bytes())
    text = write(record.events, record.metadata)
    again = read(text.encode("utf-8"))
    assert again.events == record.events
    assert again.metadata == record.metadata
    assert again.discrepancies == []
    assert write(again.events, again.metadata) == text


def test_written_text_is_utf8_gcg_with_lf():
    """The encoding pragma comes first, lines end with LF, lines follow GCG.md."""
    record = read((GAMES / "doug_v_emely.gcg").read_bytes())
    text = write(record.events, record.metadata)
    lines = text.split("\n")
    assert lines[0] == "#character-encoding UTF-8"
    assert lines[1:3] == ["#player1 doug doug", "#player2 emely emely"]
    assert "\r" not in text
    assert text.endswith("\n")
    assert ">doug: DINNVWY 8D WINDY +32 32" in lines
    assert ">emely: DEIILTZ -- -24 55" in lines
    assert ">doug: AEJNOSV E3 JAVE..N +34 66" in lines
    assert lines[-2] == ">emely:  (EGOP) +14 345"  # racks are written sorted


def test_written_special_lines():
    """Challenge bonuses, own-rack deductions, time penalties and exchanges."""
    fivepoint = read((GAMES / "fivepoint.gcg").read_bytes())
    text = write(fivepoint.events, fivepoint.metadata)
    assert ">Paul: ARTEQ?G (challenge) +5 74" in text  # as recorded
    assert ">Paul:  (T) +1 360" in text
    assert ">Ganesh: T (T) -1 452" in text
    assert "#incomplete" in text
    assert "#title 2005 WSC Round 11" in text
    issue = read((GAMES / "issue_476.gcg").read_bytes())
    text = write(issue.events, issue.metadata)
    assert ">whatnoloan: NU (time) -10 422" in text
    assert ">whatnoloan: EEKOQRS -EQ +0 0" in text
    assert "#lexicon NWL23" in text
    six = read((GAMES / "success_six_pass.gcg").read_bytes())
    text = write(six.events, six.metadata)
    assert ">Marlon_Hill: ?AEEOTT (?AEEOTT) -6 -6" in text


def test_notes_are_written_after_their_line_with_continuations():
    """A note follows its event line; extra lines continue it."""
    game = Game("DINNVWY", "ADEEGIL")
    game.place(0, "8D", "WINDY")
    game.add(NoteAdded(target_version=game.version, text="first\nsecond"))
    text = write(game.events)
    assert ">ann: DINNVWY 8D WINDY +32 32\n#note first\nsecond\n" in text
    assert [note.text for note in read(text).state.turns[0].notes] == ["first\nsecond"]


def test_players_come_from_the_game_without_metadata():
    """Without metadata, nicks are the players' names with spaces made underscores."""
    game = Game(
        "DINNVWY",
        "ADEEGIL",
        players=("Ann Smith", "Bob"),
    )
    text = write(game.events)
    assert "#player1 Ann_Smith Ann Smith\n" in text
    assert "#player2 Bob Bob\n" in text
    named = write(
        game.events,
        GcgMetadata(players=(GcgPlayer("a", "Ann"), GcgPlayer("b", "Bob")), title="T"),
    )
    assert "#player1 a Ann\n" in named
    assert "#title T\n" in named


def test_unfinished_game_writes_the_known_racks():
    """An unfinished game ends with #rack1/#rack2 when the racks are known."""
    game = Game("DINNVWY", "ADEEGIL")
    game.place(0, "8D", "WINDY")
    game.draw(0, "AEJOS")
    text = write(game.events)
    assert text.endswith("#rack1 AEJNOSV\n#rack2 ADEEGIL\n")
    assert read(text).state.racks == game.now.racks


def test_lost_turn_under_double_challenge_is_written_as_a_pass():
    """GCG writes a challenger's lost turn as a pass, which reads back as one."""
    game = Game("DINNVWY", "ADEEGIL", rules="naspa")
    game.place(0, "8D", "WINDY")
    game.draw(0, "AEJOS")
    game.add(PlayChallenged(challenger=1, outcome=ChallengeOutcome.VALID))
    text = write(game.events)
    assert ">bob: ADEEGIL - +0 0" in text
    again = read(text, rules="naspa")
    assert TurnPassed(player=1, rack="ADEEGIL") in again.events
    assert again.state.scores == game.now.scores
    assert again.state.turn == game.now.turn


def test_what_gcg_cannot_say_is_left_out():
    """A score correction has no GCG line; its note moves to the line before."""
    game = Game("DINNVWY", "ADEEGIL")
    game.place(0, "8D", "WINDY")
    game.add(ScoreCorrected(player=0, amount=-2, reason="recount"))
    game.add(NoteAdded(target_version=game.version, text="corrected"))
    text = write(game.events)
    assert "recount" not in text
    assert ">ann: DINNVWY 8D WINDY +32 32\n#note corrected\n" in text


def test_only_two_player_games_are_written():
    """GCG records two-player games."""
    events = [GameStarted(players=("a", "b", "c"), ruleset=ruleset())]
    with pytest.raises(GcgError):
        write(events)


def test_written_game_replays_to_the_same_state():
    """Reading a written game gives the same board, racks and scores."""
    record = read((GAMES / "josh2.gcg").read_bytes())
    again = read(write(record.events, record.metadata))
    assert replay(again.events) == record.state


def test_free_challenge_is_written_and_read_back():
    """Under the single rule a valid challenge is written as (challenge) +0 and the
    reader infers the single rule from it."""
    game = Game("DINNVWY", "ADEEGIL", rules=ruleset("naspa", challenge="single"))
    game.place(0, "8D", "WINDY")
    game.draw(0, "AEJOS")
    game.add(PlayChallenged(challenger=1, outcome=ChallengeOutcome.VALID))
    text = write(game.events)
    assert ">ann: AEJNOSV (challenge) +0 32" in text
    again = read(text)
    assert again.ruleset.challenge == "single"
    assert again.state.turns[-1].kind == "challenge"
    assert again.state.turn == 1


def _tie_won_on_pre_adjustment_scores() -> Game:
    """A classic game whose final scores tie (-7 each) and which ann wins on her
    higher score before the rack adjustments (32 to 3)."""
    game = Game("DINNVWY", "ADEEGIL", rules="classic")
    game.place(0, "8D", "WINDY")
    game.draw(0, "AJKQZ")  # ann keeps NV: her rack is worth 39
    game.place(1, "E7", "A.E")
    game.draw(1, "AD")  # bob's rack ADDEGIL is worth 10
    for player in (0, 1, 0, 1):
        game.pass_(player)
    game.end(EndReason.SCORELESS_TURNS)
    return game


def test_a_tie_won_on_the_tie_break_keeps_its_winner_when_read_back(tmp_path):
    """Issue 20: the ruleset travels with the record when the tie-break decided the
    game; the reader and the checker read it back with it, --rules still wins."""
    game = _tie_won_on_pre_adjustment_scores()
    assert game.now.scores == (-7, -7)
    assert (game.now.winner, game.now.decided_by_tiebreak) == (0, True)
    text = write(game.events)
    assert (
        "#ruleset classic challenge=double going_out=plus_minus "
        "scoreless_end=all_pass_twice ties_are_draws=false\n"
    ) in text
    again = read(text)
    assert again.ruleset == ruleset("classic")
    assert again.state.winner == 0
    assert write(again.events, again.metadata) == text
    without = text.replace(text.split("\n")[3] + "\n", "")
    assert "#ruleset" not in without
    assert read(without).state.winner is None  # inferred naspa: a draw
    path = tmp_path / "tie.gcg"
    path.write_text(text, encoding="utf-8")
    assert check_file(str(path))["winner"] == "ann"
    assert check_file(str(path), "naspa")["winner"] is None


def test_games_not_decided_by_the_tie_break_name_no_ruleset():
    """Only the tie-break makes the ruleset part of the record."""
    record = read((GAMES / "doug_v_emely.gcg").read_bytes())
    assert "#ruleset" not in write(record.events, record.metadata)


def test_a_bad_ruleset_pragma_is_refused_with_its_line():
    """A ruleset field or value no ruleset has."""
    with pytest.raises(GcgError) as error:
        read("#player1 a A\n#player2 b B\n#ruleset classic challenge=triple\n")
    assert error.value.problems[0][:2] == (3, "bad_ruleset")


def _event_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.startswith(">")]


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda path: path.name)
def test_a_live_game_is_written_without_the_racks_its_reader_may_not_see(path):
    """The rack rule's GCG (issue 32): a game still being recorded, written for a
    reader who may see no rack, has every rack empty (as GCG writes a rack the
    recorder did not know), exchanges as counts and no #rack pragmas, and reads
    back to the same board and scores."""
    record = read(path.read_bytes())
    live = record.events[: len(record.events) * 2 // 3]
    state = replay(live)
    assert not state.game_over
    whole = write(live, record.metadata)
    hidden = write(live, record.metadata, racks_through=0)
    assert "#rack" not in hidden
    for line in _event_lines(hidden):
        body = line.split(": ", 1)[1]
        assert body.startswith(" "), line  # no rack before the move
        move = body.split()[0]
        assert not move.startswith("-") or move in ("-", "--") or move[1:].isdigit()
    back = read(hidden.encode("utf-8"))
    assert back.state.scores == state.scores
    assert back.state.board.rows() == state.board.rows()
    # Racks up to a version are shown: the lines of the turns up to it as whole.
    turns = [turn for turn in state.turns if turn.player is not None]
    middle = turns[len(turns) // 2].version
    partial = _event_lines(write(live, record.metadata, racks_through=middle))
    shown = sum(1 for turn in turns if turn.version <= middle)
    assert partial[:shown] == _event_lines(whole)[:shown]
    assert partial[shown:] == _event_lines(hidden)[shown:]
