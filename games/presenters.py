"""What the game pages show of a game: the score sheet's lines, a position with its
racks and unseen tiles, the result; composed from the rules' state, never a rule.

One presenter per kind of score-sheet line (``TURN_PRESENTERS``) says what the line
shows: its words or what happened, and its marks. Usage::

    names = player_names(aggregate)
    lines = score_sheet(game_id, aggregate, names)
    position = position_after(aggregate, len(lines), names)
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from games import selectors
from games.formatting import signed
from games.notes import NoteStamp, NoteView, note_stamps, note_view, versions_of
from games.streams import GameAggregate
from rules import state as rs
from rules.board import Position as BoardPosition
from rules.board import square_name
from rules.moves import PLAYED_THROUGH
from rules.state import TurnKind
from rules.tiles import difference, remove_tiles

END_REASONS = {
    "went_out": "going out",
    "scoreless_turns": "scoreless turns",
    "resigned": "resignation",
    "forfeit": "forfeit",
    "timed_out": "time",
    "adjudicated": "adjudication",
    "director_decision": "the director's decision",
}


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the score sheet as the page shows it."""

    index: int
    version: int
    player: int | None
    player_name: str
    rack: str
    position: str
    main_word: str
    other_words: tuple[str, ...]
    what: str
    score: int
    cumulative: int
    badges: tuple[tuple[str, str], ...]
    notes: tuple[NoteView, ...]
    discrepancy: str
    breakdown: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RackView:
    name: str
    score: int
    tiles: str
    unknown: int
    to_move: bool
    from_sheet: bool


@dataclass(frozen=True, slots=True)
class Position:
    """The game as it stood after score-sheet line `index` (0: before any turn)."""

    index: int
    state: rs.GameState
    highlight: frozenset[str]
    racks: tuple[RackView, ...]
    unseen: str
    unseen_for: str


def player_names(aggregate: GameAggregate) -> list[str]:
    assert aggregate.state is not None
    names = aggregate.context.get("player_names") or []
    players = list(aggregate.state.players)
    return [
        (names[index] if index < len(names) and names[index] else nick)
        for index, nick in enumerate(players)
    ]


def score_sheet(
    game_id: uuid.UUID,
    aggregate: GameAggregate,
    names: list[str],
    racks: selectors.RackView = selectors.EVERY_RACK,
) -> list[Line]:
    """The score sheet's lines with their marks (challenges, discrepancies, notes),
    without the racks `racks` hides (an exchange then says how many tiles)."""
    state = aggregate.state
    assert state is not None
    turns = state.turns
    lines_of_event: dict[int, int] = {}
    if state.discrepancies:
        # The GCG line of an imported event is in its metadata (not a rules fact).
        lines_of_event = {
            recorded.version: recorded.metadata["line"]
            for recorded in selectors.game_events(game_id)
            if "line" in recorded.metadata
        }
    stamps = note_stamps(game_id, versions_of(turns))
    return [
        _line(
            index,
            turn,
            turns,
            names,
            state.discrepancies,
            lines_of_event,
            stamps,
            racks.shows(turn.version),
        )
        for index, turn in enumerate(turns, start=1)
    ]


@dataclass(frozen=True, slots=True)
class TurnText:
    """What a presenter says of one turn: its words, or what happened, and marks."""

    main_word: str = ""
    other_words: tuple[str, ...] = ()
    what: str = ""
    badges: tuple[tuple[str, str], ...] = ()


# A presenter reads the turn and the line after it (a valid challenge is recorded
# on the line that follows the play).
TurnPresenter = Callable[[rs.Turn, "rs.Turn | None"], TurnText]


def _words(turn: rs.Turn) -> list[str]:
    return [word.word for word in turn.words]


def _placement(turn: rs.Turn, following: rs.Turn | None) -> TurnText:
    words = _words(turn)
    badges = [("bingo", "bingo")] if turn.bingo else []
    if turn.withdrawn:
        badges.append(("phony", "challenged off"))
    elif following is not None and following.kind in (
        TurnKind.CHALLENGE_BONUS,
        TurnKind.CHALLENGE,
    ):
        badges.append(("valid", "challenged, valid"))
    return TurnText(
        main_word=words[0] if words else (turn.word or ""),
        other_words=tuple(words[1:]),
        badges=tuple(badges),
    )


