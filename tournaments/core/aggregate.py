"""The tournament aggregate: its stream, and loading its state.

A tournament is one event stream (``tournament_stream``). Replaying it through
``rules.tournament`` gives the rules' ``TournamentState``; the system's own facts
(who directs it, publication, account links, self-entry) are folded beside it into
one ``TournamentAggregate``. This is the only place the aggregate is loaded.

Usage::

    version, aggregate = tournament_state(tournament_id)
    aggregate.rules          # rules.tournament.TournamentState
    aggregate.directors      # user ids of its directors
"""

from __future__ import annotations

import contextvars
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from games.eventstore.store import (
    load_state,
)
from games.eventstore.streams import StreamKey
from rules import selfentry
from rules import tournament as rt
from tournaments.core import events
from tournaments.core.errors import TournamentAccessError, TournamentNotFoundError
from tournaments.models import DIRECTOR, SCOREKEEPER


@dataclass(frozen=True, slots=True)
class Invitation:
    """An invitation to the team as the stream has it (``InvitationCreated``):
    open until used, revoked, or past ``expires_at``."""

    invitation_id: str
    role: str
    secret_hash: str
    expires_at: str  # ISO 8601, UTC
    used_by: str | None = None  # the username that accepted it
    revoked: bool = False


@dataclass(frozen=True, slots=True)
class TournamentAggregate:
    """The replayed rules state plus the system facts of the stream."""

    rules: rt.TournamentState | None = None
    directors: Mapping[int, str] = field(default_factory=dict)
    scorekeepers: Mapping[int, str] = field(default_factory=dict)
    published: bool = False
    # Confirmed links only (PlayerAccountLinked): player id -> user id. A claim
    # waiting for a director is not here and gives no right.
    accounts: Mapping[str, int] = field(default_factory=dict)
    # Claims a director refused: player id -> the user ids refused.
    rejected: Mapping[str, frozenset[int]] = field(default_factory=dict)
    # Stream versions of the system events: the rules count only their own events,
    # so rules version n is stream version n plus the system events before it.
    system_versions: tuple[int, ...] = ()
    # The stream version of the pairing in force per (division, round).
    paired_versions: Mapping[tuple[str, int], int] = field(default_factory=dict)
    # The stream version of each player's last withdrawal or re-activation: it can
    # turn a paired game into a forfeit without any result event.
    status_versions: Mapping[str, int] = field(default_factory=dict)
    # Self-entry (tournaments.room.selfentry): whether players may report their games,
    # and each game's reports so far, by (round, both players) and reporter.
    self_entry: bool = False
    reports: Mapping[tuple[int, frozenset[str]], Mapping[str, selfentry.Report]] = (
        field(default_factory=dict)
    )
    # Minutes before everyone sees a live game's racks (None: once it has ended).
    rack_delay_minutes: int | None = None
    # How each pending report was proved, by (round, reporter): (by code, the
    # account it came through: None by code, or in a report stored before the
    # account was recorded).
    report_accounts: Mapping[tuple[int, str], tuple[bool, int | None]] = field(
        default_factory=dict
    )
    # Invitations to the team, by id (tournaments.players.invitations).
    invitations: Mapping[str, Invitation] = field(default_factory=dict)

    def role_of(self, user_id: int) -> str | None:
        """The user's role in the team (DIRECTOR, SCOREKEEPER), or None.

        The team has one source: these events folded here. The ``Director`` rows
        are its projection (``team``), written by the same append, read where a
        page must not load the aggregate (``core.access.tournament_role``).
        """
        if user_id in self.directors:
            return DIRECTOR
        return SCOREKEEPER if user_id in self.scorekeepers else None

    def team(self) -> list[tuple[int, str]]:
        """(user id, role) of every member, directors first."""
        return [
            *((user_id, DIRECTOR) for user_id in self.directors),
            *((user_id, SCOREKEEPER) for user_id in self.scorekeepers),
        ]

    def stream_version_of(self, rules_version: int) -> int:
        version = rules_version
        for system_version in self.system_versions:
            if system_version <= version:
                version += 1
        return version


