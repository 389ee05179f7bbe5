"""Castellano O'Connor Pairings (COP): the weights of a round's possible games.

COP, as NASPA uses it (tsh's COP command; liwords' ``pkg/pair/cop``), pairs a round
by a least-cost perfect matching: every possible game gets a cost, and the pairing
with the smallest total is chosen. The costs here follow liwords' weight policies:

- repeats (RE): (2^k - 1) units for a pair that met k times, a unit being
  4 * (players / 3)^3, so that an n-peat costs more than two (n-1)-peats;
- rank difference (RD): the distance in the standings, cubed when the higher
  player is in the prize places, squared otherwise; in the last quarter of the
  event it is left out for players who can still cash (PC decides for them);
- pair with a casher (PC): a player who can still cash should meet someone who
  can still catch them. Meeting a player who cannot costs a major penalty; in the
  last quarter the cost grows with the cube of the distance from the lowest-ranked
  player who can still catch them (prize contenders meet each other);
- back-to-back repeats (BB): a minor penalty for meeting last round's opponent
  again, for players out of the money;
- King of the Hill in the last round (KH): the players who can still cash are
  paired 1v2, 3v4, ... from the top: any other game for them is forbidden.

Gibsons and the bye are settled before the matching (``rules.pairing``): COP's own
Gibson and bye weights forbid what those rules already exclude.

Where NASPA's COP runs Monte Carlo simulations (who can "hopefully" finish where,
and whether the leader would lose control of the event), this module uses the exact
bounds of ``rules.contention`` instead: a player contends for a place when they can
reach it at all (COP's "absolutely" column). The simulations' thresholds and the
control-loss rule are left out: they need random draws, and a pairing must replay
from the log; the least-cost matching and the weights above are COP's.

Usage::

    costs = cop_costs(ranked, best=..., place=..., meetings=..., places=3, ...)
    mate = min_cost_perfect_matching(len(ranked), costs)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

__all__ = ["HARD", "MAJOR", "MINOR", "OVER_LIMIT", "cop_costs"]

MAJOR = 10**9  # liwords' majorPenalty
MINOR = MAJOR // 1000  # liwords' minorPenalty
HARD = MAJOR * 1000  # a game COP forbids (liwords disallows the edge)
# A game beyond the director's repeat limit: dearer than every other cost of a
# round together, so none is made while any pairing avoids it.
OVER_LIMIT = 10**24


def cop_costs(
    ranked: Sequence[str],
    *,
    best: Mapping[str, int],
    place: Mapping[str, int],
    meetings: Callable[[str, str], int],
    previous: Mapping[str, str],
    places: int,
    rounds_left: int,
    rounds: int,
    field_size: int,
    limit: int | None = None,
) -> dict[tuple[int, int], int]:
    """Return the cost of each possible game among ``ranked`` (by index pairs).

    ``ranked`` are the players to pair, best first; ``best`` each player's best
    possible final place and ``place`` their current place (both over the whole
    division); ``meetings(a, b)`` how often a and b met; ``previous`` last
    round's opponents; ``places`` the prize places; ``field_size`` the number of
    players in the standings; ``limit`` the repeat limit (None: none).
    """
    cashers = [p for p in ranked if best[p] <= places]
    # The lowest-ranked player who can still cash: players down to here contend.
    lowest_casher = max((place[p] for p in cashers), default=0)
    last_quarter = rounds_left * 4 <= rounds
    unit = int(4 * (field_size / 3) ** 3)
    king = _king_of_the_hill(ranked, cashers) if rounds_left == 1 else {}
    costs = {}
    for i, a in enumerate(ranked):
        catchers = max(place[p] for p in ranked if best[p] <= place[a])
        for j in range(i + 1, len(ranked)):
            b = ranked[j]
            times = meetings(a, b)
            cost = ((1 << times) - 1) * unit
            cost += _rank_difference(
                place[a], place[b], places, lowest_casher, last_quarter
            )
            if place[a] <= lowest_casher:
                cost += _pair_with_casher(place[a], place[b], catchers, last_quarter)
            elif previous.get(a) == b:
                cost += MINOR
            if (a in king or b in king) and king.get(a) != b:
                cost += HARD
            if limit is not None and times > limit:
                cost += OVER_LIMIT
            costs[(i, j)] = cost
    return costs


def _rank_difference(
    higher: int, lower: int, places: int, lowest_casher: int, last_quarter: bool
) -> int:
    if last_quarter and higher <= lowest_casher:
        return 0
    diff = lower - higher
    return diff**2 if higher > places else diff**3


def _pair_with_casher(
    higher: int, lower: int, catchers: int, last_quarter: bool
) -> int:
    """PC: ``catchers`` is the place of the lowest player who can catch the higher."""
    if lower <= catchers or (catchers == higher and lower == higher + 1):
        return 2 * abs(catchers - lower) ** 3 if last_quarter else 0
    return MAJOR


def _king_of_the_hill(ranked: Sequence[str], cashers: Sequence[str]) -> dict[str, str]:
    """The last round's forced games: 1v2, 3v4, ... down to the last casher."""
    forced: dict[str, str] = {}
    if not cashers:
        return forced
    lowest = max(ranked.index(p) for p in cashers)
    for k in range(0, lowest + 1, 2):
        if k + 1 < len(ranked):
            forced[ranked[k]] = ranked[k + 1]
            forced[ranked[k + 1]] = ranked[k]
    return forced
