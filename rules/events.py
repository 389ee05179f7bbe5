"""The events of a game: one frozen dataclass per fact a game records.

A game is a stream of events numbered 1, 2, 3… (its versions). The first is always
:class:`GameStarted`. Events record decisions, never computations: the tiles drawn
are in :class:`TilesDrawn` (replay never draws at random), a recorded score is kept
as recorded, a challenge's outcome is what the director ruled.

Players are numbers: 0 is the player who moved first, in the order of
``GameStarted.players``. Tiles are strings (``?`` a blank on a rack; a lower-case
letter a blank on the board).

Every field is JSON-encodable from its type hint alone (str, int, bool, ``X | None``,
``tuple[X, ...]``, a ``StrEnum`` or a nested frozen dataclass of the same): the event
store's codec (``games.eventstore.codec``) stores them by ``type_name`` as lossless
JSON, with no code per event.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from rules.errors import LimitExceededError, TooManyNotesError
from rules.ruleset import ChallengeRule, GoingOutRule, Ruleset, ScorelessRule
from rules.tiles import ENGLISH, TileKind, TileSet

__all__ = [
    "EVENT_TYPES",
    "MAX_NOTES_PER_GAME",
    "MAX_NOTE_LENGTH",
    "MAX_PLAYER_NAME_LENGTH",
    "MAX_REASON_LENGTH",
    "ChallengeOutcome",
    "ChallengeRule",
    "EndReason",
    "Event",
    "EventsSuperseded",
    "GameEnded",
    "GameStarted",
    "GoingOutRule",
    "NoteAdded",
    "NoteDeleted",
    "NoteEdited",
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
    "Visibility",
    "VisibilityChanged",
    "admit",
    "admit_note",
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
class NoteEdited(Event):
    """The note added at ``note_version`` now reads ``text`` (the author's edit).

    The note keeps its place and its identity (the version that added it); the
    earlier text stays in the log.
    """

    type_name: ClassVar[str] = "note_edited"

    note_version: int
    text: str


@dataclass(frozen=True, slots=True)
class NoteDeleted(Event):
    """The note added at ``note_version`` is withdrawn (it stays in the log)."""

    type_name: ClassVar[str] = "note_deleted"

    note_version: int


class Visibility(enum.StrEnum):
    """Who may read a game that belongs to no tournament."""

    PRIVATE = "private"  # its owner only
    LINK = "link"  # its owner, and whoever has its secret link
    PUBLIC = "public"  # anyone


@dataclass(frozen=True, slots=True)
class VisibilityChanged(Event):
    """The owner of a casual game changed who may read it.

    Not a rule of the game: replay changes nothing for it. The games app reads the
    latest one in the stream, superseded or not (an undone move does not
    unpublish a game).
    """

    type_name: ClassVar[str] = "visibility_changed"

    visibility: Visibility


@dataclass(frozen=True, slots=True)
class EventsSuperseded(Event):
    """A director's correction: every earlier event from ``from_version`` on is void.

    Replay continues from the state before ``from_version``. The game's start cannot
    be superseded, so ``from_version`` is at least 2.
    """

    type_name: ClassVar[str] = "events_superseded"

    from_version: int
    reason: str


# --- Limits on new events ------------------------------------------------------------
# Checked by ``admit`` when an event is appended (the API's serializers cite the same
# numbers), never on a replay: a log keeps what earlier versions accepted.
MAX_NOTE_LENGTH = 4000
MAX_REASON_LENGTH = 500
MAX_PLAYER_NAME_LENGTH = 100
# A game's notes: one on every turn of a long game is about 50, a teaching game's
# a few a turn; 500 is far above both. Beyond it the viewer and the GCG export of
# one game grow without bound (a public game of 15,000 notes, issue 30).
MAX_NOTES_PER_GAME = 500


def admit(event: Event) -> None:
    """Raise LimitExceededError when `event` is larger than a new event may be."""
    limits: list[tuple[str, int, str]] = []
    if isinstance(event, (NoteAdded, NoteEdited)):
        limits = [("text", MAX_NOTE_LENGTH, "A note")]
    elif isinstance(event, (ScoreCorrected, EventsSuperseded)):
        limits = [("reason", MAX_REASON_LENGTH, "A reason")]
    elif isinstance(event, GameStarted):
        for name in event.players if isinstance(event.players, tuple) else ():
            if isinstance(name, str) and len(name) > MAX_PLAYER_NAME_LENGTH:
                raise LimitExceededError(
                    f"A player's name may be at most {MAX_PLAYER_NAME_LENGTH} "
                    f"characters; {name[:20]!r}… has {len(name)}.",
                    "players",
                )
    for field, limit, what in limits:
        value = getattr(event, field)
        if isinstance(value, str) and len(value) > limit:
            raise LimitExceededError(
                f"{what} may be at most {limit:,} characters; this one has "
                f"{len(value):,}.",
                field,
            )


def admit_note(notes_in_game: int) -> None:
    """Raise TooManyNotesError when a game holding `notes_in_game` notes may take no
    more (checked as a note is added, never on a replay)."""
    if notes_in_game >= MAX_NOTES_PER_GAME:
        raise TooManyNotesError(
            f"A game may hold at most {MAX_NOTES_PER_GAME:,} notes; this one has "
            f"{notes_in_game:,}.",
            "text",
        )


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
        NoteEdited,
        NoteDeleted,
        VisibilityChanged,
        EventsSuperseded,
    )
}
