"""Parsing a GCG file's text into lines: the encoding, the pragmas, and each
event line's kind, player, rack, move and scores (``shared/GCG.md``).

Every syntax problem is collected with its line number, so one ``GcgError``
lists them all.

Usage::

    problems: list[tuple[int, str, str]] = []
    parser = _Parser(problems)
    parser.read(_decode(data, problems))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.board import Position
from rules.errors import (
    InvalidPositionError,
    RulesError,
)
from rules.gcg.values import (
    _ANYWHERE,
    _HARMLESS,
    _LINE_BREAK,
    _METADATA,
    _PLAYER,
    _RACK_SIZE,
    _RULESET_PRAGMA,
    _SCORE,
    _SCORE_DIGITS,
    _TILE_SET_PRAGMAS,
    _UNKNOWN_RACK,
    GcgMetadata,
    GcgPlayer,
    GcgWarning,
    _Kind,
    _Line,
)
from rules.numbers import NumberError, is_whole_number, whole_number
from rules.ruleset import (
    Ruleset,
    ruleset_from_text,
)
from rules.tiles import ENGLISH, TileSet
from rules.tilesets import tile_set, tile_set_for_letters, tile_set_for_lexicon


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
        try:
            index = whole_number(name[len("player") :], low=0, max_digits=3) - 1
        except NumberError:
            index = -1  # "#player１", "#player" and 5,000 digits: no player
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
    has_digit = any("0" <= ch <= "9" for ch in token)
    return token[:1] not in ("-", "(", "+") and not has_digit


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
    if is_whole_number(exchanged):
        count = whole_number(exchanged)
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
