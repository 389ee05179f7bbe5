"""The state of a game, and how events change it: ``apply`` and ``replay``.

:class:`GameState` is a frozen value: ``apply(state, event)`` returns a new state or
raises a :class:`~rules.errors.RulesError` and changes nothing (there is nothing to
half-apply: every check runs before the new state is built). ``replay(events)`` is a
fold of ``apply`` over a stream, after resolving the director's corrections
(:class:`~rules.events.EventsSuperseded`) with :func:`effective_events`.

What the state knows about racks is exact: a rack is the tiles known to be on it plus
a count of tiles not recorded. The tiles that may be in the bag are the tile set less
the board and every known rack tile; when no rack has unrecorded tiles, that is the
bag exactly.

Usage::

    state = replay(events)
    state.scores, state.turn, state.board
    state = validate_append(events, [new_event])   # raises RulesError if illegal
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Protocol

from rules.board import EMPTY_SQUARES, Board, Position
from rules.endings import scoreless_adjustments, went_out_adjustments
from rules.errors import (
    BagTooSmallError,
    ChallengesNotAllowedError,
    DrawBeforeWithdrawalError,
    EndReasonError,
    ExchangeNotAllowedError,
    GameAlreadyStartedError,
    GameNotOverError,
    GameNotStartedError,
    GameOverError,
    ImpossibleScoreError,
    InvalidEventError,
    NoPlayToChallengeError,
    NoteTargetError,
    OutOfTurnError,
    PhonyRefusedError,
    RackMismatchError,
    RackNotRefilledError,
    RackOverflowError,
    RackUnknownError,
    ReplayRequiredError,
    RulesError,
    SupersedeError,
    TilesNotOnRackError,
    TileUnavailableError,
    TimePenaltyRepeatedError,
    WordNotFormedError,
)
from rules.events import (
    ChallengeOutcome,
    EndReason,
    Event,
    EventsSuperseded,
    GameEnded,
    GameStarted,
    NoteAdded,
    NoteDeleted,
    NoteEdited,
    PlayChallenged,
    RackForgotten,
    RackRecorded,
    ScoreCorrected,
    TilesDrawn,
    TilesExchanged,
    TilesPlaced,
    TilesReturned,
    TimePenalty,
    TurnPassed,
    VisibilityChanged,
)
from rules.moves import PLAYED_THROUGH, LocatedPlay, locate
from rules.outcome import decide
from rules.ruleset import ChallengeRule, GoingOutRule, Ruleset, ScorelessRule
from rules.scoring import PlayScore, WordScore, score_limit, score_play
from rules.tiles import (
    ENGLISH,
    TileSet,
    as_tiles,
    difference,
    rack_value,
    remove_tiles,
    sort_tiles,
    split_known,
    tile_values,
)
from rules.tilesets import TILE_SETS


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


def unseen_tiles(state: GameState, player: int) -> str:
    """The tiles ``player`` cannot see: the tile set less the board and their own
    known rack (so the bag and every other rack), sorted."""
    tiles = state.bag.candidates + (state.aside.tiles if state.aside else "")
    for index, rack in enumerate(state.racks):
        if index != player:
            tiles += rack.known
    return sort_tiles(tiles)


# --- apply -----------------------------------------------------------------------


def apply(
    state: GameState | None, event: Event, *, version: int | None = None
) -> GameState:
    """Return the state after ``event``; ``state`` is None before the game starts.

    ``version`` is the event's position in its stream (default: the next one).
    :class:`EventsSuperseded` cannot be applied to a state: it needs the events
    before it, so only :func:`replay` and :func:`validate_append` resolve it.

    Raises a :class:`RulesError` subclass when the event is illegal; the state given
    is unchanged (it is immutable).
    """
    if state is None:
        if not isinstance(event, GameStarted):
            raise GameNotStartedError(
                f"The game has not started: the first event must start it, not "
                f"{event.type_name}"
            )
        return _start(event, 1 if version is None else version)
    if version is None:
        version = state.version + 1
    handler = _HANDLERS.get(type(event))
    if handler is None:
        if isinstance(event, GameStarted):
            raise GameAlreadyStartedError("The game has already started")
        if isinstance(event, EventsSuperseded):
            raise ReplayRequiredError(
                "A correction that supersedes events needs the whole stream: replay it"
            )
        raise InvalidEventError(f"Unknown event {event!r}")
    return handler(state, event, version)


def effective_events(events: Sequence[Event]) -> list[tuple[int, Event]]:
    """Resolve the director's corrections: the events that count, with their versions.

    The event at list index ``i`` has version ``i + 1``. An :class:`EventsSuperseded`
    at version ``v`` voids every event still in effect with a version from its
    ``from_version`` up to ``v``; the correction itself is not in the result.

    Raises :class:`SupersedeError` when ``from_version`` is below 2 (the start cannot
    be superseded) or above the correction's own version.
    """
    live: list[tuple[int, Event]] = []
    for index, event in enumerate(events):
        version = index + 1
        if isinstance(event, EventsSuperseded):
            if not 2 <= event.from_version <= version:
                raise SupersedeError(
                    f"The correction at version {version} supersedes from version "
                    f"{event.from_version}: it must be between 2 and {version}",
                    version=version,
                )
            live = [pair for pair in live if pair[0] < event.from_version]
        else:
            live.append((version, event))
    return live


def replay(events: Sequence[Event]) -> GameState:
    """Fold :func:`apply` over the effective events of a stream.

    The state's ``version`` is that of the stream's last event, so that
    ``apply(replay(events), event)`` numbers the next event right even after a
    correction.

    Raises :class:`GameNotStartedError` for an empty stream and any
    :class:`RulesError` an event raises, with ``version`` set to that event's.
    """
    return _at_version(_fold(None, effective_events(events)), len(events))


def _at_version(state: GameState, version: int) -> GameState:
    return state if state.version == version else _evolve(state, version=version)


def validate_append(
    events_so_far: Sequence[Event],
    new_events: Sequence[Event],
    *,
    lexicon: WordList | None = None,
) -> GameState:
    """Check that ``new_events`` may follow ``events_so_far``; return the new state.

    With a lexicon, under the ``void`` challenge rule a new placement that forms a
    word not in the lexicon is refused (RULES.md, "Challenges").

    Raises the :class:`RulesError` of the first illegal new event, with ``version``
    set.
    """
    so_far = list(events_so_far)
    state: GameState | None
    if any(isinstance(event, EventsSuperseded) for event in new_events):
        pairs = effective_events(so_far + list(new_events))
        first_new = len(so_far) + 1
        state = _fold(None, [pair for pair in pairs if pair[0] < first_new])
        pairs = [pair for pair in pairs if pair[0] >= first_new]
    else:
        state = replay(so_far) if so_far else None
        pairs = [
            (len(so_far) + 1 + offset, event) for offset, event in enumerate(new_events)
        ]
    for version, event in pairs:
        state = _fold(state, [(version, event)])
        if (
            lexicon is not None
            and isinstance(event, TilesPlaced)
            and state.ruleset.challenge is ChallengeRule.VOID
        ):
            words = [
                word.word for turn in state.turns_of(version) for word in turn.words
            ]
            bad = lexicon.invalid(words)
            if bad:
                raise PhonyRefusedError(
                    f"{', '.join(bad)} {'is' if len(bad) == 1 else 'are'} not in "
                    f"{lexicon.name or 'the lexicon'}: the play is refused",
                    version=version,
                )
    if state is None:
        raise GameNotStartedError("The game has not started")
    return _at_version(state, len(so_far) + len(new_events))


def _fold(state: GameState | None, pairs: Iterable[tuple[int, Event]]) -> GameState:
    for version, event in pairs:
        try:
            state = apply(state, event, version=version)
        except RulesError as error:
            error.version = version
            raise
    if state is None:
        raise GameNotStartedError("The game has not started: the stream is empty")
    return state


# --- handlers --------------------------------------------------------------------

_replace = dataclasses.replace


def _evolve(state: GameState, **changes: object) -> GameState:
    """Copy a state with some fields changed.

    ``dataclasses.replace`` re-runs ``__init__`` through keyword arguments, which
    measured as the largest single cost of replay; reading every slot at once and
    writing the slots through their descriptors is about twice as fast and equally
    safe (the fields are immutable values, and nothing else sees the new object
    before it is returned).
    """
    values = list(_read_all(state))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    new = object.__new__(GameState)
    for write, value in zip(_SLOT_WRITERS, values, strict=True):
        write(new, value)
    return new


_STATE_FIELDS = tuple(item.name for item in dataclasses.fields(GameState))
_FIELD_INDEX = {name: index for index, name in enumerate(_STATE_FIELDS)}
_read_all = operator.attrgetter(*_STATE_FIELDS)
_SLOT_WRITERS = tuple(GameState.__dict__[name].__set__ for name in _STATE_FIELDS)


def _start(event: GameStarted, version: int) -> GameState:
    players = event.players
    if not 2 <= len(players) <= 4:
        raise InvalidEventError(
            f"A game has 2 to 4 players, not {len(players)}", version=version
        )
    if len(set(players)) != len(players):
        raise InvalidEventError("Two players have the same name")
    event.tile_set.validate()
    tiles = _known(event.tile_set)
    count = len(players)
    return GameState(
        players=tuple(players),
        ruleset=event.ruleset,
        tile_set=tiles,
        lexicon=event.lexicon,
        board=Board(EMPTY_SQUARES),
        racks=(Rack(),) * count,
        bag=Bag(tiles.total, tiles.tiles()),
        scores=(0,) * count,
        version=version,
        scores_before_adjustments=(0,) * count,
        context=RulesContext.of(tiles),
    )


def _known(tiles: TileSet) -> TileSet:
    """The library's own instance of a tile set equal to `tiles` (a decoded event
    carries a copy): the engine's caches then find it by identity instead of
    comparing every kind, several times an event."""
    known = TILE_SETS.get(tiles.name)
    return known if known is not None and known == tiles else tiles


def _check_player(state: GameState, player: int, role: str = "player") -> None:
    if not 0 <= player < len(state.players):
        raise InvalidEventError(
            f"There is no {role} number {player}: the game has "
            f"{len(state.players)} players"
        )


def _check_turn(state: GameState, player: int) -> None:
    _check_player(state, player)
    if state.end_reason is not None:
        raise GameOverError(
            f"The game is over ({state.end_reason.value.replace('_', ' ')}): "
            f"{state.players[player]} cannot take another turn"
        )
    if state.pending_end is not None:
        if state.pending_end is EndReason.WENT_OUT:
            why = f"{state.players[state.pending_player or 0]} went out"
        else:
            why = f"there have been {state.scoreless_turns} consecutive scoreless turns"
        raise GameOverError(
            f"The game is over: {why}; record the end of the game instead of "
            f"another turn by {state.players[player]}"
        )
    if player != state.turn:
        raise OutOfTurnError(
            f"It is {state.players[state.turn]}'s turn, not {state.players[player]}'s"
        )


def _settled_bag(state: GameState) -> Bag:
    """The bag once any exchanged tiles set aside are back in it."""
    aside = state.aside
    if aside is None:
        return state.bag
    return Bag(
        state.bag.count + len(aside.tiles) + aside.unknown,
        sort_tiles(state.bag.candidates + aside.tiles),
    )


def _check_refilled(state: GameState, player: int, rack: Rack, bag: Bag) -> None:
    size = state.ruleset.rack_size
    if rack.count < size and bag.count > 0:
        raise RackNotRefilledError(
            f"{state.players[player]} holds {rack.count} tiles and the bag still has "
            f"{bag.count}: record the draw that refills the rack before "
            f"{state.players[player]}'s turn"
        )


def _check_letters(state: GameState, tiles: str, what: str) -> None:
    letters = state.context.letters
    for tile in tiles:
        if tile not in letters:
            raise InvalidEventError(
                f"{tile!r} in {what} {tiles!r} is not a tile of the tile set "
                "(? is a blank)"
            )


@cache
def _score_limit(tile_set: TileSet, rack_size: int, bingo_bonus: int) -> int:
    return score_limit(tile_values(tile_set), rack_size, bingo_bonus)


def _check_score(state: GameState, points: int | None, what: str) -> None:
    """Refuse a recorded score no line of a game can come near (issue 21)."""
    if points is None:
        return
    ruleset = state.ruleset
    limit = _score_limit(state.tile_set, ruleset.rack_size, ruleset.bingo_bonus)
    if abs(points) > limit:
        raise ImpossibleScoreError(
            f"{what} of {points} cannot be right: no line of a game moves a score "
            f"by more than {limit}"
        )


def _describe_rack(rack: Rack) -> str:
    if rack.unknown == 0:
        return rack.known or "no tiles"
    if not rack.known:
        return f"{rack.unknown} unrecorded tiles"
    return f"{rack.known} and {rack.unknown} unrecorded tiles"


def _check_recorded_rack(
    state: GameState, player: int, recorded: str, rack: Rack, pool: str
) -> None:
    """A recorded rack is a record: check it could be the rack, infer nothing."""
    if rack.unknown == 0 and sort_tiles(recorded) == rack.known:
        return  # the usual case: the rack recorded is the rack known
    _check_letters(state, recorded, "the rack")
    name = state.players[player]
    if len(recorded) > rack.count:
        raise RackMismatchError(
            f"The rack {recorded} recorded for {name} has {len(recorded)} tiles, but "
            f"{name} holds {rack.count}"
        )
    _, missing = split_known(rack.known, recorded)
    if len(missing) > rack.unknown:
        raise RackMismatchError(
            f"The rack {recorded} recorded for {name} cannot be right: {name} holds "
            f"{_describe_rack(rack)}"
        )
    if missing and remove_tiles(pool, sort_tiles(missing)) is None:
        raise TileUnavailableError(
            f"The rack {recorded} recorded for {name} cannot be right: not every "
            f"tile of {sort_tiles(missing)} can still be unseen"
        )


def _take(
    state: GameState, player: int, rack: Rack, pool: str, tiles: str
) -> tuple[Rack, str, str]:
    """Take tiles off a rack; unknown rack tiles become the tiles named.

    Returns the rack left, the candidates left, and the tiles that were unknown.
    """
    left, missing = split_known(rack.known, tiles)
    if not missing:
        return Rack(left, rack.unknown), pool, ""
    name = state.players[player]
    if len(missing) > rack.unknown:
        if rack.unknown == 0 and len(tiles) <= rack.count:
            raise TilesNotOnRackError(
                f"{name}'s rack {rack.known} has no {sort_tiles(missing)}"
            )
        raise TilesNotOnRackError(
            f"{name} uses {tiles} but holds {_describe_rack(rack)}"
        )
    missing = sort_tiles(missing)
    pool_left = remove_tiles(pool, missing)
    if pool_left is None:
        raise TileUnavailableError(
            f"{name} cannot hold {missing}: every such tile is already on the board "
            "or on a known rack"
        )
    return Rack(left, rack.unknown - len(missing)), pool_left, missing


def _advance(
    state: GameState,
    player: int,
    version: int,
    turns: list[Turn],
    scores: tuple[int, ...],
    scoreless: int,
) -> tuple[int, tuple[int, ...], int]:
    """The next player to act after ``player``, skipping anyone who lost a turn.

    Returns (next player, lost turns still pending, scoreless run); appends the lost
    turns skipped to ``turns``.
    """
    count = len(state.players)
    following = (player + 1) % count
    lost = state.lost_turns
    if not lost:
        return following, lost, scoreless
    pending = list(lost)
    while pending[following] > 0:
        pending[following] -= 1
        scoreless += 1
        turns.append(
            Turn(version, following, TurnKind.LOST_TURN, cumulative=scores[following])
        )
        following = (following + 1) % count
    return following, (tuple(pending) if any(pending) else ()), scoreless


def _scoreless_end(state: GameState, scoreless: int) -> EndReason | None:
    if scoreless >= state.ruleset.scoreless_limit(len(state.players)):
        return EndReason.SCORELESS_TURNS
    return None


def _flagged(
    state: GameState,
    version: int,
    player: int,
    kind: str,
    recorded: int,
    computed: int,
) -> tuple[Discrepancy, ...]:
    """The state's discrepancies, with this one added when the figures differ."""
    if recorded == computed:
        return state.discrepancies
    return (
        *state.discrepancies,
        Discrepancy(version, player, kind, recorded, computed),
    )


