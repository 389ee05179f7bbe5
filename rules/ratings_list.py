"""Read a ratings body's current list and update the players' pre-event ratings.

The list is CSV with four columns in this order: membership id, name, rating and
career games (``1234,"Smith, Ann",1500,312``); a first row whose rating and career
games are not numbers is a header; the separator may be a comma, a semicolon or a
tab; career games may be empty (unknown). ``rating_updates`` matches the
tournament's players to the list (by membership id; a player without one by name,
``Last, First`` and ``First Last`` alike, transliterated and without case, when
exactly one row has the name) and returns a ``PlayerEdited`` for each player
whose rating, rating text or career games the list changes; a list is refused for
a division that has a result (its ratings are no longer pre-event). ``match_names``
matches names alone (a ``.TOU`` import's players).

Usage::

    listed = read_ratings_list(text)
    updates = rating_updates(state, listed)
    events = updates.events
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import FileLineError
from rules.numbers import NumberError, whole_number
from rules.tournament import (
    MAX_CAREER_GAMES,
    MAX_RATING,
    Player,
    PlayerEdited,
    TournamentError,
    TournamentState,
)

__all__ = [
    "ListedRating",
    "RatingUpdates",
    "RatingsListError",
    "match_names",
    "name_key",
    "rating_updates",
    "read_ratings_list",
    "strip_accents",
]

COLUMNS = ("member id", "name", "rating", "career games")


class RatingsListError(FileLineError):
    """Raised when a ratings list cannot be read; ``line`` is the line at fault.

    ``code`` is stable (``ratings_list_syntax``, ``ratings_list_duplicate``,
    ``ratings_list_empty``).
    """


@dataclass(frozen=True, slots=True)
class ListedRating:
    """One row of a ratings list."""

    line: int
    member_id: str
    name: str
    rating: int
    rating_text: str  # as written when that is not str(rating) (tsh's "" otherwise)
    career_games: int | None


def _is_word(text: str) -> bool:
    """Whether a cell holds no digit at all (a header's "rating", not a number,
    however long or malformed, which is an error on its line)."""
    return not any(char in "0123456789" for char in text)


def _number(text: str, what: str, line: int, high: int) -> int:
    try:
        return whole_number(text, low=0, high=high)
    except NumberError as error:
        raise RatingsListError(
            "ratings_list_syntax",
            f"the {what} {text.strip()[:20]!r} is not {error.message}.",
            line,
        ) from None


def read_ratings_list(text: str) -> tuple[ListedRating, ...]:
    """Parse a ratings list; raise RatingsListError naming the bad line."""
    sample = text[:4096]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(
            sample, delimiters=",;\t"
        )
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        return _rows(reader)
    except csv.Error as error:
        raise RatingsListError(
            "ratings_list_syntax", f"not CSV: {error}.", reader.line_num
        ) from None


def _rows(reader: Any) -> tuple[ListedRating, ...]:
    rows: list[ListedRating] = []
    seen: dict[str, int] = {}
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(COLUMNS):
            raise RatingsListError(
                "ratings_list_syntax",
                f"expected {len(COLUMNS)} columns ({', '.join(COLUMNS)}), found "
                f"{len(row)}.",
                line,
            )
        member_id, name, rating, games = (cell.strip() for cell in row)
        if not rows and not seen and _is_word(rating) and _is_word(games):
            seen[""] = line  # a header row: its rating and games are words
            continue
        if not name:
            raise RatingsListError("ratings_list_syntax", "the name is empty.", line)
        if member_id and member_id.casefold() in seen:
            raise RatingsListError(
                "ratings_list_duplicate",
                f"membership id {member_id!r} is also on line "
                f"{seen[member_id.casefold()]}.",
                line,
            )
        if member_id:
            seen[member_id.casefold()] = line
        value = _number(rating, "rating", line, MAX_RATING)
        rows.append(
            ListedRating(
                line=line,
                member_id=member_id,
                name=name,
                rating=value,
                rating_text="" if rating == str(value) else rating,
                career_games=_number(games, "career games", line, MAX_CAREER_GAMES)
                if games
                else None,
            )
        )
    if not rows:
        raise RatingsListError("ratings_list_empty", "the list has no players.")
    return tuple(rows)


def strip_accents(text: str) -> str:
    """Return ``text`` without combining accents (what NFKD can take apart)."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(char for char in plain if not unicodedata.combining(char))