def _exchange(turn: rs.Turn, following: rs.Turn | None) -> TurnText:
    return TurnText(
        what=f"exchanged {turn.tiles}" if turn.tiles else f"exchanged {turn.count}"
    )


def _phony_withdrawn(turn: rs.Turn, following: rs.Turn | None) -> TurnText:
    words = _words(turn)
    return TurnText(
        what="phony withdrawn" + (f": {', '.join(words)}" if words else ""),
        badges=(("phony", "phony"),),
    )


def _end_bonus(turn: rs.Turn, following: rs.Turn | None) -> TurnText:
    return TurnText(
        what=f"opponent's rack {turn.tiles}" if turn.tiles else "end-of-game bonus"
    )


def _end_rack(turn: rs.Turn, following: rs.Turn | None) -> TurnText:
    return TurnText(what=f"rack left: {turn.tiles}" if turn.tiles else "rack left")


def _fixed(what: str, *badges: tuple[str, str]) -> TurnPresenter:
    """A presenter for a kind whose line always reads the same."""

    def present(turn: rs.Turn, following: rs.Turn | None) -> TurnText:
        return TurnText(what=what, badges=badges)

    return present


def _by_name(turn: rs.Turn, following: rs.Turn | None) -> TurnText:
    # Time penalties, score corrections, adjudications, other ends: the kind's name.
    return TurnText(what=turn.kind.value.replace("_", " "))


TURN_PRESENTERS: dict[TurnKind, TurnPresenter] = {
    TurnKind.PLACEMENT: _placement,
    TurnKind.EXCHANGE: _exchange,
    TurnKind.PASS: _fixed("passed"),
    TurnKind.PHONY_WITHDRAWN: _phony_withdrawn,
    TurnKind.CHALLENGE_BONUS: _fixed(
        "challenge bonus: the play was valid", ("valid", "valid")
    ),
    TurnKind.CHALLENGE: _fixed("challenged: the play was valid", ("valid", "valid")),
    TurnKind.LOST_TURN: _fixed(
        "lost turn (unsuccessful challenge)", ("lost", "lost turn")
    ),
    TurnKind.END_BONUS: _end_bonus,
    TurnKind.END_RACK: _end_rack,
}


def _discrepancy(
    turn: rs.Turn,
    discrepancies: tuple[rs.Discrepancy, ...],
    lines_of_event: dict[int, int],
) -> str:
    """How the recorded score of this line differs from the rules' ("": it does not)."""
    for item in discrepancies:
        if item.version == turn.version and item.player == turn.player:
            where = lines_of_event.get(item.version)
            return (
                f"Recorded {signed(item.recorded)}, the rules give "
                f"{signed(item.computed)}" + (f" (GCG line {where})" if where else "")
            )
    return ""


def _line(
    index: int,
    turn: rs.Turn,
    turns: tuple[rs.Turn, ...],
    names: list[str],
    discrepancies: tuple[rs.Discrepancy, ...],
    lines_of_event: dict[int, int],
    stamps: dict[int, NoteStamp],
    rack_shown: bool = True,
) -> Line:
    following = turns[index] if index < len(turns) else None
    if turn.kind is TurnKind.EXCHANGE and not rack_shown:
        # The tiles put back are the rack's: only their count is shown.
        text = TurnText(what=f"exchanged {turn.count}")
    else:
        text = TURN_PRESENTERS.get(turn.kind, _by_name)(turn, following)
    what = text.what
    if turn.detail:
        what = f"{what} ({turn.detail})" if what else turn.detail
    discrepancy = _discrepancy(turn, discrepancies, lines_of_event)
    badges = text.badges + ((("warn", "score differs"),) if discrepancy else ())
    player = turn.player
    return Line(
        index=index,
        version=turn.version,
        player=player,
        player_name=names[player] if player is not None else "—",
        rack=(turn.recorded_rack or turn.rack or "") if rack_shown else "",
        position=turn.position or "",
        main_word=text.main_word,
        other_words=text.other_words,
        what=what,
        score=turn.score,
        cumulative=turn.cumulative,
        badges=badges,
        notes=tuple(note_view(note, stamps) for note in turn.notes),
        discrepancy=discrepancy,
        breakdown=tuple(f"{w.word}: {w.breakdown()}" for w in turn.words),
    )


