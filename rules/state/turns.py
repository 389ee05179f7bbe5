"""Handlers for a player's turn: a placement, an exchange, a pass.

A placement is located and scored (``rules.moves``, ``rules.scoring``) and the
tiles leave the rack; ``placed_score`` is that scoring on its own, for a preview.

Usage (through ``apply``)::

    state = apply(state, TilesPlaced(player=0, position="8D", direction="across",
                                     tiles="CAT"))
"""

from __future__ import annotations

from rules.board import Board, Position
from rules.errors import (
    ExchangeNotAllowedError,
    InvalidEventError,
    TilesNotOnRackError,
)
from rules.events import (
    EndReason,
    TilesExchanged,
    TilesPlaced,
    TurnPassed,
)
from rules.moves import PLAYED_THROUGH, LocatedPlay, locate
from rules.ruleset import ScorelessRule
from rules.scoring import PlayScore, score_play
from rules.state.steps import (
    _add,
    _advance,
    _check_letters,
    _check_recorded_rack,
    _check_refilled,
    _check_score,
    _check_turn,
    _evolve,
    _flagged,
    _scoreless_end,
    _set,
    _settled_bag,
    _take,
)
from rules.state.values import Aside, Bag, GameState, LastPlay, Rack, Turn, TurnKind
from rules.tiles import (
    sort_tiles,
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
    bag, rack = _check_placement(state, event)
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
    word = _canonical_word(event.word, located)
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


def _check_placement(state: GameState, event: TilesPlaced) -> tuple[Bag, Rack]:
    """Check that the placing player may play now, with a plausible score and
    recorded rack; return the settled bag and their rack."""
    player = event.player
    _check_turn(state, player)
    bag = _settled_bag(state)
    rack = state.racks[player]
    _check_refilled(state, player, rack, bag)
    _check_score(state, event.score, "A score")
    if event.rack is not None:
        _check_recorded_rack(state, player, event.rack, rack, bag.candidates)
    return bag, rack


def _canonical_word(word: str, located: LocatedPlay) -> str:
    """Return the word as written, with '.' for every played-through tile."""
    new_tiles = located.new_tiles
    if len(word) - word.count(PLAYED_THROUGH) == len(new_tiles):
        return word
    # Letters written for played-through tiles: keep the canonical '.' form.
    new_index = dict(new_tiles)
    step = located.step
    return "".join(
        new_index.get(located.start + offset * step, PLAYED_THROUGH)
        for offset in range(located.length)
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
