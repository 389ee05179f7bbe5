"""Handlers for tiles moving between bag and racks: draws, recorded and forgotten
racks, tiles returned to the bag.

Usage (through ``apply``)::

    state = apply(state, TilesDrawn(player=0, tiles="AEINRST"))
    state = apply(state, RackRecorded(player=1, rack="DINNVWY"))
"""

from __future__ import annotations

from rules.errors import (
    BagTooSmallError,
    GameOverError,
    InvalidEventError,
    RackOverflowError,
    TilesNotOnRackError,
    TileUnavailableError,
)
from rules.events import (
    RackForgotten,
    RackRecorded,
    TilesDrawn,
    TilesReturned,
)
from rules.state.steps import (
    _check_letters,
    _check_player,
    _check_recorded_rack,
    _evolve,
    _set,
    _settled_bag,
    _take,
)
from rules.state.values import Aside, Bag, GameState, Rack
from rules.tiles import (
    difference,
    remove_tiles,
    sort_tiles,
    split_known,
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