def position_after(
    aggregate: GameAggregate,
    index: int,
    names: list[str],
    *,
    version: int | None = None,
    shown: selectors.RackView = selectors.EVERY_RACK,
) -> Position:
    """The position after score-sheet line `index`, with the draws that followed it.

    The state shown is the one just before the next line's event, so every rack is
    refilled; the last play is the squares that line's event filled. `version` is
    the game's (the last state's); racks that `shown` hides are counts, and the
    unseen tiles a spectator's.
    """
    final = aggregate.state
    assert final is not None
    turns = final.turns
    if index <= 0 or not turns:
        at = turns[0].version - 1 if turns else None
        highlight: frozenset[str] = frozenset()
        upcoming = turns
    else:
        line = turns[index - 1]
        later = [turn.version for turn in turns[index:] if turn.version > line.version]
        at = later[0] - 1 if later else None
        highlight = placed_squares(line)
        upcoming = turns[index:]
    state = selectors.state_after(aggregate, at)
    state_version = at if at is not None else version
    if state_version is not None and not shown.shows(state_version):
        return _position_without_racks(index, state, highlight, names)
    racks = []
    next_racks: dict[int, str] = {}
    for turn in upcoming:
        rack = turn.recorded_rack or turn.rack
        if not shown.shows(turn.version):
            break
        if turn.player is not None and rack and turn.player not in next_racks:
            next_racks[turn.player] = rack
    for player, rack in enumerate(state.racks):
        tiles, unknown, from_sheet = rack.known, rack.unknown, False
        if unknown and player in next_racks:
            tiles, unknown, from_sheet = next_racks[player], 0, True
        racks.append(
            RackView(
                name=names[player],
                score=state.scores[player],
                tiles=tiles,
                unknown=unknown,
                to_move=not state.game_over and state.turn == player,
                from_sheet=from_sheet,
            )
        )
    viewer = 0 if state.game_over else state.turn
    unseen = rs.unseen_tiles(state, viewer)
    if racks[viewer].from_sheet:
        # The state did not know this rack yet; the score sheet does.
        missing = difference(racks[viewer].tiles, state.racks[viewer].known)
        unseen = remove_tiles(unseen, missing) or unseen
    return Position(
        index=max(index, 0),
        state=state,
        highlight=highlight,
        racks=tuple(racks),
        unseen=unseen,
        unseen_for=names[viewer],
    )


def _position_without_racks(
    index: int, state: rs.GameState, highlight: frozenset[str], names: list[str]
) -> Position:
    """A position whose racks the reader may not see: each rack a count, and the
    unseen tiles a spectator's (one player's would tell their rack)."""
    racks = tuple(
        RackView(
            name=names[player],
            score=state.scores[player],
            tiles="",
            unknown=rack.count,
            to_move=not state.game_over and state.turn == player,
            from_sheet=False,
        )
        for player, rack in enumerate(state.racks)
    )
    return Position(
        index=max(index, 0),
        state=state,
        highlight=highlight,
        racks=racks,
        unseen=rs.unseen_tiles(state, None),
        unseen_for="anyone watching",
    )


def placed_squares(turn: rs.Turn) -> frozenset[str]:
    """The squares a placement line filled: its word's letters, less the tiles it
    played through (``.``); none for any other line.

    Read from the line itself: replaying the game to the position before it (to
    compare boards) cost the viewer a second replay on every page.
    """
    if turn.kind is not TurnKind.PLACEMENT or not turn.position or not turn.word:
        return frozenset()
    start = BoardPosition.from_gcg(turn.position)
    step = start.direction.step
    return frozenset(
        square_name(start.index + offset * step)
        for offset, letter in enumerate(turn.word)
        if letter != PLAYED_THROUGH
    )


def result_summary(state: rs.GameState, names: list[str]) -> dict[str, Any] | None:
    """The end of the game: adjustments, final scores, the winner and why."""
    if not state.game_over:
        return None
    before = list(state.scores_before_adjustments or state.scores)
    rows = [
        {
            "name": name,
            "before": before[index],
            "adjustment": state.scores[index] - before[index],
            "final": state.scores[index],
            "winner": state.winner == index,
        }
        for index, name in enumerate(names)
    ]
    winner = names[state.winner] if state.winner is not None else None
    reason = state.end_reason.value if state.end_reason else ""
    return {
        "rows": rows,
        "winner": winner,
        "draw": state.winner is None,
        "tiebreak": state.decided_by_tiebreak,
        "reason": END_REASONS.get(reason, reason.replace("_", " ")),
    }


