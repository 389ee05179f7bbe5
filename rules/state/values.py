"""The game state's values: racks, the bag, turns, notes and ``GameState``.

All are frozen values; the handlers build new ones (``rules.state.steps._evolve``)
and never change a state in place. What is known about racks is exact: a rack is
its known tiles plus a count of tiles not recorded.

Usage::

    state = replay(events)
    state.scores, state.racks[0].known, bag_count(state), unseen_tiles(state, 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from rules.board import Board
from rules.events import (
    EndReason,
)
from rules.ruleset import Ruleset
from rules.scoring import WordScore
from rules.tiles import (
    ENGLISH,
    TileSet,
    sort_tiles,
    tile_values,
)


class WordList(Protocol):
    """What ``validate_append`` asks of a word list (``rules.lexicon.Lexicon`` is
    one): a protocol, so that the state does not import the lexicon module, which
    judges challenges from the state."""

    @property
    def name(self) -> str: ...

    def invalid(self, words: Iterable[str]) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class Rack:
    """A player's rack: the tiles known to be on it and how many more are unknown."""

    known: str = ""
    unknown: int = 0

    @property
    def count(self) -> int:
        """How many tiles the rack holds."""
        return len(self.known) + self.unknown

    @property
    def is_known(self) -> bool:
        """Whether every tile on the rack is known."""
        return self.unknown == 0

    def __str__(self) -> str:
        if self.unknown:
            return f"{self.known}+{self.unknown} unknown"
        return self.known


@dataclass(frozen=True, slots=True)
class Bag:
    """The bag: how many tiles it holds, and the tiles that may be in it.

    ``candidates`` are the tiles on neither the board nor a known rack; when no rack
    has unknown tiles, they are exactly the bag (``exact``).
    """

    count: int
    candidates: str

    @property
    def exact(self) -> bool:
        """Whether ``candidates`` is exactly the bag's contents."""
        return len(self.candidates) == self.count

    @property
    def tiles(self) -> str | None:
        """The bag's tiles when known exactly, else None."""
        return self.candidates if self.exact else None


@dataclass(frozen=True, slots=True)
class Aside:
    """Tiles just exchanged: they go back to the bag once their player has drawn."""

    player: int
    tiles: str
    unknown: int


class TurnKind(StrEnum):
    """What a line of the score sheet records."""

    PLACEMENT = "placement"
    EXCHANGE = "exchange"
    PASS = "pass"
    PHONY_WITHDRAWN = "phony_withdrawn"
    CHALLENGE_BONUS = "challenge_bonus"
    CHALLENGE = "challenge"  # a valid play challenged, with no bonus to record
    LOST_TURN = "lost_turn"
    END_BONUS = "end_bonus"  # the points for the racks left when a player went out
    END_RACK = "end_rack"  # a player's own rack deducted at the end
    TIME_PENALTY = "time_penalty"
    SCORE_CORRECTION = "score_correction"
    ADJUDICATION = "adjudication"
    GAME_ENDED = "game_ended"  # an end with no rack to count (resignation…)


