"""Repeats: how often pairs have met, and which pairs of a round would meet again.

Usage::

    round_repeats(state, "A", 9, [("p1", "p2")])  # before storing a hand pairing
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules.tournament import (
    Board,
    TournamentState,
)


@dataclass(frozen=True, slots=True)
class Repeat:
    """A proposed game between players who met before, and the rounds they met."""

    players: tuple[str, str]
    rounds: tuple[int, ...]

    @property
    def times(self) -> int:
        """How many times they met before."""
        return len(self.rounds)


def count_repeats(
    pairs: Iterable[tuple[str, str]], meetings: Mapping[frozenset[str], Sequence[int]]
) -> tuple[Repeat, ...]:
    """Return the repeats among ``pairs``: the games whose players met before.

    ``meetings`` maps a pair of players to the rounds they met in.
    """
    repeats = []
    for first, second in pairs:
        rounds = meetings.get(frozenset((first, second)), ())
        if rounds:
            repeats.append(Repeat((first, second), tuple(rounds)))
    return tuple(repeats)


def meetings_before(
    state: TournamentState, division: str, round_: int
) -> dict[frozenset[str], list[int]]:
    """Return who met whom in ``division`` before ``round_``, with the rounds.

    A forfeited pairing counts as a meeting: the players were paired, and pairing
    them again would look like a repeat.
    """
    met: dict[frozenset[str], list[int]] = {}
    for earlier in range(1, round_):
        round_state = state.round_state(division, earlier)
        if round_state is None:
            continue
        for game in round_state.pairing.games:
            met.setdefault(frozenset((game.first, game.second)), []).append(earlier)
    return met


def round_repeats(
    state: TournamentState,
    division: str,
    round_: int,
    pairs: Iterable[tuple[str, str] | Board],
) -> tuple[Repeat, ...]:
    """Return the repeats a proposed pairing of ``round_`` would make.

    For the warning shown before a hand pairing is stored: each game whose players
    already met in an earlier round, with those rounds.
    """
    games = [
        (pair.first, pair.second) if isinstance(pair, Board) else pair for pair in pairs
    ]
    return count_repeats(games, meetings_before(state, division, round_))
