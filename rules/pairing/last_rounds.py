"""The last rounds: Gibsonization, Chew pairings (tsh's ChewPair, prize-aware) and
Castellano O'Connor Pairings (COP, as NASPA uses them; weights in ``rules.cop``).

Usage::

    pairing = pair_ranked(inputs, System.COP, coin_flips=bits, options=options)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules.contention import Standing, best_finishes, gibsons
from rules.cop import cop_costs
from rules.division_rules import PairingOptions
from rules.matching import min_cost_perfect_matching
from rules.pairing.bye import _check_field
from rules.pairing.inputs import PairingInputs
from rules.pairing.planner import _Planner, _rank_order, _swiss_order
from rules.pairing.reasons import ranked_reasons
from rules.pairing.swiss import _give_bye
from rules.pairing.systems import Pairing, System, repeat_limit


def pair_chew(
    inputs: PairingInputs,
    options: PairingOptions | None = None,
    coin_flips: Sequence[bool] = (),
) -> Pairing:
    """Pair a round by Chew pairings (tsh's ChewPair), prize-aware.

    After the Gibsons (``_pair_gibsons``), from the top: the highest prize band
    still open is found, with its contenders (the players who can still reach
    it, as many as down to the lowest of them, made even, and no more than
    tsh's default flight cap for the top band: 2 in the last round, 4 and 8 with
    two and three left, 12 before). The flight's top four (the leaders) each meet
    the lowest-ranked leader who can still catch them (1v4, 2v3 when both can),
    the rest of the flight is paired Swiss, and the next band follows. Below the
    last band, or when everyone left contends, the rest is paired Swiss. The
    repeat limit holds throughout (``_Planner``). tsh splits off more than four
    leaders when four cannot be paired within the fewest repeats; here the planner
    moves a leader outside the group instead, keeping the fewest repeats.
    """
    return pair_ranked(System.CHEW, inputs, options or PairingOptions(), coin_flips)


def pair_cop(
    inputs: PairingInputs,
    options: PairingOptions | None = None,
    coin_flips: Sequence[bool] = (),
) -> Pairing:
    """Pair a round by Castellano O'Connor Pairings, as NASPA uses them.

    After the Gibsons (``_pair_gibsons``) and the bye, the rest is paired by a
    least-cost perfect matching of COP's weights (``rules.cop.cop_costs``).
    """
    return pair_ranked(System.COP, inputs, options or PairingOptions(), coin_flips)


def pair_ranked(
    system: System,
    inputs: PairingInputs,
    options: PairingOptions,
    coin_flips: Sequence[bool],
) -> Pairing:
    """Pair ``inputs.ranked`` by King of the Hill, Swiss, Chew or COP.

    Gibsons first (always for Chew and COP, else when ``options.gibson``), then
    the bye (fewest-byes rule), then the system; games are numbered with the
    options' fixed boards. Raises TournamentError as ``pair_swiss`` does.
    """
    _check_field(inputs.ranked)
    planner = _Planner(
        inputs.ranked,
        inputs.played,
        repeat_limit(options, system),
        inputs.previous,
    )
    gibsons: tuple[str, ...] = ()
    if options.gibson or system in (System.CHEW, System.COP):
        gibsons = _pair_gibsons(planner, inputs, options)
    _give_bye(planner, inputs.byes)
    if system is System.KING_OF_THE_HILL:
        planner.pair_group(list(planner.unpaired), _rank_order)
    elif system is System.SWISS:
        planner.pair_group(
            list(planner.unpaired), _swiss_order(planner, inputs.score_groups)
        )
    elif system is System.CHEW:
        _fill_chew(planner, inputs, options)
    else:
        _fill_cop(planner, inputs, options)
    pairing = planner.pairing(
        inputs.firsts, inputs.seconds, coin_flips, options.boards(), gibsons
    )
    return replace(
        pairing, reasons=ranked_reasons(system, inputs, options, planner, pairing)
    )


def _standing(inputs: PairingInputs) -> list[Standing]:
    return [
        Standing(p, inputs.score_groups.get(p, 0), inputs.spreads.get(p, 0))
        for p in inputs.ranked
    ]


def _places(inputs: PairingInputs, options: PairingOptions) -> int:
    """The prize places; tsh's default prize bands pay a quarter of the field."""
    if options.prize_places is not None:
        return options.prize_places
    return max(1, len(inputs.ranked) // 4)


def _pair_gibsons(
    planner: _Planner, inputs: PairingInputs, options: PairingOptions
) -> tuple[str, ...]:
    """Pair the players whose place is decided (tsh's PairAllGibsons).

    An even number of Gibsons meet each other, nearest first with the fewest
    meetings, within the repeat limit (a Gibson who cannot is paired as a lone
    one); of an odd number the lowest has the bye when the field is odd, and
    otherwise meets the highest-ranked player who can no longer reach a prize
    place, among those who met them least (tsh: "the highest-ranked player in the
    lowest prize band"), within the repeat limit. Only when everyone else can still
    reach a prize place, or every such game is beyond the limit, does the Gibson
    meet one of them: the lowest-ranked (tsh's fallback).
    Returns the Gibsons, best first (the pairing records them).
    """
    standing = _standing(inputs)
    places = _places(inputs, options)
    decided = gibsons(standing, inputs.rounds_left, options.gibson_spread, places)
    if not decided:
        return ()
    best = best_finishes(standing, inputs.rounds_left, options.gibson_spread)
    ids = [planner.index[p] for p in decided]
    if len(planner.unpaired) % 2 and len(ids) % 2:
        planner.give_bye([ids.pop()])
    else:
        _give_bye(planner, inputs.byes, exclude=ids)
    alone = []
    while ids:
        a = ids.pop(0)
        # Two Gibsons meet only within the repeat limit; a Gibson who cannot is
        # paired as a lone one (below): the repeat rule holds for Gibsons too.
        partner = _fit(
            planner, a, sorted(ids, key=lambda b: (planner.rematch_cost(a, b), b))
        )
        if partner is None:
            alone.append(a)
        else:
            ids.remove(partner)
    for a in alone:

        def victim(b: int, a: int = a) -> tuple[tuple[bool, bool, int], int]:
            return (planner.rematch_cost(a, b), b)

        others = sorted((b for b in planner.unpaired if b != a), key=victim)
        out = [b for b in others if best[planner.ranked[b]] > places]
        # Nobody out of the money within the repeat limit: the lowest-ranked
        # contender (tsh's fallback).
        contenders = sorted(
            (b for b in others if b not in out), key=lambda b: (victim(b)[0], -b)
        )
        if _fit(planner, a, out) is None and _fit(planner, a, contenders) is None:
            _first_fit(planner, a, out or contenders)
    return tuple(decided)


def _fit(planner: _Planner, a: int, order: Sequence[int]) -> int | None:
    """Pair a with the first of ``order`` within the repeat limit that keeps the
    round completable (back-to-back games avoided where they can be); None when
    none does."""
    for relax in (False, True):
        for b in order:
            if planner.over(a, b):
                planner.refuse(a, b)
            elif planner.try_pair(a, b, relax=relax):
                return b
    return None


def _first_fit(planner: _Planner, a: int, order: Sequence[int]) -> int:
    """Pair a with the first of ``order`` keeping the round completable within the
    fewest over-limit games, else (the Gibson rule first) with the first of all."""
    for relax in (False, True):
        for b in order:
            if planner.try_pair(a, b, relax=relax):
                return b
    planner.try_pair(a, order[0], force=True)
    return order[0]


def _flight_cap(rounds_left: int) -> int:
    """tsh's default flight cap: the most contenders paired as one flight."""
    if rounds_left <= 1:
        return 2
    return 12 if rounds_left >= 4 else (rounds_left - 1) * 4


def _fill_chew(
    planner: _Planner, inputs: PairingInputs, options: PairingOptions
) -> None:
    best = best_finishes(_standing(inputs), inputs.rounds_left, options.gibson_spread)
    bands = options.prize_bands or tuple(range(1, _places(inputs, options) + 1))
    swiss = _swiss_order(planner, inputs.score_groups)

    def leader_order(a: int, others: list[int]) -> list[int]:
        # tsh's PairLeaders: who can catch up first, fewest repeats, lowest-ranked.
        return sorted(
            others,
            key=lambda b: (
                best[planner.ranked[b]] > a + 1,
                planner.rematch_cost(a, b),
                -b,
            ),
        )

    while planner.unpaired:
        rest = list(planner.unpaired)
        band = next((end for end in bands if end >= rest[0] + 1), None)
        if band is None:
            planner.pair_group(rest, swiss)
            return
        reach = [k for k, i in enumerate(rest) if best[planner.ranked[i]] <= band]
        size = (reach[-1] + 1) if reach else 1
        size += size % 2
        if band == bands[0]:
            size = min(size, _flight_cap(inputs.rounds_left))
        size = max(2, min(size, len(rest)))
        if size == len(rest):
            planner.pair_group(rest, swiss)
            return
        flight = rest[:size]
        planner.pair_group(flight[:4], leader_order, listed_first=True)
        planner.pair_group(flight, swiss)


def _fill_cop(
    planner: _Planner, inputs: PairingInputs, options: PairingOptions
) -> None:
    players = list(planner.unpaired)
    if not players:
        return
    costs = cop_costs(
        [planner.ranked[i] for i in players],
        best=best_finishes(
            _standing(inputs), inputs.rounds_left, options.gibson_spread
        ),
        place={p: i + 1 for i, p in enumerate(inputs.ranked)},
        meetings=lambda a, b: planner.times(planner.index[a], planner.index[b]),
        previous=inputs.previous,
        places=_places(inputs, options),
        rounds_left=inputs.rounds_left,
        rounds=inputs.rounds,
        field_size=len(inputs.ranked),
        limit=planner.limit,
    )
    mate = min_cost_perfect_matching(len(players), costs)
    for k, i in enumerate(players):
        if mate[k] > k:
            planner.try_pair(i, players[mate[k]], force=True)
