"""Reading GCG records: the six real games, and every feature of GCG.md."""

from __future__ import annotations

import pytest

from rules.errors import GcgError
from rules.events import (
    ChallengeOutcome,
    EndReason,
    GameEnded,
    GameStarted,
    NoteAdded,
    PlayChallenged,
    TilesDrawn,
    TilesExchanged,
    TilesPlaced,
    TilesReturned,
    TimePenalty,
)
from rules.gcg import GcgPlayer, read
from rules.ruleset import ChallengeRule, GoingOutRule, ScorelessRule, ruleset
from rules.state import TurnKind
from tests.rules_tests.support import GAME_FILES, GAMES, cumulatives_by_player

WRITTEN = {
    TurnKind.PLACEMENT,
    TurnKind.EXCHANGE,
    TurnKind.PASS,
    TurnKind.LOST_TURN,
    TurnKind.PHONY_WITHDRAWN,
    TurnKind.CHALLENGE_BONUS,
    TurnKind.END_BONUS,
    TurnKind.END_RACK,
    TurnKind.TIME_PENALTY,
}

FINALS = {
    "doug_v_emely.gcg": ((451, 345), "doug", EndReason.WENT_OUT),
    "fivepoint.gcg": ((452, 360), "Ganesh", EndReason.WENT_OUT),
    "issue_476.gcg": ((422, 443), "BestBot", EndReason.WENT_OUT),
    "josh2.gcg": ((397, 291), "jvc", EndReason.WENT_OUT),
    "noah_vs_peter.gcg": ((471, 407), "Noah", EndReason.WENT_OUT),
    "success_six_pass.gcg": ((-6, -16), "Marlon_Hill", EndReason.SCORELESS_TURNS),
}


def game(name: str):
    return read((GAMES / name).read_bytes())


def test_the_real_games_are_present():
    """The six real games are read from the shared folder beside the project."""
    assert sorted(path.name for path in GAME_FILES) == sorted(FINALS)


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda path: path.name)
def test_real_games_reproduce_every_cumulative(path):
    """Every cumulative score of every line is what the engine computes, with no
    discrepancy between recorded and computed scores."""
    text = path.read_bytes().decode("latin-1")
    record = read(path.read_bytes())
    assert record.discrepancies == []
    recorded = cumulatives_by_player(text)
    nicks = [player.nick for player in record.metadata.players]
    computed: dict[str, list[int]] = {nick: [] for nick in nicks}
    for turn in record.state.turns:
        if turn.kind in WRITTEN:
            computed[nicks[turn.player]].append(turn.cumulative)
    assert computed == recorded


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda path: path.name)
def test_real_games_final_scores_and_winner(path):
    """Each real game ends with its recorded final scores, winner and reason."""
    scores, winner, reason = FINALS[path.name]
    record = read(path.read_bytes())
    state = record.state
    assert state.scores == scores
    assert record.metadata.players[state.winner].nick == winner
    assert state.end_reason is reason
    assert len(record.event_lines) == len(record.events)
    assert isinstance(record.events[0], GameStarted)


def test_doug_v_emely_events_and_lines():
    """Lines become events: draws inferred from consecutive racks, each event keeps
    the line it came from."""
    record = game("doug_v_emely.gcg")
    events, lines = record.events, record.event_lines
    assert events[1] == TilesDrawn(player=0, tiles="DINNVWY")
    assert events[2] == TilesDrawn(player=1, tiles="ADEEGIL")
    assert events[3] == TilesPlaced(
        player=0, position="8D", word="WINDY", score=32, rack="DINNVWY"
    )
    assert lines[3] == 3
    # doug kept NV and drew AEJOS: read from his rack on line 5.
    assert events[4] == TilesDrawn(player=0, tiles="AEJOS")
    assert lines[4] == 5
    withdrawal = events[lines.index(9)]
    assert withdrawal == PlayChallenged(
        challenger=0, outcome=ChallengeOutcome.PHONY, score=-24, rack="DEIILTZ"
    )
    assert record.state.turns[5].withdrawn
    assert events[-1] == GameEnded(
        reason=EndReason.WENT_OUT, player=1, racks=("EGOP", ""), adjustments=(0, 14)
    )
    assert lines[-1] == 30
    assert record.ruleset == ruleset("naspa")


