"""Replay: folding events into state, corrections that supersede events, notes,
appending with validation, and what the state exposes."""

from __future__ import annotations

import dataclasses

import pytest

from rules.errors import (
    GameNotStartedError,
    NotConnectedError,
    NoteTargetError,
    ReplayRequiredError,
    SupersedeError,
)
from rules.events import (
    EventsSuperseded,
    NoteAdded,
    NoteDeleted,
    NoteEdited,
    ScoreCorrected,
    TilesDrawn,
    TilesPlaced,
    TurnPassed,
    Visibility,
    VisibilityChanged,
)
from rules.state import (
    Note,
    apply,
    bag_count,
    effective_events,
    replay,
    unseen_tiles,
    validate_append,
)
from tests.rules_tests.support import Game


def opening() -> Game:
    """Versions: 1 start, 2-3 draws, 4 WINDY, 5 draw, 6 GLIDE-ish play."""
    game = Game("DINNVWY", "ADEEGIL")
    game.place(0, "8D", "WINDY")
    game.draw(0, "AEJOS")
    game.place(1, "E7", "A.E")
    return game


def test_replay_folds_apply():
    """replay gives the state that applying each event in turn gives."""
    game = opening()
    assert replay(game.events) == game.now
    assert replay(game.events).version == 6


def test_replay_of_nothing_is_refused():
    """An empty stream has no game."""
    with pytest.raises(GameNotStartedError):
        replay([])


def test_superseded_events_are_void():
    """A correction voids the events from its from_version up to itself."""
    game = opening()
    events = [*game.events, EventsSuperseded(from_version=6, reason="wrong square")]
    pairs = effective_events(events)
    assert [version for version, _ in pairs] == [1, 2, 3, 4, 5]
    state = replay(events)
    assert state.scores == (32, 0)
    assert state.turn == 1
    assert state.version == 7  # the stream's last version, the correction's
    assert apply(state, TurnPassed(player=1)).turns[-1].version == 8
    events.append(TilesPlaced(player=1, position="9C", word="AGE"))
    state = replay(events)
    assert state.turns[-1].version == 8
    assert state.turns[-1].word == "AGE"


def test_a_voided_correction_does_not_bring_events_back():
    """Superseding from before a correction voids it, but the events it voided stay
    void: replay continues from the state before from_version."""
    game = opening()
    events = [
        *game.events,  # 1..6
        EventsSuperseded(from_version=4, reason="redo the opening"),  # 7
        TilesPlaced(player=0, position="8E", word="WIND"),  # 8
        EventsSuperseded(from_version=7, reason="undo the redo"),  # 9
    ]
    assert [version for version, _ in effective_events(events)] == [1, 2, 3]
    assert replay(events).board.is_empty


@pytest.mark.parametrize("from_version", [0, 1, 8])
def test_bad_supersede_ranges_are_refused(from_version):
    """The start cannot be superseded, nor a version after the correction itself."""
    events = [
        *opening().events,
        EventsSuperseded(from_version=from_version, reason="x"),
    ]
    with pytest.raises(SupersedeError) as error:
        replay(events)
    assert error.value.version == 7


def test_apply_needs_the_stream_for_a_correction():
    """apply cannot resolve a correction: it raises ReplayRequiredError."""
    with pytest.raises(ReplayRequiredError):
        apply(opening().now, EventsSuperseded(from_version=2, reason="x"))


def test_validate_append_checks_new_events_and_returns_the_state():
    """New events are checked against the stream; the error carries the version."""
    game = opening()
    state = validate_append(game.events, [TilesDrawn(player=1, tiles="BC")])
    assert state.racks[1].count == 7
    with pytest.raises(NotConnectedError) as error:
        validate_append(
            game.events,
            [
                TilesDrawn(player=1, tiles="BC"),
                TilesPlaced(player=0, position="2A", word="JO"),
            ],
        )
    assert error.value.version == 8


def test_validate_append_resolves_corrections():
    """A correction among new events is resolved before the following events."""
    game = opening()
    state = validate_append(
        game.events,
        [
            EventsSuperseded(from_version=6, reason="wrong square"),
            TilesPlaced(player=1, position="9C", word="AGE"),
        ],
    )
    assert state.turns[-1].word == "AGE"
    assert state.turns[-1].version == 8
    with pytest.raises(GameNotStartedError):
        validate_append([], [TurnPassed(player=0)])


