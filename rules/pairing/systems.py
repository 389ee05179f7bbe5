"""The pairing systems, their default repeat limits, and a round's ``Pairing``.

Usage::

    limit = repeat_limit(PairingOptions(), System.SWISS)   # 0: no repeats
    Pairing(games=(Board(1, "p1", "p2"),), byes=("p3",))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from rules.division_rules import PairingOptions
from rules.tournament import (
    Board,
    PairingReasons,
)


class System(StrEnum):
    """A system pairing method (``PairingMethod`` names the same values)."""

    ROUND_ROBIN = "round_robin"
    KING_OF_THE_HILL = "king_of_the_hill"
    SWISS = "swiss"
    INIT_FONTES = "init_fontes"
    CHEW = "chew"
    COP = "cop"


# How many times a pair may have met before a round, by system, unless the options
# say otherwise (None: no limit). Swiss and Chew avoid every repeat they can (tsh
# pairs Swiss and ChewPair with the fewest repeats); King of the Hill pairs the
# leaders whatever they played before.
DEFAULT_MAX_REPEATS: Mapping[System, int | None] = {
    System.KING_OF_THE_HILL: None,
    System.SWISS: 0,
    System.CHEW: 0,
    # NASPA's COP weighs repeats (``rules.cop``) rather than forbidding them: its
    # last round is King of the Hill among the players who can still cash.
    System.COP: None,
}


def repeat_limit(options: PairingOptions, system: System) -> int | None:
    """Return the repeat limit ``system`` pairs under with ``options``."""
    if options.max_repeats is not None:
        return options.max_repeats
    return DEFAULT_MAX_REPEATS.get(system)


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's games (board 1 first), its byes, the coin flips consumed, and
    the players Gibsonized (their place decided, paired as the Gibson rule says),
    and why it is what it is (``rules.pairing.reasons``; None from the pairing
    functions called on their own)."""

    games: tuple[Board, ...]
    byes: tuple[str, ...] = ()
    coin_flips: tuple[bool, ...] = ()
    gibsons: tuple[str, ...] = ()
    reasons: PairingReasons | None = None