def name_key(name: str, transliterate: Callable[[str], str] = strip_accents) -> str:
    """Return the key names are matched by: ``Last, First`` as ``First Last``,
    transliterated (by default only accents go: pass a transliteration library's
    function for letters such as Ł), without case or repeated spaces."""
    last, comma, first = name.rpartition(",")
    if comma and last.strip() and first.strip():
        name = f"{first} {last}"
    return " ".join(transliterate(name).casefold().split())


@dataclass(frozen=True, slots=True)
class RatingUpdates:
    """What a list does to a tournament's players."""

    events: tuple[PlayerEdited, ...]
    unchanged: tuple[str, ...]  # player ids found with the same numbers
    unmatched: tuple[str, ...]  # player ids not on the list (or ambiguous)


def rating_updates(
    state: TournamentState,
    listed: Sequence[ListedRating],
    *,
    division: str | None = None,
    transliterate: Callable[[str], str] = strip_accents,
) -> RatingUpdates:
    """Match the players (of ``division``, or all) to the list; see the module.
    ``transliterate`` is ``name_key``'s."""
    by_member = {row.member_id.casefold(): row for row in listed if row.member_id}
    by_name = _by_name(listed, transliterate)
    events: list[PlayerEdited] = []
    unchanged: list[str] = []
    unmatched: list[str] = []
    for player in state.players.values():
        if division is not None and player.division != division:
            continue
        row = _match(player, by_member, by_name, transliterate)
        if row is None:
            unmatched.append(player.player_id)
            continue
        event = _edit(player, row)
        if event is None:
            unchanged.append(player.player_id)
            continue
        _check_before_results(state, player)
        events.append(event)
    return RatingUpdates(tuple(events), tuple(unchanged), tuple(unmatched))


def _edit(player: Player, row: ListedRating) -> PlayerEdited | None:
    """The correction that gives the player the list's numbers (unknown career
    games on the list leave the player's as they are); None when they agree."""
    rating = row.rating != player.rating or row.rating_text != player.rating_text
    career = row.career_games not in (None, player.career_games)
    if not rating and not career:
        return None
    return PlayerEdited(
        player.player_id,
        rating=row.rating if rating else None,
        rating_text=row.rating_text if rating else None,
        career_games=row.career_games if career else None,
    )


def _check_before_results(state: TournamentState, player: Player) -> None:
    """A ratings list sets pre-event ratings: refused once the division has a
    result (a correction of one player's rating is ``PlayerEdited`` by hand)."""
    if any(
        round_state.has_results
        for (division, _), round_state in state.rounds.items()
        if division == player.division
    ):
        raise TournamentError(
            "division_has_results",
            f"Division {player.division} has results: a ratings list sets pre-event"
            " ratings only before its first result.",
            "file",
        )


def _by_name(
    listed: Sequence[ListedRating], transliterate: Callable[[str], str]
) -> dict[str, list[ListedRating]]:
    by_name: dict[str, list[ListedRating]] = defaultdict(list)
    for row in listed:
        by_name[name_key(row.name, transliterate)].append(row)
    return by_name


def match_names(
    names: Sequence[str],
    listed: Sequence[ListedRating],
    transliterate: Callable[[str], str] = strip_accents,
) -> list[ListedRating | None]:
    """Return the list's row of each name (None: not on the list, or on it twice)."""
    by_name = _by_name(listed, transliterate)
    found = [by_name.get(name_key(name, transliterate), []) for name in names]
    return [rows[0] if len(rows) == 1 else None for rows in found]


def _match(
    player: Player,
    by_member: dict[str, ListedRating],
    by_name: dict[str, list[ListedRating]],
    transliterate: Callable[[str], str],
) -> ListedRating | None:
    if player.member_id:
        return by_member.get(player.member_id.casefold())
    found = by_name.get(name_key(player.name, transliterate), [])
    return found[0] if len(found) == 1 else None
