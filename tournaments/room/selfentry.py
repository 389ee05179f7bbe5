"""Players enter their own results: both players of a game confirm the score.

A tournament's directors turn self-entry on (``SelfEntryChanged``). A player
reports their round's game (``ScoreReported``), signed in to the account linked
to them, or with the round's code printed on their scorecard. The rules check
each report (``rules.selfentry``); when the opponent's report agrees, the result
is recorded in the same append (``ResultRecorded``), and a disagreement stays
pending for the director, whose own entry or amendment always decides. Every
step is an event of the tournament's stream.

Usage::

    outcome = score_report(tournament_id=tid, round_=3, player_id="p1",
                           own_score=412, opponent_score=388, user=request.user,
                           code="7KQ2MX")
    outcome.recorded        # True once both players agreed
    games = pending_games(state)
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from games.eventstore.store import AppendResult, append, lock_stream
from rules import selfentry as rs
from tournaments.core import events as core_events
from tournaments.core.aggregate import (
    TournamentAggregate,
    tournament_state,
    tournament_stream,
)
from tournaments.core.errors import PermissionDeniedError
from tournaments.core.writes import append_as_director
from tournaments.models import Tournament

# Letters and digits that cannot be misread on paper (no 0/O, 1/I/L).
_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


CODE_LENGTH = 6


def round_code(tournament_id: uuid.UUID, player_id: str, round_: int) -> str:
    """The player's code for the round: an HMAC of the server's key, so only the
    printed scorecard knows it."""
    digest = hmac.new(
        settings.SECRET_KEY.encode(),
        f"selfentry:{tournament_id}:{player_id}:{round_}".encode(),
        hashlib.sha256,
    ).digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(CODE_LENGTH):
        number, index = divmod(number, len(_ALPHABET))
        letters.append(_ALPHABET[index])
    return "".join(letters)


def enabled(tournament_id: uuid.UUID) -> bool:
    """Whether the tournament lets players enter their own results."""
    return bool(
        Tournament.objects.filter(pk=tournament_id)
        .values_list("self_entry", flat=True)
        .first()
    )


def self_entry_set(
    *, tournament_id: uuid.UUID, enabled: bool, user: Any
) -> AppendResult:
    """Turn self-entry on or off (directors only)."""
    return append_as_director(
        tournament_id=tournament_id,
        events=[core_events.SelfEntryChanged(enabled=enabled)],
        user=user,
        expected_version=None,
    )


class SelfEntryError(PermissionDeniedError):
    """Raised when a report does not come from the player (HTTP 403): no code
    and no account linked to them, or the wrong code. ``field`` names the input."""

    def __init__(self, message: str, field: str = "code") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True, slots=True)
class ReportOutcome:
    """What a report did: stored it, and recorded the result when both agreed."""

    version: int
    recorded: bool
    disagrees: bool  # the opponent's report says other scores


def _proved(
    tournament_id: uuid.UUID,
    state: TournamentAggregate,
    player_id: str,
    round_: int,
    user: Any,
    code: str | None,
) -> bool:
    """Whether the report is the player's; True when proved by code."""
    if code:
        expected = round_code(tournament_id, player_id, round_)
        if not hmac.compare_digest(code.strip().upper(), expected):
            raise SelfEntryError(
                "That is not this round's code: it is printed on your scorecard,"
                f" beside round {round_}."
            )
        return True
    linked = state.accounts.get(player_id)
    if user is None or not user.is_authenticated or linked != user.pk:
        raise SelfEntryError(
            "Sign in as this player, or type the code printed on your scorecard"
            " for this round."
        )
    return False


def score_report(
    *,
    tournament_id: uuid.UUID,
    round_: int,
    player_id: str,
    own_score: int,
    opponent_score: int,
    user: Any,
    code: str | None = None,
) -> ReportOutcome:
    """Store a player's report of their round's game; record the result when the
    opponent's report agrees.

    Raises SelfEntryError (403) when the report is not proved to be the
    player's, and EventRejectedError (400, naming the field) when the rules
    refuse it: self-entry off, no such game, a result already recorded, a score
    out of range, a tie.
    """
    stream = tournament_stream(tournament_id)
    with transaction.atomic():
        # Both players may report at the same moment: the second waits, then
        # sees the first's report.
        lock_stream(stream)
        version, state = tournament_state(tournament_id)
        by_code = _proved(tournament_id, state, player_id, round_, user, code)
        event = core_events.ScoreReported(
            round=round_,
            player_id=player_id,
            own_score=own_score,
            opponent_score=opponent_score,
            by_code=by_code,
        )
        events: list[object] = [event]
        opponents = _opponents_report(state, round_, player_id)
        report = rs.Report(round_, player_id, "", own_score, opponent_score)
        if opponents is not None:
            report = rs.Report(
                round_, player_id, opponents.player_id, own_score, opponent_score
            )
        agreed = opponents is not None and rs.agree(report, opponents)
        if agreed:
            events.append(report.as_result())
        result = append(
            stream,
            events,
            expected_version=version,
            recorded_by=user if getattr(user, "is_authenticated", False) else None,
        )
    return ReportOutcome(result.version, agreed, opponents is not None and not agreed)


def _opponents_report(
    state: TournamentAggregate, round_: int, player_id: str
) -> rs.Report | None:
    for (report_round, players), reports in state.reports.items():
        if report_round == round_ and player_id in players:
            return next((r for pid, r in reports.items() if pid != player_id), None)
    return None


@dataclass(frozen=True, slots=True)
class PendingGame:
    """A game with a report and no result: waiting for the other player, or the
    two reports disagree (the director decides)."""

    division: str
    round: int
    board: int | None
    reports: tuple[rs.Report, ...]
    names: dict[str, str]

    @property
    def disagrees(self) -> bool:
        return len(self.reports) == 2 and not rs.agree(*self.reports)


def pending_games(state: TournamentAggregate) -> list[PendingGame]:
    """The reported games still without a result, by division, round, board."""
    rules = state.rules
    if rules is None:
        return []
    pending = []
    for (round_, players), reports in state.reports.items():
        first = next(iter(reports.values()))
        player = rules.players[first.player_id]
        round_state = rules.round_state(player.division, round_)
        if round_state is None or round_state.result_of(*players) is not None:
            continue  # recorded since (by both, or by the director)
        seat = round_state.seats.get(first.player_id)
        pending.append(
            PendingGame(
                player.division,
                round_,
                seat.board if seat else None,
                tuple(reports.values()),
                {pid: rules.players[pid].name for pid in players},
            )
        )
    return sorted(pending, key=lambda g: (g.division, g.round, g.board or 0))


def next_round(state: TournamentAggregate, player_id: str) -> int | None:
    """The player's first paired round whose game has no result yet."""
    rules = state.rules
    if rules is None or player_id not in rules.players:
        return None
    division = rules.players[player_id].division
    for round_ in range(1, rules.paired_rounds(division) + 1):
        round_state = rules.round_state(division, round_)
        seat = round_state.seats.get(player_id) if round_state else None
        if seat is None or seat.opponent is None:
            continue
        if round_state is not None and not round_state.result_of(
            player_id, seat.opponent
        ):
            return round_
    return None