def placed_score(state: GameState, located: LocatedPlay) -> tuple[str, PlayScore]:
    """The board's squares with a located play's tiles on them, and the play's score
    under the game's rules (its tile values, bingo bonus and rack size)."""
    squares = list(state.board.squares)
    for index, tile in located.new_tiles:
        squares[index] = tile
    after = "".join(squares)
    ruleset = state.ruleset
    scored = score_play(
        after,
        located,
        state.context.values,
        bingo_bonus=ruleset.bingo_bonus,
        rack_size=ruleset.rack_size,
    )
    return after, scored


def _place(state: GameState, event: TilesPlaced, version: int) -> GameState:
    player = event.player
    _check_turn(state, player)
    bag = _settled_bag(state)
    rack = state.racks[player]
    _check_refilled(state, player, rack, bag)
    _check_score(state, event.score, "A score")
    if event.rack is not None:
        _check_recorded_rack(state, player, event.rack, rack, bag.candidates)
    position = Position.from_gcg(event.position)
    squares = state.board.squares
    located = locate(squares, position, event.word, state.context.letters)
    new_tiles = located.new_tiles
    used = located.tiles
    rack_after, pool, revealed = _take(state, player, rack, bag.candidates, used)
    after, scored = placed_score(state, located)
    computed = scored.total
    recorded = event.score
    credited = computed if recorded is None else recorded
    discrepancies = _flagged(state, version, player, "score", credited, computed)
    scores = _add(state.scores, player, credited)
    new_bag = Bag(bag.count, pool)
    if rack_after.count == 0 and new_bag.count == 0:
        pending_end, pending_player = EndReason.WENT_OUT, player
    else:
        pending_end, pending_player = None, None
    word = event.word
    if len(word) - word.count(PLAYED_THROUGH) != len(new_tiles):
        # Letters written for played-through tiles: keep the canonical '.' form.
        new_index = dict(new_tiles)
        step = located.step
        word = "".join(
            new_index.get(located.start + offset * step, PLAYED_THROUGH)
            for offset in range(located.length)
        )
    known_before = rack.known + revealed
    turn_index = len(state.turns)
    turns = [
        Turn(
            version,
            player,
            TurnKind.PLACEMENT,
            score=credited,
            cumulative=scores[player],
            computed=computed,
            rack=sort_tiles(known_before) if known_before else None,
            recorded_rack=event.rack,
            position=position.gcg(),
            word=word,
            words=scored.words,
            bingo=scored.bingo,
            tiles=used,
            count=len(new_tiles),
        )
    ]
    following, lost, scoreless = _advance(state, player, version, turns, scores, 0)
    last_play = LastPlay(
        version,
        player,
        turn_index,
        new_tiles,
        credited,
        rack_after,
        state.board,
        state.scoreless_turns,
    )
    racks = _set(state.racks, player, rack_after)
    return _evolve(
        state,
        board=Board(after),
        racks=racks,
        bag=new_bag,
        aside=None,
        scores=scores,
        scores_before_adjustments=scores,
        turn=following,
        lost_turns=lost,
        scoreless_turns=scoreless,
        version=version,
        turns=state.turns + tuple(turns),
        discrepancies=discrepancies,
        last_play=last_play,
        pending_end=pending_end,
        pending_player=pending_player,
    )


