"""The steps every game-event handler shares: copy a state, check a turn, take
tiles from a rack, advance to the next player, check a score.

Copying is on the replay's hot path (``_evolve``: twice as fast as
``dataclasses.replace``); the checks raise the ``RulesError`` subclass a director
can act on.

Usage::

    _check_turn(state, event.player)
    return _evolve(state, racks=racks, version=version)
"""

from __future__ import annotations

import dataclasses
import operator
from functools import cache

from rules.errors import (
    GameOverError,
    ImpossibleScoreError,
    InvalidEventError,
    OutOfTurnError,
    RackMismatchError,
    RackNotRefilledError,
    TilesNotOnRackError,
    TileUnavailableError,
)
from rules.events import (
    EndReason,
)
from rules.scoring import score_limit
from rules.state.values import Bag, Discrepancy, GameState, Rack, Turn, TurnKind
from rules.tiles import (
    TileSet,
    remove_tiles,
    sort_tiles,
    split_known,
    tile_values,
)

_replace = dataclasses.replace


def _evolve(state: GameState, **changes: object) -> GameState:
    """Copy a state with some fields changed.

    ``dataclasses.replace`` re-runs ``__init__`` through keyword arguments, which
    measured as the largest single cost of replay; reading every field at once and
    calling the class with them in order skips the keyword matching. (Writing the
    slots through their descriptors on an ``object.__new__`` copy was as fast in
    pure Python, but a class compiled by mypyc must be made by its own constructor:
    README, "The compiled rules core".)
    """
    values = list(_read_all(state))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return GameState(*values)


_STATE_FIELDS = tuple(item.name for item in dataclasses.fields(GameState))
_FIELD_INDEX = {name: index for index, name in enumerate(_STATE_FIELDS)}
_read_all = operator.attrgetter(*_STATE_FIELDS)


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


def _add(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return (*values[:index], values[index] + amount, *values[index + 1 :])


def _set(values: tuple[Rack, ...], index: int, value: Rack) -> tuple[Rack, ...]:
    return (*values[:index], value, *values[index + 1 :])
