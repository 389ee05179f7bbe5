"""GCG, the annotated game record format: reading, writing and checking records.

:func:`read` turns a GCG text into the game's events, with its metadata, the source
line of every event, and every recorded score that differs from the rules' score
(kept as recorded). :func:`write` turns events back into GCG; reading what it wrote
gives the same events. The format is described in ``shared/GCG.md``.

GCG has no draw lines: the reader infers each draw from the player's rack at their
next line (tiles drawn = that rack less the tiles kept). When a rack is partial or
empty, or the tiles kept are not all known, it records how many tiles were drawn
but not which.

Records are read with the English tile set (RULES.md); ``#tile-set`` and similar
pragmas are kept in the metadata but not interpreted.

Without an explicit ruleset, the reader infers one from the record: ``naspa`` (what
published GCG files use), five- or ten-point challenges from ``(challenge)`` bonuses
(then ``wespa``), ±1× going-out lines when the opponent's own-rack line follows the
going-out line, and the classic "all pass twice" ending when only that rule ends
the game where the record ends it.

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
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.board import EMPTY, SIZE, Position
from rules.errors import (
    ChallengesNotAllowedError,
    EndReasonError,
    GameOverError,
    GcgError,
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
    TilesDrawn,
    TilesExchanged,
    TilesPlaced,
    TilesReturned,
    TimePenalty,
    TurnPassed,
)
from rules.ruleset import (
    ChallengeRule,
    GoingOutRule,
    Ruleset,
    ScorelessRule,
    ruleset,
)
from rules.state import GameState, Turn, TurnKind, apply, replay
from rules.tiles import ENGLISH, difference, sort_tiles, tile_values

__all__ = [
    "GcgDiscrepancy",
    "GcgMetadata",
    "GcgPlayer",
    "GcgRecord",
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
    "tile",
    "tile-set",
    "style",
    "comment",
}
_METADATA = {"player1", "player2", "title", "description", "id", "lexicon"}
_SCORE = re.compile(r"^[+-]?\d+$")
_RACK = re.compile(r"^[A-Za-z?]*$")
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


@dataclass(slots=True)
class GcgRecord:
    """A record read: events, the line each came from, metadata, discrepancies, and
    the state after the last event."""

    events: list[Event]
    event_lines: list[int]
    metadata: GcgMetadata
    discrepancies: list[GcgDiscrepancy]
    state: GameState
    ruleset: Ruleset


class _Kind(StrEnum):
    PLACEMENT = "placement"
    PASS = "pass"
    EXCHANGE = "exchange"
    PHONY = "phony"
    CHALLENGE = "challenge"
    GOING_OUT = "going_out"
    OWN_RACK = "own_rack"
    TIME = "time"


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


def read(text: str | bytes, *, rules: str | Ruleset | None = None) -> GcgRecord:
    """Read a GCG record.

    ``text`` may be bytes: ISO-8859-1 unless the first line is
    ``#character-encoding UTF-8``. ``rules`` is a preset name or a ruleset; without
    one it is inferred from the record (see the module notes).

    Raises :class:`GcgError` listing every syntax problem of the file, or the first
    rule the game breaks, each with its line number.
    """
    problems: list[tuple[int, str, str]] = []
    decoded = _decode(text, problems)
    lines, metadata, racks_at_end, start_line = _parse(decoded, problems)
    if problems:
        raise GcgError(problems)
    if isinstance(rules, Ruleset):
        chosen = rules
    elif rules is not None:
        try:
            chosen = ruleset(rules)
        except RulesError as error:
            raise GcgError([(0, error.code, error.message)]) from None
    else:
        chosen = _infer_ruleset(lines)
    builder = _Builder(lines, metadata, chosen, racks_at_end)
    builder.run(start_line)
    assert builder.state is not None
    return GcgRecord(
        events=builder.events,
        event_lines=builder.event_lines,
        metadata=metadata,
        discrepancies=builder.discrepancies,
        state=builder.state,
        ruleset=chosen,
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


def _parse(
    text: str, problems: list[tuple[int, str, str]]
) -> tuple[list[_Line], GcgMetadata, dict[int, tuple[str, int]], int]:
    """Split a record into event lines (notes attached) and metadata; collect every
    syntax problem."""
    players: list[GcgPlayer | None] = [None, None]
    player_lines = [0, 0]
    fields: dict[str, str] = {}
    pragmas: list[tuple[str, str]] = []
    racks_at_end: dict[int, tuple[str, int]] = {}
    lines: list[_Line] = []
    seen_event = False
    note: list[str] | None = None  # the note being read, continuation lines included
    last_line: _Line | None = None

    def close_note() -> None:
        nonlocal note
        if note is not None and last_line is not None:
            while note and not note[-1].strip():
                note.pop()
            last_line.notes.append("\n".join(note))
        note = None

    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        line = raw.rstrip()
        stripped = line.strip()
        lead = stripped[:1]
        if note is not None and lead not in ("#", ">"):
            note.append(line)
            continue
        if not stripped:
            continue
        if lead == "#":
            close_note()
            if not stripped[1:].strip():
                # A bare "#" names no pragma: like an unknown pragma, ignored.
                continue
            name, *rest = stripped[1:].split(maxsplit=1)
            name = name.lower()
            value = rest[0].strip() if rest else ""
            if name == "character-encoding":
                if number != 1:
                    problems.append(
                        (
                            number,
                            "misplaced_encoding",
                            "#character-encoding must be the first line",
                        )
                    )
                continue
            if name == "note":
                if last_line is None:
                    problems.append(
                        (number, "misplaced_note", "A #note must follow an event line")
                    )
                    note = None
                    continue
                note = [value]
                continue
            if seen_event and name not in _ANYWHERE and name not in _HARMLESS:
                problems.append(
                    (
                        number,
                        "pragma_after_events",
                        f"#{name} must come before the first event",
                    )
                )
                continue
            if name in ("player1", "player2"):
                index = int(name[-1]) - 1
                nick, *names = value.split(maxsplit=1) or [""]
                full = names[0] if names else ""
                if not nick:
                    problems.append(
                        (number, "bad_pragma", f"#{name} must give a nick and a name")
                    )
                    continue
                if players[index] is not None:
                    problems.append((number, "bad_pragma", f"#{name} appears twice"))
                    continue
                other = players[1 - index]
                if other is not None and other.nick == nick:
                    problems.append(
                        (
                            number,
                            "duplicate_nick",
                            f"Both players have the nick {nick!r}",
                        )
                    )
                    continue
                players[index] = GcgPlayer(nick, full.strip())
                player_lines[index] = number
            elif name in _METADATA:
                fields[name] = value
            elif name in ("rack1", "rack2"):
                rack = value.replace(" ", "").upper()
                if not _RACK.match(rack):
                    problems.append((number, "bad_rack", f"{value!r} is not a rack"))
                    continue
                racks_at_end[int(name[-1]) - 1] = (rack, number)
            else:
                pragmas.append((name, value))
            continue
        if lead == ">":
            close_note()
            seen_event = True
            parsed = _parse_event(number, stripped, players, problems)
            if parsed is not None:
                lines.append(parsed)
                last_line = parsed
            else:
                # Notes after a broken line are not attached anywhere.
                last_line = None
            continue
        problems.append(
            (
                number,
                "bad_line",
                "The line is neither a pragma (#…) nor an event (>…)",
            )
        )
    close_note()
    if not problems and (players[0] is None or players[1] is None):
        problems.append(
            (
                1,
                "missing_players",
                "The record must name two players (#player1, #player2)",
            )
        )
    metadata = GcgMetadata(
        players=tuple(player for player in players if player is not None),
        title=fields.get("title"),
        description=fields.get("description"),
        id=fields.get("id"),
        lexicon=fields.get("lexicon"),
        pragmas=tuple(pragmas),
    )
    return lines, metadata, racks_at_end, player_lines[0] or 1


@dataclass(slots=True)
class _EventText:
    """An event line being read: who it is by, the rack, the tokens after the rack."""

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
        score, cumulative = tokens[first], tokens[first + 1]
        if not _SCORE.match(score):
            self.problem("bad_score", f"{score!r} is not a score (+N or -N)")
            return None
        if not _SCORE.match(cumulative):
            self.problem("bad_score", f"{cumulative!r} is not a cumulative score")
            return None
        return int(score), int(cumulative)

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
    if tokens and _RACK.match(tokens[0]) and tokens[0]:
        rack = tokens.pop(0).upper()
    event = _EventText(number, nicks.index(nick), rack, tokens, problems)
    if len(rack) > 7:
        event.problem("bad_rack", f"The rack {rack} has more than 7 tiles")
        return None
    if not tokens:
        event.problem("bad_event", "The event line has no move")
        return None
    return event


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
        if not 1 <= count <= 7:
            event.problem(
                "bad_exchange", f"An exchange is of 1 to 7 tiles, not {count}"
            )
            return None
        line.count = count
        return line
    if not _RACK.match(exchanged) or not 1 <= len(exchanged) <= 7:
        event.problem("bad_exchange", f"{move!r} is not an exchange (-TILES or -N)")
        return None
    line.tiles = exchanged.upper()
    line.count = len(exchanged)
    return line


def _parse_end_rack(event: _EventText, move: str) -> _Line | None:
    """``(TILES)``: going-out points for the opponent's rack, or the player's own
    rack deducted (a minus sign, or the line's own rack in parentheses)."""
    tiles = move[1:-1].upper()
    if not _RACK.match(tiles):
        event.problem("bad_event", f"{move!r} is not a rack in parentheses")
        return None
    line = event.line(_Kind.GOING_OUT, tiles=tiles)
    if line is None:
        return None
    rack = event.rack
    own = event.tokens[1].startswith("-") or (
        rack != "" and sort_tiles(rack) == sort_tiles(tiles)
    )
    if own and rack and sort_tiles(rack) != sort_tiles(tiles):
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
    if not all(ch == "." or ch.isalpha() for ch in word):
        event.problem(
            "bad_word",
            f"{word!r} is not a word: letters, lower case for a blank, '.' for a "
            "tile on the board",
        )
        return None
    return event.line(_Kind.PLACEMENT, 2, position=position.gcg(), word=word)


def _infer_ruleset(lines: list[_Line]) -> Ruleset:
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
    groups = _end_groups(lines)
    values = tile_values(ENGLISH)
    for start, end in groups:
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
        if lines[index].kind in (_Kind.GOING_OUT, _Kind.OWN_RACK):
            end = index
            while end < len(lines) and lines[end].kind in (
                _Kind.GOING_OUT,
                _Kind.OWN_RACK,
            ):
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
    """Turns parsed lines into events, applying each so rules are checked as it goes."""

    def __init__(
        self,
        lines: list[_Line],
        metadata: GcgMetadata,
        chosen: Ruleset,
        racks_at_end: dict[int, tuple[str, int]],
    ) -> None:
        self.lines = lines
        self.metadata = metadata
        self.ruleset = chosen
        self.racks_at_end = racks_at_end
        self.events: list[Event] = []
        self.event_lines: list[int] = []
        self.discrepancies: list[GcgDiscrepancy] = []
        self.state: GameState | None = None
        # For adjustments: the line of each player's end-of-game line.
        self.adjustment_lines: dict[tuple[int, int], int] = {}

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

    def run(self, start_line: int) -> None:
        metadata = self.metadata
        self.emit(
            GameStarted(
                players=tuple(player.nick for player in metadata.players),
                ruleset=self.ruleset,
                tile_set=ENGLISH,
                lexicon=metadata.lexicon,
            ),
            start_line,
        )
        for player in range(len(metadata.players)):
            self.draw(player, -1)
        lines = self.lines
        cumulative = [0] * len(metadata.players)
        index = 0
        while index < len(lines):
            line = lines[index]
            if line.kind in (_Kind.GOING_OUT, _Kind.OWN_RACK):
                end = index
                while end < len(lines) and lines[end].kind in (
                    _Kind.GOING_OUT,
                    _Kind.OWN_RACK,
                ):
                    end += 1
                group = lines[index:end]
                version = self.end(group)
                for member in group:
                    self.check_cumulative(member, cumulative)
                    self.annotate(member, version)
                index = end
                continue
            version = self.turn(index, line)
            self.check_cumulative(line, cumulative)
            self.annotate(line, version)
            index += 1
        self.check_final_racks()

    def annotate(self, line: _Line, version: int) -> None:
        for text in line.notes:
            self.emit(NoteAdded(target_version=version, text=text), line.number)

    def check_cumulative(self, line: _Line, cumulative: list[int]) -> None:
        expected = cumulative[line.player] + line.score
        if line.cumulative != expected:
            self.discrepancies.append(
                GcgDiscrepancy(line.number, line.cumulative, expected, "cumulative")
            )
        # Later lines are checked against the cumulative as recorded, so one slip is
        # reported once, not on every line after it.
        cumulative[line.player] = line.cumulative

    def turn(self, index: int, line: _Line) -> int:
        state = self.state
        assert state is not None
        player = line.player
        other = (player + 1) % len(state.players)
        kind = line.kind
        if kind is _Kind.PLACEMENT:
            version = self.emit(
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
        if kind in (_Kind.PHONY, _Kind.CHALLENGE):
            last = state.last_play
            if last is None or last.player != player:
                what = "withdraw" if kind is _Kind.PHONY else "be challenged"
                raise self.fail(
                    line.number,
                    NoPlayToChallengeError(
                        f"There is no play by {state.players[player]} just before to "
                        f"{what}"
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
            return self.emit(
                PlayChallenged(
                    challenger=other,
                    outcome=(
                        ChallengeOutcome.PHONY
                        if kind is _Kind.PHONY
                        else ChallengeOutcome.VALID
                    ),
                    score=line.score,
                    rack=line.rack,
                ),
                line.number,
            )
        if kind is _Kind.PASS:
            return self.emit(TurnPassed(player=player, rack=line.rack), line.number)
        if kind is _Kind.EXCHANGE:
            version = self.emit(
                TilesExchanged(
                    player=player,
                    tiles=line.tiles,
                    unknown=0 if line.tiles else line.count,
                    rack=line.rack,
                ),
                line.number,
            )
            self.draw(player, index)
            return version
        # The time penalty: the rack on its line is the rack left at the end.
        rack = state.racks[player]
        if line.rack and rack.is_known and sort_tiles(line.rack) != rack.known:
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
        state = self.state
        assert state is not None
        position = Position.from_gcg(line.position)
        step = 1 if position.direction.value == "across" else SIZE
        along = position.column if step == 1 else position.row
        if along + len(line.word) > SIZE:
            return line.word
        squares = state.board.squares
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

    def observation(self, index: int, player: int) -> tuple[str | None, int | None]:
        """The player's rack as next recorded after line ``index``, and its line."""
        for line in self.lines[index + 1 :]:
            if line.player == player:
                if line.kind is _Kind.GOING_OUT:
                    return None, None
                if line.kind is _Kind.OWN_RACK:
                    return line.tiles, line.number
                return line.rack, line.number
            if line.kind is _Kind.GOING_OUT:
                # The opponent's going-out line shows this player's last rack.
                return line.tiles, line.number
        at_end = self.racks_at_end.get(player)
        if at_end is not None:
            return at_end
        return None, None

    def draw(self, player: int, index: int) -> None:
        """Record the draw that refills ``player``'s rack after line ``index``."""
        state = self.state
        assert state is not None
        rack = state.racks[player]
        count = min(state.ruleset.rack_size - rack.count, state.bag.count)
        if count <= 0:
            return
        seen, seen_line = self.observation(index, player)
        if seen_line is not None:
            line = seen_line
        elif index >= 0:
            line = self.lines[index].number
        else:
            line = self.event_lines[0]
        name = state.players[player]
        if not seen or not rack.is_known:
            # Nothing recorded, or the tiles kept are not all known: which of the
            # recorded tiles were drawn cannot be told.
            self.emit(TilesDrawn(player=player, unknown=count), line)
            return
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
            self.emit(TilesDrawn(player=player, tiles=new), line)
            return
        if len(new) > count:
            raise self.fail(
                line,
                RackMismatchError(
                    f"The rack {seen} has {len(new)} tiles {name} did not keep, but "
                    f"{name} drew only {count}"
                ),
            )
        self.emit(TilesDrawn(player=player, tiles=new, unknown=count - len(new)), line)

    def end(self, group: list[_Line]) -> int:
        """Record the end of the game from its group of end-of-game lines."""
        state = self.state
        assert state is not None
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

    def check_final_racks(self) -> None:
        state = self.state
        assert state is not None
        if state.game_over:
            return
        for player, (rack, line) in sorted(self.racks_at_end.items()):
            known = state.racks[player]
            if known.is_known and sort_tiles(rack) != known.known:
                raise self.fail(
                    line,
                    RackMismatchError(
                        f"{state.players[player]}'s rack is {known.known or 'empty'}, "
                        f"not {rack}"
                    ),
                )


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
        players = tuple(GcgPlayer(_nick(name), name) for name in state.players)
        metadata = GcgMetadata(
            players=players,
            title=metadata.title if metadata else None,
            description=metadata.description if metadata else None,
            id=metadata.id if metadata else None,
            lexicon=metadata.lexicon if metadata else state.lexicon,
            pragmas=metadata.pragmas if metadata else (),
        )
    nicks = [_nick(player.nick) for player in metadata.players]
    out = ["#character-encoding UTF-8"]
    for number, player in enumerate(metadata.players, start=1):
        out.append(f"#player{number} {nicks[number - 1]} {player.name}".rstrip())
    for name in ("title", "description", "id", "lexicon"):
        value = getattr(metadata, name)
        if name == "lexicon" and value is None:
            value = state.lexicon
        if value is not None:
            out.append(f"#{name} {_one_line(value)}".rstrip())
    for name, value in metadata.pragmas:
        out.append(f"#{name} {_one_line(value)}".rstrip())
    single = state.ruleset.challenge is ChallengeRule.SINGLE
    for turn in state.turns:
        if turn.kind is TurnKind.CHALLENGE and single:
            # A free challenge of a valid play: "(challenge) +0" keeps it on record.
            assert turn.player is not None
            out.append(f">{nicks[turn.player]}: {_event_body(turn)}")
            _write_notes(out, turn.notes)
            continue
        if turn.kind in _UNWRITTEN:
            if turn.notes and len(out) > 1:
                _write_notes(out, turn.notes)
            continue
        assert turn.player is not None
        out.append(f">{nicks[turn.player]}: {_event_body(turn)}")
        _write_notes(out, turn.notes)
    if not state.game_over:
        for index, rack in enumerate(state.racks, start=1):
            if rack.is_known and rack.count:
                out.append(f"#rack{index} {rack.known}")
    return "\n".join(out) + "\n"


def _nick(name: str) -> str:
    return "_".join(name.split()) or "player"


def _one_line(value: str) -> str:
    return " ".join(value.split())


def _write_notes(out: list[str], notes: tuple[str, ...]) -> None:
    for text in notes:
        first, *rest = text.split("\n")
        out.append(f"#note {first}".rstrip())
        out.extend(rest)


def _event_body(turn: Turn) -> str:
    rack = turn.recorded_rack if turn.recorded_rack is not None else (turn.rack or "")
    kind = turn.kind
    cumulative = turn.cumulative
    if kind is TurnKind.PLACEMENT:
        return f"{rack} {turn.position} {turn.word} {turn.score:+d} {cumulative}"
    if kind is TurnKind.EXCHANGE:
        exchanged = turn.tiles if len(turn.tiles) == turn.count else str(turn.count)
        return f"{rack} -{exchanged} +0 {cumulative}"
    if kind in (TurnKind.PASS, TurnKind.LOST_TURN):
        return f"{rack} - +0 {cumulative}"
    if kind is TurnKind.PHONY_WITHDRAWN:
        return f"{rack} -- {_negative(turn.score)} {cumulative}"
    if kind in (TurnKind.CHALLENGE_BONUS, TurnKind.CHALLENGE):
        return f"{rack} (challenge) {turn.score:+d} {cumulative}"
    if kind is TurnKind.END_BONUS:
        return f" ({turn.tiles}) {turn.score:+d} {cumulative}"
    if kind is TurnKind.END_RACK:
        return f"{turn.tiles} ({turn.tiles}) {_negative(turn.score)} {cumulative}"
    if kind is TurnKind.TIME_PENALTY:
        return f"{turn.rack or ''} (time) {_negative(turn.score)} {cumulative}"
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
        print(f"{report['file']}: ok ({scores}; {verdict})")
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
