"""King of the Hill and Swiss: the leaders meet each other, or each score group
meets its own at tsh's ideal Swiss distance.

Usage::

    pairing = pair_swiss(ranked, groups, met, byes, coin_flips=bits, limit=0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rules.pairing.bye import _check_field, choose_bye
from rules.pairing.planner import _Planner, _rank_order, _swiss_order
from rules.pairing.systems import Pairing


def pair_king_of_the_hill(
    ranked: Sequence[str],
    *,
    byes: Mapping[str, int] | None = None,
    firsts: Mapping[str, int] | None = None,
    seconds: Mapping[str, int] | None = None,
    coin_flips: Sequence[bool] = (),
    played: Iterable[tuple[str, str]] = (),
    max_repeats: int | None = None,
) -> Pairing:
    """Pair 1v2, 3v4, ... in ``ranked`` order (best first).

    King of the Hill deliberately ignores earlier meetings (it is used for the last
    round, where the leaders must meet whatever they played before), unless a
    ``max_repeats`` limit is given: then each player meets the next player down
    within the limit, as long as the rest can still be paired within it.

    With an odd number the bye goes by the fewest-byes rule, and the rest are paired
    in order. Raises TournamentError (``too_few_players``, ``not_enough_coin_flips``).
    """
    _check_field(ranked)
    planner = _Planner(ranked, played, max_repeats)
    _give_bye(planner, byes or {})
    planner.pair_group(list(planner.unpaired), _rank_order)
    return planner.pairing(firsts or {}, seconds or {}, coin_flips)


def pair_swiss(
    ranked: Sequence[str],
    *,
    score_groups: Mapping[str, int] | None = None,
    played: Iterable[tuple[str, str]] = (),
    byes: Mapping[str, int] | None = None,
    firsts: Mapping[str, int] | None = None,
    seconds: Mapping[str, int] | None = None,
    coin_flips: Sequence[bool] = (),
    max_repeats: int = 0,
) -> Pairing:
    """Pair ``ranked`` (best first) Swiss-style, never repeating needlessly.

    ``score_groups`` gives each player's score (e.g. twice the wins plus the draws;
    equal values form a score group; missing: one group); ``played`` lists earlier
    games (a pair once per meeting). A pair is a repeat beyond the limit when it
    met more than ``max_repeats`` times (0: any earlier meeting).

    Guarantees, in priority order:

    1. The fewest repeats beyond the limit possible: none at all whenever some
       pairing of the whole field (with any bye) has none. This is exact (maximum
       matching with Edmonds' blossom algorithm), not a greedy guess.
    2. The bye by the fewest-byes rule (lowest-ranked among the fewest byes) among
       the choices that keep (1).
    3. Swiss order: from the top, each player meets the opponent closest to the
       ideal Swiss distance (half their score group down, as in tsh: 1v5, 2v6,
       3v7, 4v8 in a group of eight), preferring their own score group, then fewer
       earlier meetings, while a completion keeping (1) still exists.

    Raises TournamentError (``too_few_players``, ``not_enough_coin_flips``).
    """
    _check_field(ranked)
    planner = _Planner(ranked, played, max_repeats)
    _give_bye(planner, byes or {})
    planner.pair_group(
        list(planner.unpaired), _swiss_order(planner, score_groups or {})
    )
    return planner.pairing(firsts or {}, seconds or {}, coin_flips)


def _give_bye(
    planner: _Planner, byes: Mapping[str, int], exclude: Iterable[int] = ()
) -> None:
    """With an odd number unpaired, give the bye by the fewest-byes rule (among
    the choices that keep the fewest over-limit games)."""
    if len(planner.unpaired) % 2 == 0:
        return
    skip = set(exclude)
    eligible = [planner.ranked[i] for i in planner.unpaired if i not in skip]
    order = choose_bye(eligible, byes) or [planner.ranked[planner.unpaired[-1]]]
    planner.give_bye([planner.index[p] for p in order])
