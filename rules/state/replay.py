"""``apply``, ``replay`` and ``validate_append``: a game as the fold of its events.

``apply`` dispatches an event to its handler by its exact type; ``replay`` first
resolves the director's corrections (``effective_events``), then folds;
``validate_append`` checks new events against a stream before they are stored.

Usage::

    state = replay(events)
    state = validate_append(events, [new_event])   # raises RulesError if illegal
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from rules.errors import (
    GameAlreadyStartedError,
    GameNotStartedError,
    InvalidEventError,
    PhonyRefusedError,
    ReplayRequiredError,
    RulesError,
    SupersedeError,
)
from rules.events import (
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
from rules.ruleset import ChallengeRule
from rules.state.challenges import _challenge
from rules.state.corrections import (
    _correct,
    _delete_note,
    _edit_note,
    _note,
    _time_penalty,
    _visibility,
)
from rules.state.ending import _end
from rules.state.racks import _draw, _forget, _record_rack, _return
from rules.state.start import _start
from rules.state.steps import _evolve
from rules.state.turns import _exchange, _pass, _place
from rules.state.values import GameState, WordList


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
