"""The tournament's named choices: presets, pairing methods, rankings, outcomes.

Each is a ``StrEnum`` whose values are what events and files carry, so an event
replays the same whatever the code calls the member. The presets' challenge and tie
rules are read from ``rules.ruleset.PRESETS`` (RULES.md, "Ruleset presets").

Usage::

    from rules.tournament import Outcome, PairingMethod
    PairingMethod("swiss"), Outcome.WIN.value
"""

from __future__ import annotations

from enum import StrEnum

from rules.ruleset import PRESETS


class Preset(StrEnum):
    """A ruleset preset (RULES.md, "Ruleset presets")."""

    CLASSIC = "classic"
    NASPA = "naspa"
    WESPA = "wespa"


# The presets' challenge rule and tie rule (RULES.md, "Ruleset presets"): classic
# breaks a tie by the score before the end-of-game adjustments, NASPA and WESPA score
# every tie as a draw.
_PRESET_CHALLENGE = {preset: PRESETS[preset.value].challenge for preset in Preset}
_PRESET_TIES_ARE_DRAWS = {
    preset: PRESETS[preset.value].ties_are_draws for preset in Preset
}


class WithdrawalPolicy(StrEnum):
    """What happens to a withdrawn player's later rounds."""

    FORFEIT = "forfeit"  # a forfeit loss in every later paired round
    NOT_PAIRED = "not_paired"  # simply not paired any more


class PairingMethod(StrEnum):
    """How a round's pairing was made (informative; the pairing itself is stored)."""

    MANUAL = "manual"
    ROUND_ROBIN = "round_robin"
    KING_OF_THE_HILL = "king_of_the_hill"
    SWISS = "swiss"
    INIT_FONTES = "init_fontes"
    CHEW = "chew"
    COP = "cop"
    IMPORTED = "imported"


class Ranking(StrEnum):
    """How the standings order and rank players."""

    # RULES.md's order: wins, losses, spread, total score before the end-of-game
    # adjustments, rating, number; the total score still separates ranks.
    EXTENDED = "extended"
    # tsh's: wins, losses, spread; players share a rank exactly when all three are
    # equal (rating and number only order them inside it); a withdrawn player is
    # left out of the ranking from the round they go off.
    TSH = "tsh"


class RatingSystem(StrEnum):
    """The rating system the estimates follow, named as tsh names it."""

    NSA2008 = "nsa2008"
    NASPA_CSW = "naspa-csw"
    WESPA = "wespa"
    ABSP = "absp"
    # A body whose rating this project does not compute (a config.tsh's "aus"):
    # the event is kept, its estimates are switched off.
    NONE = "none"


class Outcome(StrEnum):
    """One player's result of one round."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
