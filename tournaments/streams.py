"""The tournament stream type: validation through ``rules.tournament``, projections.

Each append is validated by applying the new events to the cached state (never by
replaying the whole tournament), then only the read models the events can change are
rewritten: the results rows (``PlayerRound``: each player's round as the rules
decided it, and the standings after it) from the earliest affected round on, in the
affected division. A result in the last round of a 31-round national event rewrites
one round's rows, not 31.
"""

from __future__ import annotations

import datetime
import hashlib
import logging
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from games import snapshots
from games.eventstore import kept
from games.eventstore.codec import Codec
from games.eventstore.models import StoredEvent
from games.eventstore.sql import BulkInsert
from games.eventstore.streams import RecordedEvent, StreamKey, StreamType
from rules import selfentry
from rules import tournament as rt
from rules.errors import RulesError
from rules.records import EntryKind
from rules.standings import StandingRow, standings
from tournaments import events as te
from tournaments.models import (
    DIRECTOR,
    SCOREKEEPER,
    Director,
    Player,
    PlayerRound,
    Tournament,
)

logger = logging.getLogger(__name__)


class TournamentAccessError(RulesError):
    """Raised when a system event of a tournament stream is not allowed."""

    code = "tournament_access"

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.field = field


@dataclass(frozen=True, slots=True)
class TournamentAggregate:
    """The replayed rules state plus the system facts of the stream."""

    rules: rt.TournamentState | None = None
    directors: Mapping[int, str] = field(default_factory=dict)
    scorekeepers: Mapping[int, str] = field(default_factory=dict)
    published: bool = False
    accounts: Mapping[str, int] = field(default_factory=dict)  # player id -> user id
    # Stream versions of the system events: the rules count only their own events,
    # so rules version n is stream version n plus the system events before it.
    system_versions: tuple[int, ...] = ()
    # The stream version of the pairing in force per (division, round).
    paired_versions: Mapping[tuple[str, int], int] = field(default_factory=dict)
    # The stream version of each player's last withdrawal or re-activation: it can
    # turn a paired game into a forfeit without any result event.
    status_versions: Mapping[str, int] = field(default_factory=dict)
    # Self-entry (tournaments.selfentry): whether players may report their games,
    # and each game's reports so far, by (round, both players) and reporter.
    self_entry: bool = False
    reports: Mapping[tuple[int, frozenset[str]], Mapping[str, selfentry.Report]] = (
        field(default_factory=dict)
    )

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
    if isinstance(event, te.DirectorAdded):
        scorekeepers = {
            k: v for k, v in state.scorekeepers.items() if k != event.user_id
        }
        return replace(
            state,
            directors={**state.directors, event.user_id: event.username},
            scorekeepers=scorekeepers,
        )
    if isinstance(event, te.ScorekeeperAdded):
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
    if isinstance(event, te.ScorekeeperRemoved):
        if event.user_id not in state.scorekeepers:
            raise TournamentAccessError(
                "not_a_scorekeeper", "That user is not a scorekeeper.", "username"
            )
        scorekeepers = {
            k: v for k, v in state.scorekeepers.items() if k != event.user_id
        }
        return replace(state, scorekeepers=scorekeepers)
    if isinstance(event, te.DirectorRemoved):
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
    if isinstance(event, te.PublicationChanged):
        return replace(state, published=event.published)
    if isinstance(event, te.PlayerAccountLinked):
        state.rules.player(event.player_id)  # raises unknown_player
        return replace(
            state, accounts={**state.accounts, event.player_id: event.user_id}
        )
    if isinstance(event, te.SelfEntryChanged):
        return replace(state, self_entry=event.enabled)
    if isinstance(event, te.ScoreReported):
        return _score_reported(state, event)
    raise TournamentAccessError("unknown_event", f"Unknown event {event!r}.")