def _exchange(state: GameState, event: TilesExchanged, version: int) -> GameState:
    player = event.player
    _check_turn(state, player)
    bag = _settled_bag(state)
    rack = state.racks[player]
    _check_refilled(state, player, rack, bag)
    name = state.players[player]
    count = len(event.tiles) + event.unknown
    if event.unknown < 0 or count == 0:
        raise InvalidEventError(f"{name}'s exchange must name at least one tile")
    _check_letters(state, event.tiles, "the exchange")
    if event.rack is not None:
        _check_recorded_rack(state, player, event.rack, rack, bag.candidates)
    minimum = state.ruleset.exchange_minimum
    if bag.count < minimum:
        raise ExchangeNotAllowedError(
            f"{name} cannot exchange: the bag holds {bag.count} tiles and an exchange "
            f"needs at least {minimum}"
        )
    if count > rack.count:
        raise TilesNotOnRackError(
            f"{name} exchanges {count} tiles but holds {rack.count}"
        )
    rack_after, pool, revealed = _take(state, player, rack, bag.candidates, event.tiles)
    if event.unknown:
        # Which tiles went is not recorded, so what is left on the rack is no longer
        # known: its known tiles become candidates again.
        if rack_after.known:
            pool = sort_tiles(pool + rack_after.known)
        rack_after = Rack("", rack_after.count - event.unknown)
    scoreless = state.scoreless_turns
    # RULES.md: exchanges count as scoreless turns for naspa/wespa, and break the
    # run of passes for classic.
    if state.ruleset.scoreless_end is ScorelessRule.SIX_SCORELESS:
        scoreless += 1
    else:
        scoreless = 0
    known_before = rack.known + revealed
    turns = list(state.turns)
    turns.append(
        Turn(
            version,
            player,
            TurnKind.EXCHANGE,
            cumulative=state.scores[player],
            rack=sort_tiles(known_before) if known_before else None,
            recorded_rack=event.rack,
            tiles=event.tiles,
            count=count,
        )
    )
    following, lost, scoreless = _advance(
        state, player, version, turns, state.scores, scoreless
    )
    pending_end = _scoreless_end(state, scoreless)
    return _evolve(
        state,
        racks=_set(state.racks, player, rack_after),
        bag=Bag(bag.count, pool),
        aside=Aside(player, sort_tiles(event.tiles), event.unknown),
        turn=following,
        lost_turns=lost,
        scoreless_turns=scoreless,
        version=version,
        turns=tuple(turns),
        last_play=None,
        pending_end=pending_end,
        pending_player=None,
    )


