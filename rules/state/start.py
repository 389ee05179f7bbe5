"""The game's first event: ``GameStarted`` makes the initial state.

Usage (through ``apply``)::

    state = apply(None, GameStarted(players=("Ann", "Ben"), ruleset=ruleset()))
"""

from __future__ import annotations

from rules.board import EMPTY_SQUARES, Board
from rules.errors import (
    InvalidEventError,
)
from rules.events import (
    GameStarted,
)
from rules.state.values import Bag, GameState, Rack, RulesContext
from rules.tiles import (
    TileSet,
)
from rules.tilesets import TILE_SETS


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
