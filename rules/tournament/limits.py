"""Limits on new events: what a director may add from now on (``admit``).

Checked when an event is appended and never on a replay, so a log keeps what
earlier versions accepted. The API's serializers and the forms cite these numbers.

Usage::

    admit(state, event)  # raises TournamentError when the event exceeds a limit
    name = check_division_name("Open")
"""

from __future__ import annotations

from rules.errors import TournamentError
from rules.tournament.checks import _require_text
from rules.tournament.events import (
    DivisionAdded,
    DivisionRenamed,
    PlayerEdited,
    PlayerRegistered,
    ResultAmended,
    TournamentCreated,
)
from rules.tournament.state import TournamentState

# --- Limits on new events -------------------------------------------------------------
# What a director may add from now on, checked by ``admit`` when an event is appended
# and never on a replay: a log keeps what earlier versions accepted (a division named
# "A/B", 100,000 divisions), and its pages must still show it. The API's serializers
# and the forms cite these numbers; the public pages are built for them
# (docs/RELIABILITY.md, "Bounded input"). The sizes leave room above the national
# scale the benchmark measures (4 divisions of 125 players).
MAX_DIVISIONS = 32
MAX_PLAYERS_PER_DIVISION = 1000
MAX_PLAYERS = 4000
MAX_NAME_LENGTH = 200  # a tournament's, its venue's and a player's name
MAX_DIVISION_NAME_LENGTH = 64
MAX_ID_LENGTH = 64  # a player's id and member id
MAX_REASON_LENGTH = 500  # an amendment's reason
# The highest ratings on NASPA's and WESPA's lists are near 2,200; 3,500 leaves room
# for any scale in use and keeps every rating within the projection's integer column.
MAX_RATING = 3500
# A lifetime of rated games: 60 years of a tournament a week is under 100,000.
MAX_CAREER_GAMES = 100_000


def check_division_name(name: object, field: str = "name") -> str:
    """Return `name` if a new division may be called so; else raise TournamentError
    (``invalid_name``) saying why.

    A division's name is a segment of its pages' addresses (``…/divisions/A/``): no
    slash or backslash, no control character, not "." or "..", no space at either
    end, at most MAX_DIVISION_NAME_LENGTH characters.
    """
    text = _require_text(name, field)
    if len(text) > MAX_DIVISION_NAME_LENGTH:
        raise TournamentError(
            "invalid_name",
            f"A division's name may be at most {MAX_DIVISION_NAME_LENGTH} characters.",
            field,
        )
    _check_segment(text, field, f"The division name {text!r}")
    return text


def _check_segment(text: str, field: str, what: str) -> None:
    """Refuse text that cannot be one segment of a page's address."""
    problem = None
    if "/" in text or "\\" in text:
        problem = "cannot contain / or \\"
    elif text in (".", ".."):
        problem = "cannot be . or .."
    elif text != text.strip():
        problem = "cannot start or end with a space"
    elif _has_control(text):
        problem = "cannot contain control characters"
    if problem is not None:
        raise TournamentError(
            "invalid_name", f"{what} {problem}: it is part of a web address.", field
        )


def _has_control(text: str) -> bool:
    return any(ord(char) < 32 or 127 <= ord(char) < 160 for char in text)


def _check_length(value: object, field: str, limit: int, what: str) -> None:
    if isinstance(value, str):
        if len(value) > limit:
            raise TournamentError(
                "too_long", f"{what} may be at most {limit} characters.", field
            )
        if _has_control(value):
            raise TournamentError(
                "invalid_name", f"{what} cannot contain control characters.", field
            )


def admit(state: TournamentState | None, event: object) -> None:
    """Raise TournamentError when `event` goes beyond the limits on new events.

    Only what ``apply`` does not check (it checks types, existence and the rules of
    play); called before ``apply`` for each event an append adds.
    """
    if isinstance(event, TournamentCreated):
        _check_length(event.name, "name", MAX_NAME_LENGTH, "A tournament's name")
        _check_length(event.venue, "venue", MAX_NAME_LENGTH, "A venue's name")
    elif isinstance(event, DivisionAdded):
        if state is not None and len(state.divisions) >= MAX_DIVISIONS:
            raise TournamentError(
                "too_many_divisions",
                f"A tournament may have at most {MAX_DIVISIONS} divisions.",
                "name",
            )
        check_division_name(event.name)
    elif isinstance(event, DivisionRenamed):
        check_division_name(event.new_name, "new_name")
    elif isinstance(event, PlayerRegistered):
        _admit_player(state, event)
    elif isinstance(event, PlayerEdited):
        _check_length(event.name, "name", MAX_NAME_LENGTH, "A player's name")
        _check_length(event.member_id, "member_id", MAX_ID_LENGTH, "A member id")
        _check_figures(event.rating, event.career_games)
    elif isinstance(event, ResultAmended):
        _check_length(event.reason, "reason", MAX_REASON_LENGTH, "A reason")


def _admit_player(state: TournamentState | None, event: PlayerRegistered) -> None:
    _check_length(event.name, "name", MAX_NAME_LENGTH, "A player's name")
    _check_length(event.member_id, "member_id", MAX_ID_LENGTH, "A member id")
    _check_figures(event.rating, event.career_games)
    if isinstance(event.player_id, str):
        _check_length(event.player_id, "player_id", MAX_ID_LENGTH, "A player id")
        _check_segment(event.player_id, "player_id", "A player id")
    if state is None or not isinstance(event.division, str):
        return  # apply refuses these
    players = state.division_players.get(event.division, ())
    if len(players) >= MAX_PLAYERS_PER_DIVISION:
        raise TournamentError(
            "division_full",
            f"Division {event.division} has {len(players)} players, the most a "
            "division may have.",
            "division",
        )
    if len(state.players) >= MAX_PLAYERS:
        raise TournamentError(
            "tournament_full",
            f"The tournament has {len(state.players)} players, the most a "
            "tournament may have.",
            "division",
        )


def _check_figures(rating: object, career_games: object) -> None:
    """A new player's or an edit's rating and career games within their ceilings
    (their types and signs are ``apply``'s to check)."""
    for value, field, ceiling in (
        (rating, "rating", MAX_RATING),
        (career_games, "career_games", MAX_CAREER_GAMES),
    ):
        if isinstance(value, int) and value > ceiling:
            raise TournamentError(
                "invalid_value", f"{field} must be at most {ceiling:,}.", field
            )