def test_notes_annotate_turns_without_changing_anything_else():
    """A note is kept on its turn; scores, board and racks are unchanged."""
    game = opening()
    before = game.now
    state = game.add(NoteAdded(target_version=4, text="should have played QAID"))
    assert state.turns[0].notes == (Note(7, "should have played QAID"),)
    assert (state.scores, state.board, state.racks) == (
        before.scores,
        before.board,
        before.racks,
    )
    state = game.add(NoteAdded(target_version=4, text="second thought"))
    assert [note.text for note in state.turns[0].notes] == [
        "should have played QAID",
        "second thought",
    ]


def test_an_edit_supersedes_a_note_in_place_and_a_deletion_withdraws_it():
    """A note is named by the version that added it: an edit replaces its text
    where it stands (the edit's version recorded), a deletion removes it; the
    other notes and the game are untouched."""
    game = opening()
    game.add(NoteAdded(target_version=4, text="first"))
    game.add(NoteAdded(target_version=4, text="second"))
    before = game.now
    state = game.add(NoteEdited(note_version=7, text="first, better"))
    assert state.turns[0].notes == (
        Note(7, "first, better", edited_version=9),
        Note(8, "second"),
    )
    state = game.add(NoteDeleted(note_version=8))
    assert state.turns[0].notes == (Note(7, "first, better", edited_version=9),)
    assert (state.scores, state.board, state.racks) == (
        before.scores,
        before.board,
        before.racks,
    )


@pytest.mark.parametrize(
    "event", [NoteEdited(note_version=4, text="x"), NoteDeleted(note_version=3)]
)
def test_only_a_note_on_the_sheet_can_be_edited_or_deleted(event):
    """A version that added no note (here a turn, a draw) is refused, and so is a
    note already deleted."""
    game = opening()
    with pytest.raises(NoteTargetError):
        game.add(event)
    game.add(NoteAdded(target_version=4, text="x"))
    game.add(NoteDeleted(note_version=7))
    with pytest.raises(NoteTargetError):
        game.add(NoteEdited(note_version=7, text="again"))


def test_a_change_of_visibility_changes_nothing_the_rules_know():
    """Who may read a casual game is not a rule: the state is the same but for its
    version, even after the end of the game."""
    game = opening()
    before = game.now
    state = game.add(VisibilityChanged(Visibility.PUBLIC))
    assert state.version == before.version + 1
    assert dataclasses.replace(state, version=before.version) == before


@pytest.mark.parametrize("target", [1, 2, 5, 99])
def test_notes_must_target_a_turn(target):
    """A note on the start, a draw, or a version that does not exist is refused."""
    with pytest.raises(NoteTargetError) as error:
        opening().add(NoteAdded(target_version=target, text="?"))
    assert error.value.code == "bad_note_target"


def test_notes_on_superseded_turns_are_refused():
    """After a correction, the voided turn can no longer be annotated."""
    events = [*opening().events, EventsSuperseded(from_version=6, reason="x")]
    with pytest.raises(NoteTargetError):
        validate_append(events, [NoteAdded(target_version=6, text="?")])


def test_score_sheet_records_each_turn():
    """Each turn records its player, position, words with breakdowns and totals."""
    state = opening().now
    first, second = state.turns
    assert (first.version, first.player, first.position, first.word) == (
        4,
        0,
        "8D",
        "WINDY",
    )
    assert first.rack == "DINNVWY"
    assert first.score == first.cumulative == 32
    assert [word.word for word in second.words] == ["AIE"]
    assert second.score == 3


def test_score_corrections_are_turns():
    """A director's correction changes the score and shows on the score sheet."""
    state = opening().add(ScoreCorrected(player=1, amount=-1, reason="arithmetic"))
    assert state.scores == (32, 2)
    assert state.turns[-1].cumulative == 2


def test_unseen_tiles_and_bag_count():
    """Unseen tiles are the set less the board and the player's own rack."""
    state = opening().now
    assert bag_count(state) == state.bag_count == 100 - 14 - 5
    unseen = unseen_tiles(state, 0)
    assert len(unseen) == 100 - 7 - 7
    assert unseen.count("W") == 1
    assert unseen_tiles(state, 1).count("J") == 1  # ann's J is unseen to bob


def test_tiles_are_conserved():
    """Board, known racks and the bag's candidates make up the tile set."""
    state = opening().now
    on_board = "".join(
        "?" if s.islower() else s for s in state.board.squares if s != "."
    )
    racks = "".join(rack.known for rack in state.racks)
    assert sorted(on_board + racks + state.bag.candidates) == sorted(
        state.tile_set.tiles()
    )
    assert state.bag.exact
    assert state.bag.tiles == state.bag.candidates
