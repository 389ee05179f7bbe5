"""The tournament stream type: validation through ``rules.tournament``, projections.

Each append is validated by applying the new events to the cached state (never by
replaying the whole tournament), then only the read models the events can change are
rewritten: the pairings and standings of the rounds from the earliest affected one on,
in the affected division. A result in the last round of a 31-round national event
rewrites one round's rows, not 31.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import connection
from django.utils import timezone

from games.eventstore.codec import Codec
from games.eventstore.models import StoredEvent
from games.eventstore.sql import binary_cursor
from games.eventstore.streams import RecordedEvent, StreamKey, StreamType
from rules import tournament as rt
from rules.errors import RulesError
from rules.records import EntryKind
from rules.standings import StandingRow, standings
from tournaments import events as te
from tournaments.models import Director, Pairing, Player, Standing, Tournament


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
        return replace(
            state, directors={**state.directors, event.user_id: event.username}
        )
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
    raise TournamentAccessError("unknown_event", f"Unknown event {event!r}.")


class TournamentStream(StreamType[TournamentAggregate]):
    """Tournament streams: director actions, validated by ``rules.tournament``."""

    name = "tournament"
    rejection_errors = (RulesError,)
    long_streams = True

    def __init__(self) -> None:
        self.codec = Codec()
        self.codec.register_all(rt.EVENT_TYPES)
        self.codec.register_all(te.SYSTEM_EVENT_TYPES)

    def initial_state(self, stream: StreamKey) -> TournamentAggregate:
        return TournamentAggregate()

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

    def reset_projections(self) -> None:
        # Every tournament read model, at once (the ORM's cascading delete reads
        # each row's key first).
        tables = [
            model._meta.db_table
            for model in (Standing, Pairing, Player, Director, Tournament)
        ]
        with connection.cursor() as cursor:
            # Checks deferred in this transaction must run first (TRUNCATE refuses
            # a table with pending trigger events).
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {', '.join(tables)}")

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
            "divisions": list(rules.divisions),
            "published": state.published,
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
        for division, from_round in scope.rounds.items():
            _project_rounds(tournament, state, division, from_round)


_SYSTEM_TYPES = tuple(te.SYSTEM_EVENT_TYPES.values())


@dataclass
class _Scope:
    """Which read models a batch of events can change."""

    directors: bool = False
    players: bool = False
    rounds: dict[str, int] = field(default_factory=dict)  # division -> first round

    def touch(self, division: str, round_: int) -> None:
        self.rounds[division] = min(self.rounds.get(division, round_), round_)

    @classmethod
    def of(
        cls, rules: rt.TournamentState, events: Sequence[object], *, full: bool
    ) -> _Scope:
        scope = cls()
        if full:
            scope.directors = scope.players = True
            for division in rules.divisions:
                scope.touch(division, 1)
            return scope
        for event in events:
            if isinstance(event, (te.DirectorAdded, te.DirectorRemoved)):
                scope.directors = True
            elif isinstance(event, te.PlayerAccountLinked):
                scope.players = True
            elif isinstance(
                event,
                (rt.PlayerRegistered, rt.PlayerWithdrawn, rt.PlayerReactivated),
            ):
                scope.players = True
                player = rules.players[event.player_id]
                # A withdrawal can turn later pairings into forfeits; a late entry
                # adds a row to every round's standings.
                scope.touch(player.division, 1)
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
                scope.touch(event.name, 1)
        return scope


def _project_directors(tournament: Tournament, state: TournamentAggregate) -> None:
    Director.objects.filter(tournament=tournament).delete()
    Director.objects.bulk_create(
        Director(tournament=tournament, user_id=user_id) for user_id in state.directors
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
            user_id=state.accounts.get(player.player_id),
        )
        for player in rules.players.values()
    )


def _project_rounds(
    tournament: Tournament, state: TournamentAggregate, division: str, from_round: int
) -> None:
    rules = state.rules
    assert rules is not None
    last = rules.paired_rounds(division)
    Pairing.objects.filter(
        tournament=tournament, division=division, round__gte=from_round
    ).delete()
    Standing.objects.filter(
        tournament=tournament, division=division, after_round__gte=from_round
    ).delete()
    pairings: list[Pairing] = []
    rows: list[tuple[int, StandingRow]] = []
    for round_ in range(from_round, last + 1):
        round_state = rules.round_state(division, round_)
        if round_state is not None:
            pairings.extend(_pairing_rows(tournament, state, round_state))
        rows.extend(
            (round_, row) for row in standings(rules, division, after_round=round_)
        )
    _stamp(tournament, pairings)
    _copy_pairings(pairings)
    _insert_standings(tournament, division, rows)


# Every column but the key, from the model: a result rewrites its round's pairings,
# and the ORM's bulk insert adapted each field of each row in Python (a third of a
# result's projection at national scale); COPY formats the rows in C.
_PAIRING_FIELDS = [
    field for field in Pairing._meta.concrete_fields if not field.primary_key
]
_COPY_PAIRINGS = (
    f"COPY {Pairing._meta.db_table} "
    f"({', '.join(field.column for field in _PAIRING_FIELDS)}) FROM STDIN"
)


def _copy_pairings(pairings: list[Pairing]) -> None:
    if not pairings:
        return
    names = [field.attname for field in _PAIRING_FIELDS]
    with binary_cursor() as cursor, cursor.copy(_COPY_PAIRINGS) as copy:
        for row in pairings:
            copy.write_row([getattr(row, name) for name in names])


# Standings are rewritten after every result (a whole division's round): one
# statement with binary arrays instead of the ORM's per-field adaptation.
_INSERT_STANDINGS = """
INSERT INTO tournaments_standing (tournament_id, division, after_round, rank,
    player_id, number, name, rating, wins, losses, draws, spread, total_score,
    games, byes, withdrawn)
