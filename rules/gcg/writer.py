"""Writing a game's events as a GCG record: ``write``, the inverse of ``read``.

Usage::

    text = write(record.events, record.metadata)
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import (
    GcgError,
)
from rules.events import (
    Event,
)
from rules.gcg.values import (
    _RULESET_PRAGMA,
    _WRITTEN_FROM_STATE,
    GcgMetadata,
    GcgPlayer,
)
from rules.ruleset import (
    ChallengeRule,
)
from rules.state import GameState, Note, Turn, TurnKind, replay
from rules.tiles import ENGLISH, TileSet

_UNWRITTEN = {
    TurnKind.CHALLENGE,
    TurnKind.SCORE_CORRECTION,
    TurnKind.ADJUDICATION,
    TurnKind.GAME_ENDED,
}


def write(
    events: Sequence[Event],
    metadata: GcgMetadata | None = None,
    *,
    racks_through: int | None = None,
) -> str:
    """Write a game as GCG: UTF-8 text with the encoding pragma first, LF endings.

    ``metadata`` gives the players' nicks and names, title, description, id,
    lexicon and other pragmas (default: the players' names from the game's start).
    A tile set other than English is named as Macondo names it
    (``#tile-distribution``, ``#tile`` for each tile of several letters). The
    ruleset is named (``#ruleset``) when the winner depends on it, the game being
    decided by the pre-adjustment tie-break, or when the record read had it.
    What GCG cannot express is left out: a valid challenge with no effect other
    than under the single rule (written ``(challenge) +0``), a director's score
    correction or adjudication, the words named in a challenge.

    With ``racks_through``, the racks of events after that version are left out
    as GCG writes a rack the recorder did not know (empty), an exchange after it
    as a count (``-3``), and the ``#rack1``/``#rack2`` pragmas of an unfinished
    game unless its last event is within it: the racks of a live game hidden from
    the reader.

    Raises any :class:`RulesError` that replaying ``events`` raises, and
    :class:`GcgError` for a game of more than two players.
    """
    state = replay(events)
    if len(state.players) != 2:
        raise GcgError([(0, "too_many_players", "GCG records games of two players")])
    if metadata is None or len(metadata.players) != len(state.players):
        players = tuple(GcgPlayer(nick(name), name) for name in state.players)
        metadata = GcgMetadata(
            players=players,
            title=metadata.title if metadata else None,
            description=metadata.description if metadata else None,
            id=metadata.id if metadata else None,
            lexicon=metadata.lexicon if metadata else state.lexicon,
            pragmas=metadata.pragmas if metadata else (),
        )
    nicks = [nick(player.nick) for player in metadata.players]
    out = _header(state, metadata, nicks)
    single = state.ruleset.challenge is ChallengeRule.SINGLE
    tiles = state.tile_set
    for turn in state.turns:
        if turn.kind is TurnKind.CHALLENGE and single:
            # A free challenge of a valid play: "(challenge) +0" keeps it on record.
            assert turn.player is not None
            body = _event_body(turn, tiles, _shown(turn, racks_through))
            out.append(f">{nicks[turn.player]}: {body}")
            _write_notes(out, turn.notes)
            continue
        if turn.kind in _UNWRITTEN:
            if turn.notes and len(out) > 1:
                _write_notes(out, turn.notes)
            continue
        assert turn.player is not None
        body = _event_body(turn, tiles, _shown(turn, racks_through))
        out.append(f">{nicks[turn.player]}: {body}")
        _write_notes(out, turn.notes)
    if not state.game_over and (racks_through is None or racks_through >= len(events)):
        for index, rack in enumerate(state.racks, start=1):
            if rack.is_known and rack.count:
                out.append(f"#rack{index} {tiles.write_tiles(rack.known)}")
    return "\n".join(out) + "\n"


def _header(state: GameState, metadata: GcgMetadata, nicks: list[str]) -> list[str]:
    """The pragmas before the first event."""
    out = ["#character-encoding UTF-8"]
    for number, player in enumerate(metadata.players, start=1):
        out.append(f"#player{number} {nicks[number - 1]} {player.name}".rstrip())
    for name in ("title", "description", "id", "lexicon"):
        value = getattr(metadata, name)
        if name == "lexicon" and value is None:
            value = state.lexicon
        if value is not None:
            out.append(f"#{name} {_one_line(value)}".rstrip())
    tiles = state.tile_set
    if tiles != ENGLISH:
        out.append(f"#tile-distribution {tiles.name}")
        out.extend(
            f"#tile {kind.label} {kind.label.lower()}"
            for kind in tiles.kinds
            if kind.text
        )
    named = any(name == _RULESET_PRAGMA for name, _ in metadata.pragmas)
    if named or state.decided_by_tiebreak:
        # Issue 20: the tie-break decided the game, so the winner read back depends
        # on the ruleset; other readers skip a pragma they do not know.
        out.append(f"#{_RULESET_PRAGMA} {state.ruleset.as_text()}")
    for name, value in metadata.pragmas:
        if name not in _WRITTEN_FROM_STATE:
            out.append(f"#{name} {_one_line(value)}".rstrip())
    return out


def nick(name: str) -> str:
    """A player's GCG nick from their name: one word, spaces as underscores."""
    return "_".join(name.split()) or "player"


def _one_line(value: str) -> str:
    return " ".join(value.split())


def _write_notes(out: list[str], notes: tuple[Note, ...]) -> None:
    for note in notes:
        first, *rest = note.text.split("\n")
        out.append(f"#note {first}".rstrip())
        out.extend(rest)


def _shown(turn: Turn, racks_through: int | None) -> bool:
    return racks_through is None or turn.version <= racks_through


def _event_body(turn: Turn, tiles: TileSet, racks: bool = True) -> str:
    held = turn.recorded_rack if turn.recorded_rack is not None else (turn.rack or "")
    rack = tiles.write_tiles(held) if racks else ""
    kind = turn.kind
    cumulative = turn.cumulative
    if kind is TurnKind.PLACEMENT:
        word = tiles.write_tiles(turn.word or "")
        return f"{rack} {turn.position} {word} {turn.score:+d} {cumulative}"
    if kind is TurnKind.EXCHANGE:
        exchanged = (
            tiles.write_tiles(turn.tiles)
            if racks and len(turn.tiles) == turn.count
            else str(turn.count)
        )
        return f"{rack} -{exchanged} +0 {cumulative}"
    if kind in (TurnKind.PASS, TurnKind.LOST_TURN):
        return f"{rack} - +0 {cumulative}"
    if kind is TurnKind.PHONY_WITHDRAWN:
        return f"{rack} -- {_negative(turn.score)} {cumulative}"
    if kind in (TurnKind.CHALLENGE_BONUS, TurnKind.CHALLENGE):
        return f"{rack} (challenge) {turn.score:+d} {cumulative}"
    counted = tiles.write_tiles(turn.tiles)
    if kind is TurnKind.END_BONUS:
        return f" ({counted}) {turn.score:+d} {cumulative}"
    if kind is TurnKind.END_RACK:
        return f"{counted} ({counted}) {_negative(turn.score)} {cumulative}"
    if kind is TurnKind.TIME_PENALTY:
        left = tiles.write_tiles(turn.rack or "")
        return f"{left} (time) {_negative(turn.score)} {cumulative}"
    raise AssertionError(f"unwritable turn {kind}")  # pragma: no cover


def _negative(score: int) -> str:
    """A score on a line that GCG writes with a minus sign (so -0 stays -0)."""
    return f"{score:+d}" if score > 0 else f"-{-score}"