def _pass(state: GameState, event: TurnPassed, version: int) -> GameState:
    player = event.player
    _check_turn(state, player)
    bag = _settled_bag(state)
    rack = state.racks[player]
    _check_refilled(state, player, rack, bag)
    if event.rack is not None:
        _check_recorded_rack(state, player, event.rack, rack, bag.candidates)
    turns = list(state.turns)
    turns.append(
        Turn(
            version,
            player,
            TurnKind.PASS,
            cumulative=state.scores[player],
            rack=rack.known or None,
            recorded_rack=event.rack,
        )
    )
    following, lost, scoreless = _advance(
        state, player, version, turns, state.scores, state.scoreless_turns + 1
    )
    return _evolve(
        state,
        bag=bag,
        aside=None,
        turn=following,
        lost_turns=lost,
        scoreless_turns=scoreless,
        version=version,
        turns=tuple(turns),
        last_play=None,
        pending_end=_scoreless_end(state, scoreless),
        pending_player=None,
    )


def _draw(state: GameState, event: TilesDrawn, version: int) -> GameState:
    player = event.player
    _check_player(state, player)
    name = state.players[player]
    if state.end_reason is not None:
        raise GameOverError(f"The game is over: {name} cannot draw")
    count = len(event.tiles) + event.unknown
    if event.unknown < 0 or count == 0:
        raise InvalidEventError(f"{name}'s draw must take at least one tile")
    _check_letters(state, event.tiles, "the draw")
    aside = state.aside
    if aside is not None and aside.player != player:
        bag, aside = _settled_bag(state), None
    else:
        bag = state.bag
    rack = state.racks[player]
    size = state.ruleset.rack_size
    if rack.count + count > size:
        raise RackOverflowError(
            f"{name} holds {rack.count} tiles: drawing {count} would make "
            f"{rack.count + count}, and a rack holds {size}"
        )
    if count > bag.count:
        raise BagTooSmallError(
            f"{name} draws {count} tiles but the bag holds only {bag.count}"
        )
    pool = bag.candidates
    if event.tiles:
        drawn = sort_tiles(event.tiles)
        left = remove_tiles(pool, drawn)
        if left is None:
            raise TileUnavailableError(_undrawable(state, player, drawn, pool))
        pool = left
        rack = Rack(sort_tiles(rack.known + drawn), rack.unknown + event.unknown)
    else:
        rack = Rack(rack.known, rack.unknown + event.unknown)
    bag = Bag(bag.count - count, pool)
    state = _evolve(
        state,
        racks=_set(state.racks, player, rack),
        bag=bag,
        aside=aside,
        version=version,
    )
    if aside is not None and (rack.count == size or bag.count == 0):
        # RULES.md: the exchanged tiles go back once the new ones are drawn.
        state = _evolve(state, bag=_settled_bag(state), aside=None)
    return state


