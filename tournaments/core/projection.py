"""The tournament's projections: the read models rewritten after each append.

Only the rows the events can change are rewritten (``_Scope``): the team, the
players, and the results rows (``PlayerRound``: each player's round as the rules
decided it, and the standings after it) from the earliest affected round on, in the
affected division. A result in the last round of a 31-round national event rewrites
one round's rows, not 31.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils import timezone

from games.eventstore.models import StoredEvent
from games.eventstore.sql import BulkInsert
from games.eventstore.streams import RecordedEvent
from rules import tournament as rt
from rules.records import EntryKind
from rules.tournament.standings import StandingRow, standings
from tournaments.core import events as core_events
from tournaments.core.aggregate import TournamentAggregate
from tournaments.models import (
    Director,
    Player,
    PlayerRound,
    Tournament,
)


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
            elif isinstance(
                event,
                (
                    core_events.PlayerAccountLinked,
                    core_events.PlayerAccountRejected,
                    core_events.SelfEntryChanged,
                ),
            ):
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
                event,
                (
                    rt.ResultRecorded,
                    rt.ResultAmended,
                    rt.UnpairedRoundRecorded,
                    rt.RoundAwarded,
                    rt.TieWinRecorded,
                ),
            ):
                player_id = (
                    event.winner
                    if isinstance(event, rt.TieWinRecorded)
                    else getattr(event, "player_a", None) or event.player_id
                )
                scope.touch(rules.players[player_id].division, event.round)
            elif isinstance(event, rt.ForfeitRecorded):
                scope.touch(rules.players[event.absentee].division, event.round)
            elif isinstance(event, rt.DivisionAdded):
                scope.touch(event.name, 0)
            elif isinstance(event, rt.RoundScheduleSet):
                # No row changes, but the scorecards foretell the schedule's
                # rounds: the division's version moves on (their cache key).
                scope.touch(event.division, rules.paired_rounds(event.division) + 1)
        return scope


def project_tournament(
    tournament_id: uuid.UUID,
    state: TournamentAggregate,
    new_events: Sequence[RecordedEvent],
    *,
    full: bool,
) -> int:
    """Rewrite the read models `new_events` can change (all of them when `full`);
    return the tournament's version."""
    rules = state.rules
    assert rules is not None
    now = timezone.now()
    values = _tournament_values(state, new_events[-1].version, now)
    tournament = (
        Tournament.objects.select_for_update()
        .filter(tournament_id=tournament_id)
        .first()
    )
    created = tournament is None
    if tournament is None:
        created_at = new_events[0].recorded_at if new_events[0].version == 1 else now
        tournament = Tournament(tournament_id=tournament_id, created_at=created_at)
    scope = _Scope.of(rules, [e.event for e in new_events], full=full or created)
    # Standings and scorecards show player rows too, so a players change counts for
    # every division.
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
    _project_scope(tournament, state, scope)
    return int(values["version"])


def _project_scope(
    tournament: Tournament, state: TournamentAggregate, scope: _Scope
) -> None:
    if scope.directors:
        _project_directors(tournament, state)
    if scope.players:
        _project_players(tournament, state)
    if scope.renamed:
        # Rows under a division's old name: written again under the new one.
        PlayerRound.objects.filter(tournament=tournament).delete()
    for division, from_round in scope.rounds.items():
        _project_rounds(tournament, state, division, from_round)


def _tournament_values(
    state: TournamentAggregate, version: int, now: datetime.datetime
) -> dict[str, Any]:
    """The tournament's header row as the aggregate has it."""
    rules = state.rules
    assert rules is not None
    settings = rules.settings
    return {
        "version": version,
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
        "rack_delay_minutes": state.rack_delay_minutes,
        "division_rounds": dict(rules.division_rounds),
        "updated_at": now,
    }