@dataclass(frozen=True, slots=True)
class Note:
    """An annotation on a score-sheet line.

    ``version`` is the version of the :class:`NoteAdded` that wrote it, which names
    the note for an edit or a deletion; ``edited_version`` that of its latest
    :class:`NoteEdited` (None: never edited). Who wrote it and when are the log's
    facts, not the rules'.
    """

    version: int
    text: str
    edited_version: int | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """One line of the score sheet.

    ``version`` is the version of the event that made it (several lines can share
    one: the end of the game scores every rack). ``rack`` is what the state knew of
    the rack before the turn (None when nothing), ``recorded_rack`` the rack as
    recorded on the event. ``position`` and ``word`` are GCG-style (``.`` for a
    played-through tile); ``words`` every word formed, main word first. ``tiles`` are
    the tiles exchanged, or the racks counted at the end; ``count`` how many tiles
    were placed or exchanged. ``score`` is the points credited (as recorded when a
    score was recorded), ``computed`` what the rules give, ``cumulative`` the
    player's score after the line.
    """

    version: int
    player: int | None
    kind: TurnKind
    score: int = 0
    cumulative: int = 0
    computed: int = 0
    rack: str | None = None
    recorded_rack: str | None = None
    position: str | None = None
    word: str | None = None
    words: tuple[WordScore, ...] = ()
    bingo: bool = False
    tiles: str = ""
    count: int = 0
    withdrawn: bool = False
    detail: str = ""
    notes: tuple[Note, ...] = ()


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """A recorded score that differs from the rules' score (kept as recorded)."""

    version: int
    player: int
    kind: str  # "score", "challenge", "adjustment", "time_penalty"
    recorded: int
    computed: int


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The placement just recorded, kept until the next turn begins so that it can be
    challenged: what it changed and what to restore if it is withdrawn."""

    version: int
    player: int
    turn_index: int
    new_tiles: tuple[tuple[int, str], ...]
    score: int
    rack_after: Rack
    board_before: Board
    scoreless_before: int
    challenged: bool = False


class RulesContext:
    """Lookups derived from a tile set: its letters and every tile's value."""

    __slots__ = ("letters", "values")

    def __init__(self, letters: str, values: dict[str, int]) -> None:
        self.letters = letters
        self.values = values

    def __reduce__(self) -> tuple[type[RulesContext], tuple[str, dict[str, int]]]:
        # Pickled as a call of the class (kept states hold one): a class compiled
        # by mypyc (README, "The compiled rules core") is made by its constructor.
        return (RulesContext, (self.letters, self.values))

    @classmethod
    def of(cls, tile_set: TileSet) -> RulesContext:
        """Build the lookups of a tile set."""
        return cls(tile_set.letters, tile_values(tile_set))


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything known about a game after some events (see the module notes).

    ``turn`` is the player to act next. ``scoreless_turns`` is the current run of
    scoreless turns as the ruleset counts them. ``pending_end`` is set when the
    rules have ended the game (a player went out, enough scoreless turns) but the
    end has not been recorded yet: no further turn is accepted, only a challenge of
    the last play, the end itself, notes and corrections.
    """

    players: tuple[str, ...]
    ruleset: Ruleset
    tile_set: TileSet
    lexicon: str | None
    board: Board
    racks: tuple[Rack, ...]
    bag: Bag
    scores: tuple[int, ...]
    turn: int = 0
    scoreless_turns: int = 0
    version: int = 1
    turns: tuple[Turn, ...] = ()
    discrepancies: tuple[Discrepancy, ...] = ()
    last_play: LastPlay | None = None
    aside: Aside | None = None
    lost_turns: tuple[int, ...] = ()
    pending_end: EndReason | None = None
    pending_player: int | None = None
    end_reason: EndReason | None = None
    ended_by: int | None = None
    adjustments: tuple[int, ...] = ()
    scores_before_adjustments: tuple[int, ...] = ()
    winner: int | None = None
    decided_by_tiebreak: bool = False
    # Lookups derived from the tile set, kept so the hot path never rebuilds them.
    context: RulesContext = field(
        default_factory=lambda: RulesContext.of(ENGLISH), compare=False, repr=False
    )

    @property
    def values(self) -> dict[str, int]:
        """Each tile's value, a blank's declared (lower-case) letter included."""
        return self.context.values

    @property
    def game_over(self) -> bool:
        """Whether the end of the game has been recorded."""
        return self.end_reason is not None

    @property
    def final_scores(self) -> tuple[int, ...] | None:
        """The final scores once the game is over, else None."""
        return self.scores if self.end_reason is not None else None

    @property
    def is_draw(self) -> bool:
        """Whether the finished game is a draw."""
        return self.end_reason is not None and self.winner is None

    @property
    def bag_count(self) -> int:
        """How many tiles are in the bag."""
        return self.bag.count

    def turns_of(self, version: int) -> tuple[Turn, ...]:
        """The score-sheet lines made by the event at ``version``."""
        return tuple(turn for turn in self.turns if turn.version == version)


def last_play_words(state: GameState) -> tuple[str, ...]:
    """The words (upper case) formed by the play that may still be challenged, or
    an empty tuple when there is none."""
    last = state.last_play
    if last is None:
        return ()
    return tuple(word.word.upper() for word in state.turns[last.turn_index].words)


def bag_count(state: GameState) -> int:
    """How many tiles are in the bag."""
    return state.bag.count


def unseen_tiles(state: GameState, player: int | None) -> str:
    """The tiles ``player`` cannot see: the tile set less the board and their own
    known rack (so the bag and every other rack), sorted. With None, a
    spectator's: every tile not on the board (the bag and every rack)."""
    tiles = state.bag.candidates + (state.aside.tiles if state.aside else "")
    for index, rack in enumerate(state.racks):
        if index != player:
            tiles += rack.known
    return sort_tiles(tiles)
