"""GCG, the annotated game record format: reading, writing and checking records.

:func:`read` turns a GCG text into the game's events, with its metadata, the source
line of every event, and every recorded score that differs from the rules' score
(kept as recorded). :func:`write` turns events back into GCG; reading what it wrote
gives the same events. The format is described in ``shared/GCG.md``.

GCG has no draw lines: the reader infers each draw from the player's rack at their
next line (tiles drawn = that rack less the tiles kept). When a rack is partial or
empty, or the tiles kept are not all known, it records how many tiles were drawn
but not which. Only the board is certain: when a recorded rack or an inferred draw
clashes with tiles that were only inferred (the other player's rack, the letters of
an exchange typed as placeholders), the reader warns, drops that inference and
reads on, as Macondo and MAGPIE do. :attr:`GcgRecord.warnings` lists every such
lenient reading with its line.

The tile set is the one ``#tile-distribution`` (as Macondo and MAGPIE write it) or
``#letterdist`` names, or else the one of the ``#lexicon``'s language
(:mod:`rules.tilesets`), or else, with a warning, the only set with every letter
the record uses; English by default. Tiles of several letters are written as
Macondo writes them (Spanish ``[CH]``, Catalan ``L·L``).

The ruleset is the one ``rules=`` gives, or else the record's ``#ruleset`` pragma
(which :func:`write` adds when the winner depends on it), or else it is inferred
from the record: ``naspa`` (what published GCG files use), five- or ten-point
challenges from ``(challenge)`` bonuses (then ``wespa``), ±1× going-out lines when
the opponent's own-rack line follows the going-out line, and the classic "all pass
twice" ending when only that rule ends the game where the record ends it.

Command line::

    python -m rules.gcg check FILE... [--json] [--rules classic|naspa|wespa]

Usage::

    record = read(path.read_bytes())
    record.state.final_scores, record.discrepancies
    text = write(record.events, record.metadata)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from rules.board import EMPTY, SIZE, Position
from rules.errors import (
    ChallengesNotAllowedError,
    EndReasonError,
    GameOverError,
    GcgError,
    ImpossibleScoreError,
    InvalidPositionError,
    NoPlayToChallengeError,
    RackMismatchError,
    RulesError,
)
from rules.events import (
    ChallengeOutcome,
    EndReason,
    Event,
    GameEnded,
    GameStarted,
    NoteAdded,
    PlayChallenged,
    RackForgotten,
    RackRecorded,
    TilesDrawn,
    TilesExchanged,
    TilesPlaced,
    TilesReturned,
    TimePenalty,
    TurnPassed,
)
from rules.moves import PLAYED_THROUGH
from rules.ruleset import (
    ChallengeRule,
    GoingOutRule,
    Ruleset,
    ScorelessRule,
    ruleset,
    ruleset_from_text,
)
from rules.scoring import score_limit
from rules.state import GameState, Note, Turn, TurnKind, apply, replay
from rules.tiles import ENGLISH, TileSet, as_tiles, difference, sort_tiles, tile_values
from rules.tilesets import tile_set, tile_set_for_letters, tile_set_for_lexicon

__all__ = [
    "GcgDiscrepancy",
    "GcgMetadata",
    "GcgPlayer",
    "GcgRecord",
    "GcgWarning",
    "main",
    "read",
    "write",
]

# Pragmas that may appear anywhere: notes and final racks belong among the events
# (GCG.md), and the "keep or ignore" ones must never make a file fail.
_ANYWHERE = {"note", "rack1", "rack2"}
_HARMLESS = {
    "incomplete",
    "game-type",
    "board-layout",
    "tile-distribution",
    "letterdist",
    "tile",
    "tile-set",
    "style",
    "comment",
}
_METADATA = {"title", "description", "id", "lexicon"}
_PLAYER = re.compile(r"^player\d+$")
# The pragma naming the ruleset (written by this reader's write(), read back by it;
# a reader that does not know it skips it, as Quackle skips Macondo's #game-type).
_RULESET_PRAGMA = "ruleset"
# Pragmas naming the tile set (Macondo and MAGPIE write #tile-distribution).
_TILE_SET_PRAGMAS = {"tile-distribution", "letterdist"}
# Pragmas write() writes from the game itself rather than as kept.
_WRITTEN_FROM_STATE = {_RULESET_PRAGMA, "tile", *_TILE_SET_PRAGMAS}
_SCORE = re.compile(r"^[+-]?\d+$")
# A score of more digits cannot be a game's (issue 21: 2**31 must not reach storage).
_SCORE_DIGITS = 9
_RACK_SIZE = 7
_UNKNOWN_RACK = "UNKNOWN"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class GcgPlayer:
    """A player of a record: the nick used on event lines and the full name."""

    nick: str
    name: str


@dataclass(frozen=True, slots=True)
class GcgMetadata:
    """What a record says besides its events; ``pragmas`` keeps every other pragma
    as ``(name, value)`` in file order."""

    players: tuple[GcgPlayer, ...] = ()
    title: str | None = None
    description: str | None = None
    id: str | None = None
    lexicon: str | None = None
    pragmas: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class GcgDiscrepancy:
    """A recorded score or cumulative that differs from the rules' (kept as recorded).

    ``kind`` is ``score``, ``challenge``, ``adjustment``, ``time_penalty`` or
    ``cumulative``.
    """

    line: int
    recorded: int
    computed: int
    kind: str = "score"


@dataclass(frozen=True, slots=True)
class GcgWarning:
    """A lenient reading: what the record says that the reader accepted anyway.

    ``code`` names the kind (``inference_dropped``, ``duplicate_nick``,
    ``tile_set_guessed``, or the code of the rule a (challenge) line's rack broke).
    """

    line: int
    code: str
    message: str


@dataclass(slots=True)
class GcgRecord:
    """A record read: events, the line each came from, metadata, discrepancies,
    warnings, and the state after the last event."""

    events: list[Event]
    event_lines: list[int]
    metadata: GcgMetadata
    discrepancies: list[GcgDiscrepancy]
    state: GameState
    ruleset: Ruleset
    warnings: list[GcgWarning] = field(default_factory=list)


class _Kind(StrEnum):
    PLACEMENT = "placement"
    PASS = "pass"
    EXCHANGE = "exchange"
    PHONY = "phony"
    CHALLENGE = "challenge"
    GOING_OUT = "going_out"
    OWN_RACK = "own_rack"
    TIME = "time"


_END_KINDS = (_Kind.GOING_OUT, _Kind.OWN_RACK)


@dataclass(slots=True)
class _Line:
    number: int
    kind: _Kind
    player: int
    rack: str
    score: int
    cumulative: int
    position: str = ""
    word: str = ""
    tiles: str = ""
    count: int = 0
    notes: list[str] = field(default_factory=list)


# --- reading ---------------------------------------------------------------------


def read(
    text: str | bytes,
    *,
    rules: str | Ruleset | None = None,
    tile_set: TileSet | None = None,
) -> GcgRecord:
    """Read a GCG record.

    ``text`` may be bytes: ISO-8859-1 unless the first line is
    ``#character-encoding UTF-8``. ``rules`` is a preset name or a ruleset; without
    one it is the record's ``#ruleset`` pragma, or else inferred from the record
    (see the module notes). ``tile_set`` is the set the game must be played with
    (a tournament division's): a record that names none is read with it, and one
    whose pragma or lexicon names another is refused at that line.

    Raises :class:`GcgError` listing every syntax problem of the file, or the first
    rule the game breaks, each with its line number.
    """
    problems: list[tuple[int, str, str]] = []
    decoded = _decode(text, problems)
    parser = _Parser(problems)
    parser.read(decoded)
    tiles = parser.tile_set(tile_set)
    lines, racks_at_end = _to_tiles(parser, tiles)
    if problems:
        raise GcgError(sorted(problems, key=lambda problem: problem[0]))
    if isinstance(rules, Ruleset):
        chosen = rules
    elif rules is not None:
        try:
            chosen = ruleset(rules)
        except RulesError as error:
            raise GcgError([(0, error.code, error.message)]) from None
    elif parser.ruleset is not None:
        chosen = parser.ruleset
    else:
        chosen = _infer_ruleset(lines, tiles)
    builder = _Builder(lines, parser.metadata(), chosen, tiles, racks_at_end)
    builder.warnings.extend(parser.warnings)
    builder.run(parser.start_line)
    assert builder.state is not None
    return GcgRecord(
        events=builder.events,
        event_lines=builder.event_lines,
        metadata=builder.metadata,
        discrepancies=builder.discrepancies,
        state=builder.state,
        ruleset=chosen,
        warnings=sorted(builder.warnings, key=lambda warning: warning.line),
    )


def _decode(text: str | bytes, problems: list[tuple[int, str, str]]) -> str:
    if isinstance(text, bytes):
        data = text
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        first = _LINE_BREAK.split(data[:200].decode("latin-1"), maxsplit=1)[0]
        declared = _declared_encoding(first)
        if declared is None:
            return data.decode("latin-1")
        if declared.upper().replace("_", "-") not in ("UTF-8", "UTF8"):
            problems.append(
                (1, "bad_encoding", f"Unsupported encoding {declared!r}: use UTF-8")
            )
            return data.decode("latin-1")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            before = data[: error.start].decode("latin-1")
            line = len(_LINE_BREAK.findall(before)) + 1
            problems.append(
                (line, "bad_encoding", "The line is not valid UTF-8, as declared")
            )
            return data.decode("utf-8", errors="replace")
    text = text.removeprefix("\ufeff")
    declared = _declared_encoding(_LINE_BREAK.split(text, maxsplit=1)[0])
    if declared is not None and declared.upper().replace("_", "-") not in (
        "UTF-8",
        "UTF8",
    ):
        problems.append(
            (1, "bad_encoding", f"Unsupported encoding {declared!r}: use UTF-8")
        )
    return text


def _declared_encoding(first_line: str) -> str | None:
    stripped = first_line.strip()
    if stripped.lower().startswith("#character-encoding"):
        return stripped[len("#character-encoding") :].strip()
    return None


class _Parser:
    """Splits a record into event lines (notes attached) and metadata, collecting
    every syntax problem; tiles stay as written until the tile set is known."""

    def __init__(self, problems: list[tuple[int, str, str]]) -> None:
        self.problems = problems
        self.warnings: list[GcgWarning] = []
        self.players: list[GcgPlayer | None] = [None, None]
        self.start_line = 1
        self.fields: dict[str, str] = {}
        self.field_lines: dict[str, int] = {}
        self.pragmas: list[tuple[str, str]] = []
        self.racks_at_end: dict[int, tuple[str, int]] = {}
        self.lines: list[_Line] = []
        self.seen_event = False
        self.note: list[str] | None = None  # the note being read, continued lines too
        self.last_line: _Line | None = None
        # Nicks of a third or fourth player: refused once, their lines skipped.
        self.extra_nicks: set[str] = set()
        self.ruleset: Ruleset | None = None
        self.tile_set_named: tuple[str, int] | None = None
        self.turns = _Alternation()

    def read(self, text: str) -> None:
        for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
            self.feed(number, raw)
        self.close_note()
        if not self.problems and (self.players[0] is None or self.players[1] is None):
            self.problem(
                1,
                "missing_players",
                "The record must name two players (#player1, #player2)",
            )

    def problem(self, number: int, code: str, message: str) -> None:
        self.problems.append((number, code, message))

    def feed(self, number: int, raw: str) -> None:
        line = raw.rstrip()
        stripped = line.strip()
        lead = stripped[:1]
        if self.note is not None and lead not in ("#", ">"):
            self.note.append(line)
        elif not stripped:
            return
        elif lead == "#":
            self.close_note()
            self.pragma(number, stripped)
        elif lead == ">":
            self.close_note()
            self.seen_event = True
            parsed = self.event(number, stripped)
            if parsed is not None:
                self.lines.append(parsed)
            # Notes after a line that could not be read are not attached anywhere.
            self.last_line = parsed
        else:
            self.problem(
                number,
                "bad_line",
                "The line is neither a pragma (#…) nor an event (>…)",
            )

    def close_note(self) -> None:
        note, self.note = self.note, None
        if note is not None and self.last_line is not None:
            while note and not note[-1].strip():
                note.pop()
            self.last_line.notes.append("\n".join(note))

    def pragma(self, number: int, stripped: str) -> None:
        if not stripped[1:].strip():
            return  # a bare "#" names no pragma: like an unknown pragma, ignored
        name, *rest = stripped[1:].split(maxsplit=1)
        name = name.lower()
        value = rest[0].strip() if rest else ""
        if name == "character-encoding":
            if number != 1:
                self.problem(
                    number,
                    "misplaced_encoding",
                    "#character-encoding must be the first line",
                )
        elif name == "note":
            if self.last_line is None:
                self.problem(number, "misplaced_note", "A #note must follow an event")
            else:
                self.note = [value]
        elif self.seen_event and name not in _ANYWHERE and name not in _HARMLESS:
            self.problem(
                number,
                "pragma_after_events",
                f"#{name} must come before the first event",
            )
        elif _PLAYER.match(name):
            self.player(number, name, value)
        elif name in _METADATA:
            self.fields[name] = value
            self.field_lines[name] = number
        elif name in ("rack1", "rack2"):
            self.racks_at_end[int(name[-1]) - 1] = (value.replace(" ", ""), number)
        elif name == _RULESET_PRAGMA:
            try:
                self.ruleset = ruleset_from_text(value)
            except RulesError as error:
                self.problem(number, error.code, f"#{name}: {error.message}")
            self.pragmas.append((name, value))
        else:
            if name in _TILE_SET_PRAGMAS:
                self.tile_set_named = (value, number)
            self.pragmas.append((name, value))

    def player(self, number: int, name: str, value: str) -> None:
        nick, *names = value.split(maxsplit=1) or [""]
        full = names[0].strip() if names else ""
        index = int(name[len("player") :]) - 1
        if not nick:
            self.problem(number, "bad_pragma", f"#{name} must give a nick and a name")
        elif index < 0:
            self.problem(number, "bad_pragma", f"#{name} names no player")
        elif index >= 2:
            if not self.extra_nicks:
                self.problem(
                    number,
                    "too_many_players",
                    "More than two players is not supported: a GCG record here is "
                    "a game of two",
                )
            self.extra_nicks.add(nick)
        elif self.players[index] is not None:
            self.problem(number, "bad_pragma", f"#{name} appears twice")
        else:
            other = self.players[1 - index]
            if other is not None and other.nick == nick:
                self.warnings.append(
                    GcgWarning(
                        number,
                        "duplicate_nick",
                        f"Both players have the nick {nick!r}: each line is given "
                        "to a player by the order of play",
                    )
                )
            self.players[index] = GcgPlayer(nick, full)
            if index == 0:
                self.start_line = number

    def event(self, number: int, stripped: str) -> _Line | None:
        nick = stripped[1:].partition(":")[0].strip()
        if nick in self.extra_nicks:
            return None
        parsed = _parse_event(number, stripped, self.players, self.problems)
        if parsed is not None and parsed.player < 0:
            parsed.player = self.turns.player_of(parsed.kind)
        return parsed

    def tile_set(self, expected: TileSet | None = None) -> TileSet:
        """The tile set the record names (``#tile-distribution``, ``#letterdist``
        or ``#lexicon``), or else ``expected``, or else the one whose letters the
        record uses (with a warning), or else English. A set named that is not
        ``expected`` is a problem at its line."""
        if self.tile_set_named is not None:
            name, number = self.tile_set_named
            try:
                return self.agreeing(tile_set(name), expected, number, f"#{name}")
            except RulesError as error:
                self.problem(number, error.code, error.message)
                return expected or ENGLISH
        lexicon = self.fields.get("lexicon")
        if lexicon:
            named = tile_set_for_lexicon(lexicon)
            if named is not None:
                number = self.field_lines["lexicon"]
                return self.agreeing(named, expected, number, f"#lexicon {lexicon}")
        if expected is not None:
            return expected
        written = "".join(
            line.rack + line.word + line.tiles for line in self.lines
        ) + "".join(rack for rack, _ in self.racks_at_end.values())
        guessed = tile_set_for_letters(written)
        if guessed is None:
            return ENGLISH
        first = self.lines[0].number if self.lines else 1
        self.warnings.append(
            GcgWarning(
                first,
                "tile_set_guessed",
                f"No #lexicon or #tile-distribution names the tile set: read with "
                f"the {guessed.name} set, the only one with every letter used",
            )
        )
        return guessed

    def agreeing(
        self, named: TileSet, expected: TileSet | None, number: int, source: str
    ) -> TileSet:
        if expected is not None and named != expected:
            self.problem(
                number,
                "tile_set_mismatch",
                f"{source} names the {named.name} tile set, but this game is"
                f" played with the {expected.name} set",
            )
            return expected
        return named

    def metadata(self) -> GcgMetadata:
        return GcgMetadata(
            players=tuple(player for player in self.players if player is not None),
            title=self.fields.get("title"),
            description=self.fields.get("description"),
            id=self.fields.get("id"),
            lexicon=self.fields.get("lexicon"),
            pragmas=tuple(self.pragmas),
        )


class _Alternation:
    """Whose line it is when both players have the same nick: the order of play.

    A placement, pass, exchange or time line is the next player's; a withdrawal,
    challenge bonus or going-out line is by whoever placed last; the own-rack
    lines of the end follow the order of play.
    """

    def __init__(self) -> None:
        self.next = 0
        self.last = 0

    def player_of(self, kind: _Kind) -> int:
        if kind in (_Kind.PHONY, _Kind.CHALLENGE, _Kind.GOING_OUT):
            return self.last
        player = self.next
        self.next = 1 - player
        if kind is _Kind.PLACEMENT:
            self.last = player
        return player


@dataclass(slots=True)
class _EventText:
    """An event line being read: who it is by (-1 while a shared nick leaves it
    open), the rack as written, the tokens after the rack."""

    number: int
    player: int
    rack: str
    tokens: list[str]
    problems: list[tuple[int, str, str]]

    def problem(self, code: str, message: str) -> None:
        self.problems.append((self.number, code, message))

    def scores(self, first: int) -> tuple[int, int] | None:
        """The score and the cumulative, from token ``first`` on."""
        tokens = self.tokens
        if len(tokens) < first + 2:
            self.problem(
                "bad_event", "The event must end with its score and the cumulative"
            )
            return None
        pair = []
        for token, what in (
            (tokens[first], "score"),
            (tokens[first + 1], "cumulative score"),
        ):
            if not _SCORE.match(token):
                shape = " (+N or -N)" if what == "score" else ""
                self.problem("bad_score", f"{token!r} is not a {what}{shape}")
                return None
            if len(token.lstrip("+-")) > _SCORE_DIGITS:
                self.problem("impossible_score", f"{token} cannot be a {what}")
                return None
            pair.append(int(token))
        return pair[0], pair[1]

    def line(self, kind: _Kind, first: int = 1, **fields: Any) -> _Line | None:
        """The line of ``kind``, its scores read from token ``first`` on."""
        pair = self.scores(first)
        if pair is None:
            return None
        return _Line(self.number, kind, self.player, self.rack, *pair, **fields)


def _parse_event(
    number: int,
    text: str,
    players: list[GcgPlayer | None],
    problems: list[tuple[int, str, str]],
) -> _Line | None:
    """Read one event line; on a problem, record it and return None."""
    event = _event_text(number, text, players, problems)
    if event is None:
        return None
    move = event.tokens[0]
    lowered = move.lower()
    if move == "--":
        return _parse_negative(
            event, _Kind.PHONY, "A withdrawn phony's score is negative (-N)"
        )
    if move == "-":
        return _parse_scoreless(event, _Kind.PASS, "A pass scores +0")
    if move.startswith("-"):
        return _parse_exchange(event, move)
    if lowered == "(challenge)":
        return event.line(_Kind.CHALLENGE)
    if lowered == "(time)":
        return _parse_negative(event, _Kind.TIME, "A time penalty is negative (-N)")
    if move.startswith("(") and move.endswith(")"):
        return _parse_end_rack(event, move)
    return _parse_placement(event, move)


def _event_text(
    number: int,
    text: str,
    players: list[GcgPlayer | None],
    problems: list[tuple[int, str, str]],
) -> _EventText | None:
    """The player, the rack and the move's tokens of an event line."""
    nick, colon, body = text[1:].partition(":")
    nick = nick.strip()
    if not colon or not nick:
        problems.append((number, "bad_event", "An event line starts with >NICK:"))
        return None
    if players[0] is None or players[1] is None:
        problems.append(
            (
                number,
                "event_before_players",
                "An event comes before #player1 and #player2",
            )
        )
        return None
    nicks = [player.nick for player in players if player is not None]
    if nick not in nicks:
        problems.append(
            (
                number,
                "unknown_nick",
                f"Unknown nick {nick!r}: the players are {', '.join(nicks)}",
            )
        )
        return None
    tokens = body.split()
    rack = ""
    if tokens and _is_rack(tokens[0]):
        rack = tokens.pop(0)
        # Quackle writes UNKNOWN for a rack it did not record (on a challenge line
        # when the challenged player has no later turn).
        rack = "" if rack.upper() == _UNKNOWN_RACK else rack.upper()
    player = -1 if nicks[0] == nicks[1] else nicks.index(nick)
    event = _EventText(number, player, rack, tokens, problems)
    if not tokens:
        event.problem("bad_event", "The event line has no move")
        return None
    return event


def _is_rack(token: str) -> bool:
    """Whether the first token of an event's body is its rack: a rack has no digit
    (a position has) and does not start like a move (``-``, ``(``, ``+``)."""
    return token[:1] not in ("-", "(", "+") and not any(ch.isdigit() for ch in token)


def _parse_negative(event: _EventText, kind: _Kind, message: str) -> _Line | None:
    line = event.line(kind)
    if line is not None and line.score > 0:
        event.problem("bad_score", message)
        return None
    return line


def _parse_scoreless(event: _EventText, kind: _Kind, message: str) -> _Line | None:
    line = event.line(kind)
    if line is not None and line.score != 0:
        event.problem("bad_score", message)
        return None
    return line


def _parse_exchange(event: _EventText, move: str) -> _Line | None:
    """``-TILES`` or ``-N``: an exchange of known tiles, or of a count of tiles."""
    exchanged = move[1:]
    line = _parse_scoreless(event, _Kind.EXCHANGE, "An exchange scores +0")
    if line is None:
        return None
    if exchanged.isdigit():
        count = int(exchanged)
        if not 1 <= count <= _RACK_SIZE:
            event.problem(
                "bad_exchange", f"An exchange is of 1 to 7 tiles, not {count}"
            )
            return None
        line.count = count
        return line
    line.tiles = exchanged.upper()
    return line


def _parse_end_rack(event: _EventText, move: str) -> _Line | None:
    """``(TILES)``: going-out points for the opponent's rack, or the player's own
    rack deducted (a minus sign, or the line's own rack in parentheses)."""
    tiles = move[1:-1].upper()
    line = event.line(_Kind.GOING_OUT, tiles=tiles)
    if line is None:
        return None
    rack = event.rack
    own = event.tokens[1].startswith("-") or (
        rack != "" and sorted(rack) == sorted(tiles)
    )
    if own and rack and sorted(rack) != sorted(tiles):
        event.problem(
            "rack_mismatch", f"The rack {rack} and the rack deducted ({tiles}) differ"
        )
        return None
    if own:
        line.kind = _Kind.OWN_RACK
    return line


def _parse_placement(event: _EventText, move: str) -> _Line | None:
    """``POSITION WORD +SCORE CUMULATIVE``."""
    if len(event.tokens) < 2:
        event.problem("bad_event", "A placement is POSITION WORD +SCORE CUMULATIVE")
        return None
    try:
        position = Position.from_gcg(move)
    except InvalidPositionError as error:
        event.problem(error.code, error.message)
        return None
    word = event.tokens[1]
    return event.line(_Kind.PLACEMENT, 2, position=position.gcg(), word=word)


def _to_tiles(
    parser: _Parser, tile_set: TileSet
) -> tuple[list[_Line], dict[int, tuple[str, int]]]:
    """The lines and final racks with their tiles as the engine holds them (one
    character a tile); every text that is not of the tile set is a problem."""

    def tiles(text: str, number: int, code: str, what: str) -> str:
        read = tile_set.read_tiles(text)
        if read is None:
            parser.problem(
                number, code, f"{what} {text!r} is not made of the tiles of {tile_set}"
            )
            return ""
        return read

    def rack(text: str, number: int) -> str:
        held = tiles(text, number, "bad_rack", "The rack")
        if len(held) > _RACK_SIZE:
            parser.problem(number, "bad_rack", f"The rack {text} has more than 7 tiles")
        return held

    for line in parser.lines:
        number = line.number
        line.rack = rack(line.rack, number)
        if line.kind is _Kind.PLACEMENT:
            line.word = tiles(
                line.word,
                number,
                "bad_word",
                "The word (lower case for a blank, '.' for a tile on the board)",
            )
        elif line.kind is _Kind.EXCHANGE and not line.count:
            exchanged = tiles(line.tiles, number, "bad_exchange", "The exchange of")
            if not 1 <= len(exchanged) <= _RACK_SIZE or "." in exchanged:
                parser.problem(
                    number,
                    "bad_exchange",
                    f"'-{line.tiles}' is not an exchange (-TILES or -N)",
                )
            line.tiles, line.count = exchanged, len(exchanged)
        elif line.kind in (_Kind.GOING_OUT, _Kind.OWN_RACK):
            line.tiles = tiles(line.tiles, number, "bad_event", "The rack counted")
    racks_at_end = {
        player: (rack(text, number), number)
        for player, (text, number) in parser.racks_at_end.items()
    }
    return parser.lines, racks_at_end


def _infer_ruleset(lines: list[_Line], tile_set: TileSet) -> Ruleset:
    """Infer the ruleset a record was played under (see the module notes)."""
    bonuses = [line.score for line in lines if line.kind is _Kind.CHALLENGE]
    if any(bonuses):
        # A bonus that is not a multiple of 10 can only be five-point.
        challenge = (
            ChallengeRule.FIVE_POINT
            if any(bonus % 10 for bonus in bonuses)
            else ChallengeRule.TEN_POINT
        )
        chosen = ruleset("wespa", challenge=challenge)
    elif bonuses:
        # Only "(challenge) +0" lines: valid plays challenged at no cost.
        chosen = ruleset("naspa", challenge=ChallengeRule.SINGLE)
    else:
        chosen = ruleset("naspa")
    values = tile_values(tile_set)
    for start, end in _end_groups(lines):
        group = lines[start:end]
        going_out = [line for line in group if line.kind is _Kind.GOING_OUT]
        if going_out:
            goer = going_out[0]
            others_deducted = any(
                line.kind is _Kind.OWN_RACK and line.player != goer.player
                for line in group
            )
            value = sum(values.get(tile, 0) for tile in goer.tiles)
            single = value > 0 and goer.score == value
            if others_deducted or single:
                chosen = chosen.replace(going_out=GoingOutRule.PLUS_MINUS)
        else:
            six, passes = _scoreless_runs(lines[:start])
            if six < 6 and passes >= 4:
                chosen = chosen.replace(scoreless_end=ScorelessRule.ALL_PASS_TWICE)
    return chosen


def _end_groups(lines: list[_Line]) -> list[tuple[int, int]]:
    groups = []
    index = 0
    while index < len(lines):
        if lines[index].kind in _END_KINDS:
            end = index
            while end < len(lines) and lines[end].kind in _END_KINDS:
                end += 1
            groups.append((index, end))
            index = end
        else:
            index += 1
    return groups


def _scoreless_runs(lines: list[_Line]) -> tuple[int, int]:
    """The scoreless run at the end of ``lines`` counted both ways: (naspa, classic)."""
    six = passes = 0
    saved = (0, 0)
    for line in lines:
        if line.kind is _Kind.PLACEMENT:
            saved = (six, passes)
            six = passes = 0
        elif line.kind is _Kind.PHONY:
            six, passes = saved[0] + 1, saved[1] + 1
        elif line.kind is _Kind.PASS:
            six += 1
            passes += 1
        elif line.kind is _Kind.EXCHANGE:
            six += 1
            passes = 0
    return six, passes


class _Builder:
    """Turns parsed lines into events, applying each so rules are checked as it goes.

    Draws are inferred from the racks recorded later; only the board is certain. When
    a recorded rack or an inferred draw clashes with tiles that were themselves only
    inferred (another player's rack, the letters of an exchange), the inference is
    dropped with a warning and the record is read on (issue 20, rule 2).
    """

    def __init__(
        self,
        lines: list[_Line],
        metadata: GcgMetadata,
        chosen: Ruleset,
        tiles: TileSet,
        racks_at_end: dict[int, tuple[str, int]],
    ) -> None:
        self.lines = lines
        self.metadata = metadata
        self.ruleset = chosen
        self.tile_set = tiles
        self.racks_at_end = racks_at_end
        self.events: list[Event] = []
        self.event_lines: list[int] = []
        self.discrepancies: list[GcgDiscrepancy] = []
        self.warnings: list[GcgWarning] = []
        self.state: GameState | None = None
        # For adjustments: the line of each player's end-of-game line.
        self.adjustment_lines: dict[tuple[int, int], int] = {}
        # Players whose rack a #rack line recorded: a fact, never dropped.
        self.pinned: set[int] = set()
        self.passed_after_going_out = False
        self.last_turn = 0  # the version of the last turn, for a skipped line's notes
        values = tile_values(tiles)
        line_limit = score_limit(values, chosen.rack_size, chosen.bingo_bonus)
        self.cumulative_limit = line_limit * max(1, len(lines))

    @property
    def now(self) -> GameState:
        assert self.state is not None
        return self.state

    def fail(self, line: int, error: RulesError) -> GcgError:
        return GcgError([(line, error.code, error.message)], state=self.state)

    def emit(self, event: Event, line: int) -> int:
        version = len(self.events) + 1
        before = len(self.state.discrepancies) if self.state is not None else 0
        try:
            self.state = apply(self.state, event, version=version)
        except RulesError as error:
            raise self.fail(line, error) from None
        self.events.append(event)
        self.event_lines.append(line)
        for discrepancy in self.state.discrepancies[before:]:
            source = self.adjustment_lines.get((version, discrepancy.player), line)
            self.discrepancies.append(
                GcgDiscrepancy(
                    source, discrepancy.recorded, discrepancy.computed, discrepancy.kind
                )
            )
        return version

    def emit_lenient(self, event: Event, line: int) -> int:
        """Emit ``event``; when it clashes only with inferred tiles, drop those
        inferences (each with a warning) and emit it again."""
        try:
            return self.emit(event, line)
        except GcgError as error:
            if not self.drop_inferences(event, error.problems[0][1], line):
                raise
        return self.emit(event, line)

    def drop_inferences(self, event: Event, code: str, line: int) -> bool:
        """Drop, one at a time while any is in the way, the inferences that keep
        ``event`` out: the letters of an exchange first (placeholders are the
        likeliest slip), then the other players' racks. Whether any was dropped."""
        named = _tiles_named(self.now, event)
        if named is None:
            return False
        player, needed = named
        names = self.now.players
        if code == "rack_mismatch" and isinstance(event, RackRecorded):
            # The rack recorded here contradicts what was inferred of the same rack.
            known = self.now.racks[player].known
            if player in self.pinned or not known:
                return False
            self.forget(
                RackForgotten(player=player),
                line,
                f"{names[player]}'s rack is recorded as {needed}, not the {known} "
                "inferred from earlier lines: that inference is dropped",
            )
            return True
        if code != "tile_unavailable":
            return False
        dropped = False
        for other in (None, *range(len(names))):
            state = self.now
            # A draw comes out of the bag; a rack or a play may use the tiles known
            # on the player's own rack too.
            own = "" if isinstance(event, TilesDrawn) else state.racks[player].known
            lacking = difference(needed, state.bag.candidates + own)
            if not lacking:
                break
            aside = state.aside
            if other is None and aside is not None:
                shared = _shared(aside.tiles, lacking)
                if shared:
                    self.forget(
                        RackForgotten(player=aside.player, exchanged=True),
                        line,
                        f"{names[aside.player]}'s exchange was written as "
                        f"-{aside.tiles}, but {shared} are needed here: the letters "
                        "of that exchange are taken as not recorded",
                    )
                    dropped = True
            elif other is not None and other != player and other not in self.pinned:
                shared = _shared(state.racks[other].known, lacking)
                if shared:
                    self.forget(
                        RackForgotten(player=other),
                        line,
                        f"{names[player]} needs {shared} here, which "
                        f"{names[other]}'s rack was only inferred to hold: that "
                        "inference is dropped",
                    )
                    dropped = True
        return dropped

    def forget(self, event: RackForgotten, line: int, message: str) -> None:
        self.emit(event, line)
        self.warnings.append(GcgWarning(line, "inference_dropped", message))

    def run(self, start_line: int) -> None:
        self.emit(
            GameStarted(
                players=self.player_names(),
                ruleset=self.ruleset,
                tile_set=self.tile_set,
                lexicon=self.metadata.lexicon,
            ),
            start_line,
        )
        for player in range(len(self.metadata.players)):
            self.draw(player, -1)
        lines = self.lines
        cumulative = [0] * len(self.metadata.players)
        index = 0
        while index < len(lines):
            line = lines[index]
            if line.kind in _END_KINDS:
                end = index
                while end < len(lines) and lines[end].kind in _END_KINDS:
                    end += 1
                group = lines[index:end]
                version = self.end(group)
                for member in group:
                    self.check_cumulative(member, cumulative)
                    self.annotate(member, version)
                index = end
                continue
            if self.pass_after_going_out(line):
                version = self.last_turn
            else:
                version = self.turn(index, line)
                self.last_turn = version
            self.check_cumulative(line, cumulative)
            self.annotate(line, version)
            index += 1
        self.record_final_racks()

    def player_names(self) -> tuple[str, ...]:
        """The players' names in the game: their nicks, unless both share one."""
        players = self.metadata.players
        nicks = tuple(player.nick for player in players)
        if len(set(nicks)) == len(nicks):
            return nicks
        names = tuple(player.name for player in players)
        if all(names) and len(set(names)) == len(names):
            return names
        return tuple(f"{nick} ({number})" for number, nick in enumerate(nicks, 1))

    def pass_after_going_out(self, line: _Line) -> bool:
        """Whether ``line`` is the one 0-point pass by the opponent that Woogles and
        Macondo wrote between a going-out play and the end-of-game lines (a failed
        double challenge of the play, or the final pass): read, with no effect on
        scores or turns (issue 20, rule 3)."""
        state = self.now
        if (
            line.kind is not _Kind.PASS
            or state.pending_end is not EndReason.WENT_OUT
            or line.player == state.pending_player
            or self.passed_after_going_out
        ):
            return False
        self.passed_after_going_out = True
        return True

    def annotate(self, line: _Line, version: int) -> None:
        for text in line.notes:
            self.emit(NoteAdded(target_version=version, text=text), line.number)

    def check_cumulative(self, line: _Line, cumulative: list[int]) -> None:
        if abs(line.cumulative) > self.cumulative_limit:
            raise self.fail(
                line.number,
                ImpossibleScoreError(
                    f"A cumulative score of {line.cumulative} cannot be right: no "
                    f"game of {len(self.lines)} lines reaches "
                    f"{self.cumulative_limit}"
                ),
            )
        expected = cumulative[line.player] + line.score
        if line.cumulative != expected:
            self.discrepancies.append(
                GcgDiscrepancy(line.number, line.cumulative, expected, "cumulative")
            )
        # Later lines are checked against the cumulative as recorded, so one slip is
        # reported once, not on every line after it.
        cumulative[line.player] = line.cumulative

    def turn(self, index: int, line: _Line) -> int:
        kind = line.kind
        if kind is _Kind.PLACEMENT:
            return self.place(index, line)
        if kind in (_Kind.PHONY, _Kind.CHALLENGE):
            return self.challenge(line)
        if kind is _Kind.PASS:
            rack = line.rack
            return self.emit_lenient(
                TurnPassed(player=line.player, rack=rack), line.number
            )
        if kind is _Kind.EXCHANGE:
            version = self.emit_lenient(
                TilesExchanged(
                    player=line.player,
                    tiles=line.tiles,
                    unknown=0 if line.tiles else line.count,
                    rack=line.rack,
                ),
                line.number,
            )
            self.draw(line.player, index)
            return version
        return self.time_penalty(line)

    def place(self, index: int, line: _Line) -> int:
        player = line.player
        version = self.emit_lenient(
            TilesPlaced(
                player=player,
                position=line.position,
                word=self.canonical_word(line),
                score=line.score,
                rack=line.rack,
            ),
            line.number,
        )
        following = self.next_own_line(index, player)
        if following is None or following.kind is not _Kind.PHONY:
            self.draw(player, index)
        return version

    def challenge(self, line: _Line) -> int:
        """A withdrawn phony (``--``) or a valid play's bonus (``(challenge)``)."""
        state = self.now
        player = line.player
        kind = line.kind
        last = state.last_play
        if last is None or last.player != player:
            what = "withdraw" if kind is _Kind.PHONY else "be challenged"
            raise self.fail(
                line.number,
                NoPlayToChallengeError(
                    f"There is no play by {state.players[player]} just before to {what}"
                ),
            )
        if (
            kind is _Kind.CHALLENGE
            and not state.ruleset.challenge_bonus
            and state.ruleset.challenge is not ChallengeRule.SINGLE
        ):
            # Under double challenge a valid play costs the challenger a turn,
            # which GCG writes as their pass: a bonus line cannot be right.
            raise self.fail(
                line.number,
                ChallengesNotAllowedError(
                    "A (challenge) line needs the single, five- or ten-point "
                    f"challenge rule; this game is played under "
                    f"{state.ruleset.challenge}"
                ),
            )
        event = PlayChallenged(
            challenger=(player + 1) % len(state.players),
            outcome=(
                ChallengeOutcome.PHONY
                if kind is _Kind.PHONY
                else ChallengeOutcome.VALID
            ),
            score=line.score,
            rack=line.rack,
        )
        if kind is _Kind.PHONY or not line.rack:
            return self.emit(event, line.number)
        try:
            return self.emit(event, line.number)
        except GcgError as error:
            # Issue 20, rule 5: the rack on a (challenge) line is often not the
            # player's (Quackle writes what it has); an impossible one is left out.
            version = self.emit(replace(event, rack=None), line.number)
            _, code, message = error.problems[0]
            self.warnings.append(
                GcgWarning(line.number, code, f"{message}: the rack is left out")
            )
            return version

    def time_penalty(self, line: _Line) -> int:
        # The rack on a (time) line is the rack left at the end.
        state = self.now
        player = line.player
        rack = state.racks[player]
        if (
            state.game_over
            and line.rack
            and rack.is_known
            and sort_tiles(line.rack) != rack.known
        ):
            raise self.fail(
                line.number,
                RackMismatchError(
                    f"{state.players[player]}'s rack at the end is "
                    f"{rack.known or 'empty'}, not {line.rack}"
                ),
            )
        per_minute = state.ruleset.time_penalty_per_minute
        minutes = -(line.score // per_minute) if per_minute else 0
        return self.emit(
            TimePenalty(player=player, minutes=minutes, score=line.score), line.number
        )

    def canonical_word(self, line: _Line) -> str:
        """The word with every played-through letter written as '.'.

        A letter that differs from the board is left as it is, so that the rules
        reject it with the square named.
        """
        position = Position.from_gcg(line.position)
        step = 1 if position.direction.value == "across" else SIZE
        along = position.column if step == 1 else position.row
        if along + len(line.word) > SIZE:
            return line.word
        squares = self.now.board.squares
        index = position.index
        letters = []
        for ch in line.word:
            on_board = squares[index]
            if ch != "." and on_board != EMPTY and on_board.upper() == ch.upper():
                letters.append(".")
            else:
                letters.append(ch)
            index += step
        return "".join(letters)

    def next_own_line(self, index: int, player: int) -> _Line | None:
        for line in self.lines[index + 1 :]:
            if line.player == player:
                return line
        return None

    def observation(
        self, index: int, player: int
    ) -> tuple[str | None, int | None, bool]:
        """The player's rack as next recorded after line ``index``, its line, and
        whether it may be ignored (a (challenge) line's rack, issue 20 rule 5).

        A (time) line's rack is the rack at the end, not the player's next rack.
        """
        for line in self.lines[index + 1 :]:
            if line.kind is _Kind.TIME:
                continue
            if line.player == player:
                if line.kind is _Kind.GOING_OUT:
                    return None, None, False
                if line.kind is _Kind.OWN_RACK:
                    return line.tiles, line.number, False
                return line.rack, line.number, line.kind is _Kind.CHALLENGE
            if line.kind is _Kind.GOING_OUT:
                # The opponent's going-out line shows this player's last rack.
                return line.tiles, line.number, False
        at_end = self.racks_at_end.get(player)
        if at_end is not None:
            return at_end[0], at_end[1], False
        return None, None, False

    def draw(self, player: int, index: int) -> None:
        """Record the draw that refills ``player``'s rack after line ``index``."""
        state = self.now
        rack = state.racks[player]
        count = min(state.ruleset.rack_size - rack.count, state.bag.count)
        if count <= 0:
            return
        seen, seen_line, tentative = self.observation(index, player)
        if seen_line is not None:
            line = seen_line
        elif index >= 0:
            line = self.lines[index].number
        else:
            line = self.event_lines[0]
        if not seen or not rack.is_known:
            # Nothing recorded, or the tiles kept are not all known: which of the
            # recorded tiles were drawn cannot be told.
            self.emit(TilesDrawn(player=player, unknown=count), line)
            return
        if not tentative:
            self.infer_draw(player, seen, count, line)
            return
        events, state_before = len(self.events), self.state
        discrepancies, warnings = len(self.discrepancies), len(self.warnings)
        try:
            self.infer_draw(player, seen, count, line)
        except GcgError:
            # The (challenge) line's own check warns about its rack.
            del self.events[events:], self.event_lines[events:]
            del self.discrepancies[discrepancies:], self.warnings[warnings:]
            self.state = state_before
            self.emit(TilesDrawn(player=player, unknown=count), line)

    def infer_draw(self, player: int, seen: str, count: int, line: int) -> None:
        """Record the draw of ``count`` tiles that makes ``player``'s known rack the
        rack ``seen`` (recorded at ``line``)."""
        state = self.now
        rack = state.racks[player]
        name = state.players[player]
        kept = rack.known
        new = difference(seen, kept)
        full = rack.count + count
        if len(seen) > full:
            raise self.fail(
                line,
                RackMismatchError(
                    f"The rack {seen} has {len(seen)} tiles, but {name} can hold only "
                    f"{full} then"
                ),
            )
        if len(seen) == full:
            lacking = difference(kept, seen)
            if lacking:
                # A full rack without tiles the player kept: they overdrew and the
                # excess went back to the bag (noah_vs_peter.gcg: "Yup, I overdrew").
                # Record the return first so the rack never holds more than it can.
                self.emit(TilesReturned(player=player, tiles=lacking), line)
            self.emit_lenient(TilesDrawn(player=player, tiles=new), line)
            return
        if len(new) > count:
            raise self.fail(
                line,
                RackMismatchError(
                    f"The rack {seen} has {len(new)} tiles {name} did not keep, but "
                    f"{name} drew only {count}"
                ),
            )
        self.emit_lenient(
            TilesDrawn(player=player, tiles=new, unknown=count - len(new)), line
        )

    def end(self, group: list[_Line]) -> int:
        """Record the end of the game from its group of end-of-game lines."""
        state = self.now
        first = group[0]
        count = len(state.players)
        if state.game_over:
            raise self.fail(
                first.number,
                GameOverError("The game has already ended: no line may follow its end"),
            )
        if state.pending_end is None:
            limit = state.ruleset.scoreless_limit(count)
            raise self.fail(
                first.number,
                EndReasonError(
                    "The game has not ended here: nobody went out, and there have been "
                    f"{state.scoreless_turns} consecutive scoreless turns ({limit} end "
                    "the game)"
                ),
            )
        racks: list[str | None] = [None] * count
        adjustments = [0] * count
        version = len(self.events) + 1
        goer = None
        for line in group:
            if line.kind is _Kind.GOING_OUT:
                goer = line.player
                target = (line.player + 1) % count
                racks[line.player] = racks[line.player] or ""
            else:
                target = line.player
            revealed = sort_tiles(line.tiles)
            if racks[target] not in (None, revealed):
                raise self.fail(
                    line.number,
                    RackMismatchError(
                        f"{state.players[target]}'s rack is recorded both as "
                        f"{racks[target]} and as {revealed}"
                    ),
                )
            racks[target] = revealed
            adjustments[line.player] += line.score
            self.adjustment_lines.setdefault((version, line.player), line.number)
        resolved: list[str] = []
        for player, rack in enumerate(racks):
            if rack is not None:
                resolved.append(rack)
            elif state.racks[player].is_known:
                resolved.append(state.racks[player].known)
            else:
                resolved = []
                break
        reason = (
            EndReason.WENT_OUT
            if state.pending_end is EndReason.WENT_OUT
            else EndReason.SCORELESS_TURNS
        )
        return self.emit(
            GameEnded(
                reason=reason,
                player=goer if reason is EndReason.WENT_OUT else None,
                racks=tuple(resolved),
                adjustments=tuple(adjustments),
            ),
            first.number,
        )

    def record_final_racks(self) -> None:
        """Record the ``#rack1``/``#rack2`` racks of an unfinished game (issue 20,
        rule 1): each must fit the tiles not on the board, and both together."""
        state = self.now
        if state.game_over:
            return
        for player, (rack, number) in sorted(self.racks_at_end.items()):
            held = self.now.racks[player]
            if rack and not (held.is_known and sort_tiles(rack) == held.known):
                self.emit_lenient(RackRecorded(player=player, tiles=rack), number)
            self.pinned.add(player)


def _tiles_named(state: GameState, event: Event) -> tuple[int, str] | None:
    """The player an event is about and every tile it says they hold or take."""
    if isinstance(event, TilesDrawn):
        return event.player, event.tiles
    if isinstance(event, RackRecorded):
        return event.player, event.tiles
    if isinstance(event, TilesPlaced):
        played = as_tiles(event.word.replace(PLAYED_THROUGH, ""))
        return event.player, _union(event.rack or "", played)
    if isinstance(event, TilesExchanged):
        return event.player, _union(event.rack or "", event.tiles)
    if isinstance(event, TurnPassed):
        return event.player, event.rack or ""
    return None


def _union(tiles: str, other: str) -> str:
    """The smallest multiset holding both ``tiles`` and ``other``."""
    return sort_tiles(tiles + difference(other, tiles))


def _shared(tiles: str, other: str) -> str:
    """The tiles of ``other`` that ``tiles`` holds too (multisets)."""
    return difference(other, difference(other, tiles))


# --- writing ---------------------------------------------------------------------

_UNWRITTEN = {
    TurnKind.CHALLENGE,
    TurnKind.SCORE_CORRECTION,
    TurnKind.ADJUDICATION,
    TurnKind.GAME_ENDED,
}


def write(events: Sequence[Event], metadata: GcgMetadata | None = None) -> str:
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
            out.append(f">{nicks[turn.player]}: {_event_body(turn, tiles)}")
            _write_notes(out, turn.notes)
            continue
        if turn.kind in _UNWRITTEN:
            if turn.notes and len(out) > 1:
                _write_notes(out, turn.notes)
            continue
        assert turn.player is not None
        out.append(f">{nicks[turn.player]}: {_event_body(turn, tiles)}")
        _write_notes(out, turn.notes)
    if not state.game_over:
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


def _event_body(turn: Turn, tiles: TileSet) -> str:
    held = turn.recorded_rack if turn.recorded_rack is not None else (turn.rack or "")
    rack = tiles.write_tiles(held)
    kind = turn.kind
    cumulative = turn.cumulative
    if kind is TurnKind.PLACEMENT:
        word = tiles.write_tiles(turn.word or "")
        return f"{rack} {turn.position} {word} {turn.score:+d} {cumulative}"
    if kind is TurnKind.EXCHANGE:
        exchanged = (
            tiles.write_tiles(turn.tiles)
            if len(turn.tiles) == turn.count
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


# --- command line ----------------------------------------------------------------


def check_file(path: str, rules: str | None = None) -> dict[str, object]:
    """Check one GCG file; return the report the ``check`` command prints."""
    report: dict[str, object] = {
        "file": path,
        "ok": False,
        "players": [],
        "winner": None,
        "end_reason": None,
        "errors": [],
        "warnings": [],
        "discrepancies": [],
    }
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        report["errors"] = [
            {
                "line": 0,
                "code": "unreadable",
                "message": f"Cannot read the file: {error.strerror}",
            }
        ]
        return report
    try:
        record = read(data, rules=rules)
    except GcgError as error:
        report["errors"] = [
            {"line": line, "code": code, "message": message}
            for line, code, message in error.problems
        ]
        state = error.state
        if isinstance(state, GameState):
            report["players"] = _players(
                state, [GcgPlayer(nick, nick) for nick in state.players]
            )
        return report
    state = record.state
    players = list(record.metadata.players)
    report["ok"] = True
    report["players"] = _players(state, players)
    report["winner"] = players[state.winner].nick if state.winner is not None else None
    report["end_reason"] = state.end_reason.value if state.end_reason else None
    report["warnings"] = [
        {"line": item.line, "code": item.code, "message": item.message}
        for item in record.warnings
    ]
    report["discrepancies"] = [
        {"line": item.line, "recorded": item.recorded, "computed": item.computed}
        for item in record.discrepancies
    ]
    return report


def _players(state: GameState, players: list[GcgPlayer]) -> list[dict[str, object]]:
    return [
        {
            "nick": players[index].nick,
            "name": players[index].name,
            # An unfinished record's final score is its current score.
            "final_score": state.scores[index],
            "score_before_adjustments": state.scores_before_adjustments[index],
        }
        for index in range(len(state.players))
    ]


def _print_text(report: dict[str, object]) -> None:
    players = report["players"]
    assert isinstance(players, list)
    if report["ok"]:
        scores = ", ".join(
            f"{entry['nick']} {entry['final_score']}" for entry in players
        )
        if report["end_reason"] is None:
            verdict = "unfinished"
        elif report["winner"] is None:
            verdict = "draw"
        else:
            verdict = f"winner {report['winner']}"
        warnings = report["warnings"]
        assert isinstance(warnings, list)
        warned = f", {len(warnings)} warning{'s' if len(warnings) != 1 else ''}"
        print(f"{report['file']}: ok ({scores}; {verdict}{warned if warnings else ''})")
        for item in warnings:
            print(f"  line {item['line']}: warning: {item['code']}: {item['message']}")
        discrepancies = report["discrepancies"]
        assert isinstance(discrepancies, list)
        for item in discrepancies:
            print(
                f"  line {item['line']}: recorded {item['recorded']}, "
                f"computed {item['computed']} (kept as recorded)"
            )
        return
    errors = report["errors"]
    assert isinstance(errors, list)
    print(f"{report['file']}: {len(errors)} problem{'s' if len(errors) != 1 else ''}")
    for item in errors:
        print(f"  line {item['line']}: {item['code']}: {item['message']}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 errors, 2 bad usage)."""
    parser = argparse.ArgumentParser(
        prog="python -m rules.gcg", description="Check GCG game records."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "check", help="check records: final scores, or every problem with its line"
    )
    check.add_argument("files", nargs="+", metavar="FILE")
    check.add_argument("--json", action="store_true", help="one JSON object per file")
    check.add_argument(
        "--rules",
        choices=("classic", "naspa", "wespa"),
        help="the ruleset (default: inferred from the record)",
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    status = 0
    for path in args.files:
        report = check_file(path, args.rules)
        if not report["ok"]:
            status = 1
        if args.json:
            print(json.dumps(report, ensure_ascii=False))
        else:
            _print_text(report)
    return status


if __name__ == "__main__":
    sys.exit(main())
