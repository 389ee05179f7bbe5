"""Random legal games, for property tests and the benchmark.

The generator plays geometrically legal moves (word validity is never checked by the
engine) from a shuffled bag, recording every draw, so every event it returns is
legal. Randomness comes from the ``random.Random`` passed in: hypothesis supplies one
it controls (``st.randoms()``), the benchmark a seeded one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.board import CENTER, EMPTY, SIZE, Direction, Position
from rules.events import (
    ChallengeOutcome,
    Event,
    GameEnded,
    GameStarted,
    NoteAdded,
    PlayChallenged,
    TilesDrawn,
    TilesExchanged,
    TilesPlaced,
    TimePenalty,
    TurnPassed,
)
from rules.ruleset import ChallengeRule, Ruleset, ruleset
from rules.state import GameState, apply
from rules.tiles import BLANK, ENGLISH, TileSet


@dataclass(frozen=True)
class GameOptions:
    """How adventurous the random player is (probabilities per turn)."""

    exchange: float = 0.08
    pass_: float = 0.03
    phony: float = 0.05
    valid_challenge: float = 0.05
    note: float = 0.05
    time_penalty: float = 0.2
    max_tiles: int = 7
    max_turns: int = 400
    known_draws: bool = True
    finish: bool = True


class Recorder:
    """Applies events as they are generated, so the generator sees the state."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.state: GameState | None = None

    def add(self, event: Event) -> int:
        self.state = apply(self.state, event, version=len(self.events) + 1)
        self.events.append(event)
        return len(self.events)


def random_game(
    rng: random.Random,
    *,
    rules: Ruleset | None = None,
    players: int = 2,
    options: GameOptions | None = None,
    tile_set: TileSet = ENGLISH,
) -> list[Event]:
    """Play a random legal game with ``tile_set``; return its events (finished
    unless ``finish`` is False or the turn limit is reached)."""
    options = options or GameOptions()
    rules = rules or ruleset(rng.choice(["classic", "naspa", "wespa"]))
    bag = list(tile_set.tiles())
    rng.shuffle(bag)
    recorder = Recorder()
    names = tuple(f"player{index + 1}" for index in range(players))
    recorder.add(GameStarted(players=names, ruleset=rules, tile_set=tile_set))
    # The real racks: the generator always knows them, even when the events record
    # only how many tiles were drawn.
    hands = [""] * players

    def draw(player: int, count: int) -> None:
        taken = "".join(bag.pop() for _ in range(min(count, len(bag))))
        if not taken:
            return
        hands[player] += taken
        if options.known_draws:
            recorder.add(TilesDrawn(player=player, tiles=taken))
        else:
            recorder.add(TilesDrawn(player=player, unknown=len(taken)))

    def remove(player: int, tiles: str) -> None:
        for tile in tiles:
            hands[player] = hands[player].replace(tile, "", 1)

    for player in range(players):
        draw(player, rules.rack_size)
    for _ in range(options.max_turns):
        state = recorder.state
        assert state is not None
        if state.pending_end is not None:
            break
        player = state.turn
        hand = hands[player]
        roll = rng.random()
        version: int
        if roll < options.pass_:
            version = recorder.add(TurnPassed(player=player))
        elif (
            roll < options.pass_ + options.exchange
            and len(bag) >= rules.exchange_minimum
        ):
            count = rng.randint(1, len(hand))
            tiles = "".join(rng.sample(hand, count))
            if options.known_draws or rng.random() < 0.5:
                version = recorder.add(TilesExchanged(player=player, tiles=tiles))
            else:
                version = recorder.add(TilesExchanged(player=player, unknown=count))
            remove(player, tiles)
            draw(player, count)
            for tile in tiles:
                bag.insert(rng.randint(0, len(bag)), tile)
        else:
            placement = _random_placement(rng, state, hand, options.max_tiles)
            if placement is None:
                version = recorder.add(TurnPassed(player=player))
            else:
                version = recorder.add(placement)
                after = recorder.state
                assert after is not None
                used = after.turns[-1].tiles
                remove(player, used)
                challenge = rng.random()
                challenges = rules.challenge is not ChallengeRule.VOID
                if challenge < options.phony and challenges:
                    recorder.add(
                        PlayChallenged(
                            challenger=(player + 1) % players,
                            outcome=ChallengeOutcome.PHONY,
                        )
                    )
                    hands[player] += used
                else:
                    if after.pending_end is None:
                        draw(player, len(used))
                    if (
                        challenge < options.phony + options.valid_challenge
                        and challenges
                    ):
                        recorder.add(
                            PlayChallenged(
                                challenger=(player + 1) % players,
                                outcome=ChallengeOutcome.VALID,
                            )
                        )
        if rng.random() < options.note:
            recorder.add(NoteAdded(target_version=version, text=f"note {version}"))
    state = recorder.state
    assert state is not None
    if options.finish and state.pending_end is not None:
        racks = () if options.known_draws else tuple(hands)
        recorder.add(GameEnded(reason=state.pending_end, racks=racks))
        if rng.random() < options.time_penalty:
            recorder.add(
                TimePenalty(player=rng.randrange(players), minutes=rng.randint(1, 3))
            )
    return recorder.events


