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

The package holds one module per part: ``values`` (the state's values), ``steps``
(what every handler shares), ``start``, ``turns``, ``racks``, ``challenges``,
``ending`` and ``corrections`` (the handlers, by event), and ``replay`` (``apply``,
``replay``, ``validate_append``). This module re-exports their public names.

Usage::

    state = replay(events)
    state.scores, state.turn, state.board
    state = validate_append(events, [new_event])   # raises RulesError if illegal
"""

from __future__ import annotations

from rules.state.replay import apply, effective_events, replay, validate_append
from rules.state.turns import placed_score
from rules.state.values import (
    Aside,
    Bag,
    Discrepancy,
    GameState,
    LastPlay,
    Note,
    Rack,
    RulesContext,
    Turn,
    TurnKind,
    WordList,
    bag_count,
    last_play_words,
    unseen_tiles,
)

__all__ = [
    "Aside",
    "Bag",
    "Discrepancy",
    "GameState",
    "LastPlay",
    "Note",
    "Rack",
    "RulesContext",
    "Turn",
    "TurnKind",
    "WordList",
    "apply",
    "bag_count",
    "effective_events",
    "last_play_words",
    "placed_score",
    "replay",
    "unseen_tiles",
    "validate_append",
]
