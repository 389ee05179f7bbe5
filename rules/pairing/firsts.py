"""Who goes first (``assign_firsts``), following NASPA practice as tsh implements it.

The player who has gone first fewer times goes first; if equal, the one who has
gone second more times; if still equal, a coin flip (drawn by the caller) decides.

Usage::

    games, used = assign_firsts(pairs, firsts=firsts, seconds=seconds,
                                coin_flips=bits)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.tournament import (
    TournamentError,
    TournamentState,
)


def assign_firsts(
    pairs: Sequence[tuple[str, str]],
    *,
    firsts: Mapping[str, int],
    seconds: Mapping[str, int],
    coin_flips: Sequence[bool] = (),
) -> tuple[tuple[tuple[str, str], ...], tuple[bool, ...]]:
    """Orient each pair as (first, second); return them and the coin flips used.

    Fewer firsts goes first; then more seconds; then the next coin flip decides
    (True: the pair's first-listed player goes first). Raises TournamentError
    (``not_enough_coin_flips``) when more ties need a flip than flips were given.
    """
    oriented, used, _ = firsts_with_reasons(
        pairs, firsts=firsts, seconds=seconds, coin_flips=coin_flips
    )
    return oriented, used


def firsts_with_reasons(
    pairs: Sequence[tuple[str, str]],
    *,
    firsts: Mapping[str, int],
    seconds: Mapping[str, int],
    coin_flips: Sequence[bool] = (),
) -> tuple[tuple[tuple[str, str], ...], tuple[bool, ...], tuple[str, ...]]:
    """``assign_firsts``, with how each pair's first player was decided:
    ``fewer_firsts``, ``more_seconds`` or ``coin_flip``."""
    oriented = []
    reasons = []
    used = 0
    for a, b in pairs:
        key_a = (firsts.get(a, 0), -seconds.get(a, 0))
        key_b = (firsts.get(b, 0), -seconds.get(b, 0))
        if key_a != key_b:
            oriented.append((a, b) if key_a < key_b else (b, a))
            reasons.append("fewer_firsts" if key_a[0] != key_b[0] else "more_seconds")
            continue
        if used >= len(coin_flips):
            raise TournamentError(
                "not_enough_coin_flips",
                "More games need a coin flip for who goes first than coin flips"
                " were given.",
                "coin_flips",
            )
        flip = coin_flips[used]
        used += 1
        oriented.append((a, b) if flip else (b, a))
        reasons.append("coin_flip")
    return tuple(oriented), tuple(coin_flips[:used]), tuple(reasons)


def coin_flips_needed(state: TournamentState, division: str) -> int:
    """The most coin flips pairing a round of `division` can consume.

    One per game at most (``assign_firsts``), and a round has at most half the
    division's players as games: the caller draws this many, and the event keeps
    the ones used. 0 for a division that does not exist (pairing it is refused).
    """
    return len(state.division_players.get(division, ())) // 2