def _recounts(event: object) -> bool:
    """Whether an event can change every count: a settings change (any but one of
    the games' tile set and lexicon only, which no row shows), a move between
    divisions or a division's rounds."""
    if isinstance(event, (rt.PlayerMoved, rt.DivisionRoundsSet)):
        # A move renumbers two divisions; a division's rounds show on its pages.
        return True
    return (
        isinstance(event, rt.SettingsChanged)
        and replace(event, tile_set=None, lexicon=None) != rt.SettingsChanged()
    )


_ROLE_EVENTS = (
    core_events.DirectorAdded,
    core_events.DirectorRemoved,
    core_events.ScorekeeperAdded,
    core_events.ScorekeeperRemoved,
)


def _project_directors(tournament: Tournament, state: TournamentAggregate) -> None:
    Director.objects.filter(tournament=tournament).delete()
    Director.objects.bulk_create(
        [
            Director(tournament=tournament, user_id=user_id, role=role)
            for user_id, role in state.team()
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
        running_spread=line.spread,
        total_score=line.total_score,
        games=line.games,
        byes=line.byes,
        kind=entry.kind.value,
        method="" if round_state is None else round_state.pairing.method.value,
        opponent_id=entry.opponent or "",
        went_first=entry.went_first,
        first_known=entry.first_known,
        board=entry.board,
        own_score=entry.own_score,
        opponent_score=entry.opponent_score,
        own_pre_adjustment=entry.own_pre_adjustment,
        opponent_pre_adjustment=entry.opponent_pre_adjustment,
        outcome="" if entry.outcome is None else entry.outcome.value,
        tie_break=entry.tie_break,
        round_spread=entry.round_spread,
        counted_spread=entry.counted_spread,
        has_result=entry.has_result,
        rated=entry.rated,
        game_id=_game_uuid(entry.game_id),
        amended=entry.amended,
        # An entry no event changed yet (an unplayed round): the stream's start.
        changed_version=state.stream_version_of(entry.version or 1),
    )


# The results row's columns ``entry_of`` reads: a reader of plain rows asks for these.
ENTRY_COLUMNS = (
    "round",
    "kind",
    "opponent_id",
    "went_first",
    "first_known",
    "board",
    "own_score",
    "opponent_score",
    "own_pre_adjustment",
    "opponent_pre_adjustment",
    "outcome",
    "tie_break",
    "round_spread",
    "counted_spread",
    "game_id",
    "amended",
)


def entry_of(row: PlayerRound) -> rt.Entry:
    """Return the rules' entry a results row stores (``_player_round``'s inverse)."""
    return rt.Entry(
        round=row.round,
        kind=EntryKind(row.kind),
        opponent=row.opponent_id or None,
        went_first=row.went_first,
        first_known=row.first_known,
        board=row.board,
        own_score=row.own_score,
        opponent_score=row.opponent_score,
        own_pre_adjustment=row.own_pre_adjustment,
        opponent_pre_adjustment=row.opponent_pre_adjustment,
        outcome=rt.Outcome(row.outcome) if row.outcome else None,
        tie_break=row.tie_break,
        round_spread=row.round_spread,
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


def project_past(
    tournament_id: uuid.UUID,
    state: TournamentAggregate,
    *,
    version: int,
    recorded_at: datetime.datetime,
    present: Tournament | None,
) -> None:
    """Write the read models of `state`, the aggregate after event `version`, into
    empty tables (``core.past.viewing``'s temporary ones), by the code that
    projects the present. Access stays the present's: publication and the rack
    delay are copied from `present`, the tournament's row today."""
    rules = state.rules
    assert rules is not None
    values = _tournament_values(state, version, recorded_at)
    values["division_versions"] = {division: version for division in rules.divisions}
    if present is not None:
        values["published"] = present.published
        values["rack_delay_minutes"] = present.rack_delay_minutes
    tournament = Tournament(
        tournament_id=tournament_id,
        created_at=present.created_at if present is not None else recorded_at,
        **values,
    )
    tournament.save(force_insert=True)
    _project_players(tournament, state)
    for division in rules.divisions:
        _project_rounds(tournament, state, division, 0)
