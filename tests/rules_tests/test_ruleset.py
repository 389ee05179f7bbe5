"""Ruleset presets and overrides (RULES.md, "Ruleset presets")."""

from __future__ import annotations

import pytest

from rules.errors import UnknownRulesetError
from rules.ruleset import (
    PRESETS,
    ChallengeRule,
    GoingOutRule,
    ScorelessRule,
    ruleset,
)


@pytest.mark.parametrize(
    ("name", "challenge", "going_out", "scoreless", "ties_are_draws"),
    [
        ("classic", "double", "plus_minus", "all_pass_twice", False),
        ("naspa", "double", "twice", "six_scoreless", True),
        ("wespa", "five_point", "twice", "six_scoreless", True),
    ],
)
def test_presets_match_the_rules_table(
    name, challenge, going_out, scoreless, ties_are_draws
):
    """Each preset has the challenge, going-out, scoreless and tie rules given."""
    preset = ruleset(name)
    assert preset.name == name
    assert preset.challenge == challenge
    assert preset.going_out == going_out
    assert preset.scoreless_end == scoreless
    assert preset.ties_are_draws is ties_are_draws
    assert (preset.rack_size, preset.bingo_bonus, preset.exchange_minimum) == (7, 50, 7)
    assert preset.time_penalty_per_minute == 10


def test_default_preset_is_classic():
    """Without a name the seeds' rules (classic) apply."""
    assert ruleset() is PRESETS["classic"]


def test_every_field_can_be_overridden():
    """Overrides replace preset fields, accepting plain strings for the enums."""
    custom = ruleset(
        "naspa",
        challenge="ten_point",
        going_out=GoingOutRule.PLUS_MINUS,
        scoreless_end="all_pass_twice",
        ties_are_draws=False,
        bingo_bonus=35,
    )
    assert custom.challenge is ChallengeRule.TEN_POINT
    assert custom.going_out is GoingOutRule.PLUS_MINUS
    assert custom.scoreless_end is ScorelessRule.ALL_PASS_TWICE
    assert custom.ties_are_draws is False
    assert custom.bingo_bonus == 35
    assert PRESETS["naspa"].bingo_bonus == 50
    assert custom.replace(rack_size=8).rack_size == 8


def test_unknown_preset_and_field_are_refused():
    """An unknown preset raises UnknownRulesetError; an unknown field TypeError."""
    with pytest.raises(UnknownRulesetError) as error:
        ruleset("scrabble-online")
    assert error.value.code == "unknown_ruleset"
    with pytest.raises(TypeError):
        ruleset("naspa", colour="red")


@pytest.mark.parametrize(
    ("challenge", "bonus"),
    [("single", 0), ("double", 0), ("five_point", 5), ("ten_point", 10), ("void", 0)],
)
def test_challenge_bonus_per_word(challenge, bonus):
    """Only the five- and ten-point rules give a bonus per word challenged."""
    assert ruleset("naspa", challenge=challenge).challenge_bonus == bonus


def test_scoreless_limits():
    """Classic ends when every player passed twice; naspa/wespa after six turns."""
    assert ruleset("classic").scoreless_limit(2) == 4
    assert ruleset("classic").scoreless_limit(3) == 6
    assert ruleset("naspa").scoreless_limit(2) == 6
