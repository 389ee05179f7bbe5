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
                           code="7KQ2MX", address="203.0.113.5")
    outcome.recorded        # True once both players agreed
    games = pending_games(state)

A code is checked before anything else: its alphabet and length first (a form
error on ``code``), then against the round's code, in bytes and in constant time,
before the tournament's lock is taken or its aggregate loaded, so a guess costs
the tournament nothing. Wrong codes are counted in the database every worker
shares (``SelfEntryCodeFailure``): after CODE_TRIES wrong codes for a player and
round, or ADDRESS_TRIES from one address, within LOCKOUT, every code for them is
refused (``CodeLockedError``, a 429) until the oldest ages out, and the
director's self-entry page lists the lock-out (``code_lockouts``). A signed-in
report is proved by the account a director linked to the player; an account that
only claims the player's member id proves nothing
(``tournaments.players.accounts``).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, Min
from django.utils import timezone

from games.eventstore.store import AppendResult, append, lock_stream
from rules import selfentry as rs
from rules import tournament as rt
from tournaments.core import events as core_events
from tournaments.core.aggregate import (
    TournamentAggregate,
    tournament_state,
    tournament_stream,
)
from tournaments.core.errors import PermissionDeniedError
from tournaments.core.writes import append_as_director
from tournaments.models import SelfEntryCodeFailure, Tournament
from tournaments.players.accounts import claims_player

logger = logging.getLogger(__name__)

# Letters and digits that cannot be misread on paper (no 0/O, 1/I/L).
_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


CODE_LENGTH = 6

# Wrong codes allowed within LOCKOUT: for one player and round (31^6 codes: at
# this rate a guess takes thousands of years), and from one address whatever
# player (a venue's players share one address behind its router: room for their
# typos, none for a sweep across players).
CODE_TRIES = 5
ADDRESS_TRIES = 20
LOCKOUT = timedelta(minutes=15)
# Wrong codes are kept this long for the director's page, then pruned.
KEPT = timedelta(days=1)
# The first key of the codes' advisory locks (pg_advisory_xact_lock(int, int)):
# one wrong code at a time per player and round, so the count is exact. The
# tournament's lock is a one-key lock: the two key spaces never meet.
_LOCK_CLASS = int.from_bytes(b"code", "big")


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


def normalized_code(text: str) -> str:
    """The code as printed (upper case, no spaces around it).

    Raises TournamentError (``invalid_code``, field ``code``) when it is not
    CODE_LENGTH letters and digits of the printed alphabet: a typo is told as
    such, and only ASCII ever reaches the comparison.
    """
    code = text.strip().upper()
    if not text.isascii() or len(code) != CODE_LENGTH or set(code) - set(_ALPHABET):
        raise rt.TournamentError(
            "invalid_code",
            f"The code on your scorecard has {CODE_LENGTH} letters and digits"
            " (2 to 9, and A to Z without I, L and O): check what you typed.",
            "code",
        )
    return code


class CodeLockedError(Exception):
    """Raised when too many wrong codes were typed for the player and round, or
    from the address (HTTP 429): nothing was checked or stored. ``retry_after``
    is the seconds until a code is checked again."""

    field = "code"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


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


def _code_lock(tournament_id: uuid.UUID, player_id: str, round_: int) -> None:
    """Take the player and round's code lock (until the transaction ends)."""
    name = f"{tournament_id}:{player_id}:{round_}".encode()
    key = int.from_bytes(hashlib.sha256(name).digest()[:4], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_CLASS, key])


def _refuse_when_locked(
    tournament_id: uuid.UUID, player_id: str, round_: int, address: str, now: datetime
) -> None:
    """Raise CodeLockedError while the player and round, or the address, have
    had their wrong codes within LOCKOUT."""
    recent = SelfEntryCodeFailure.objects.filter(failed_at__gt=now - LOCKOUT)
    counts = [
        (
            recent.filter(
                tournament_id=tournament_id, player_id=player_id, round=round_
            ),
            CODE_TRIES,
            f"Too many wrong codes for round {round_}",
        )
    ]
    if address:
        counts.append(
            (recent.filter(address=address), ADDRESS_TRIES, "Too many wrong codes")
        )
    for failures, limit, said in counts:
        times = list(
            failures.order_by("-failed_at").values_list("failed_at", flat=True)[:limit]
        )
        if len(times) >= limit:
            wait = math.ceil((times[-1] + LOCKOUT - now).total_seconds())
            minutes = max(1, math.ceil(wait / 60))
            raise CodeLockedError(
                f"{said}: the director has been told. Ask them to enter your"
                f" result, or try again in {minutes} minutes.",
                max(1, wait),
            )


def _check_code(
    tournament_id: uuid.UUID, player_id: str, round_: int, code: str, address: str
) -> None:
    """Check a typed code before anything touches the tournament; count it when
    wrong. Raises TournamentError (``invalid_code``), CodeLockedError or
    SelfEntryError. Its own short transaction: a wrong code's count is committed
    whatever follows."""
    typed = normalized_code(code).encode("ascii")
    expected = round_code(tournament_id, player_id, round_).encode("ascii")
    now = timezone.now()
    with transaction.atomic():
        _code_lock(tournament_id, player_id, round_)
        _refuse_when_locked(tournament_id, player_id, round_, address, now)
        if hmac.compare_digest(typed, expected):
            return
        SelfEntryCodeFailure.objects.create(
            tournament_id=tournament_id,
            player_id=player_id,
            round=round_,
            address=address,
            failed_at=now,
        )
        SelfEntryCodeFailure.objects.filter(failed_at__lt=now - KEPT).delete()
    logger.warning(
        "self-entry: wrong code for %s round %s of %s from %s",
        player_id,
        round_,
        tournament_id,
        address or "(no address)",
    )
    raise SelfEntryError(
        "That is not this round's code: it is printed on your scorecard,"
        f" beside round {round_}."
    )


