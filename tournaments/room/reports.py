"""Reports as tsh prints them: high game, high loss, high combined score, biggest
upset, lowest winning score, and who went first how often; per division and for
the whole event.

Every figure is read from the results model (``PlayerRound``: each game as the
rules decided it, both sides); nothing is decided again, and every figure is the
rules' (``rules.figures``, which the prizes read too). Only played games with a
result count: byes, forfeits and credits are not games. A draw is neither a win
nor a loss. An upset is a win over a higher-rated opponent, by how much higher
(players without a rating are left out, as tsh leaves them out).

Usage::

    report = tournament_reports(tournament)            # every division, and all
    report.sections[0].lists[0].title                  # "High game"
    text = reports_csv(report)
"""

from __future__ import annotations

import csv
import io
import uuid
from collections import Counter
from dataclasses import dataclass

from rules.figures import Figure, candidates
from rules.records import EntryKind
from rules.submissions import spreadsheet_text
from tournaments.models import PlayerRound, Tournament

# Entries each list shows (more when the last place is shared).
TOP = 10


@dataclass(frozen=True, slots=True)
class GameSide:
    """One player's side of a played game, with the other side's."""

    division: str
    round: int
    board: int | None
    player: str
    number: int
    rating: int
    score: int
    outcome: str
    opponent: str
    opponent_number: int
    opponent_rating: int
    opponent_score: int
    game_id: uuid.UUID | None


@dataclass(frozen=True, slots=True)
class Entry:
    """A line of a report: the side it is about and the figure it is ranked by."""

    value: int
    side: GameSide


@dataclass(frozen=True, slots=True)
class Ranking:
    """One report (``key``: high_game, high_loss, …) and its entries, best first."""

    key: str
    title: str
    explanation: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Starts:
    """How often a player went first and second."""

    player: str
    number: int
    division: str
    firsts: int
    seconds: int


@dataclass(frozen=True, slots=True)
class Section:
    """The reports of one division, or of the whole event (``division`` None)."""

    division: str | None
    lists: tuple[Ranking, ...]
    starts: tuple[Starts, ...]


@dataclass(frozen=True, slots=True)
class Report:
    tournament: str
    sections: tuple[Section, ...]


def _sides(tournament_id: uuid.UUID) -> list[GameSide]:
    """Both sides of every played game with a result."""
    rows = list(
        PlayerRound.objects.filter(
            tournament_id=tournament_id,
            kind=EntryKind.GAME,
            has_result=True,
            round__gt=0,
        ).values_list(
            "division",
            "round",
            "board",
            "player_id",
            "name",
            "number",
            "rating",
            "own_score",
            "outcome",
            "opponent_id",
            "opponent_score",
            "game_id",
        )
    )
    by_key = {(row[0], row[1], row[3]): row for row in rows}
    sides = []
    for division, round_, board, _, name, number, rating, score, *rest in rows:
        outcome, opponent_id, opponent_score, game_id = rest
        other = by_key[(division, round_, opponent_id)]
        sides.append(
            GameSide(
                division,
                round_,
                board,
                name,
                number,
                rating,
                score,
                outcome,
                other[4],
                other[5],
                other[6],
                opponent_score,
                game_id,
            )
        )
    return sides


def _ranked(values: list[Entry], *, lowest: bool = False) -> tuple[Entry, ...]:
    """The best TOP entries, and any sharing the last place."""
    ordered = sorted(
        values,
        key=lambda e: (e.value if lowest else -e.value, e.side.round, e.side.player),
    )
    if len(ordered) <= TOP:
        return tuple(ordered)
    cut = ordered[TOP - 1].value
    return tuple(e for i, e in enumerate(ordered) if i < TOP or e.value == cut)


def _once(sides: list[GameSide]) -> list[GameSide]:
    """One side per game (the higher scorer's, the first listed on a draw)."""
    seen: set[tuple[str, int, frozenset[str]]] = set()
    chosen = []
    for side in sorted(sides, key=lambda s: -s.score):
        key = (side.division, side.round, frozenset((side.player, side.opponent)))
        if key not in seen:
            seen.add(key)
            chosen.append(side)
    return chosen