def _score_reported(
    state: TournamentAggregate, event: te.ScoreReported
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
    return replace(state, reports={**state.reports, key: game})


# Schema 2 of a result: scores before the end-of-game adjustments only where the
# rules ask for them (a tie) or a recorded game gave them.
RESULT_SCHEMAS = {"result_recorded": 2, "result_amended": 2}


def _drop_unasked_pre_adjustment(payload: dict[str, Any]) -> dict[str, Any]:
    """Upcast a schema-1 result: forget pre-adjustment scores nobody asked for.

    The amend form used to send the superseded result's finals back as the new
    result's pre-adjustment scores, so schema-1 results hold stale ones that would
    still count in the total-score tie-break. A slip's non-tied result has none.
    """
    scores = payload.get("score_a"), payload.get("score_b")
    asked = scores[0] is not None and scores[0] == scores[1]
    if payload.get("game_id") is None and not asked:
        payload["pre_adjustment_a"] = payload["pre_adjustment_b"] = None
    return payload


class TournamentStream(StreamType[TournamentAggregate]):
    """Tournament streams: director actions, validated by ``rules.tournament``."""

    name = "tournament"
    rejection_errors = (RulesError,)
    long_streams = True

    def __init__(self) -> None:
        self.codec = Codec()
        self.codec.register_all(rt.EVENT_TYPES, RESULT_SCHEMAS)
        self.codec.register_all(te.SYSTEM_EVENT_TYPES)
        for type_name in RESULT_SCHEMAS:
            self.codec.register_upcaster(type_name, 1, _drop_unasked_pre_adjustment)

    def initial_state(self, stream: StreamKey) -> TournamentAggregate:
        return TournamentAggregate()

    def stored_state(
        self, stream: StreamKey, version: int
    ) -> tuple[int, TournamentAggregate] | None:
        found = kept.kept(stream, version)
        if found is None:
            return None
        kept_version, blob = found
        state = snapshots.unseal(
            _SNAPSHOTS, _fingerprint(), stream.id, kept_version, blob
        )
        if not isinstance(state, TournamentAggregate):
            return None
        return kept_version, state

    def keep_state(
        self, stream: StreamKey, since: int, version: int, state: TournamentAggregate
    ) -> None:
        # Every SNAPSHOT_EVERY versions: a cold worker then applies fewer than
        # that many events to the kept state, and a director's result pays for
        # the pickling (a few milliseconds at national scale) once in a while.
        if since // SNAPSHOT_EVERY == version // SNAPSHOT_EVERY:
            return
        _write_snapshot(stream, version, state)

    def apply(
        self,
        state: TournamentAggregate,
        event: object,
        version: int,
        metadata: Mapping[str, Any],
    ) -> TournamentAggregate:
        if isinstance(event, _SYSTEM_TYPES):
            state = _system_apply(state, event)
            return replace(state, system_versions=(*state.system_versions, version))
        rules_state = rt.apply(state.rules, event)
        if isinstance(event, rt.RoundPaired):
            paired = {**state.paired_versions, (event.division, event.round): version}
            return replace(state, rules=rules_state, paired_versions=paired)
        if isinstance(event, (rt.PlayerWithdrawn, rt.PlayerReactivated)):
            statuses = {**state.status_versions, event.player_id: version}
            return replace(state, rules=rules_state, status_versions=statuses)
        return replace(state, rules=rules_state)

    def admit(self, state: TournamentAggregate, event: object) -> None:
        if not isinstance(event, _SYSTEM_TYPES):
            rt.admit(state.rules, event)

    def reset_projections(self) -> None:
        # Every tournament read model, at once (the ORM's cascading delete reads
        # each row's key first).
        tables = [
            model._meta.db_table
            for model in (
                PlayerRound,
                Player,
                Director,
                Tournament,
            )
        ]
        with connection.cursor() as cursor:
            # Checks deferred in this transaction must run first (TRUNCATE refuses
            # a table with pending trigger events).
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {', '.join(tables)}")
        kept.forget(self.name)

    def project(
        self,
        stream: StreamKey,
        state: TournamentAggregate,
        new_events: Sequence[RecordedEvent],
        *,
        rebuilding: bool = False,
        previous: TournamentAggregate | None = None,
    ) -> None:
        rules = state.rules
        assert rules is not None
        now = timezone.now()
        created_at = new_events[0].recorded_at if new_events[0].version == 1 else now
        settings = rules.settings
        values = {
            "version": new_events[-1].version,
            "name": rules.name,
            "start_date": datetime.date.fromisoformat(rules.start_date),
            "end_date": datetime.date.fromisoformat(rules.end_date),
            "venue": rules.venue,
            "rounds": settings.rounds,
            "preset": settings.preset.value,
            "challenge_rule": settings.challenge_rule.value,
            "ties_are_draws": settings.ties_are_draws,
            "bye_spread": settings.bye_spread,
            "forfeit_spread": settings.forfeit_spread,
            "spread_cap": settings.spread_cap,
            "spread_caps": list(settings.spread_caps),
            "ranking": settings.ranking.value,
            "rating_system": settings.rating_system.value,
            "club_event": settings.club_event,
            "tile_set": settings.tile_set,
            "lexicon": settings.lexicon,
            "divisions": list(rules.divisions),
            "published": state.published,
            "self_entry": state.self_entry,
            "updated_at": now,
        }
        tournament = (
            Tournament.objects.select_for_update()
            .filter(tournament_id=stream.id)
            .first()
        )
        created = tournament is None
        if tournament is None:
            tournament = Tournament(tournament_id=stream.id, created_at=created_at)
        scope = _Scope.of(
            rules, [e.event for e in new_events], full=rebuilding or created
        )
        # Standings and scorecards show player rows too, so a players change
        # counts for every division.
        changed = set(rules.divisions) if scope.players else set(scope.rounds)
        values["division_versions"] = {
            division: (
                values["version"]
                if division in changed
                else tournament.division_versions.get(division, values["version"])
            )
            for division in rules.divisions
        }
        for name, value in values.items():
            setattr(tournament, name, value)
        tournament.save(force_insert=created)
        if scope.directors:
            _project_directors(tournament, state)
        if scope.players:
            _project_players(tournament, state)
        if scope.renamed:
            # Rows under a division's old name: written again under the new one.
            PlayerRound.objects.filter(tournament=tournament).delete()
        for division, from_round in scope.rounds.items():
            _project_rounds(tournament, state, division, from_round)
        if rebuilding:
            # The rebuild replayed the whole tournament: keep its state.
            _write_snapshot(stream, values["version"], state)


_SYSTEM_TYPES = tuple(te.SYSTEM_EVENT_TYPES.values())

# Tournament states kept by the store (games.eventstore.kept): one every this many
# versions.
SNAPSHOT_EVERY = 200
_SNAPSHOTS = "tournaments.snapshots"


@cache
def _fingerprint() -> bytes:
    """The rules' fingerprint and this module's source (TournamentAggregate's)."""
    digest = hashlib.sha256(snapshots.rules_fingerprint())
    digest.update(Path(__file__).read_bytes())
    digest.update(Path(te.__file__).read_bytes())
    return digest.digest()


def _write_snapshot(
    stream: StreamKey, version: int, state: TournamentAggregate
) -> None:
    blob = snapshots.seal(_SNAPSHOTS, _fingerprint(), stream.id, version, state)
    try:
        with transaction.atomic():
            kept.keep(stream, version, blob)
    except DatabaseError:
        # A kept state only saves a replay: failing to keep one fails nothing.
        logger.exception("tournament %s: state not kept", stream.id)


@dataclass
class _Scope:
    """Which read models a batch of events can change."""

    directors: bool = False
    players: bool = False
    renamed: bool = False  # a division renamed: every row written again
    rounds: dict[str, int] = field(default_factory=dict)  # division -> first round

    def touch(self, division: str, round_: int) -> None:
        self.rounds[division] = min(self.rounds.get(division, round_), round_)

    @classmethod
    def of(
        cls, rules: rt.TournamentState, events: Sequence[object], *, full: bool
    ) -> _Scope:
        scope = cls()
        renamed = any(isinstance(event, rt.DivisionRenamed) for event in events)
        if full or renamed or any(_recounts(event) for event in events):
            # Every count may have changed (a cap, a bye spread, the rounds).
            scope.directors = scope.players = True
            scope.renamed = renamed
            for division in rules.divisions:
                scope.touch(division, 0)
            return scope
        for event in events:
            if isinstance(event, _ROLE_EVENTS):
                scope.directors = True
            elif isinstance(event, (te.PlayerAccountLinked, te.SelfEntryChanged)):
                # Self-entry shows on every scorecard page (their cache key).
                scope.players = True
            elif isinstance(
                event,
                (
                    rt.PlayerRegistered,
                    rt.PlayerEdited,
                    rt.PlayerWithdrawn,
                    rt.PlayerReactivated,
                ),
            ):
                scope.players = True
                player = rules.players[event.player_id]
                # A withdrawal can turn later pairings into forfeits; a new player
                # adds a row to every round's standings, the pre-event order too;
                # a name or a rating shows in every row (and orders a shared rank).
                scope.touch(player.division, 0)
            elif isinstance(event, rt.RoundPaired):
                scope.touch(event.division, event.round)
            elif isinstance(
                event, (rt.ResultRecorded, rt.ResultAmended, rt.UnpairedRoundRecorded)
            ):
                player_id = getattr(event, "player_a", None) or event.player_id
                scope.touch(rules.players[player_id].division, event.round)
            elif isinstance(event, rt.ForfeitRecorded):
                scope.touch(rules.players[event.absentee].division, event.round)
            elif isinstance(event, rt.DivisionAdded):
                scope.touch(event.name, 0)
        return scope


def _recounts(event: object) -> bool:
    """Whether a settings change can change a count: any but one of the games'
    tile set and lexicon only (which no row shows)."""
    return (
        isinstance(event, rt.SettingsChanged)
        and replace(event, tile_set=None, lexicon=None) != rt.SettingsChanged()
    )


_ROLE_EVENTS = (
    te.DirectorAdded,
    te.DirectorRemoved,
    te.ScorekeeperAdded,
    te.ScorekeeperRemoved,
)


def _project_directors(tournament: Tournament, state: TournamentAggregate) -> None:
    Director.objects.filter(tournament=tournament).delete()
    Director.objects.bulk_create(
        [
            *(
                Director(tournament=tournament, user_id=user_id, role=DIRECTOR)
                for user_id in state.directors
            ),
            *(
                Director(tournament=tournament, user_id=user_id, role=SCOREKEEPER)
                for user_id in state.scorekeepers
            ),
        ]
    )


def _project_players(tournament: Tournament, state: TournamentAggregate) -> None:
    rules = state.rules
    assert rules is not None
    Player.objects.filter(tournament=tournament).delete()
    Player.objects.bulk_create(
        Player(
            tournament=tournament,
            player_id=player.player_id,
            division=player.division,
            number=player.number,
            name=player.name,
            rating=player.rating,
            member_id=player.member_id,
            withdrawn=player.withdrawn,
            joined_after_round=player.joined_after_round,
            rating_text=player.rating_text,
            career_games=player.career_games,
            extensions=[[ext.key, ext.value] for ext in player.extensions],
            user_id=state.accounts.get(player.player_id),
        )
        for player in rules.players.values()
    )


def _project_rounds(
    tournament: Tournament, state: TournamentAggregate, division: str, from_round: int
) -> None:
    """Rewrite the division's rows from ``from_round`` on, as the rules decide them."""
    rules = state.rules
    assert rules is not None
    PlayerRound.objects.filter(
        tournament=tournament, division=division, round__gte=from_round
    ).delete()
    # Column values, not model instances: building 125 PlayerRound objects was
    # most of a national result's projection (a national benchmark profile).
    rows = [
        _player_round(tournament, state, division, round_, position, line)
        for round_ in range(from_round, rules.paired_rounds(division) + 1)
        for position, line in enumerate(
            standings(rules, division, after_round=round_), start=1
        )
    ]
    _stamp(tournament, rows)
    _ROUND_ROWS.copy([[row[name] for name in _ROUND_COLUMNS] for row in rows])


def _player_round(
    tournament: Tournament,
    state: TournamentAggregate,
    division: str,
    round_: int,
    position: int,
    line: StandingRow,
) -> dict[str, Any]:
    """Flatten a standings line and its round's entry into a row's columns (by
    attribute name): no decisions."""
    rules = state.rules
    assert rules is not None
    entry = line.entry
    assert entry is not None
    round_state = rules.round_state(division, round_)
    return dict(
        tournament_id=tournament.tournament_id,
        division=division,
        round=round_,
        player_id=line.player_id,
        number=line.number,
        name=line.name,
        rating=line.rating,
        withdrawn=line.withdrawn,
        position=position,
        rank=line.rank,
        wins=line.wins,
        losses=line.losses,
        draws=line.draws,
        spread=line.spread,
        total_score=line.total_score,
        games=line.games,
        byes=line.byes,
        kind=entry.kind.value,
        method="" if round_state is None else round_state.pairing.method.value,
        opponent_id=entry.opponent or "",
        first=entry.first,
        board=entry.board,
        own_score=entry.own_score,
        opponent_score=entry.opponent_score,
        own_pre=entry.own_pre,
        opponent_pre=entry.opponent_pre,
        outcome="" if entry.outcome is None else entry.outcome.value,
        tie_break=entry.tie_break,
        round_spread=entry.spread,
        counted_spread=entry.counted_spread,
        has_result=entry.has_result,
        rated=entry.rated,
        game_id=_game_uuid(entry.game_id),
        amended=entry.amended,
        # An entry no event changed yet (an unplayed round): the stream's start.
        changed_version=state.stream_version_of(entry.version or 1),
    )


def entry_of(row: PlayerRound) -> rt.Entry:
    """Return the rules' entry a results row stores (``_player_round``'s inverse)."""
    return rt.Entry(
        round=row.round,
        kind=EntryKind(row.kind),
        opponent=row.opponent_id or None,
        first=row.first,
        board=row.board,
        own_score=row.own_score,
        opponent_score=row.opponent_score,
        own_pre=row.own_pre,
        opponent_pre=row.opponent_pre,
        outcome=rt.Outcome(row.outcome) if row.outcome else None,
        tie_break=row.tie_break,
        spread=row.round_spread,
        counted_spread=row.counted_spread,
        game_id=None if row.game_id is None else str(row.game_id),
        amended=row.amended,
    )


def _game_uuid(game_id: str | None) -> uuid.UUID | None:
    # The rules accept any text as a game's id; the site's games have UUIDs.
    try:
        return None if game_id is None else uuid.UUID(game_id)
    except ValueError:
        return None


# Every column but the key, from the model: a result rewrites its division's rows
# from its round on (a national round is 500 rows), and the ORM's bulk insert adapted
# each field of each row in Python, a third of a result's projection; COPY formats
# the rows in C.
_ROUND_COLUMNS = [
    field.attname
    for field in PlayerRound._meta.concrete_fields
    if not field.primary_key
]
_ROUND_ROWS = BulkInsert(PlayerRound, _ROUND_COLUMNS)


def _stamp(tournament: Tournament, rows: list[dict[str, Any]]) -> None:
    """Set when and at which log position each row last changed (for sync)."""
    versions = {row["changed_version"] for row in rows}
    found = dict(
        (version, (position, recorded_at))
        for version, position, recorded_at in StoredEvent.objects.filter(
            stream_id=tournament.tournament_id, version__in=versions
        ).values_list("version", "position", "recorded_at")
    )
    for row in rows:
        row["changed_position"], row["changed_at"] = found[row["changed_version"]]
