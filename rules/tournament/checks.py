"""Checks shared by the tournament's event handlers, and the bounds a replay keeps.

Each check returns the value it accepted or raises ``TournamentError`` naming the
field; the score and spread bounds here hold for every event, replayed or new (the
limits only a new event meets are in ``rules.tournament.limits``).

Usage::

    rounds = _require_int(event.rounds, "rounds", "invalid_setting")
    _check_score(event.score_a, "score_a")
"""

from __future__ import annotations

import re
from enum import StrEnum

from rules.errors import TournamentError
from rules.tilesets import TILE_SETS, tile_set_for_lexicon
from rules.tournament.state import TournamentState

# bounds only catch typing slips such as a score entered twice (e.g. 4004).
MIN_SCORE = -1000
MAX_SCORE = 2000
MAX_ROUNDS = 100
# Bye and forfeit spreads: RULES.md default 50; WESPA events use 75 or 100.
MAX_AWARDED_SPREAD = 1000


def _require_int(value: object, field: str, code: str = "invalid_value") -> int:
    if type(value) is not int:
        raise TournamentError(code, f"{field} must be a whole number.", field)
    return value


def _require_text(value: object, field: str, code: str = "invalid_name") -> str:
    if not isinstance(value, str) or not value.strip():
        raise TournamentError(code, f"{field} must not be empty.", field)
    if "\n" in value or "\r" in value:
        raise TournamentError(code, f"{field} must be on one line.", field)
    return value


def _check_round(state: TournamentState, round_: object, field: str = "round") -> int:
    if type(round_) is not int or not 1 <= round_ <= state.settings.rounds:
        raise TournamentError(
            "invalid_round",
            f"Round must be a whole number from 1 to {state.settings.rounds};"
            f" got {round_!r}.",
            field,
        )
    return round_


def _check_score(value: object, field: str) -> int:
    if type(value) is not int:
        raise TournamentError(
            "invalid_score", f"{field} must be a whole number; got {value!r}.", field
        )
    if not MIN_SCORE <= value <= MAX_SCORE:
        raise TournamentError(
            "invalid_score",
            f"{field} {value} is out of range ({MIN_SCORE} to {MAX_SCORE}).",
            field,
        )
    return value


def _check_enum(value: object, enum: type[StrEnum], field: str) -> StrEnum:
    try:
        return enum(value)  # type: ignore[arg-type]  # any value: checked here
    except ValueError:
        allowed = ", ".join(member.value for member in enum)
        raise TournamentError(
            "invalid_setting", f"{field} must be one of {allowed}.", field
        ) from None


# A lexicon is named as the word lists are published and as GCG's #lexicon names
# them (CSW24, NWL2023, OSPS49, FILE2017): a short name, never a path.
_LEXICON_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,23}")


def _check_tile_set(value: object, field: str = "tile_set") -> str:
    if not isinstance(value, str) or value not in TILE_SETS:
        raise TournamentError(
            "unknown_tile_set",
            f"{field} must be one of {', '.join(TILE_SETS)}; got {value!r}.",
            field,
        )
    return value


def _check_lexicon(value: object, field: str = "lexicon") -> str:
    if not isinstance(value, str) or (value and _LEXICON_NAME.fullmatch(value) is None):
        raise TournamentError(
            "invalid_lexicon",
            f"{field} is a word list's short name such as CSW24, NWL23 or OSPS49"
            f" (a letter, then letters, digits, - or _; at most 24), or empty for"
            f" none; got {value!r}.",
            field,
        )
    return value


def _check_agree(tile_set: str, lexicon: str, field: str, where: str = "") -> None:
    """Refuse a lexicon whose language is played with another tile set."""
    implied = tile_set_for_lexicon(lexicon) if lexicon else None
    if implied is not None and implied.name != tile_set:
        raise TournamentError(
            "tile_set_clash",
            f"{where}The lexicon {lexicon} is played with the {implied.name} tile"
            f" set, not the {tile_set} set: choose them together.",
            field,
        )


def _check_setups(state: TournamentState, field: str) -> None:
    """Check that every division's tile set and lexicon (its own or the
    tournament's) go together."""
    settings = state.settings
    _check_agree(settings.tile_set, settings.lexicon, field)
    for division in state.game_setups:
        where = f"Division {division}: "
        _check_agree(
            state.tile_set_of(division), state.lexicon_of(division), field, where
        )


def _check_awarded(value: object, field: str) -> int:
    """Check a bye or forfeit spread setting."""
    spread = _require_int(value, field, "invalid_setting")
    if not 0 <= spread <= MAX_AWARDED_SPREAD:
        raise TournamentError(
            "invalid_setting", f"{field} must be from 0 to {MAX_AWARDED_SPREAD}.", field
        )
    return spread


def _check_caps(cap: object, caps: object, rounds: int) -> None:
    """Check a spread cap (a number) and the per-round list (one cap per round)."""
    if cap is not None:
        cap = _require_int(cap, "spread_cap", "invalid_setting")
        if cap < 1:
            raise TournamentError(
                "invalid_setting", "spread_cap must be at least 1.", "spread_cap"
            )
    if not isinstance(caps, tuple) or len(caps) > rounds:
        raise TournamentError(
            "invalid_setting",
            f"spread_caps lists at most one cap per round ({rounds}).",
            "spread_caps",
        )
    for value in caps:
        if type(value) is not int or value < 1:
            raise TournamentError(
                "invalid_setting",
                "Each of spread_caps must be a whole number of at least 1.",
                "spread_caps",
            )