def flagged_note(discrepancies: Any) -> str:
    """What an import flagged, line by line (the record itself is kept)."""
    if not discrepancies:
        return ""
    lines = "; ".join(
        f"line {d.line}: {'cumulative' if d.kind == 'cumulative' else 'score'} "
        f"{d.recorded}, the rules give {d.computed}"
        for d in discrepancies
    )
    return (
        f" The game is kept as recorded; what differs from the rules is flagged "
        f"({lines})."
    )


def board_caption(line: Line | None) -> str:
    if line is None:
        return "Board at the start of the game"
    play = " ".join(
        part for part in (line.position, line.main_word or line.what) if part
    )
    return f"Board after turn {line.index}, {line.player_name}: {play}"


def announcement(line: Line | None, count: int) -> str:
    """What a screen reader says of a turn when the viewer steps to it."""
    if line is None:
        return f"Start of the game, {count} turns to go."
    play = " ".join(
        part for part in (line.position, line.main_word or line.what) if part
    )
    return (
        f"Turn {line.index} of {count}, {line.player_name}: {play}, "
        f"{signed(line.score)}, total {line.cumulative}."
    )


def turn_url(game_id: uuid.UUID, index: int) -> str:
    return reverse("game-turn", args=[game_id, index])


def _tournament_info(
    context: dict[str, Any], game: selectors.GameHeader
) -> dict[str, Any] | None:
    tournament_id = context.get("tournament_id")
    if not tournament_id:
        return None
    return {
        "id": tournament_id,
        "name": game.tournament_name or "Tournament",
        "division": context.get("division") or "",
        "round": context.get("round"),
        "board": context.get("board"),
    }


def viewer_page(
    game: selectors.GameHeader,
    aggregate: GameAggregate,
    turn: int | None,
    *,
    hide_result: bool = False,
    racks: selectors.RackView = selectors.EVERY_RACK,
) -> dict[str, Any]:
    """The viewer's context at score-sheet line `turn` (None: the end; out of range:
    the nearest line). With `hide_result`, nothing after the line is shown before
    the last one: not the later lines, not the result. Racks that `racks` hides
    (the rack rule) are not shown."""
    final = aggregate.state
    assert final is not None
    names = player_names(aggregate)
    lines = score_sheet(game.game_id, aggregate, names, racks)
    count = len(lines)
    index = count if turn is None else max(0, min(turn, count))
    current = lines[index - 1] if index else None
    hidden = hide_result and index < count
    shown = lines[:index] if hidden else lines
    nav = {
        "first": 0 if index > 0 else None,
        "prev": index - 1 if index > 0 else None,
        "next": index + 1 if index < count else None,
        "last": count if index < count else None,
    }
    return {
        "game": game,
        "title": " v ".join(names),
        "names": names,
        "lines": shown,
        "count": count,
        "index": index,
        "current": current,
        "result_hidden": hidden,
        "hide_result": hide_result,
        "position": position_after(
            aggregate, index, names, version=game.version, shown=racks
        ),
        "racks_hidden": not racks.every,
        "nav": nav,
        "nav_urls": {
            key: turn_url(game.game_id, value)
            for key, value in nav.items()
            if value is not None
        },
        "board_caption": board_caption(current),
        "announcement": announcement(current, count),
        "flagged": [line for line in shown if line.discrepancy],
        "result": None if hidden else result_summary(final, names),
        "tournament": _tournament_info(dict(aggregate.context), game),
        "ruleset": final.ruleset.name,
    }


def recorder_page(
    game: selectors.GameHeader, aggregate: GameAggregate, names: list[str]
) -> dict[str, Any]:
    """The recorder's context: the game as it stands and what may come next."""
    state = aggregate.state
    assert state is not None
    lines = score_sheet(game.game_id, aggregate, names)
    pending = state.pending_end
    return {
        "game": game,
        "title": " v ".join(names),
        "names": names,
        "lines": lines,
        "position": position_after(aggregate, len(lines), names),
        "state": state,
        "pending_end": pending.value if pending else "",
        "pending_label": END_REASONS.get(pending.value, "") if pending else "",
        "pending_player": (
            names[state.pending_player] if state.pending_player is not None else ""
        ),
        "can_challenge": state.last_play is not None,
        "result": result_summary(state, names),
        "tournament": _tournament_info(dict(aggregate.context), game),
        "player_ids": list(aggregate.context.get("player_ids") or []),
    }
