"""Simulate realistic games, move by move, for the demo data and the benchmark.

A simulated game is a list of ``rules`` events exactly as a director would record
them: the opening racks and every later draw as ``TilesDrawn`` (drawn here with a
seeded random generator, so the same seed gives the same game), placements found by
``rules.movegen`` over a real word list, exchanges, passes, challenges and the end.
Nothing here is trusted: the events are applied through ``rules.state`` as they are
made, and the store validates them again when they are appended.

Usage::

    graph = english_word_graph()
    game = simulate_game(("Ann", "Ben"), ruleset("classic"), graph, random.Random(7))
    game.events, game.state.final_scores
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from rules import events as ev
from rules import state as rs
from rules.board import Position
from rules.errors import RulesError
from rules.movegen import Placement, WordGraph, generate
from rules.moves import locate
from rules.ruleset import Ruleset


@lru_cache(maxsize=1)
def english_word_graph() -> WordGraph:
    """The web2 word list of the PyPI package ``english-words`` as a move graph."""
    from english_words import get_english_words_set

    words = get_english_words_set(["web2"], lower=True, alpha=True)
    return WordGraph.from_words(words)


@dataclass(frozen=True, slots=True)
class Plan:
    """What to stage in a simulated game (the demo needs one of each somewhere)."""

    phony_at_turn: int | None = None  # record a phony at this turn, then withdraw it
    valid_challenge_at_turn: int | None = None  # challenge a good play (it stands)
    aim_for_tie: bool = False  # go out so that the final scores tie, if possible
    notes: bool = False  # annotate a few turns where a better play existed
    skill: float = 0.8  # how often the best-scoring play is chosen


@dataclass
class SimulatedGame:
    """The events of a game and the state they lead to."""

    events: list[ev.Event] = field(default_factory=list)
    state: rs.GameState | None = None
    tie_staged: bool = False
    phony_word: str = ""

    def record(self, event: ev.Event) -> None:
        self.state = rs.apply(self.state, event, version=len(self.events) + 1)
        self.events.append(event)


def _scored(state: rs.GameState, placement: Placement) -> tuple[int, ev.TilesPlaced]:
    """A candidate's score, by the rules' own geometry and scoring (as
    rules.analysis ranks plays): locating and scoring alone, not a whole new game
    state for each of the hundreds of candidates of a turn (that was half of the
    demo's load time). The play chosen is recorded through ``rs.apply``, which
    checks it all again."""
    position = placement.gcg_position()
    word = placement.gcg_word()
    located = locate(
        state.board.squares, Position.from_gcg(position), word, state.context.letters
    )
    score = rs.placed_score(state, located)[1].total
    # Record the score as a scoresheet would (it equals the rules' score).
    return score, ev.TilesPlaced(
        player=state.turn,
        position=position,
        word=word,
        score=score,
        rack=state.racks[state.turn].known,
    )


def _candidates(
    state: rs.GameState, graph: WordGraph, words: dict[ev.TilesPlaced, str]
) -> list[tuple[int, ev.TilesPlaced]]:
    rack = state.racks[state.turn].known
    board = state.board.rows()
    plays = generate(board, rack, graph, blanks=False)
    if "?" in rack and (not plays or len(plays) < 20):
        # Blanks multiply the search; use them when the natural tiles find little.
        plays = generate(board, rack, graph, limit=4000)
    scored = []
    for placement in plays:
        try:
            score, event = _scored(state, placement)
        except RulesError:
            continue  # e.g. a word list entry the rules' geometry refuses
        scored.append((score, event))
        words[event] = placement.word
    scored.sort(key=lambda item: (-item[0], item[1].position, item[1].word))
    return scored


def _refill(game: SimulatedGame, rng: random.Random) -> None:
    state = game.state
    assert state is not None
    size = state.ruleset.rack_size
    for player, rack in enumerate(state.racks):
        need = min(size - rack.count, game.state.bag.count)
        if need > 0:
            pool = sorted(game.state.bag.candidates)
            drawn = "".join(sorted(rng.sample(pool, need)))
            game.record(ev.TilesDrawn(player=player, tiles=drawn))


def _phony(state: rs.GameState, graph: WordGraph) -> ev.TilesPlaced | None:
    """A geometrically legal play of rack tiles that forms a non-word."""
    rack = state.racks[state.turn].known.replace("?", "")
    fake: set[str] = set()
    letters = sorted(rack)
    for a in letters:
        for b in letters:
            for c in letters:
                for word in (a + b, a + b + c):
                    if word not in graph:
                        fake.add(word)
    if not fake:
        return None
    fakes = WordGraph.from_words(fake)
    plays = generate(state.board.rows(), rack, fakes, blanks=False, limit=300)
    for placement in plays:
        words = (placement.word.upper(), *placement.cross_words)
        if any(word not in graph for word in words):
            try:
                return _scored(state, placement)[1]
            except RulesError:
                continue
    return None


def _tie_play(
    state: rs.GameState, candidates: Sequence[tuple[int, ev.TilesPlaced]]
) -> ev.TilesPlaced | None:
    """A play that goes out so that the final scores tie (classic ±1× adjustment).

    Going out with opponent rack value r: final = own + s + r against other − r.
    """
    if state.bag.count != 0 or len(state.players) != 2:
        return None
    me = state.turn
    other = 1 - me
    rack_size = state.racks[me].count
    opponent_value = sum(state.values[t] for t in state.racks[other].known)
    for score, event in candidates:
        tiles_used = sum(1 for ch in event.word if ch != ".")
        if tiles_used != rack_size:
            continue
        mine = state.scores[me] + score + opponent_value
        theirs = state.scores[other] - opponent_value
        if mine == theirs and state.scores[me] + score != state.scores[other]:
            return event
    return None


def simulate_game(
    players: Sequence[str],
    ruleset: Ruleset,
    graph: WordGraph,
    rng: random.Random,
    plan: Plan | None = None,
    *,
    max_turns: int = 200,
) -> SimulatedGame:
    """Play a whole game and return its events (every draw recorded)."""
    plan = plan or Plan()
    game = SimulatedGame()
    game.record(ev.GameStarted(players=tuple(players), ruleset=ruleset))
    turn_number = 0
    notes_left = 3 if plan.notes else 0
    while game.state is not None and not game.state.game_over:
        if game.state.pending_end is not None:
            game.record(ev.GameEnded(reason=game.state.pending_end))
            break
        _refill(game, rng)
        state = game.state
        turn_number += 1
        if turn_number > max_turns:
            break
        full_words: dict[ev.TilesPlaced, str] = {}
        candidates = _candidates(state, graph, full_words)
        phony_turn = plan.phony_at_turn == turn_number and not game.phony_word
        if phony_turn and _play_phony(game, state, graph, plan):
            continue
        chosen = _choose(game, state, candidates, plan, rng)
        if chosen is not None:
            notes_left = _play(game, chosen, candidates, notes_left, rng)
            if plan.valid_challenge_at_turn == turn_number and game.state.last_play:
                game.record(
                    ev.PlayChallenged(
                        challenger=_challenger(state),
                        outcome=ev.ChallengeOutcome.VALID,
                    )
                )
            continue
        _exchange_or_pass(game, state, rng)
    return game


def _challenger(state: rs.GameState) -> int:
    """The opponent of the player to move (in a two-player game)."""
    return 1 - state.turn if len(state.players) == 2 else 0


def _play_phony(
    game: SimulatedGame, state: rs.GameState, graph: WordGraph, plan: Plan
) -> bool:
    """Play a phony, challenged off; False when none can be made."""
    phony = _phony(state, graph)
    if phony is None:
        return False
    game.record(phony)
    game.phony_word = phony.word
    game.record(
        ev.PlayChallenged(
            challenger=_challenger(state), outcome=ev.ChallengeOutcome.PHONY
        )
    )
    if plan.notes:
        game.record(
            ev.NoteAdded(
                target_version=len(game.events) - 1,
                text=f"{phony.word} {phony.position} was a phony; challenged off.",
            )
        )
    return True


def _choose(
    game: SimulatedGame,
    state: rs.GameState,
    candidates: list[tuple[int, ev.TilesPlaced]],
    plan: Plan,
    rng: random.Random,
) -> ev.TilesPlaced | None:
    """The play to make: the best, now and then a lesser one; None to exchange."""
    chosen = None
    if plan.aim_for_tie and not game.tie_staged:
        chosen = _tie_play(state, candidates)
        game.tie_staged = chosen is not None
    if chosen is None and candidates:
        index = 0
        if rng.random() > plan.skill:
            index = min(len(candidates) - 1, rng.randrange(1, 6))
        score, chosen = candidates[index]
        exchange_better = score < 12 and state.bag.count >= 14 and index == 0
        if exchange_better and rng.random() < 0.5:
            chosen = None
    return chosen


def _play(
    game: SimulatedGame,
    chosen: ev.TilesPlaced,
    candidates: list[tuple[int, ev.TilesPlaced]],
    notes_left: int,
    rng: random.Random,
) -> int:
    """Record the play, and a note on a big miss; return the notes still to write."""
    game.record(chosen)
    best_score, best = candidates[0] if candidates else (0, None)
    assert game.state is not None
    played = game.state.turns[-1].score
    missed = notes_left and best is not None and best_score - played >= 15
    if missed and best is not None and rng.random() < 0.7:
        notes_left -= 1
        game.record(
            ev.NoteAdded(
                target_version=len(game.events),
                text=f"Missed {best.word} at {best.position} for {best_score}.",
            )
        )
    return notes_left


def _exchange_or_pass(
    game: SimulatedGame, state: rs.GameState, rng: random.Random
) -> None:
    player = state.turn
    rack = state.racks[player].known
    if state.bag.count >= state.ruleset.exchange_minimum and rack:
        keep = sorted(rack, key=lambda t: (t in "AEIRSTN?", t))
        count = max(1, min(len(rack), rng.randint(2, 5)))
        game.record(
            ev.TilesExchanged(player=player, tiles="".join(sorted(keep[:count])))
        )
        _refill(game, rng)
    else:
        game.record(ev.TurnPassed(player=player))
