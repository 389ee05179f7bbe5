"""Properties of the engine over random legal games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.gcg import read, write
from rules.ruleset import ruleset
from rules.state import GameState, apply, replay
from rules.tilesets import TILE_SETS
from tests.rules_tests.gamegen import GameOptions, random_game

GAMES_SETTINGS = settings(max_examples=40, deadline=None)


def _conserved(state: GameState) -> None:
    tiles = [
        "?" if tile.islower() else tile for tile in state.board.squares if tile != "."
    ]
    for rack in state.racks:
        tiles.extend(rack.known)
    if state.aside is not None:
        tiles.extend(state.aside.tiles)
    tiles.extend(state.bag.candidates)
    assert sorted(tiles) == sorted(state.tile_set.tiles())
    unknown = sum(rack.unknown for rack in state.racks)
    aside_unknown = state.aside.unknown if state.aside is not None else 0
    assert len(state.bag.candidates) == state.bag.count + unknown + aside_unknown
    assert all(rack.count <= state.ruleset.rack_size for rack in state.racks)


TILE_SET_NAMES = st.sampled_from(sorted(TILE_SETS))


@GAMES_SETTINGS
@given(
    rng=st.randoms(use_true_random=False),
    players=st.integers(2, 4),
    known=st.booleans(),
    tiles=TILE_SET_NAMES,
)
def test_tiles_are_conserved_after_every_event(rng, players, known, tiles):
    """Bag, racks (known tiles and unknown counts) and board always make up the
    tile set, whatever legal events happened, under every tile set."""
    events = random_game(
        random.Random(rng.random()),
        players=players,
        options=GameOptions(known_draws=known),
        tile_set=TILE_SETS[tiles],
    )
    state = None
    for version, event in enumerate(events, start=1):
        state = apply(state, event, version=version)
        _conserved(state)


@GAMES_SETTINGS
@given(rng=st.randoms(use_true_random=False))
def test_replay_is_deterministic(rng):
    """Replaying the same events twice gives equal states (after a round trip
    through the store's codec too: tests/games_tests/test_codec.py)."""
    events = random_game(random.Random(rng.random()))
    first = replay(events)
    assert replay(events) == first
    for player, score in enumerate(first.scores):
        own = [turn for turn in first.turns if turn.player == player]
        assert own[-1].cumulative == score


@GAMES_SETTINGS
@given(rng=st.randoms(use_true_random=False), tiles=TILE_SET_NAMES)
def test_write_then_read_keeps_the_game(rng, tiles):
    """Writing a game as GCG and reading it back keeps its board, racks, scores and
    winner under every tile set; and read∘write is the identity on events that came
    from a GCG record."""
    chosen = ruleset(rng.choice(["classic", "naspa", "wespa"]))
    events = random_game(
        random.Random(rng.random()), rules=chosen, tile_set=TILE_SETS[tiles]
    )
    original = replay(events)
    first = read(write(events), rules=chosen)
    assert first.state.board == original.board
    assert first.state.scores == original.scores
    assert first.state.racks == original.racks
    assert first.state.end_reason == original.end_reason
    assert first.state.winner == original.winner
    assert first.state.tile_set == original.tile_set
    assert first.discrepancies == []
    second = read(write(first.events, first.metadata), rules=chosen)
    assert second.events == first.events
    assert second.metadata == first.metadata