def _system_apply(state: TournamentAggregate, event: object) -> TournamentAggregate:
    if state.rules is None:
        raise TournamentAccessError(
            "not_created", "Create the tournament before anything else."
        )
    if isinstance(event, events.DirectorAdded):
        scorekeepers = {
            k: v for k, v in state.scorekeepers.items() if k != event.user_id
        }
        return replace(
            state,
            directors={**state.directors, event.user_id: event.username},
            scorekeepers=scorekeepers,
        )
    if isinstance(event, events.ScorekeeperAdded):
        if event.user_id in state.directors:
            raise TournamentAccessError(
                "already_director",
                f"{event.username} directs the tournament: a director already"
                " enters results.",
                "username",
            )
        return replace(
            state,
            scorekeepers={**state.scorekeepers, event.user_id: event.username},
        )
    if isinstance(event, events.ScorekeeperRemoved):
        if event.user_id not in state.scorekeepers:
            raise TournamentAccessError(
                "not_a_scorekeeper", "That user is not a scorekeeper.", "username"
            )
        scorekeepers = {
            k: v for k, v in state.scorekeepers.items() if k != event.user_id
        }
        return replace(state, scorekeepers=scorekeepers)
    if isinstance(event, events.DirectorRemoved):
        if event.user_id not in state.directors:
            raise TournamentAccessError(
                "not_a_director", "That user is not a director.", "user_id"
            )
        if len(state.directors) == 1:
            raise TournamentAccessError(
                "last_director",
                "A tournament keeps at least one director; add another first.",
                "user_id",
            )
        directors = {k: v for k, v in state.directors.items() if k != event.user_id}
        return replace(state, directors=directors)
    if isinstance(event, events.PublicationChanged):
        return replace(state, published=event.published)
    if isinstance(event, events.PlayerAccountLinked):
        state.rules.player(event.player_id)  # raises unknown_player
        refused = state.rejected.get(event.player_id, frozenset()) - {event.user_id}
        return replace(
            state,
            accounts={**state.accounts, event.player_id: event.user_id},
            rejected={**state.rejected, event.player_id: refused},
        )
    if isinstance(event, events.PlayerAccountRejected):
        return _account_rejected(state, event)
    if isinstance(event, events.SelfEntryChanged):
        return replace(state, self_entry=event.enabled)
    if isinstance(event, events.ScoreReported):
        return _score_reported(state, event)
    if isinstance(event, _INVITATION_EVENTS):
        return _invitation_apply(state, event)
    if isinstance(event, events.RackDelaySet):
        minutes = event.minutes
        if minutes is not None and not 0 <= minutes <= events.MAX_RACK_DELAY_MINUTES:
            raise TournamentAccessError(
                "invalid_rack_delay",
                f"A delay is 0 to {events.MAX_RACK_DELAY_MINUTES} minutes.",
                "rack_delay_minutes",
            )
        return replace(state, rack_delay_minutes=minutes)
    raise TournamentAccessError("unknown_event", f"Unknown event {event!r}.")


_INVITATION_EVENTS = (
    events.InvitationCreated,
    events.InvitationAccepted,
    events.InvitationRevoked,
)


def _invitation_apply(state: TournamentAggregate, event: object) -> TournamentAggregate:
    """Fold an invitation's event. Its expiry is a matter of the clock, checked
    when it is used (``core.access.open_invitation``), not of the fold."""
    if isinstance(event, events.InvitationCreated):
        if event.role not in (DIRECTOR, SCOREKEEPER):
            raise TournamentAccessError(
                "invalid_role",
                f"The role is {DIRECTOR} or {SCOREKEEPER}, not {event.role!r}.",
                "role",
            )
        if event.invitation_id in state.invitations:
            raise TournamentAccessError(
                "duplicate_invitation", "That invitation already exists.", None
            )
        invitation = Invitation(
            invitation_id=event.invitation_id,
            role=event.role,
            secret_hash=event.secret_hash,
            expires_at=event.expires_at,
        )
        return replace(
            state, invitations={**state.invitations, event.invitation_id: invitation}
        )
    assert isinstance(event, (events.InvitationAccepted, events.InvitationRevoked))
    found = state.invitations.get(event.invitation_id)
    if found is None:
        raise TournamentAccessError(
            "unknown_invitation", "There is no such invitation.", "invitation"
        )
    if found.used_by is not None or found.revoked:
        how = "revoked" if found.revoked else f"used by {found.used_by}"
        raise TournamentAccessError(
            "invitation_closed",
            f"This invitation was already {how}: ask the director for a new one.",
            "invitation",
        )
    if isinstance(event, events.InvitationRevoked):
        changed = replace(found, revoked=True)
    else:
        changed = replace(found, used_by=event.username)
    return replace(
        state, invitations={**state.invitations, event.invitation_id: changed}
    )