def _undrawable(state: GameState, player: int, drawn: str, pool: str) -> str:
    """Why ``drawn`` cannot come out of a bag whose candidates are ``pool``."""
    name = state.players[player]
    absent = difference(drawn, pool) or drawn
    aside = state.aside
    if aside is not None and aside.player == player:
        own = "".join(tile for tile in absent if tile in aside.tiles)
        if own:
            return (
                f"{name} cannot draw {drawn}: {own} would be tiles {name} just "
                "exchanged, which go back to the bag only after the draw"
            )
    return (
        f"{name} cannot draw {drawn}: {absent} cannot be in the bag (every such "
        "tile is on the board or on a known rack)"
    )


def _record_rack(state: GameState, event: RackRecorded, version: int) -> GameState:
    player = event.player
    _check_player(state, player)
    name = state.players[player]
    if state.end_reason is not None:
        raise GameOverError(
            f"The game is over: {name}'s rack is recorded with the end of the game"
        )
    rack = state.racks[player]
    pool = state.bag.candidates
    _check_recorded_rack(state, player, event.tiles, rack, pool)
    _, missing = split_known(rack.known, event.tiles)
    missing = sort_tiles(missing)
    left = remove_tiles(pool, missing)
    assert left is not None  # _check_recorded_rack found every tile unseen
    known = Rack(sort_tiles(rack.known + missing), rack.unknown - len(missing))
    return _evolve(
        state,
        racks=_set(state.racks, player, known),
        bag=Bag(state.bag.count, left),
        version=version,
    )


def _forget(state: GameState, event: RackForgotten, version: int) -> GameState:
    player = event.player
    _check_player(state, player)
    name = state.players[player]
    if state.end_reason is not None:
        raise GameOverError(f"The game is over: {name}'s tiles are settled")
    bag = state.bag
    if event.exchanged:
        aside = state.aside
        if aside is None or aside.player != player:
            raise InvalidEventError(f"{name} has no exchanged tiles set aside")
        return _evolve(
            state,
            aside=Aside(player, "", len(aside.tiles) + aside.unknown),
            bag=Bag(bag.count, sort_tiles(bag.candidates + aside.tiles)),
            version=version,
        )
    rack = state.racks[player]
    return _evolve(
        state,
        racks=_set(state.racks, player, Rack("", rack.count)),
        bag=Bag(bag.count, sort_tiles(bag.candidates + rack.known)),
        version=version,
    )


def _return(state: GameState, event: TilesReturned, version: int) -> GameState:
    player = event.player
    _check_player(state, player)
    name = state.players[player]
    if state.end_reason is not None:
        raise GameOverError(f"The game is over: {name} cannot return tiles to the bag")
    count = len(event.tiles) + event.unknown
    if event.unknown < 0 or count == 0:
        raise InvalidEventError(f"{name} must return at least one tile")
    _check_letters(state, event.tiles, "the tiles returned")
    bag = (
        state.bag
        if state.aside is None or state.aside.player == player
        else (_settled_bag(state))
    )
    rack = state.racks[player]
    if count > rack.count:
        raise TilesNotOnRackError(
            f"{name} returns {count} tiles but holds {rack.count}"
        )
    rack_after, pool, _ = _take(state, player, rack, bag.candidates, event.tiles)
    if event.unknown:
        # Which tiles went back is not recorded: the rest of the rack is unknown.
        if rack_after.known:
            pool += rack_after.known
        rack_after = Rack("", rack_after.count - event.unknown)
    return _evolve(
        state,
        racks=_set(state.racks, player, rack_after),
        bag=Bag(bag.count + count, sort_tiles(pool + event.tiles)),
        aside=state.aside if bag is state.bag else None,
        version=version,
    )


