"""The bye: who gets it when the field is odd (the lowest ranked with fewest byes).

Usage::

    ranked = choose_bye(ranked, byes)   # the bye's player last
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.tournament import (
    TournamentError,
)


def choose_bye(ranked: Sequence[str], byes: Mapping[str, int]) -> list[str]:
    """Return the bye candidates in order: fewest byes, then lowest ranked.

    The fewest-byes rule: the bye goes to the lowest-ranked player among those who
    have had the fewest byes.
    """
    position = {player: index for index, player in enumerate(ranked)}
    return sorted(ranked, key=lambda p: (byes.get(p, 0), -position[p]))


def _check_field(ranked: Sequence[str]) -> None:
    if len(ranked) < 2:
        raise TournamentError(
            "too_few_players", "At least two players are needed to pair.", "players"
        )
    if len(set(ranked)) != len(ranked):
        raise TournamentError(
            "player_paired_twice", "A player is listed twice.", "players"
        )