def _account_rejected(
    state: TournamentAggregate, event: events.PlayerAccountRejected
) -> TournamentAggregate:
    assert state.rules is not None
    state.rules.player(event.player_id)  # raises unknown_player
    accounts = dict(state.accounts)
    if accounts.get(event.player_id) == event.user_id:
        del accounts[event.player_id]
    refused = state.rejected.get(event.player_id, frozenset()) | {event.user_id}
    # The player's pending reports made through that account are withdrawn: the
    # real player's own report never meets a claimer's.
    through = {
        key
        for key, (by_code, user_id) in state.report_accounts.items()
        if key[1] == event.player_id and not by_code and user_id == event.user_id
    }
    reports = {
        key: {pid: r for pid, r in game.items() if (key[0], pid) not in through}
        for key, game in state.reports.items()
    }
    return replace(
        state,
        accounts=accounts,
        rejected={**state.rejected, event.player_id: refused},
        reports={key: game for key, game in reports.items() if game},
        report_accounts={
            k: v for k, v in state.report_accounts.items() if k not in through
        },
    )


def _score_reported(
    state: TournamentAggregate, event: events.ScoreReported
) -> TournamentAggregate:
    assert state.rules is not None
    if not state.self_entry:
        raise TournamentAccessError(
            "self_entry_off", "This tournament does not take results from players."
        )
    report = selfentry.check_report(
        state.rules,
        round_=event.round,
        player_id=event.player_id,
        own=event.own_score,
        opponent=event.opponent_score,
    )
    key = (report.round, frozenset((report.player_id, report.opponent_id)))
    game = {**state.reports.get(key, {}), report.player_id: report}
    how = (event.by_code, event.user_id)
    through = {**state.report_accounts, (report.round, report.player_id): how}
    return replace(state, reports={**state.reports, key: game}, report_accounts=through)


STREAM_TYPE = "tournament"


def tournament_stream(tournament_id: uuid.UUID) -> StreamKey:
    return StreamKey(STREAM_TYPE, tournament_id)


# The past point a read shows (``core.past.viewing`` sets it for one request):
# (tournament, version, the aggregate folded up to it).
_shown_past: contextvars.ContextVar[
    tuple[uuid.UUID, int, TournamentAggregate] | None
] = contextvars.ContextVar("tournament_shown_past", default=None)


@contextmanager
def showing_past(
    tournament_id: uuid.UUID, version: int, aggregate: TournamentAggregate
) -> Iterator[None]:
    """Within the body, ``tournament_state`` of this tournament is `aggregate` at
    `version` (a read of the past; writes never run inside it)."""
    token = _shown_past.set((tournament_id, version, aggregate))
    try:
        yield
    finally:
        _shown_past.reset(token)


def tournament_state(tournament_id: uuid.UUID) -> tuple[int, TournamentAggregate]:
    """Return (version, state) of a tournament as the request shows it: the
    present, or the past point ``?at=`` asked for (``core.past``); raise
    TournamentNotFoundError."""
    shown = _shown_past.get()
    if shown is not None and shown[0] == tournament_id:
        return shown[1], shown[2]
    return present_state(tournament_id)


def rights_state(
    tournament_id: uuid.UUID, loaded: tuple[int, TournamentAggregate]
) -> TournamentAggregate:
    """The aggregate a right is decided on, given the one a request `loaded`: the
    present's, even while the request shows the past (access never changes with
    ``?at=``)."""
    shown = _shown_past.get()
    if shown is None or shown[0] != tournament_id:
        return loaded[1]
    return present_state(tournament_id)[1]


def present_state(tournament_id: uuid.UUID) -> tuple[int, TournamentAggregate]:
    """Return (version, state) of a tournament now, whatever point a read shows:
    what rights are decided on; raise TournamentNotFoundError."""
    version, state = load_state(tournament_stream(tournament_id))
    if version == 0:
        raise TournamentNotFoundError(f"No tournament {tournament_id}.")
    return version, state