def _challenge(state: GameState, event: PlayChallenged, version: int) -> GameState:
    last = _challenged_play(state, event)
    _check_score(state, event.score, "A challenge's score")
    if event.outcome is ChallengeOutcome.PHONY:
        after = _withdraw_phony(state, event, last, version)
    else:
        after = _uphold_valid_play(state, event, last, version)
    if event.rack is not None:
        challenged = last.player
        _check_recorded_rack(
            state, challenged, event.rack, after.racks[challenged], state.bag.candidates
        )
    return after


def _challenged_play(state: GameState, event: PlayChallenged) -> LastPlay:
    """The play a challenge applies to, once the challenge is known to be allowed."""
    if state.end_reason is not None:
        raise GameOverError(
            "The game is over: its last play can no longer be challenged"
        )
    last = state.last_play
    if last is None or last.challenged:
        raise NoPlayToChallengeError(
            "There is no play to challenge: a challenge must follow the play it "
            "challenges, before the next turn"
        )
    challenger = event.challenger
    _check_player(state, challenger, "challenger")
    players = state.players
    if challenger == last.player:
        raise InvalidEventError(
            f"{players[challenger]} cannot challenge their own play"
        )
    if state.ruleset.challenge is ChallengeRule.VOID:
        raise ChallengesNotAllowedError(
            "This game has no challenges (void rule): a play stands as recorded"
        )
    formed_words = last_play_words(state)
    for word in event.words:
        if word.upper() not in formed_words:
            formed = ", ".join(formed_words)
            raise WordNotFormedError(
                f"{word.upper()} was not formed by {players[last.player]}'s play "
                f"(it formed {formed})"
            )
    return last


def _withdraw_phony(
    state: GameState, event: PlayChallenged, last: LastPlay, version: int
) -> GameState:
    """RULES.md: a phony's tiles go back to the rack and its score is removed."""
    challenged = last.player
    rack = state.racks[challenged]
    if rack.count != last.rack_after.count:
        raise DrawBeforeWithdrawalError(
            f"{state.players[challenged]} already drew after the play: record the "
            "withdrawal of the phony before the draw"
        )
    # Exactly the points the play was credited with come off: a recorded figure
    # that differs is reported and never credited (an old record's "-- +0" would
    # otherwise leave the phony's points on the score).
    computed = -last.score
    recorded = computed if event.score is None else event.score
    discrepancies = _flagged(
        state, version, challenged, "challenge", recorded, computed
    )
    scores = _add(state.scores, challenged, computed)
    returned = as_tiles("".join(tile for _, tile in last.new_tiles))
    rack = Rack(sort_tiles(rack.known + returned), rack.unknown)
    turns = list(state.turns)
    played = turns[last.turn_index]
    turns[last.turn_index] = _replace(played, withdrawn=True)
    turns.append(
        Turn(
            version,
            challenged,
            TurnKind.PHONY_WITHDRAWN,
            score=computed,
            cumulative=scores[challenged],
            computed=computed,
            rack=rack.known or None,
            recorded_rack=event.rack,
            position=played.position,
            word=played.word,
            words=played.words,
            tiles=returned,
            count=len(returned),
            detail=", ".join(event.words),
        )
    )
    # RULES.md: the withdrawn play counts as a scoreless turn, as if it had never
    # reset the run.
    scoreless = last.scoreless_before + 1
    return _evolve(
        state,
        board=last.board_before,
        racks=_set(state.racks, challenged, rack),
        scores=scores,
        scores_before_adjustments=scores,
        scoreless_turns=scoreless,
        pending_end=_scoreless_end(state, scoreless),
        pending_player=None,
        last_play=None,
        version=version,
        turns=tuple(turns),
        discrepancies=discrepancies,
    )


def _uphold_valid_play(
    state: GameState, event: PlayChallenged, last: LastPlay, version: int
) -> GameState:
    """A valid play stands; its effect follows the challenge rule (RULES.md)."""
    challenged, challenger = last.player, event.challenger
    credited, computed, kind = _valid_challenge_score(state, event)
    scores = _add(state.scores, challenged, credited)
    # RULES.md: under double challenge the challenger loses their next turn (none
    # is left when the play went out).
    loses_turn = (
        state.ruleset.challenge is ChallengeRule.DOUBLE and state.pending_end is None
    )
    lost_now = loses_turn and challenger == state.turn
    turns = list(state.turns)
    detail = ", ".join(event.words)
    if not lost_now or credited:
        # Under double challenge the lost turn is the line that records the
        # ruling, unless points were recorded for it too.
        turns.append(
            Turn(
                version,
                challenged,
                kind,
                score=credited,
                cumulative=scores[challenged],
                computed=computed,
                rack=state.racks[challenged].known or None,
                recorded_rack=event.rack,
                detail=detail,
            )
        )
    changes: dict[str, object] = {"last_play": _replace(last, challenged=True)}
    if lost_now:
        turns.append(
            Turn(
                version,
                challenger,
                TurnKind.LOST_TURN,
                cumulative=scores[challenger],
                rack=state.racks[challenger].known or None,
                detail=detail,
            )
        )
        following, lost, scoreless = _advance(
            state, challenger, version, turns, scores, state.scoreless_turns + 1
        )
        changes.update(
            turn=following,
            lost_turns=lost,
            scoreless_turns=scoreless,
            pending_end=_scoreless_end(state, scoreless),
            pending_player=None,
            last_play=None,
        )
    elif loses_turn:
        # The challenger is not next to act (more than two players): the turn is
        # lost when it comes round.
        pending = list(state.lost_turns or (0,) * len(state.players))
        pending[challenger] += 1
        changes["lost_turns"] = tuple(pending)
    return _evolve(
        state,
        scores=scores,
        scores_before_adjustments=scores,
        version=version,
        turns=tuple(turns),
        discrepancies=_flagged(
            state, version, challenged, "challenge", credited, computed
        ),
        **changes,
    )


