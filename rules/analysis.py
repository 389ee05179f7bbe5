"""Analysis of a turn: the plays the player on turn had, best first.

Every placement the word list allows (``rules.movegen``) is scored by the rules'
own scoring (``rules.scoring``, the bingo bonus included) and ranked by score. With
a leave table, each play also has an *equity*: its score plus the value of the
tiles it leaves on the rack, and plays are ranked by equity; while the bag holds
enough tiles to exchange (RULES.md, "A turn"), each exchange is a candidate too,
worth the value of the tiles it keeps. Ties share a rank (1, 2, 2, 4).

A leave table is a CSV of ``LEAVE,VALUE`` lines, one per leave of 1 to 6 tiles
(``?`` a blank), as the superleaves files of macondo and Quackle are written; no
table is built in.

Usage::

    graph = WordGraph.from_words(["CAT", "CATS", "AT"])
    analysis = analyse(state, "STAC?EE", graph, played=state.turns[4])
    analysis.plays[0].score, analysis.played_rank
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.board import Position
from rules.errors import RulesError
from rules.movegen import MoveGenError, Placement, WordGraph, generate
from rules.moves import locate
from rules.state import GameState, Turn, TurnKind, placed_score
from rules.tiles import BLANK, remove_tiles, sort_tiles

__all__ = [
    "AnalysisError",
    "LeaveTable",
    "RankedPlay",
    "TurnAnalysis",
    "analyse",
]

_ENGLISH_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class AnalysisError(RulesError):
    """Raised when a turn cannot be analysed (``code`` says why) or a leave table
    is malformed (``leave_table``, the message gives the line)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class LeaveTable:
    """What keeping each set of tiles is worth, in points (sorted tiles -> value)."""

    values: Mapping[str, float]

    @classmethod
    def from_lines(cls, lines: Iterable[str] | str) -> LeaveTable:
        """Read ``LEAVE,VALUE`` lines; blank lines and ``#`` comments are skipped.

        Raises :class:`AnalysisError` naming the line of a malformed entry.
        """
        if isinstance(lines, str):
            lines = lines.splitlines()
        values: dict[str, float] = {}
        for number, line in enumerate(lines, start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            leave, _, value = text.partition(",")
            leave = leave.strip().upper()
            if not leave or any(
                tile not in _ENGLISH_LETTERS and tile != BLANK for tile in leave
            ):
                raise AnalysisError(
                    "leave_table", f"Line {number}: {leave!r} is not a set of tiles"
                )
            try:
                values[sort_tiles(leave)] = float(value)
            except ValueError:
                raise AnalysisError(
                    "leave_table",
                    f"Line {number}: {value.strip()!r} is not a number",
                ) from None
        return cls(values)

    def value(self, leave: str) -> float:
        """The value of keeping ``leave`` (0 for an empty rack or a leave the table
        does not list)."""
        return self.values.get(sort_tiles(leave), 0.0)


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """One candidate: a placement (GCG ``position`` and ``word``), an exchange of
    ``exchanged`` tiles, or a pass; its score, the tiles it leaves, its equity
    (None without a leave table) and its rank (1 is best)."""

    rank: int
    kind: str  # "placement", "exchange", "pass"
    position: str
    word: str
    score: int
    leave: str
    equity: float | None
    words: tuple[str, ...] = ()
    exchanged: str = ""

    def gcg(self) -> str:
        """As a GCG line writes the move (``8D WINDY``, ``-ADE``, ``-``)."""
        if self.kind == "placement":
            return f"{self.position} {self.word}"
        return f"-{self.exchanged}"


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """The best candidates of a turn and where the move made ranks among all of
    them (``played_rank`` None: the move is not among the candidates, such as a
    play forming a word not in the word list; ``candidates`` counts them all)."""

    rack: str
    plays: tuple[RankedPlay, ...]
    candidates: int
    by_equity: bool
    played: RankedPlay | None
    played_rank: int | None


def analyse(
    state: GameState,
    rack: str,
    graph: WordGraph,
    *,
    leaves: LeaveTable | None = None,
    played: Turn | None = None,
    limit: int = 10,
) -> TurnAnalysis:
    """Rank the moves of ``rack`` on ``state``'s board (the player on turn's).

    ``played`` is the score-sheet line of the move made, to rank it. Raises
    :class:`AnalysisError` when the tile set has letters other than A-Z (the move
    generator's) or the rack is not a rack of them.
    """
    if not set(state.tile_set.letters) - {BLANK} <= _ENGLISH_LETTERS:
        raise AnalysisError(
            "tile_set",
            f"Plays can be ranked for the letters A-Z only, not the "
            f"{state.tile_set.name} tiles",
        )
    try:
        placements = generate(state.board.rows(), rack, graph)
    except MoveGenError as error:
        raise AnalysisError("rack", error.message) from None
    scored = [_placement(state, rack, placement, leaves) for placement in placements]
    if leaves is not None and state.bag.count >= state.ruleset.rack_size:
        scored.extend(_exchanges(rack, leaves))
    made = _made(state, rack, played, leaves) if played is not None else None
    if made is not None and made.kind != "placement" and made not in scored:
        scored.append(made)
    ranked = _ranked(scored, by_equity=leaves is not None)
    found = None
    if made is not None:
        found = next((play for play in ranked if _same(play, made)), None)
    return TurnAnalysis(
        rack=sort_tiles(rack),
        plays=tuple(ranked[:limit]),
        candidates=len(ranked),
        by_equity=leaves is not None,
        played=found,
        played_rank=None if found is None else found.rank,
    )


def _placement(
    state: GameState, rack: str, placement: Placement, leaves: LeaveTable | None
) -> RankedPlay:
    position = placement.gcg_position()
    word = placement.gcg_word()
    located = locate(
        state.board.squares,
        Position.from_gcg(position),
        word,
        state.context.letters,
    )
    _, scored = placed_score(state, located)
    leave = sort_tiles(remove_tiles(rack, located.tiles) or "")
    return RankedPlay(
        rank=0,
        kind="placement",
        position=position,
        word=word,
        score=scored.total,
        leave=leave,
        equity=None if leaves is None else scored.total + leaves.value(leave),
        words=placement.words(),
    )


def _exchanges(rack: str, leaves: LeaveTable) -> list[RankedPlay]:
    """Every distinct exchange of 1 to 7 tiles, worth the tiles it keeps."""
    tiles = sort_tiles(rack)
    seen: set[str] = set()
    found = []
    for size in range(1, len(tiles) + 1):
        for chosen in itertools.combinations(tiles, size):
            exchanged = "".join(chosen)
            if exchanged in seen:
                continue
            seen.add(exchanged)
            found.append(_exchange(tiles, exchanged, leaves))
    return found


def _exchange(rack: str, exchanged: str, leaves: LeaveTable | None) -> RankedPlay:
    leave = sort_tiles(remove_tiles(rack, exchanged) or "")
    return RankedPlay(
        rank=0,
        kind="exchange" if exchanged else "pass",
        position="",
        word="",
        score=0,
        leave=leave,
        equity=None if leaves is None else leaves.value(leave),
        exchanged=sort_tiles(exchanged),
    )


def _made(
    state: GameState, rack: str, turn: Turn, leaves: LeaveTable | None
) -> RankedPlay | None:
    """The move a score-sheet line records, as a candidate (None: a line that is no
    move of the player's, or an exchange whose tiles were not recorded)."""
    if turn.kind is TurnKind.PLACEMENT and turn.position and turn.word:
        return RankedPlay(
            rank=0,
            kind="placement",
            position=turn.position,
            word=turn.word,
            score=0,
            leave="",
            equity=None,
        )
    if turn.kind is TurnKind.EXCHANGE and turn.tiles:
        return _exchange(sort_tiles(rack), turn.tiles, leaves)
    if turn.kind is TurnKind.PASS:
        return _exchange(sort_tiles(rack), "", leaves)
    return None


def _same(candidate: RankedPlay, made: RankedPlay) -> bool:
    if candidate.kind != made.kind:
        return False
    if made.kind == "placement":
        # Both in the rules' canonical form: "." for each played-through tile.
        return (candidate.position, candidate.word) == (made.position, made.word)
    return candidate.exchanged == made.exchanged


def _ranked(plays: list[RankedPlay], *, by_equity: bool) -> list[RankedPlay]:
    """Best first (equity, else score; then score, then board order), each with
    its competition rank: equal values share the better rank."""

    def value(play: RankedPlay) -> float:
        return play.equity if by_equity and play.equity is not None else play.score

    ordered = sorted(
        plays, key=lambda play: (-value(play), -play.score, play.position, play.word)
    )
    ranked = []
    rank = 0
    previous: float | None = None
    for index, play in enumerate(ordered, start=1):
        current = value(play)
        if current != previous:
            rank, previous = index, current
        ranked.append(dataclasses.replace(play, rank=rank))
    return ranked
