"""What the system pairings need to know before pairing a round.

Usage::

    inputs = PairingInputs(ranked=("p1", "p2"), score_groups={}, played=(),
                           byes={}, firsts={}, seconds={})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class PairingInputs:
    """What the system pairings need to know before pairing a round."""

    ranked: tuple[str, ...]  # players to pair, best first
    score_groups: Mapping[str, int]  # twice the wins plus the draws
    played: tuple[tuple[str, str], ...]  # earlier meetings, one pair per game
    byes: Mapping[str, int]
    firsts: Mapping[str, int]
    seconds: Mapping[str, int]
    spreads: Mapping[str, int] = field(default_factory=dict)
    rounds_left: int = 1  # rounds still to play, the one being paired included
    rounds: int = 1  # the tournament's number of rounds
    previous: Mapping[str, str] = field(default_factory=dict)  # last round's opponent
