"""Who can still catch whom: clinched places, Gibsons and prize contenders.

The last rounds of a championship are paired around what is still at stake. These
functions answer the two questions every such pairing asks, from the standings
alone (points and spread) and the number of rounds left:

- can one player still catch another? The chaser wins every remaining game and the
  leader loses every one; when that only ties them on wins, the chaser must also
  make up the spread, at ``gibson_spread`` points per player per round (tsh's
  ``gibson_spread``, NASPA COP's "Gibson spread": a round moves the gap by twice
  that, one player winning and the other losing by it);
- which players have clinched their place (Gibsons), and which can still reach a
  prize place (contenders)?

A player's best possible finish is bounded by counting the players they cannot
catch. The bound is optimistic (two players ahead who meet cannot both lose), so a
player it calls out of the money is certainly out of the money: the Gibson pairing
never gives a clinched leader an opponent who could still win a prize.

Usage::

    standing = [Standing("a", points=14, spread=900), Standing("b", 8, 100), ...]
    gibsons(standing, rounds_left=2, gibson_spread=500, places=3)
    best_finishes(standing, rounds_left=2, gibson_spread=500)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.division_rules import DEFAULT_GIBSON_SPREAD

__all__ = [
    "DEFAULT_GIBSON_SPREAD",
    "Standing",
    "best_finishes",
    "can_catch",
    "gibsons",
]


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's record for contention: points are twice the wins plus the draws."""

    player_id: str
    points: int
    spread: int


def can_catch(
    leader: Standing, chaser: Standing, rounds_left: int, gibson_spread: int
) -> bool:
    """True when ``chaser`` can still finish level with or ahead of ``leader``.

    Each round can close the points gap by 2 (a win for the chaser, a loss for the
    leader) and the spread gap by ``2 * gibson_spread``. A tie on points decided on
    spread counts as caught when the spread gap can be closed exactly (NASPA COP's
    rule; liwords' ``CanCatch``).
    """
    gap = leader.points - chaser.points
    reach = 2 * rounds_left
    if gap != reach:
        return gap < reach
    return leader.spread - chaser.spread <= 2 * gibson_spread * rounds_left


def best_finishes(
    standing: Sequence[Standing], rounds_left: int, gibson_spread: int
) -> dict[str, int]:
    """Return each player's best possible final place (1 is first).

    A player finishes below everyone they cannot catch: the best place is one more
    than the number of those players. It is an optimistic bound (see the module's
    docstring), exact for the leader and for anyone with nobody out of reach above.
    """
    best = {}
    for player in standing:
        out_of_reach = sum(
            1
            for other in standing
            if other is not player
            and not can_catch(other, player, rounds_left, gibson_spread)
        )
        best[player.player_id] = out_of_reach + 1
    return best


def gibsons(
    standing: Sequence[Standing], rounds_left: int, gibson_spread: int, places: int
) -> tuple[str, ...]:
    """Return the players, from the top, whose final place is already decided.

    ``standing`` is best first. The leader is a Gibson when nobody can catch them;
    the next player too when, in addition, nobody below can catch them, and so on
    (tsh's ``CountGibsons``: consecutive from the top), looking no further than the
    prize ``places``: below them a decided place decides nothing (liwords' COP
    stops at its place prizes too).
    """
    decided: list[str] = []
    for position, player in enumerate(standing[:places]):
        below = standing[position + 1 :]
        if not below or any(
            can_catch(player, other, rounds_left, gibson_spread) for other in below
        ):
            break
        decided.append(player.player_id)
    return tuple(decided)