def test_josh2_partial_racks_and_challenge_bonuses():
    """Partial racks give count-only draws; (challenge) bonuses infer five-point."""
    record = game("josh2.gcg")
    assert record.ruleset.challenge is ChallengeRule.FIVE_POINT
    draws = [event for event in record.events if isinstance(event, TilesDrawn)]
    assert TilesDrawn(player=1, tiles="IOP", unknown=4) in draws
    assert any(draw.player == 1 and draw.unknown and not draw.tiles for draw in draws)
    bonuses = [
        turn for turn in record.state.turns if turn.kind is TurnKind.CHALLENGE_BONUS
    ]
    assert [(turn.player, turn.score) for turn in bonuses] == [
        (0, 5),
        (0, 5),
        (0, 5),
        (1, 5),
    ]
    notes = [event for event in record.events if isinstance(event, NoteAdded)]
    assert len(notes) == 7
    assert notes[0].text == "K5 MID(LI)ST #knowledgemedium"
    target = record.events[notes[0].target_version - 1]
    assert target == TilesPlaced(
        player=0, position="7G", word="MITT", score=25, rack="DIMSTTW"
    )


def test_fivepoint_infers_five_point_challenges_and_classic_going_out():
    """fivepoint.gcg: +5 bonuses and ±1× end lines give five-point and plus-minus."""
    record = game("fivepoint.gcg")
    assert record.ruleset.challenge is ChallengeRule.FIVE_POINT
    assert record.ruleset.going_out is GoingOutRule.PLUS_MINUS
    assert record.state.adjustments == (-1, 1)
    assert record.metadata.title == "2005 WSC Round 11"
    assert record.metadata.description.startswith("Ganesh Asirvatham plays")
    assert ("incomplete", "") in record.metadata.pragmas
    assert record.metadata.players == (
        GcgPlayer("Ganesh", "Ganesh Asirvatham"),
        GcgPlayer("Paul", "Paul Cleary"),
    )


def test_issue_476_time_penalty_and_metadata():
    """A (time) line becomes a time penalty after the end; metadata is kept."""
    record = game("issue_476.gcg")
    assert record.events[-1] == TimePenalty(player=0, minutes=1, score=-10)
    assert record.state.scores_before_adjustments == (432, 439)
    assert record.metadata.lexicon == "NWL23"
    assert record.events[0].lexicon == "NWL23"
    assert record.metadata.id == "io.woogles kYmDwcfkbY"
    assert record.metadata.description == "Created with Macondo"
    assert ("game-type", "classic") in record.metadata.pragmas
    exchanges = [event for event in record.events if isinstance(event, TilesExchanged)]
    assert exchanges[0] == TilesExchanged(player=0, tiles="EQ", rack="EEKOQRS")


def test_six_pass_ending_and_notes_on_end_lines():
    """Six scoreless turns (phonies and exchanges) end the game; every rack counts."""
    record = game("success_six_pass.gcg")
    state = record.state
    assert record.ruleset.scoreless_end is ScorelessRule.SIX_SCORELESS
    assert state.end_reason is EndReason.SCORELESS_TURNS
    assert state.adjustments == (-6, -16)
    assert state.scores_before_adjustments == (0, 0)
    assert state.winner == 0
    end = record.events.index(
        next(e for e in record.events if isinstance(e, GameEnded))
    )
    notes = [
        event.text
        for event in record.events
        if isinstance(event, NoteAdded) and event.target_version == end + 1
    ]
    assert notes[0].startswith("Woah! He drew the blank!")
    assert notes[1].startswith("well... so much for that")