SELECT %b, %b, u.* FROM unnest(%b::int[], %b::int[], %b::text[], %b::int[],
    %b::text[], %b::int[], %b::int[], %b::int[], %b::int[], %b::int[], %b::int[],
    %b::int[], %b::int[], %b::bool[]) AS u
"""


def _insert_standings(
    tournament: Tournament, division: str, rows: list[tuple[int, StandingRow]]
) -> None:
    if not rows:
        return
    columns = [
        [after for after, _ in rows],
        [row.rank for _, row in rows],
        [row.player_id for _, row in rows],
        [row.number for _, row in rows],
        [row.name for _, row in rows],
        [row.rating for _, row in rows],
        [row.wins for _, row in rows],
        [row.losses for _, row in rows],
        [row.draws for _, row in rows],
        [row.spread for _, row in rows],
        [row.total_score for _, row in rows],
        [row.games for _, row in rows],
        [row.byes for _, row in rows],
        [row.withdrawn for _, row in rows],
    ]
    with binary_cursor() as cursor:
        cursor.execute(
            _INSERT_STANDINGS, [tournament.tournament_id, division, *columns]
        )


def _stamp(tournament: Tournament, pairings: list[Pairing]) -> None:
    """Set when and at which log position each row last changed (for sync)."""
    versions = {row.changed_version for row in pairings}
    found = dict(
        (version, (position, recorded_at))
        for version, position, recorded_at in StoredEvent.objects.filter(
            stream_id=tournament.tournament_id, version__in=versions
        ).values_list("version", "position", "recorded_at")
    )
    for row in pairings:
        row.changed_position, row.changed_at = found[row.changed_version]


def _pairing_rows(
    tournament: Tournament, state: TournamentAggregate, round_state: rt.RoundState
) -> list[Pairing]:
    rules = state.rules
    assert rules is not None
    index = round_state.round - 1
    method = round_state.pairing.method.value
    paired_version = state.paired_versions[(round_state.division, round_state.round)]
    rows = []
    for board in round_state.pairing.games:
        entry = rules.cards[board.first].entries[index]
        result = round_state.result_of(board.first, board.second)
        row = Pairing(
            tournament=tournament,
            division=round_state.division,
            round=round_state.round,
            board=board.board,
            first_id=board.first,
            second_id=board.second,
            method=method,
            changed_version=paired_version,
        )
        if entry is not None and entry.outcome is not None:
            row.has_result = True
            if entry.kind is EntryKind.FORFEIT_WIN:
                row.absentee_id = board.second
                row.winner_id = board.first
            elif entry.kind is EntryKind.FORFEIT_LOSS:
                second = rules.cards[board.second].entries[index]
                row.absentee_id = board.first
                if second is not None and second.kind is EntryKind.FORFEIT_LOSS:
                    row.absentee_id = f"{board.first},{board.second}"
                else:
                    row.winner_id = board.second
            else:
                row.first_score = entry.own_score
                row.second_score = entry.opponent_score
                row.first_pre_adjustment = entry.own_pre
                row.second_pre_adjustment = entry.opponent_pre
                if entry.outcome is rt.Outcome.WIN:
                    row.winner_id = board.first
                elif entry.outcome is rt.Outcome.LOSS:
                    row.winner_id = board.second
        if result is not None:
            row.game_id = result.game_id or None
            row.amended = result.previous is not None
            row.changed_version = state.stream_version_of(result.version)
        elif row.absentee_id:
            # A forfeit made by a withdrawal: that event changed the row.
            row.changed_version = max(
                paired_version,
                state.status_versions.get(board.first, 0),
                state.status_versions.get(board.second, 0),
            )
        rows.append(row)
    for player_id in round_state.pairing.byes:
        rows.append(
            Pairing(
                tournament=tournament,
                division=round_state.division,
                round=round_state.round,
                board=None,
                first_id=player_id,
                second_id="",
                method=method,
                has_result=True,
                winner_id=player_id,
                changed_version=paired_version,
            )
        )
    return rows
