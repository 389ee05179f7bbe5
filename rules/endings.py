"""End-of-game rack adjustments (RULES.md, "End of the game").

Pure arithmetic on the values of the racks left: which player gains or loses what.

Usage::

    >>> went_out_adjustments(0, (0, 7), GoingOutRule.TWICE)
    (14, 0)
    >>> went_out_adjustments(0, (0, 7), GoingOutRule.PLUS_MINUS)
    (7, -7)
    >>> scoreless_adjustments((6, 16))
    (-6, -16)
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.ruleset import GoingOutRule


def went_out_adjustments(
    player: int, rack_values: Sequence[int], rule: GoingOutRule
) -> tuple[int, ...]:
    """The adjustments when ``player`` went out, given every rack's value.

    ``plus_minus`` (classic, the seeds): every other player subtracts their own rack's
    value and the player who went out adds their sum. ``twice`` (naspa/wespa, GCG
    practice): the player who went out adds twice the others' racks; the others are
    unchanged.
    """
    others = sum(value for index, value in enumerate(rack_values) if index != player)
    if rule is GoingOutRule.TWICE:
        return tuple(
            2 * others if index == player else 0 for index in range(len(rack_values))
        )
    return tuple(
        others if index == player else -value for index, value in enumerate(rack_values)
    )


def scoreless_adjustments(rack_values: Sequence[int]) -> tuple[int, ...]:
    """The adjustments after a scoreless-turns ending: everyone subtracts their rack."""
    return tuple(-value for value in rack_values)
