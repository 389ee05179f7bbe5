"""Handlers for corrections and annotations: time penalties, score corrections,
notes, and who may read a game.

Usage (through ``apply``)::

    state = apply(state, ScoreCorrected(player=0, delta=-10, reason="miscount"))
    state = apply(state, NoteAdded(text="Clock stopped", move=12))
"""

from __future__ import annotations

from rules.errors import (
    GameNotOverError,
    InvalidEventError,
    NoteTargetError,
    TimePenaltyRepeatedError,
)
from rules.events import (
    NoteAdded,
    NoteDeleted,
    NoteEdited,
    ScoreCorrected,
    TimePenalty,
    VisibilityChanged,
)
from rules.state.ending import _rescored
from rules.state.steps import (
    _add,
    _check_player,
    _check_score,
    _evolve,
    _flagged,
    _replace,
)
from rules.state.values import GameState, Note, Turn, TurnKind


def _time_penalty(state: GameState, event: TimePenalty, version: int) -> GameState:
    player = event.player
    _check_player(state, player)
    name = state.players[player]
    if state.end_reason is None:
        raise GameNotOverError(
            f"A time penalty for {name} comes after the end of the game, and the "
            "game has not ended"
        )
    if event.minutes < 0:
        raise InvalidEventError(
            f"{name}'s time penalty has a negative number of minutes"
        )
    if any(
        turn.kind is TurnKind.TIME_PENALTY and turn.player == player
        for turn in state.turns
    ):
        raise TimePenaltyRepeatedError(
            f"{name} already has a time penalty: one penalty counts every minute "
            "over time (correct that one instead)"
        )
    computed = -event.minutes * state.ruleset.time_penalty_per_minute
    _check_score(state, computed, "A time penalty")
    _check_score(state, event.score, "A time penalty")
    credited = computed if event.score is None else event.score
    discrepancies = _flagged(state, version, player, "time_penalty", credited, computed)
    scores = _add(state.scores, player, credited)
    turns = (
        *state.turns,
        Turn(
            version,
            player,
            TurnKind.TIME_PENALTY,
            score=credited,
            cumulative=scores[player],
            computed=computed,
            rack=state.racks[player].known or None,
            count=event.minutes,
        ),
    )
    return _evolve(
        state,
        scores=scores,
        version=version,
        turns=turns,
        discrepancies=discrepancies,
        **_rescored(state, scores, state.scores_before_adjustments),
    )


def _correct(state: GameState, event: ScoreCorrected, version: int) -> GameState:
    player = event.player
    _check_player(state, player)
    _check_score(state, event.amount, "A score correction")
    scores = _add(state.scores, player, event.amount)
    # A correction fixes the scoring of the game itself, so the score before the
    # end-of-game adjustments (the tie-break) moves with it.
    before = _add(state.scores_before_adjustments, player, event.amount)
    turns = (
        *state.turns,
        Turn(
            version,
            player,
            TurnKind.SCORE_CORRECTION,
            score=event.amount,
            cumulative=scores[player],
            computed=event.amount,
            detail=event.reason,
        ),
    )
    changes: dict[str, object] = {}
    if state.end_reason is not None:
        changes = _rescored(state, scores, before)
    return _evolve(
        state,
        scores=scores,
        scores_before_adjustments=before,
        version=version,
        turns=turns,
        **changes,
    )


def _note(state: GameState, event: NoteAdded, version: int) -> GameState:
    target = event.target_version
    turns = state.turns
    for index in range(len(turns) - 1, -1, -1):
        turn = turns[index]
        if turn.version == target:
            # Several lines can share a version (the end of the game): the note goes
            # on the first of them.
            while index > 0 and turns[index - 1].version == target:
                index -= 1
            turn = turns[index]
            updated = _replace(turn, notes=(*turn.notes, Note(version, event.text)))
            return _evolve(
                state,
                turns=(*turns[:index], updated, *turns[index + 1 :]),
                version=version,
            )
        if turn.version < target:
            break
    raise NoteTargetError(
        f"Version {target} is not a turn of this game: a note annotates a turn"
    )


def _rewrite_note(
    state: GameState, note_version: int, version: int, text: str | None
) -> GameState:
    """The state with the note added at ``note_version`` reading ``text`` (None:
    deleted)."""
    turns = state.turns
    for index, turn in enumerate(turns):
        for position, note in enumerate(turn.notes):
            if note.version != note_version:
                continue
            kept = (
                ()
                if text is None
                else (Note(note.version, text, edited_version=version),)
            )
            notes = (*turn.notes[:position], *kept, *turn.notes[position + 1 :])
            updated = _replace(turn, notes=notes)
            return _evolve(
                state,
                turns=(*turns[:index], updated, *turns[index + 1 :]),
                version=version,
            )
    raise NoteTargetError(
        f"Version {note_version} added no note that is still on the score sheet"
    )


def _edit_note(state: GameState, event: NoteEdited, version: int) -> GameState:
    return _rewrite_note(state, event.note_version, version, event.text)


def _delete_note(state: GameState, event: NoteDeleted, version: int) -> GameState:
    return _rewrite_note(state, event.note_version, version, None)


def _visibility(state: GameState, event: VisibilityChanged, version: int) -> GameState:
    # Who may read a game is not a rule: nothing changes but the version.
    return _evolve(state, version=version)
