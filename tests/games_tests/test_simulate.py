"""The game simulator behind the demo and the benchmark."""

from __future__ import annotations

import random

import pytest

from games.simulate import Plan, simulate_game
from rules import state as rs
from rules.movegen import WordGraph
from rules.ruleset import ruleset
from rules.tiles import ENGLISH, sort_tiles


@pytest.fixture(scope="module")
def graph():
    from games.simulate import english_word_graph

    return english_word_graph()


def test_a_simulated_game_replays_to_its_own_state(graph):
    game = simulate_game(("Ann", "Ben"), ruleset("classic"), graph, random.Random(1))
    assert game.state.game_over
    replayed = rs.replay(game.events)
    assert replayed.scores == game.state.scores
    assert replayed.winner == game.state.winner


def test_every_tile_is_accounted_for_at_the_end(graph):
    game = simulate_game(("Ann", "Ben"), ruleset("naspa"), graph, random.Random(2))
    state = game.state
    on_board = "".join(
        "?" if ch.islower() else ch for ch in "".join(state.board.rows()) if ch != "."
    )
    racks = "".join(rack.known for rack in state.racks)
    assert all(rack.unknown == 0 for rack in state.racks)
    assert sort_tiles(on_board + racks + state.bag.candidates) == sort_tiles(
        ENGLISH.tiles()
    )


def test_the_same_seed_gives_the_same_game(graph):
    first = simulate_game(("A", "B"), ruleset("classic"), graph, random.Random("x"))
    second = simulate_game(("A", "B"), ruleset("classic"), graph, random.Random("x"))
    assert first.events == second.events


def test_a_staged_phony_is_withdrawn(graph):
    plan = Plan(phony_at_turn=5, notes=True)
    game = simulate_game(("A", "B"), ruleset("classic"), graph, random.Random(0), plan)
    kinds = [turn.kind for turn in game.state.turns]
    assert rs.TurnKind.PHONY_WITHDRAWN in kinds
    withdrawn = next(t for t in game.state.turns if t.withdrawn)
    assert game.phony_word
    assert any(word.word.upper() not in graph for word in withdrawn.words)


def test_placements_use_only_words_of_the_list():
    words = ["AT", "TA", "CAT", "ACT", "TAT", "AA"]
    tiny = WordGraph.from_words(words)
    game = simulate_game(("A", "B"), ruleset("classic"), tiny, random.Random(3))
    for turn in game.state.turns:
        if turn.kind is rs.TurnKind.PLACEMENT:
            assert all(word.word.upper() in words for word in turn.words)
