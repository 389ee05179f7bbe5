"""Rulesets: the options on which the documented rules differ, as data.

RULES.md names three presets, ``classic`` (the seeds' rules, the default), ``naspa``
and ``wespa``; every field of a preset can be overridden per tournament or per game.

Usage::

    >>> ruleset("wespa").challenge
    <ChallengeRule.FIVE_POINT: 'five_point'>
    >>> ruleset("naspa", ties_are_draws=False).ties_are_draws
    False
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.errors import InvalidRulesetError, UnknownRulesetError
from rules.numbers import whole_number


class ChallengeRule(StrEnum):
    """What happens when a valid play is challenged (RULES.md, "Challenges")."""

    SINGLE = "single"  # nothing: free challenge
    DOUBLE = "double"  # the challenger loses their next turn
    FIVE_POINT = "five_point"  # +5 to the challenged player per word challenged
    TEN_POINT = "ten_point"  # +10 per word
    VOID = "void"  # no challenges; a configured lexicon refuses invalid plays


class GoingOutRule(StrEnum):
    """How the racks left are scored when a player goes out."""

    # classic (the seeds): each other player subtracts their rack, the player who went
    # out adds the sum.
    PLUS_MINUS = "plus_minus"
    # naspa/wespa (GCG practice): the player who went out adds twice the opponents'
    # racks; the opponents' scores are unchanged.
    TWICE = "twice"


class ScorelessRule(StrEnum):
    """Which run of scoreless turns ends the game."""

    # classic: every player has passed twice in succession; passes, lost turns and
    # withdrawn phonies count, exchanges break the run.
    ALL_PASS_TWICE = "all_pass_twice"
    # naspa/wespa: six consecutive scoreless turns; passes, exchanges, lost turns and
    # withdrawn phonies count, any placement resets the count.
    SIX_SCORELESS = "six_scoreless"


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rule options of one game. Build one with :func:`ruleset`."""

    name: str
    challenge: ChallengeRule
    going_out: GoingOutRule
    scoreless_end: ScorelessRule
    # False: a tie on final score goes to the higher score before the end-of-game
    # rack adjustments (seed 001, rule 11), and only then is a draw.
    ties_are_draws: bool
    rack_size: int = 7
    bingo_bonus: int = 50
    # RULES.md: an exchange is allowed only while the bag holds at least 7 tiles.
    exchange_minimum: int = 7
    # RULES.md: 10 points per started minute over time.
    time_penalty_per_minute: int = 10

    @property
    def challenge_bonus(self) -> int:
        """Points per word to a player whose valid play was challenged (0 if none)."""
        if self.challenge is ChallengeRule.FIVE_POINT:
            return 5
        if self.challenge is ChallengeRule.TEN_POINT:
            return 10
        return 0

    def scoreless_limit(self, players: int) -> int:
        """How many consecutive scoreless turns end a game of ``players`` players.

        RULES.md gives six for the naspa/wespa count in a 2-player game and "every
        player passed twice" for classic; the six is used as is for more players, the
        tournament rules being written for two.
        """
        if self.scoreless_end is ScorelessRule.ALL_PASS_TWICE:
            return 2 * players
        return 6

    def as_text(self) -> str:
        """The ruleset as one line: its preset's name, then ``field=value`` for the
        challenge, end-of-game and tie rules and for every other field that differs
        from the preset (the inverse of :func:`ruleset_from_text`).

        >>> ruleset("wespa", bingo_bonus=35).as_text().split()[-1]
        'bingo_bonus=35'
        """
        preset = PRESETS.get(self.name)
        parts = [self.name]
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if item.name == "name" or (
                item.name not in _ALWAYS_WRITTEN
                and preset is not None
                and value == getattr(preset, item.name)
            ):
                continue
            written = str(value).lower() if isinstance(value, bool) else str(value)
            parts.append(f"{item.name}={written}")
        return " ".join(parts)

    def replace(self, **changes: Any) -> Ruleset:
        """Return a copy with some fields overridden.

        Raises ``TypeError`` when a change names no field.
        """
        return dataclasses.replace(self, **changes)


# The fields a record of a game's result must name (issue 20: the challenge rule,
# the end-of-game rules and the tie rule travel with the record).
_ALWAYS_WRITTEN = ("challenge", "going_out", "scoreless_end", "ties_are_draws")

PRESETS: dict[str, Ruleset] = {
    "classic": Ruleset(
        name="classic",
        challenge=ChallengeRule.DOUBLE,
        going_out=GoingOutRule.PLUS_MINUS,
        scoreless_end=ScorelessRule.ALL_PASS_TWICE,
        ties_are_draws=False,
    ),
    "naspa": Ruleset(
        name="naspa",
        challenge=ChallengeRule.DOUBLE,
        going_out=GoingOutRule.TWICE,
        scoreless_end=ScorelessRule.SIX_SCORELESS,
        ties_are_draws=True,
    ),
    "wespa": Ruleset(
        name="wespa",
        challenge=ChallengeRule.FIVE_POINT,
        going_out=GoingOutRule.TWICE,
        scoreless_end=ScorelessRule.SIX_SCORELESS,
        ties_are_draws=True,
    ),
}


def ruleset(name: str = "classic", **overrides: Any) -> Ruleset:
    """Return the preset ``name`` with any field overridden.

    Raises :class:`UnknownRulesetError` when ``name`` is not a preset, and
    ``TypeError`` when an override names no field.
    """
    try:
        preset = PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise UnknownRulesetError(
            f"Unknown ruleset {name!r}: choose one of {known}"
        ) from None
    if not overrides:
        return preset
    converted: dict[str, Any] = {}
    for field, value in overrides.items():
        # Accept the plain strings a form or a file gives for the enum fields.
        if field == "challenge" and isinstance(value, str):
            value = ChallengeRule(value)
        elif field == "going_out" and isinstance(value, str):
            value = GoingOutRule(value)
        elif field == "scoreless_end" and isinstance(value, str):
            value = ScorelessRule(value)
        converted[field] = value
    return dataclasses.replace(preset, **converted)


def ruleset_from_text(text: str) -> Ruleset:
    """Read a ruleset written by :meth:`Ruleset.as_text`.

    Raises :class:`UnknownRulesetError` when the preset is not known, and
    :class:`InvalidRulesetError` when a field or a value is not one of a ruleset.
    """
    name, *pairs = text.split() or [""]
    if "=" in name:
        raise InvalidRulesetError(
            f"{text!r} must start with the name of a preset ({', '.join(PRESETS)})"
        )
    types = {item.name: item.type for item in dataclasses.fields(Ruleset)}
    overrides: dict[str, Any] = {}
    for pair in pairs:
        field, equals, value = pair.partition("=")
        kind = types.get(field)
        if not equals or kind is None or field == "name":
            raise InvalidRulesetError(f"{pair!r} is not field=value of a ruleset")
        try:
            overrides[field] = _field_value(kind, value)
        except ValueError:
            raise InvalidRulesetError(
                f"{value!r} is not a value of the ruleset's {field}"
            ) from None
    try:
        return ruleset(name, **overrides)
    except ValueError:
        raise InvalidRulesetError(f"{text!r} names a value no ruleset has") from None


def _field_value(kind: object, value: str) -> Any:
    """A field's value from its text; ``kind`` is the field's annotation (a string
    under ``from __future__ import annotations``)."""
    if kind in ("bool", bool):
        if value not in ("true", "false"):
            raise ValueError(value)
        return value == "true"
    if kind in ("int", int):
        return whole_number(value)  # a NumberError is a ValueError
    return value