def _valid_challenge_score(
    state: GameState, event: PlayChallenged
) -> tuple[int, int, TurnKind]:
    """The points for a valid play challenged: (credited, computed, the line's kind).

    A recorded bonus is credited as recorded (and reported when it differs).
    """
    per_word = state.ruleset.challenge_bonus
    recorded = event.score
    if not per_word:
        return (0 if recorded is None else recorded), 0, TurnKind.CHALLENGE
    computed = per_word * max(1, len(event.words))
    if (
        not event.words
        and recorded is not None
        and recorded > 0
        and recorded % per_word == 0
        and recorded <= per_word * len(last_play_words(state))
    ):
        # The words challenged were not recorded: a bonus for several words is as
        # right as one for a single word.
        computed = recorded
    credited = computed if recorded is None else recorded
    return credited, computed, TurnKind.CHALLENGE_BONUS


# Endings where the named player loses whatever the scores.
_LOSING_REASONS = (EndReason.RESIGNED, EndReason.FORFEIT, EndReason.TIMED_OUT)
# Endings the board decides, whose adjustments count the racks left.
_NATURAL_REASONS = (EndReason.WENT_OUT, EndReason.SCORELESS_TURNS)


def _end(state: GameState, event: GameEnded, version: int) -> GameState:
    _check_end(state, event)
    bag = _settled_bag(state)
    racks, pool = _end_racks(state, event, bag.candidates)
    computed = _end_adjustments(state, event, racks)
    count = len(state.players)
    if event.adjustments:
        if len(event.adjustments) != count:
            raise InvalidEventError(
                f"Give an adjustment for each of the {count} players"
            )
        credited = tuple(event.adjustments)
    else:
        credited = computed
    for points in (*event.adjustments, *event.final_scores):
        _check_score(state, points, "An end-of-game score")
    discrepancies = state.discrepancies + tuple(
        Discrepancy(version, player, "adjustment", credited[player], computed[player])
        for player in range(count)
        if credited[player] != computed[player]
    )
    scores = state.scores
    final = tuple(
        score + change for score, change in zip(scores, credited, strict=True)
    )
    lines = _end_lines(state, event, version, racks, credited, computed, final)
    loser = event.player if event.reason in _LOSING_REASONS else None
    outcome = decide(
        final, scores, ties_are_draws=state.ruleset.ties_are_draws, loser=loser
    )
    went_out = event.reason is EndReason.WENT_OUT
    return _evolve(
        state,
        racks=racks,
        bag=Bag(bag.count, pool),
        aside=None,
        scores=final,
        scores_before_adjustments=scores,
        adjustments=credited,
        version=version,
        turns=state.turns + lines,
        discrepancies=discrepancies,
        last_play=None,
        pending_end=None,
        pending_player=None,
        end_reason=event.reason,
        ended_by=state.pending_player if went_out else event.player,
        winner=outcome.winner,
        decided_by_tiebreak=outcome.decided_by_tiebreak,
    )


def _check_end(state: GameState, event: GameEnded) -> None:
    """Check the game may end now for the reason given, with the fields given."""
    players = state.players
    count = len(players)
    if state.end_reason is not None:
        raise GameOverError("The game has already ended")
    reason = event.reason
    if event.player is not None:
        _check_player(state, event.player)
    if reason is EndReason.WENT_OUT:
        if state.pending_end is not EndReason.WENT_OUT:
            raise EndReasonError(
                "Nobody has gone out: a player goes out by placing their last tile "
                "when the bag is empty"
            )
        if event.player is not None and event.player != state.pending_player:
            raise EndReasonError(
                f"{players[state.pending_player or 0]} went out, not "
                f"{players[event.player]}"
            )
    elif reason is EndReason.SCORELESS_TURNS:
        if state.pending_end is not EndReason.SCORELESS_TURNS:
            limit = state.ruleset.scoreless_limit(count)
            raise EndReasonError(
                f"There have been {state.scoreless_turns} consecutive scoreless turns; "
                f"{limit} end the game"
            )
    elif reason in _LOSING_REASONS and event.player is None:
        raise InvalidEventError(f"Say which player {reason.value.replace('_', ' ')}")
    if event.final_scores and reason not in (
        EndReason.ADJUDICATED,
        EndReason.DIRECTOR_DECISION,
    ):
        raise InvalidEventError(
            "Final scores are given only when a game is adjudicated or decided by "
            "the director"
        )
    if event.final_scores and len(event.final_scores) != count:
        raise InvalidEventError(f"Give a final score for each of the {count} players")


