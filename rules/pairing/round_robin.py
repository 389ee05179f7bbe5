"""Round robin: the circle method, one cycle of rounds for an even field.

Usage::

    pairing = pair_round_robin(players, cycle_round=3)
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.pairing.boards import assign_boards
from rules.pairing.systems import Pairing
from rules.tournament import (
    TournamentError,
)


def pair_round_robin(players: Sequence[str], cycle_round: int) -> Pairing:
    """Return round ``cycle_round`` (1-based) of a round robin of ``players``.

    Berger tables by the circle method: with an odd number of players a phantom
    joins and whoever meets it has the bye. Every pair meets once in each cycle of
    n-1 rounds (n rounded up to even); the second cycle reverses who goes first, as
    in a double round robin. Over a cycle each player goes first and second equally
    often, give or take one. Raises TournamentError (``too_few_players``,
    ``invalid_round``).
    """
    if len(players) < 2:
        raise TournamentError(
            "too_few_players", "A round robin needs at least two players.", "players"
        )
    if len(set(players)) != len(players):
        raise TournamentError(
            "player_paired_twice", "A player is listed twice.", "players"
        )
    if type(cycle_round) is not int or cycle_round < 1:
        raise TournamentError(
            "invalid_round", "The round of the schedule must be 1 or more.", "round"
        )
    seats: list[str | None] = list(players)
    if len(seats) % 2:
        seats.append(None)  # the phantom: meeting it is a bye
    n = len(seats)
    rounds_per_cycle = n - 1
    cycle, k = divmod(cycle_round - 1, rounds_per_cycle)
    fixed = seats[-1]
    rotating = [seats[(i + k) % rounds_per_cycle] for i in range(rounds_per_cycle)]
    tables: list[tuple[str | None, str | None]] = []
    # Table 1: the fixed seat alternates first and second from round to round.
    tables.append((fixed, rotating[0]) if k % 2 else (rotating[0], fixed))
    for i in range(1, n // 2):
        tables.append((rotating[i], rotating[rounds_per_cycle - i]))
    games = []
    byes = []
    for first, second in tables:
        if first is None or second is None:
            byes.append(second if first is None else first)
            continue
        games.append((second, first) if cycle % 2 else (first, second))
    return Pairing(assign_boards(games), tuple(b for b in byes if b is not None))
