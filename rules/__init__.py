"""The rules of Scrabble as pure Python: tiles, board, moves, scoring, game state.

Standard library only; no I/O beyond what a caller hands in. The main API::

    from rules import GameStarted, TilesDrawn, TilesPlaced, apply, replay

    state = replay(events)          # raises RulesError for an illegal stream
    state.scores, state.board, state.turns

GCG records are in :mod:`rules.gcg` (not imported here, so that
``python -m rules.gcg`` runs it once), word lists in :mod:`rules.lexicon`, the
ruleset presets in :mod:`rules.ruleset` (its ``ruleset()`` function is not
re-exported, so that ``rules.ruleset`` stays the module).
"""

from __future__ import annotations

# isort: off
# First: whether the imports below load the compiled modules (rules/compiled.py).
from rules.compiled import ACTIVE as COMPILED

# isort: on
from rules.board import Board, Direction, Position
from rules.errors import RulesError
from rules.events import (
    EVENT_TYPES,
    ChallengeOutcome,
    EndReason,
    Event,
    EventsSuperseded,
    GameEnded,
    GameStarted,
    NoteAdded,
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
)
from rules.ruleset import ChallengeRule, GoingOutRule, Ruleset, ScorelessRule
from rules.state import (
    GameState,
    Turn,
    TurnKind,
    apply,
    bag_count,
    effective_events,
    replay,
    unseen_tiles,
    validate_append,
)
from rules.tiles import ENGLISH, TileKind, TileSet

__all__ = [
    "COMPILED",
    "ENGLISH",
    "EVENT_TYPES",
    "Board",
    "ChallengeOutcome",
    "ChallengeRule",
    "Direction",
    "EndReason",
    "Event",
    "EventsSuperseded",
    "GameEnded",
    "GameStarted",
    "GameState",
    "GoingOutRule",
    "NoteAdded",
    "PlayChallenged",
    "Position",
    "RackForgotten",
    "RackRecorded",
    "RulesError",
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
    "Turn",
    "TurnKind",
    "TurnPassed",
    "apply",
    "bag_count",
    "effective_events",
    "replay",
    "unseen_tiles",
    "validate_append",
]