def rankings(sides: list[GameSide]) -> tuple[Ranking, ...]:
    """The game reports over `sides`."""
    # One side per game lists its combined score (rules.figures counts both).
    return tuple(
        Ranking(
            kind.value,
            title,
            explanation,
            _ranked(
                [
                    Entry(value, side)
                    for value, side in candidates(
                        kind, _once(sides) if kind is Figure.HIGH_COMBINED else sides
                    )
                ],
                lowest=kind.lowest_first,
            ),
        )
        for kind, title, explanation in _REPORTS
    )


# The game reports in the order they are shown: their figures are the rules'
# (rules.figures, the prizes' too).
_REPORTS = (
    (Figure.HIGH_GAME, "High game", "The highest scores of the event."),
    (Figure.HIGH_LOSS, "High loss", "The highest scores in a lost game."),
    (
        Figure.HIGH_COMBINED,
        "High combined score",
        "Both players' scores of a game added up.",
    ),
    (
        Figure.BIGGEST_UPSET,
        "Biggest upset",
        "Wins over a higher-rated opponent, by the difference in rating.",
    ),
    (Figure.LOW_WIN, "Lowest winning score", "The lowest scores that won a game."),
)


def _starts(tournament_id: uuid.UUID, division: str | None) -> tuple[Starts, ...]:
    rows = PlayerRound.objects.filter(
        tournament_id=tournament_id,
        kind=EntryKind.GAME,
        has_result=True,
        round__gt=0,
    )
    if division is not None:
        rows = rows.filter(division=division)
    firsts: Counter[tuple[str, int, str]] = Counter()
    seconds: Counter[tuple[str, int, str]] = Counter()
    for name, number, div, went_first in rows.values_list(
        "name", "number", "division", "went_first"
    ):
        (firsts if went_first else seconds)[(div, number, name)] += 1
    players = sorted(set(firsts) | set(seconds))
    return tuple(
        Starts(
            name, number, div, firsts[(div, number, name)], seconds[(div, number, name)]
        )
        for div, number, name in players
    )


def tournament_reports(tournament: Tournament) -> Report:
    """Every division's reports, then the whole event's (when it has several)."""
    sides = _sides(tournament.tournament_id)
    sections = [
        Section(
            division,
            rankings([s for s in sides if s.division == division]),
            _starts(tournament.tournament_id, division),
        )
        for division in tournament.divisions
    ]
    if len(tournament.divisions) > 1:
        sections.append(
            Section(None, rankings(sides), _starts(tournament.tournament_id, None))
        )
    return Report(tournament.name, tuple(sections))


CSV_HEADER = [
    "scope",
    "report",
    "place",
    "value",
    "round",
    "board",
    "player",
    "score",
    "opponent",
    "opponent_score",
    "firsts",
    "seconds",
]


def reports_csv(report: Report) -> str:
    """Every list as CSV rows (text cells made safe for spreadsheets)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for section in report.sections:
        scope = spreadsheet_text(section.division or "all")
        for ranking in section.lists:
            for place, entry in enumerate(ranking.entries, start=1):
                side = entry.side
                writer.writerow(
                    [
                        scope,
                        ranking.key,
                        place,
                        entry.value,
                        side.round,
                        side.board or "",
                        spreadsheet_text(side.player),
                        side.score,
                        spreadsheet_text(side.opponent),
                        side.opponent_score,
                        "",
                        "",
                    ]
                )
        for starts in section.starts:
            writer.writerow(
                [
                    scope,
                    "firsts_seconds",
                    "",
                    "",
                    "",
                    "",
                    spreadsheet_text(starts.player),
                    "",
                    "",
                    "",
                    starts.firsts,
                    starts.seconds,
                ]
            )
    return out.getvalue()