def test_noah_overdraw_returns_the_extra_tile():
    """A full rack lacking a kept tile is an overdraw: the tile went back to the bag."""
    record = game("noah_vs_peter.gcg")
    index = record.events.index(TilesReturned(player=0, tiles="?"))
    assert record.event_lines[index] == 9
    assert record.events[index + 1] == TilesDrawn(player=0, tiles="INNR")


BASE = """#player1 ann Ann Smith
#player2 bob Bob Jones
>ann: DINNVWY 8D WINDY +32 32
>bob: ADEEGIL E7 A.E +3 3
"""


def test_crlf_cr_tabs_spaces_and_lowercase_coordinates():
    """Any line-break mix, tabs, runs of spaces, trailing spaces and lowercase
    coordinates read the same as the plain form."""
    messy = (
        "#player1\tann  Ann Smith\r\n#player2 bob Bob Jones\r"
        ">ann:   DINNVWY\t8d   WINDY  +32\t32   \n\n"
        ">bob: ADEEGIL e7 A.E +3 3 trailing tokens ignored\r\n"
    )
    assert read(messy).events == read(BASE).events
    assert read(messy).metadata == read(BASE).metadata


def test_played_through_letters_or_dots():
    """'.' and the letter itself both stand for a tile already on the board."""
    with_letter = BASE.replace("E7 A.E", "E7 AIE")
    assert read(with_letter).events == read(BASE).events


def test_latin1_is_the_default_encoding():
    """Bytes without the pragma are Latin-1, even when they are valid UTF-8."""
    text = BASE.replace("Ann Smith", "José Pérez")
    assert read(text.encode("latin-1")).metadata.players[0].name == "José Pérez"
    assert read(text.encode("utf-8")).metadata.players[0].name == "JosÃ© PÃ©rez"


def test_utf8_when_declared_on_the_first_line():
    """With #character-encoding UTF-8 first, bytes are UTF-8."""
    text = "#character-encoding UTF-8\n" + BASE.replace("Ann Smith", "Zoë Ł")
    assert read(text.encode("utf-8")).metadata.players[0].name == "Zoë Ł"


@pytest.mark.parametrize(
    ("text", "line", "code"),
    [
        ("#character-encoding ISO-8859-7\n" + BASE, 1, "bad_encoding"),
        (
            BASE.replace("#player2", "#character-encoding UTF-8\n#player2"),
            2,
            "misplaced_encoding",
        ),
    ],
)
def test_other_encodings_and_misplaced_pragma_are_errors(text, line, code):
    """Any other declared encoding, or the pragma elsewhere, is an error."""
    with pytest.raises(GcgError) as error:
        read(text.encode("latin-1"))
    assert (error.value.problems[0][0], error.value.problems[0][1]) == (line, code)


def test_invalid_utf8_is_reported_with_its_line():
    """Bytes that are not UTF-8 under the UTF-8 pragma are an error at their line."""
    data = (
        ("#character-encoding UTF-8\n" + BASE)
        .encode("utf-8")
        .replace(b"Bob", b"B\xffb")
    )
    with pytest.raises(GcgError) as error:
        read(data)
    assert error.value.problems[0][:2] == (3, "bad_encoding")


def test_empty_and_partial_racks_give_count_only_draws():
    """Without a full rack, draws are recorded as counts."""
    record = read(
        "#player1 ann Ann\n#player2 bob Bob\n"
        ">ann:  8D WINDY +32 32\n"
        ">bob: AE E7 A.E +3 3\n"
    )
    assert record.events[1] == TilesDrawn(player=0, unknown=7)
    assert record.events[2] == TilesDrawn(player=1, tiles="AE", unknown=5)
    assert record.events[3].rack == ""
    assert record.state.racks[0].unknown == 7


