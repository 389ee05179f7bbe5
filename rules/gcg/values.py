"""The values of a GCG record (players, metadata, discrepancies, warnings, the
record itself) and the pragmas and limits the reader and the writer share.

Usage::

    record = read(text)
    record.metadata.players[0].name, record.discrepancies, record.warnings
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from rules.events import (
    Event,
)
from rules.ruleset import (
    Ruleset,
)
from rules.state import GameState

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
