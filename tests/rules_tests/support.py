"""Helpers shared by the rules tests: the real games, and a game builder."""

from __future__ import annotations

import re
from pathlib import Path

from rules.board import Board, Position
from rules.events import (
    ChallengeOutcome,
    EndReason,
    Event,
    GameEnded,
    GameStarted,
    PlayChallenged,
    TilesDrawn,
    TilesExchanged,
    TilesPlaced,
    TurnPassed,
)
from rules.ruleset import Ruleset, ruleset
from rules.state import GameState, apply

# The real games live beside the project, never copied into it.
GAMES = Path(__file__).resolve().parents[3] / "shared" / "gcg"
GAME_FILES = sorted(GAMES.glob("*.gcg"))


def cumulatives_by_player(text: str) -> dict[str, list[int]]:
    """Each nick's cumulative scores in file order, read straight from the text (the
    last integer on each event line)."""
    found: dict[str, list[int]] = {}
    for line in text.splitlines():
        if not line.startswith(">"):
            continue
        nick, _, body = line[1:].partition(":")
        numbers = [token for token in body.split() if re.fullmatch(r"-?\d+", token)]
        found.setdefault(nick.strip(), []).append(int(numbers[-1]))
    return found


def board_from(*plays: tuple[str, str]) -> Board:
    """A board with words put on it as is (no rule checked): ``("8D", "WINDY")``."""
    board = Board()
    for position, word in plays:
        start = Position.from_gcg(position)
        step = 1 if start.direction.value == "across" else 15
        board = board.place(
            (start.index + offset * step, letter)
            for offset, letter in enumerate(word)
            if letter != "."
        )
    return board


class Game:
    """Builds a game event by event, applying each (so an illegal one raises)."""

    def __init__(
        self,
        *racks: str,
        rules: Ruleset | str = "naspa",
        players: tuple[str, ...] | None = None,
    ) -> None:
        chosen = ruleset(rules) if isinstance(rules, str) else rules
        count = max(len(racks), 2)
        names = players or ("ann", "bob", "cy", "di")[:count]
        self.events: list[Event] = []
        self.state: GameState | None = None
        self.add(GameStarted(players=names, ruleset=chosen))
        for player, rack in enumerate(racks):
            if rack:
                self.draw(player, rack)

    @property
    def now(self) -> GameState:
        assert self.state is not None
        return self.state

    def add(self, event: Event) -> GameState:
        self.state = apply(self.state, event, version=len(self.events) + 1)
        self.events.append(event)
        return self.state

    @property
    def version(self) -> int:
        return len(self.events)

    def draw(self, player: int, tiles: str = "", unknown: int = 0) -> GameState:
        return self.add(TilesDrawn(player=player, tiles=tiles, unknown=unknown))

    def place(
        self, player: int, position: str, word: str, score: int | None = None
    ) -> GameState:
        return self.add(
            TilesPlaced(player=player, position=position, word=word, score=score)
        )

    def exchange(self, player: int, tiles: str = "", unknown: int = 0) -> GameState:
        return self.add(TilesExchanged(player=player, tiles=tiles, unknown=unknown))

    def pass_(self, player: int) -> GameState:
        return self.add(TurnPassed(player=player))

    def phony(self, challenger: int, score: int | None = None) -> GameState:
        return self.add(
            PlayChallenged(
                challenger=challenger, outcome=ChallengeOutcome.PHONY, score=score
            )
        )

    def valid(
        self, challenger: int, words: tuple[str, ...] = (), score: int | None = None
    ) -> GameState:
        return self.add(
            PlayChallenged(
                challenger=challenger,
                outcome=ChallengeOutcome.VALID,
                words=words,
                score=score,
            )
        )

    def end(
        self, reason: EndReason = EndReason.WENT_OUT, **fields: object
    ) -> GameState:
        return self.add(GameEnded(reason=reason, **fields))  # type: ignore[arg-type]