def test_count_only_exchange():
    """-N records an exchange of N tiles whose letters are not known."""
    record = read(BASE + ">ann: AEJNOSV -3 +0 32\n")
    exchange = record.events[-2]
    assert exchange == TilesExchanged(player=0, unknown=3, rack="AEJNOSV")
    assert record.events[-1] == TilesDrawn(player=0, unknown=3)
    assert record.state.turns[-1].count == 3


def test_notes_with_continuation_lines_and_several_notes():
    """A note continues over lines that are not pragmas or events; several #note
    lines are several notes on the same event."""
    record = read(
        BASE
        + "#note first line\nsecond line\n\nafter a blank line\n"
        + "#note another note\n"
        + ">ann: AEJNOSV - +0 32\n"
    )
    notes = [event for event in record.events if isinstance(event, NoteAdded)]
    assert [note.text for note in notes] == [
        "first line\nsecond line\n\nafter a blank line",
        "another note",
    ]
    assert {note.target_version for note in notes} == {
        record.events.index(
            TilesPlaced(player=1, position="E7", word="A.E", score=3, rack="ADEEGIL")
        )
        + 1
    }
    assert [note.text for note in record.state.turns[1].notes] == [
        note.text for note in notes
    ]


def test_final_rack_pragmas_give_the_last_draw():
    """#rack1/#rack2 at the end of an unfinished record say what was drawn last."""
    record = read(BASE + "#rack1 AEJNOSV\n#rack2 BDEGIKL\n")
    assert record.events[4] == TilesDrawn(player=0, tiles="AEJOS")
    assert record.events[-1] == TilesDrawn(player=1, tiles="BK")
    assert record.event_lines[-1] == 6
    assert record.state.racks[1].known == "BDEGIKL"
    assert not record.state.game_over


def test_unfinished_record_keeps_current_scores():
    """A record without an end is read as a game still in progress."""
    state = read(BASE).state
    assert state.scores == (32, 3)
    assert state.end_reason is None
    assert state.winner is None
    assert state.turn == 0


def test_other_pragmas_are_kept_in_order():
    """Pragmas the engine does not use are kept, never fail the file."""
    record = read(
        "#game-type classic\n#board-layout CrosswordGame\n#style x\n"
        + BASE
        + "#comment after the events\n"
    )
    assert record.metadata.pragmas == (
        ("game-type", "classic"),
        ("board-layout", "CrosswordGame"),
        ("style", "x"),
        ("comment", "after the events"),
    )


def test_recorded_score_that_differs_is_kept_and_reported():
    """A wrong score is kept (the cumulative uses it) and reported with its line."""
    record = read(BASE.replace("+32 32", "+30 30"))
    assert record.state.scores == (30, 3)
    assert [(d.line, d.recorded, d.computed, d.kind) for d in record.discrepancies] == [
        (3, 30, 32, "score")
    ]


def test_cumulative_that_differs_is_reported_once():
    """A cumulative that is not the previous one plus the score is reported; later
    lines are checked against the cumulative as recorded."""
    record = read(BASE.replace("+32 32", "+32 33") + ">ann: AEJNOSV - +0 33\n")
    assert [(d.line, d.recorded, d.computed, d.kind) for d in record.discrepancies] == [
        (3, 33, 32, "cumulative")
    ]
    assert record.state.scores == (32, 3)


def test_explicit_ruleset_overrides_inference():
    """rules= chooses the ruleset instead of inferring it."""
    assert read(BASE, rules="classic").ruleset == ruleset("classic")
    assert read(BASE, rules=ruleset("wespa")).ruleset == ruleset("wespa")
    with pytest.raises(GcgError) as error:
        read(BASE, rules="scrabble")
    assert error.value.problems[0][1] == "unknown_ruleset"


def test_rules_given_can_make_a_record_wrong():
    """Under double challenge a (challenge) bonus line is an error at its line."""
    with pytest.raises(GcgError) as error:
        read((GAMES / "josh2.gcg").read_bytes(), rules="naspa")
    assert error.value.problems[0][:2] == (4, "challenges_not_allowed")
