"""The events of a game: one frozen dataclass per fact a game records.

A game is a stream of events numbered 1, 2, 3… (its versions). The first is always
:class:`GameStarted`. Events record decisions, never computations: the tiles drawn
are in :class:`TilesDrawn` (replay never draws at random), a recorded score is kept
as recorded, a challenge's outcome is what the director ruled.

Players are numbers: 0 is the player who moved first, in the order of
``GameStarted.players``. Tiles are strings (``?`` a blank on a rack; a lower-case
letter a blank on the board).

Every field is JSON-encodable from its type hint alone (str, int, bool, ``X | None``,
``tuple[X, ...]``, a ``StrEnum`` or a nested frozen dataclass of the same), so
:func:`event_to_payload` / :func:`event_from_payload` give a lossless JSON form.

Usage::

    >>> event = TilesPlaced(player=0, position="8D", word="WINDY", score=32)
    >>> event_to_payload(event)
    {'player': 0, 'position': '8D', 'word': 'WINDY', 'score': 32, 'rack': None}
    >>> event_from_payload("tiles_placed", event_to_payload(event)) == event
    True
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.errors import PayloadError
from rules.ruleset import ChallengeRule, GoingOutRule, Ruleset, ScorelessRule
from rules.tiles import ENGLISH, TileKind, TileSet

__all__ = [
    "EVENT_TYPES",
    "ChallengeOutcome",
    "ChallengeRule",
    "EndReason",
    "Event",
    "EventsSuperseded",
    "GameEnded",
    "GameStarted",
    "GoingOutRule",
    "NoteAdded",
    "PlayChallenged",
    "RackForgotten",
    "RackRecorded",
    "Ruleset",
    "ScoreCorrected",
    "ScorelessRule",
    "TileKind",
    "TileSet",
    "TilesDrawn",
    "TilesExchanged",
    "TilesPlaced",
    "TilesReturned",
    "TimePenalty",
    "TurnPassed",
    "event_from_payload",
    "event_to_payload",
]


class ChallengeOutcome(enum.StrEnum):
    """How a challenge was ruled."""

    PHONY = "phony"  # a word is not acceptable: the play is withdrawn
    VALID = "valid"  # every challenged word is acceptable: the play stands


class EndReason(enum.StrEnum):
    """Why a game ended."""

    WENT_OUT = "went_out"
    SCORELESS_TURNS = "scoreless_turns"
    RESIGNED = "resigned"
    FORFEIT = "forfeit"
    TIMED_OUT = "timed_out"
    ADJUDICATED = "adjudicated"
    DIRECTOR_DECISION = "director_decision"


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every game event; ``type_name`` is its stable stored name."""

    type_name: ClassVar[str] = "event"


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The game began: the players in turn order, the rules and the tiles."""

    type_name: ClassVar[str] = "game_started"

    players: tuple[str, ...]
    ruleset: Ruleset
    tile_set: TileSet = ENGLISH
    lexicon: str | None = None


@dataclass(frozen=True, slots=True)
class TilesDrawn(Event):
    """A player drew tiles from the bag.

    ``tiles`` are the tiles known to have been drawn; ``unknown`` counts the further
    tiles drawn whose letters were not recorded. A draw happens at the start (to fill
    the racks) and after the player's placement or exchange.
    """

    type_name: ClassVar[str] = "tiles_drawn"

    player: int
    tiles: str = ""
    unknown: int = 0


@dataclass(frozen=True, slots=True)
class TilesReturned(Event):
    """A player put tiles from their rack back in the bag: the correction of an
    overdraw (more tiles drawn than the rack holds).

    ``tiles`` are the tiles known to have gone back, ``unknown`` counts further ones
    whose letters were not recorded.
    """

    type_name: ClassVar[str] = "tiles_returned"

    player: int
    tiles: str = ""
    unknown: int = 0


@dataclass(frozen=True, slots=True)
class RackRecorded(Event):
    """A player's rack was seen and recorded: ``tiles`` are on it.

    The tiles not yet known to be on the rack become known (they were among its
    unrecorded tiles); nothing is drawn. A GCG record's ``#rack1``/``#rack2`` lines
    (the racks at the end of an unfinished game) are read as this event.
    """

    type_name: ClassVar[str] = "rack_recorded"

    player: int
    tiles: str


@dataclass(frozen=True, slots=True)
class RackForgotten(Event):
    """What was inferred about a player's tiles is withdrawn: they become unrecorded.

    With ``exchanged``, it is the letters of the player's exchange still set aside
    (typed as placeholders in a record); otherwise it is the tiles known on the
    player's rack. A GCG reader infers racks from the racks recorded later, and
    withdraws an inference that a later record contradicts rather than refuse the
    record (only the board is certain). It adds no fact and removes no tile.
    """

    type_name: ClassVar[str] = "rack_forgotten"

    player: int
    exchanged: bool = False


@dataclass(frozen=True, slots=True)
class TilesPlaced(Event):
    """A player placed tiles.

    ``position`` is a GCG coordinate (``8D`` across from D8, ``D8`` down from D8),
    which gives the direction; ``word`` is the whole main word, ``.`` for a tile
    already on the board, a lower-case letter for a blank. ``score`` is the score
    recorded for the play, when one was (it is kept even when the rules give another
    one, and the difference is reported). ``rack`` is the rack recorded before the
    play, possibly partial: a record, checked but not used to infer tiles.
    """

    type_name: ClassVar[str] = "tiles_placed"

    player: int
    position: str
    word: str
    score: int | None = None
    rack: str | None = None


@dataclass(frozen=True, slots=True)
class TilesExchanged(Event):
    """A player exchanged tiles: ``tiles`` known, plus ``unknown`` unrecorded ones.

    The replacement tiles come in the :class:`TilesDrawn` that follows; the exchanged
    tiles go back to the bag once they are drawn (RULES.md, "A turn").
    """

    type_name: ClassVar[str] = "tiles_exchanged"

    player: int
    tiles: str = ""
    unknown: int = 0
    rack: str | None = None


@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    """A player passed (under double challenge, also how GCG records a lost turn)."""

    type_name: ClassVar[str] = "turn_passed"

    player: int
    rack: str | None = None


@dataclass(frozen=True, slots=True)
class PlayChallenged(Event):
    """The play just recorded was challenged, with the ruling.

    ``words`` are the words challenged (empty when not recorded). ``score`` is the
    recorded score change for the challenged player, when one was recorded: minus the
    play's score for a withdrawn phony, the bonus for a valid play under the
    five- and ten-point rules. ``rack`` is the challenged player's rack as recorded
    after the ruling. The effect follows the ruleset (RULES.md, "Challenges").
    """

    type_name: ClassVar[str] = "play_challenged"

    challenger: int
    outcome: ChallengeOutcome
    words: tuple[str, ...] = ()
    score: int | None = None
    rack: str | None = None


@dataclass(frozen=True, slots=True)
class TimePenalty(Event):
    """A player went over time: ``minutes`` started minutes, recorded after the end.

    ``score`` is the penalty as recorded (negative), when one was.
    """

    type_name: ClassVar[str] = "time_penalty"

    player: int
    minutes: int
    score: int | None = None


@dataclass(frozen=True, slots=True)
class ScoreCorrected(Event):
    """A director corrected a player's score by ``amount`` points."""

    type_name: ClassVar[str] = "score_corrected"

    player: int
    amount: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game ended.

    ``player`` is the player who went out, resigned, forfeited or ran out of time
    (None otherwise). ``racks`` are the racks left, one per player, as recorded
    (empty when the state knows them). ``adjustments`` are the end-of-game rack
    adjustments as recorded, one per player (empty: the rules compute them; a
    recorded one that differs is kept and reported). ``final_scores`` are given for
    an adjudication or a director's decision.
    """

    type_name: ClassVar[str] = "game_ended"

    reason: EndReason
    player: int | None = None
    racks: tuple[str, ...] = ()
    adjustments: tuple[int, ...] = ()
    final_scores: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class NoteAdded(Event):
    """An annotation on the turn recorded at ``target_version``; it changes nothing."""

    type_name: ClassVar[str] = "note_added"

    target_version: int
    text: str


@dataclass(frozen=True, slots=True)
class EventsSuperseded(Event):
    """A director's correction: every earlier event from ``from_version`` on is void.

    Replay continues from the state before ``from_version``. The game's start cannot
    be superseded, so ``from_version`` is at least 2.
    """

    type_name: ClassVar[str] = "events_superseded"

    from_version: int
    reason: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type_name: cls
    for cls in (
        GameStarted,
        TilesDrawn,
        TilesReturned,
        RackRecorded,
        RackForgotten,
        TilesPlaced,
        TilesExchanged,
        TurnPassed,
        PlayChallenged,
        TimePenalty,
        ScoreCorrected,
        GameEnded,
        NoteAdded,
        EventsSuperseded,
    )
}

# --- JSON payload codec ----------------------------------------------------------
#
# Driven by the type hints alone, so a new event or field needs no codec code. A
# per-class plan is built once: the hot path of a store decoding thousands of events
# does no reflection.

_Codec = tuple[Any, Any]  # (encode, decode) functions
_PLANS: dict[type, list[tuple[str, _Codec]]] = {}


def _codec_for(hint: Any, where: str) -> _Codec:
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(options) != 1:
            raise TypeError(f"{where}: only `X | None` unions are supported")
        inner_encode, inner_decode = _codec_for(options[0], where)

        def encode_optional(value: Any) -> Any:
            return None if value is None else inner_encode(value)

        def decode_optional(value: Any) -> Any:
            return None if value is None else inner_decode(value)

        return encode_optional, decode_optional
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) != 2 or args[1] is not Ellipsis:
            raise TypeError(f"{where}: only tuple[X, ...] is supported")
        item_encode, item_decode = _codec_for(args[0], where)

        def encode_tuple(value: Any) -> Any:
            return [item_encode(item) for item in value]

        def decode_tuple(value: Any) -> Any:
            if not isinstance(value, list | tuple):
                raise PayloadError(f"{where}: expected a list, got {value!r}")
            return tuple(item_decode(item) for item in value)

        return encode_tuple, decode_tuple
    if hint is bool:

        def decode_bool(value: Any) -> Any:
            if not isinstance(value, bool):
                raise PayloadError(f"{where}: expected true or false, got {value!r}")
            return value

        return _identity, decode_bool
    if hint is int:

        def decode_int(value: Any) -> Any:
            if isinstance(value, bool) or not isinstance(value, int):
                raise PayloadError(f"{where}: expected an integer, got {value!r}")
            return value

        return _identity, decode_int
    if hint is str:

        def decode_str(value: Any) -> Any:
            if not isinstance(value, str):
                raise PayloadError(f"{where}: expected a string, got {value!r}")
            return value

        return _identity, decode_str
    if isinstance(hint, type) and issubclass(hint, enum.StrEnum):
        enum_type = hint

        def encode_enum(value: Any) -> Any:
            return str(value.value)

        def decode_enum(value: Any) -> Any:
            try:
                return enum_type(value)
            except ValueError:
                choices = ", ".join(member.value for member in enum_type)
                raise PayloadError(
                    f"{where}: {value!r} is not one of {choices}"
                ) from None

        return encode_enum, decode_enum
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        nested = hint
        return (
            lambda value: _encode_dataclass(value),
            lambda value: _decode_dataclass(nested, value, where),
        )
    raise TypeError(f"{where}: type {hint!r} cannot be stored as JSON")


def _identity(value: Any) -> Any:
    return value


def _plan(cls: type) -> list[tuple[str, _Codec]]:
    plan = _PLANS.get(cls)
    if plan is None:
        hints = typing.get_type_hints(cls)
        plan = [
            (field.name, _codec_for(hints[field.name], f"{cls.__name__}.{field.name}"))
            for field in dataclasses.fields(cls)
        ]
        _PLANS[cls] = plan
    return plan


def _encode_dataclass(value: Any) -> dict[str, Any]:
    return {
        name: encode(getattr(value, name)) for name, (encode, _) in _plan(type(value))
    }


def _decode_dataclass(cls: type, payload: Any, where: str) -> Any:
    if not isinstance(payload, dict):
        raise PayloadError(f"{where}: expected an object, got {payload!r}")
    plan = _plan(cls)
    known = {name for name, _ in plan}
    extra = set(payload) - known
    if extra:
        raise PayloadError(f"{where}: unknown fields {', '.join(sorted(extra))}")
    values = {}
    for name, (_, decode) in plan:
        if name in payload:
            values[name] = decode(payload[name])
    try:
        return cls(**values)
    except TypeError as error:
        raise PayloadError(f"{where}: {error}") from None


def event_to_payload(event: Event) -> dict[str, Any]:
    """Encode an event's fields as a JSON-safe dict (its type: ``event.type_name``)."""
    return _encode_dataclass(event)


def event_from_payload(type_name: str, payload: dict[str, Any]) -> Event:
    """Decode an event from its type name and payload (the inverse of
    :func:`event_to_payload`).

    Raises :class:`PayloadError` when the type is unknown or the payload does not fit
    it (a missing required field, an unknown field, a value of the wrong type).
    """
    cls = EVENT_TYPES.get(type_name)
    if cls is None:
        raise PayloadError(f"Unknown event type {type_name!r}")
    event: Event = _decode_dataclass(cls, payload, type_name)
    return event