def _random_placement(
    rng: random.Random, state: GameState, rack: str, max_tiles: int
) -> TilesPlaced | None:
    player = state.turn
    if not rack:
        return None
    squares = state.board.squares
    first = state.board.is_empty
    if first and len(rack) < 2:
        return None
    low = 2 if first else 1
    count = rng.randint(low, max(low, min(len(rack), max_tiles)))
    tiles = rng.sample(rack, count)
    declared = state.tile_set.letters.replace(BLANK, "")
    letters = [
        tile if tile != BLANK else rng.choice(declared).lower() for tile in tiles
    ]
    if first:
        direction = rng.choice(list(Direction))
        offset = rng.randint(0, len(letters) - 1)
        start = CENTER - offset * direction.step
        row, column = divmod(start, SIZE)
        return TilesPlaced(
            player=player,
            position=Position(row, column, direction).gcg(),
            word="".join(letters),
        )
    anchors = [
        index
        for index in range(SIZE * SIZE)
        if squares[index] == EMPTY and _touches(squares, index)
    ]
    if not anchors:
        return None
    for _ in range(10):
        anchor = rng.choice(anchors)
        direction = rng.choice(list(Direction))
        placed = _lay(squares, anchor, direction, letters)
        if placed is not None:
            return TilesPlaced(player=player, position=placed[0], word=placed[1])
    return None


def _touches(squares: str, index: int) -> bool:
    row, column = divmod(index, SIZE)
    return (
        (column > 0 and squares[index - 1] != EMPTY)
        or (column < SIZE - 1 and squares[index + 1] != EMPTY)
        or (row > 0 and squares[index - SIZE] != EMPTY)
        or (row < SIZE - 1 and squares[index + SIZE] != EMPTY)
    )


def _lay(
    squares: str, anchor: int, direction: Direction, letters: list[str]
) -> tuple[str, str] | None:
    """Lay the letters from ``anchor`` forward, running through tiles on the way."""
    step = direction.step
    row, column = divmod(anchor, SIZE)

    def on_line(index: int) -> bool:
        if direction is Direction.ACROSS:
            return 0 <= index < SIZE * SIZE and index // SIZE == row
        return 0 <= index < SIZE * SIZE and index % SIZE == column

    placed: dict[int, str] = {}
    index = anchor
    pending = list(letters)
    while pending:
        if not on_line(index):
            return None
        if squares[index] == EMPTY:
            placed[index] = pending.pop(0)
        index += step
    start = anchor
    while on_line(start - step) and squares[start - step] != EMPTY:
        start -= step
    end = index - step
    while on_line(end + step) and squares[end + step] != EMPTY:
        end += step
    word = "".join(placed.get(square, ".") for square in range(start, end + 1, step))
    start_row, start_column = divmod(start, SIZE)
    return Position(start_row, start_column, direction).gcg(), word