def _check_account(state: TournamentAggregate, player_id: str, user: Any) -> None:
    """Raise SelfEntryError unless `user` is the account a director linked to
    the player. A claim alone (the player's member id on the account) is not."""
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    if signed_in and state.accounts.get(player_id) == user.pk:
        return
    if signed_in and claims_player(state, player_id, user):
        if user.pk in state.rejected.get(player_id, frozenset()):
            said = "A director refused your account as this player"
        else:
            said = (
                "Your account's claim to be this player waits for a director"
                " to confirm it (Players' accounts): until then"
            )
        raise SelfEntryError(
            f"{said}, type the code printed on your scorecard for this round."
        )
    raise SelfEntryError(
        "Sign in as this player, or type the code printed on your scorecard"
        " for this round."
    )


def score_report(
    *,
    tournament_id: uuid.UUID,
    round_: int,
    player_id: str,
    own_score: int,
    opponent_score: int,
    user: Any,
    code: str | None = None,
    address: str = "",
) -> ReportOutcome:
    """Store a player's report of their round's game; record the result when the
    opponent's report agrees.

    A code is checked first, before the tournament's lock: TournamentError
    (``invalid_code``, 400) when it is not a code's letters, CodeLockedError (429)
    after too many wrong ones for the player and round or from `address` (the
    client's; "" counts none), SelfEntryError (403) when wrong. Without a code,
    SelfEntryError unless `user` is the account linked to the player. Then
    EventRejectedError (400, naming the field) when the rules refuse the report:
    self-entry off, no such game, a result already recorded, a score out of
    range, a tie. Call it outside a transaction: a wrong code's count is kept.
    """
    by_code = bool(code)
    if code:
        _check_code(tournament_id, player_id, round_, code, address)
    stream = tournament_stream(tournament_id)
    with transaction.atomic():
        # Both players may report at the same moment: the second waits, then
        # sees the first's report.
        lock_stream(stream)
        version, state = tournament_state(tournament_id)
        if not by_code:
            _check_account(state, player_id, user)
        event = core_events.ScoreReported(
            round=round_,
            player_id=player_id,
            own_score=own_score,
            opponent_score=opponent_score,
            by_code=by_code,
            user_id=None if by_code else user.pk,
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
    two reports disagree (the director decides). ``through``: how each reporter
    proved the report, in words ("by code", "through the account dev")."""

    division: str
    round: int
    board: int | None
    reports: tuple[rs.Report, ...]
    names: dict[str, str]
    through: dict[str, str]

    @property
    def disagrees(self) -> bool:
        return len(self.reports) == 2 and not rs.agree(*self.reports)


def report_sources(state: TournamentAggregate) -> dict[tuple[int, str], str]:
    """How each pending report was proved, in words, by (round, reporter)."""
    user_ids = {u for _, u in state.report_accounts.values() if u is not None}
    usernames = dict(
        get_user_model()
        .objects.filter(pk__in=user_ids)
        .values_list("pk", get_user_model().USERNAME_FIELD)
    )
    words = {}
    for key, (by_code, user_id) in state.report_accounts.items():
        if by_code:
            words[key] = "by code"
        elif user_id is None:
            words[key] = "signed in"  # stored before the account was recorded
        else:
            words[key] = f"through the account {usernames.get(user_id, user_id)}"
    return words


def pending_games(state: TournamentAggregate) -> list[PendingGame]:
    """The reported games still without a result, by division, round, board."""
    rules = state.rules
    if rules is None:
        return []
    sources = report_sources(state) if state.reports else {}
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
                {pid: sources.get((round_, pid), "") for pid in reports},
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


@dataclass(frozen=True, slots=True)
class CodeLockout:
    """Codes refused for now: a player and round's (``player_id``, ``round``)
    or an address's (``address``), after ``tries`` wrong codes; codes are
    checked again from about ``until``."""

    player_id: str
    round: int | None
    address: str
    tries: int
    until: datetime


def code_lockouts(
    tournament_id: uuid.UUID, now: datetime | None = None
) -> list[CodeLockout]:
    """The tournament's players and rounds whose codes are refused now, then the
    addresses refused that tried a code of this tournament."""
    now = now or timezone.now()
    recent = SelfEntryCodeFailure.objects.filter(failed_at__gt=now - LOCKOUT)
    players = (
        recent.filter(tournament_id=tournament_id)
        .values("player_id", "round")
        .annotate(tries=Count("id"), first=Min("failed_at"))
        .filter(tries__gte=CODE_TRIES)
        .order_by("round", "player_id")
    )
    addresses = (
        recent.filter(
            address__in=recent.filter(tournament_id=tournament_id)
            .exclude(address="")
            .values("address")
        )
        .values("address")
        .annotate(tries=Count("id"), first=Min("failed_at"))
        .filter(tries__gte=ADDRESS_TRIES)
        .order_by("address")
    )
    return [
        *(
            CodeLockout(
                row["player_id"], row["round"], "", row["tries"], row["first"] + LOCKOUT
            )
            for row in players
        ),
        *(
            CodeLockout("", None, row["address"], row["tries"], row["first"] + LOCKOUT)
            for row in addresses
        ),
    ]
