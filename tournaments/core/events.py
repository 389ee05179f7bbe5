"""Tournament-stream events that concern the system, not the rules.

Who may direct a tournament, whether it is published and which user account a player
is are facts recorded in the tournament's stream like any other, but ``rules/`` has no
use for them: the stream type keeps them beside the replayed ``TournamentState``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules import tournament as rt


@dataclass(frozen=True, slots=True)
class DirectorAdded:
    """A user may write to the tournament from now on."""

    type_name: ClassVar[str] = "director_added"

    user_id: int
    username: str


@dataclass(frozen=True, slots=True)
class DirectorRemoved:
    """A user may no longer write to the tournament."""

    type_name: ClassVar[str] = "director_removed"

    user_id: int


@dataclass(frozen=True, slots=True)
class ScorekeeperAdded:
    """A user may enter and amend results from now on (nothing else)."""

    type_name: ClassVar[str] = "scorekeeper_added"

    user_id: int
    username: str


@dataclass(frozen=True, slots=True)
class ScorekeeperRemoved:
    """A user may no longer enter results."""

    type_name: ClassVar[str] = "scorekeeper_removed"

    user_id: int


@dataclass(frozen=True, slots=True)
class PublicationChanged:
    """The tournament became readable by anyone (or stopped being)."""

    type_name: ClassVar[str] = "publication_changed"

    published: bool


@dataclass(frozen=True, slots=True)
class PlayerAccountLinked:
    """A director confirmed that a registered player is this user (who may then
    report their games signed in and annotate them). A member id an account
    claims proves nothing: only this event links (``tournaments.players.accounts``).
    """

    type_name: ClassVar[str] = "player_account_linked"

    player_id: str
    user_id: int


@dataclass(frozen=True, slots=True)
class PlayerAccountRejected:
    """A director refused an account's claim to be a player (or undid a link):
    the claim no longer waits for them, the link is gone, and the pending
    self-entry reports made through that account are withdrawn."""

    type_name: ClassVar[str] = "player_account_rejected"

    player_id: str
    user_id: int


@dataclass(frozen=True, slots=True)
class SelfEntryChanged:
    """Players may (or may no longer) report their own games' scores."""

    type_name: ClassVar[str] = "self_entry_changed"

    enabled: bool


# The longest delay a director may set before everyone sees a live game's racks: a
# day (a longer one is the same as "once the game has ended").
MAX_RACK_DELAY_MINUTES = 24 * 60


@dataclass(frozen=True, slots=True)
class RackDelaySet:
    """Everyone but the team sees the racks of a game being recorded `minutes`
    after each move (0: at once), or, with None (the default), once the game has
    ended (``games.selectors.rack_view``)."""

    type_name: ClassVar[str] = "rack_delay_set"

    minutes: int | None


@dataclass(frozen=True, slots=True)
class ScoreReported:
    """A player reported their round's game: their score and their opponent's
    (``rules.selfentry``). ``by_code``: proved by the round's code printed on
    their scorecard, not by a signed-in account linked to them. ``user_id``: the
    account the report came through (None by code, and in reports stored before
    it was recorded: their account is the event's ``recorded_by``)."""

    type_name: ClassVar[str] = "score_reported"

    round: int
    player_id: str
    own_score: int
    opponent_score: int
    by_code: bool = False
    user_id: int | None = None


# --- Invitations to the team -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InvitationCreated:
    """A director created a single-use link that brings one person into the team
    with ``role`` until ``expires_at`` (ISO 8601, UTC). Only the SHA-256 of the
    link's secret is kept: the secret itself is shown once, to the director."""

    type_name: ClassVar[str] = "invitation_created"

    invitation_id: str
    role: str
    secret_hash: str
    expires_at: str


@dataclass(frozen=True, slots=True)
class InvitationAccepted:
    """The invitation was used by this account (appended with the team event that
    adds it, ``DirectorAdded`` or ``ScorekeeperAdded``): it is spent."""

    type_name: ClassVar[str] = "invitation_accepted"

    invitation_id: str
    user_id: int
    username: str


@dataclass(frozen=True, slots=True)
class InvitationRevoked:
    """A director withdrew an unused invitation: its link no longer works."""

    type_name: ClassVar[str] = "invitation_revoked"

    invitation_id: str


SYSTEM_EVENT_TYPES: dict[str, type] = {
    cls.type_name: cls
    for cls in (
        DirectorAdded,
        DirectorRemoved,
        ScorekeeperAdded,
        ScorekeeperRemoved,
        PublicationChanged,
        PlayerAccountLinked,
        PlayerAccountRejected,
        SelfEntryChanged,
        ScoreReported,
        RackDelaySet,
        InvitationCreated,
        InvitationAccepted,
        InvitationRevoked,
    )
}


# The ratings change feed's events (tournaments.ratings.estimates.result_changes):
# every event that can change a result (recording, amending and forfeiting one,
# crediting an unpaired round, withdrawing or re-activating a player, which turn
# paired games into forfeits and back) and a publication, which makes a
# tournament's earlier results visible at once. The event log's partial index
# event_log_result_feed names the same types (games/eventstore/migrations/0002;
# tests/tournaments_tests/ratings/test_result_feed_index.py), from when the feed
# read the log by position; it now reads the commit-ordered feed
# (games/eventstore/feed.py).
RESULT_EVENT_TYPES: tuple[str, ...] = tuple(
    cls.type_name
    for cls in (
        rt.ResultRecorded,
        rt.ResultAmended,
        rt.ForfeitRecorded,
        rt.UnpairedRoundRecorded,
        rt.RoundAwarded,
        rt.TieWinRecorded,
        rt.PlayerWithdrawn,
        rt.PlayerReactivated,
        PublicationChanged,
    )
)