def _end_racks(
    state: GameState, event: GameEnded, pool: str
) -> tuple[tuple[Rack, ...], str]:
    """The racks left at the end, with those the event records checked and known.

    Returns the racks and the tiles that may still be unseen once they are known.
    """
    racks = list(state.racks)
    if not event.racks:
        return tuple(racks), pool
    count = len(state.players)
    if len(event.racks) != count:
        raise InvalidEventError(f"Give the rack left for each of the {count} players")
    for player, recorded in enumerate(event.racks):
        _check_letters(state, recorded, "the rack")
        rack = racks[player]
        name = state.players[player]
        if len(recorded) != rack.count:
            raise RackMismatchError(
                f"{name} holds {rack.count} tiles, not the {len(recorded)} of "
                f"{recorded or 'an empty rack'}"
            )
        left, missing = split_known(rack.known, recorded)
        if left:
            raise RackMismatchError(
                f"The rack {recorded} recorded for {name} at the end lacks "
                f"{left}, known to be on it"
            )
        if missing:
            pool_left = remove_tiles(pool, sort_tiles(missing))
            if pool_left is None:
                raise TileUnavailableError(
                    f"The rack {recorded} recorded for {name} at the end cannot "
                    f"be right: not every tile of {sort_tiles(missing)} can still "
                    "be unseen"
                )
            pool = pool_left
        racks[player] = Rack(sort_tiles(recorded), 0)
    return tuple(racks), pool


def _end_adjustments(
    state: GameState, event: GameEnded, racks: tuple[Rack, ...]
) -> tuple[int, ...]:
    """What the rules give each player at the end (RULES.md, "End of the game").

    Going out and a scoreless end count the racks left; a director's end moves the
    scores to the final scores given, if any, and otherwise changes nothing.
    """
    if event.reason in _NATURAL_REASONS:
        for player, rack in enumerate(racks):
            if rack.unknown:
                raise RackUnknownError(
                    f"The tiles left on {state.players[player]}'s rack are not "
                    "known: record them to end the game"
                )
        values = state.context.values
        rack_values = [rack_value(rack.known, values) for rack in racks]
        if event.reason is EndReason.WENT_OUT:
            goer = state.pending_player or 0
            return went_out_adjustments(goer, rack_values, state.ruleset.going_out)
        return scoreless_adjustments(rack_values)
    if event.final_scores:
        return tuple(
            final - score
            for final, score in zip(event.final_scores, state.scores, strict=True)
        )
    return (0,) * len(state.players)


def _end_lines(
    state: GameState,
    event: GameEnded,
    version: int,
    racks: tuple[Rack, ...],
    credited: tuple[int, ...],
    computed: tuple[int, ...],
    final: tuple[int, ...],
) -> tuple[Turn, ...]:
    """The score-sheet lines of the end: one per rack counted or score changed, or
    one line saying why the game ended when nothing changed."""
    count = len(state.players)

    def rack_line(player: int) -> Turn:
        return Turn(
            version,
            player,
            TurnKind.END_RACK,
            score=credited[player],
            cumulative=final[player],
            computed=computed[player],
            rack=racks[player].known or None,
            tiles=racks[player].known,
        )

    lines: list[Turn] = []
    reason = event.reason
    if reason is EndReason.WENT_OUT:
        goer = state.pending_player or 0
        others = [(goer + offset) % count for offset in range(1, count)]
        lines.append(
            Turn(
                version,
                goer,
                TurnKind.END_BONUS,
                score=credited[goer],
                cumulative=final[goer],
                computed=computed[goer],
                tiles="".join(racks[other].known for other in others),
            )
        )
        # Under "twice" the others' scores do not change: no line unless the
        # record gave them one.
        plus_minus = state.ruleset.going_out is GoingOutRule.PLUS_MINUS
        lines.extend(
            rack_line(player)
            for player in others
            if plus_minus or credited[player] or computed[player]
        )
    elif reason is EndReason.SCORELESS_TURNS:
        # Every rack counts, from the player who would have moved next.
        order = [(state.turn + offset) % count for offset in range(count)]
        lines.extend(rack_line(player) for player in order)
    else:
        lines.extend(
            Turn(
                version,
                player,
                TurnKind.ADJUDICATION,
                score=credited[player],
                cumulative=final[player],
                computed=computed[player],
                detail=reason.value,
            )
            for player in range(count)
            if credited[player]
        )
    if not lines:
        lines.append(
            Turn(
                version,
                event.player,
                TurnKind.GAME_ENDED,
                detail=reason.value,
                cumulative=final[event.player] if event.player is not None else 0,
            )
        )
    return tuple(lines)


def _rescored(
    state: GameState, scores: tuple[int, ...], before: tuple[int, ...]
) -> dict[str, object]:
    """The outcome fields after a score change to a finished game."""
    loser = state.ended_by if state.end_reason in _LOSING_REASONS else None
    outcome = decide(
        scores, before, ties_are_draws=state.ruleset.ties_are_draws, loser=loser
    )
    return {
        "winner": outcome.winner,
        "decided_by_tiebreak": outcome.decided_by_tiebreak,
    }


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


# Dispatch on the event's exact type: a dict lookup is the cheapest dispatch on the
# replay hot path (events are final classes, so no subclass lookup is needed).
_HANDLERS: dict[type, Callable[..., GameState]] = {
    TilesPlaced: _place,
    TilesDrawn: _draw,
    TilesReturned: _return,
    RackRecorded: _record_rack,
    RackForgotten: _forget,
    TilesExchanged: _exchange,
    TurnPassed: _pass,
    PlayChallenged: _challenge,
    GameEnded: _end,
    TimePenalty: _time_penalty,
    ScoreCorrected: _correct,
    NoteAdded: _note,
    NoteEdited: _edit_note,
    NoteDeleted: _delete_note,
    VisibilityChanged: _visibility,
}


def _add(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return (*values[:index], values[index] + amount, *values[index + 1 :])


def _set(values: tuple[Rack, ...], index: int, value: Rack) -> tuple[Rack, ...]:
    return (*values[:index], value, *values[index + 1 :])
