"""Ratings exports: what ratings bodies read, all derived from the event log.

Nothing here is typed twice or decided again. The rated-games list reads the
results model (``PlayerRound``: one listed row per game, bye, forfeit or credit,
stamped with the event that last changed it); rating estimates and submission files
are built from the same rows (``tournament_record``) by the writers and formulas of
``rules.tsh``, ``rules.submissions`` and ``rules.ratings``; the change feed reads the
log itself, in commit order (``games.eventstore.feed.read_feed``).

Only published tournaments are visible to the cross-tournament reads (``*_list``,
``result_changes``); the per-tournament files are for whoever may read the tournament.

Usage::

    rows = game_rows(rated_game_list().filter(tournament_id=tid)[:100])
    estimates = player_rating_rows(player_rating_list().filter(tournament_id=tid))
    page = result_changes(after=0, limit=100)
    text = naspa_t_text(tournament_record(tid), divisions=["A"])
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import islice
from types import SimpleNamespace
from typing import Any

from anyascii import anyascii
from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q, QuerySet

from games.eventstore.feed import read_feed
from games.eventstore.models import StoredEvent
from games.eventstore.streams import stream_type
from rules.ratings import (
    ABSP,
    WESPA,
    AbspEvent,
    RatingsError,
    absp_event_ratings,
    absp_running_rating,
    elo_system,
    rate_division,
    rated_record,
)
from rules.records import DivisionRecord, EntryKind, PlayerRecord, TournamentRecord
from rules.submissions import format_absp_csv
from rules.tou import format_tou
from rules.tournament import round_entry
from rules.tsh import t_notes, write_t
from tournaments.core.aggregate import STREAM_TYPE
from tournaments.core.events import RESULT_EVENT_TYPES
from tournaments.core.projection import ENTRY_COLUMNS, entry_of
from tournaments.models import LISTED, Player, PlayerRound, Tournament

TIE_BREAK_PRE_ADJUSTMENT = "pre_adjustment_score"


class GameKind(StrEnum):
    """What a row of the rated-games list is; only games are rated."""

    GAME = "game"
    BYE = "bye"
    FORFEIT = "forfeit"  # a director's forfeit or a withdrawn player's
    CREDIT = "credit"  # a round credited to a player who was not paired in it


# The rules' entry kinds of the listed row (player 1's), by row kind.
_ENTRY_KINDS = {
    GameKind.GAME: [EntryKind.GAME],
    GameKind.BYE: [EntryKind.BYE],
    GameKind.FORFEIT: [
        EntryKind.FORFEIT_WIN,
        EntryKind.FORFEIT_LOSS,
        EntryKind.WITHDRAWAL_FORFEIT,
    ],
    GameKind.CREDIT: [EntryKind.CREDIT],
}


_ROW_KIND = {entry: row for row, entries in _ENTRY_KINDS.items() for entry in entries}


# --- Rated games ------------------------------------------------------------------


def rated_game_list() -> QuerySet[PlayerRound]:
    """Every result (games, byes, forfeits, credits) of published tournaments, one
    row each: the results model's row of the player who moved first, or of the
    player alone.

    Ordered for incremental sync: by the log position of the event that last changed
    the result, then by board, so an amended result moves to the end.
    """
    return (
        PlayerRound.objects.filter(LISTED, tournament__published=True)
        .select_related("tournament")
        .order_by("changed_position", "division", "round", "board", "player_id")
    )


def pairings_of_kind(rows: QuerySet[PlayerRound], kind: str) -> QuerySet[PlayerRound]:
    """Keep the rows of one ``GameKind``."""
    return rows.filter(kind__in=_ENTRY_KINDS[GameKind(kind)])


def pairings_rated(rows: QuerySet[PlayerRound], rated: bool) -> QuerySet[PlayerRound]:
    """Keep the played games (``rated``) or the byes, forfeits and credits."""
    return rows.filter(rated=rated)


def pairings_of_player(
    rows: QuerySet[PlayerRound], player_id: str
) -> QuerySet[PlayerRound]:
    """Keep the rows in which the player (internal id) sits on either side."""
    return rows.filter(Q(player_id=player_id) | Q(opponent_id=player_id))


def pairings_of_member(
    rows: QuerySet[PlayerRound], member_id: str
) -> QuerySet[PlayerRound]:
    """Keep the rows of players registered with this membership id."""
    members = Player.objects.filter(
        tournament_id=OuterRef("tournament_id"), member_id=member_id
    )
    return rows.filter(
        Exists(members.filter(player_id=OuterRef("player_id")))
        | Exists(members.filter(player_id=OuterRef("opponent_id")))
    )


def _published_since(**lookup: Any) -> Exists:
    return Exists(
        StoredEvent.objects.filter(
            stream_id=OuterRef("tournament_id"),
            event_type="publication_changed",
            **lookup,
        )
    )


def pairings_changed_since(
    rows: QuerySet[PlayerRound], since: datetime.datetime
) -> QuerySet[PlayerRound]:
    """Keep the rows changed at or after ``since``, or of a tournament published since.

    A tournament published late shows all its rows at once, however old their
    changes: a follower that synced before must still be given them.
    """
    return rows.filter(
        Q(changed_at__gte=since) | _published_since(recorded_at__gte=since)
    )


def pairings_changed_after(
    rows: QuerySet[PlayerRound], position: int
) -> QuerySet[PlayerRound]:
    """Keep the rows changed by an event after log ``position`` (or published since)."""
    return rows.filter(
        Q(changed_position__gt=position) | _published_since(position__gt=position)
    )


@dataclass(frozen=True, slots=True)
class GameRow:
    """One row of the rated-games list, flat so that JSON and CSV share the columns.

    ``player1`` sits first on the board (for a game: moved first); ``player2`` fields
    are None for a player alone (a bye, a credit, an unpaired forfeit). Every value
    is the rules' answer as the results model stores it: scores are None for byes
    and forfeits, whose spread is the awarded one; ``tie_break`` says when tied
    final scores were decided by the scores before the end-of-game adjustments.
    """

    tournament: uuid.UUID
    tournament_name: str
    division: str
    round: int
    board: int | None
    date: datetime.date
    kind: str
    rated: bool
    player1_id: str
    player1_name: str
    player1_member_id: str
    player1_rating: int | None
    player1_kind: str
    player1_score: int | None
    player1_pre_adjustment: int | None
    player1_result: str
    player1_spread: int
    player2_id: str | None
    player2_name: str | None
    player2_member_id: str | None
    player2_rating: int | None
    player2_kind: str | None
    player2_score: int | None
    player2_pre_adjustment: int | None
    player2_result: str | None
    player2_spread: int | None
    went_first: str | None
    winner: str | None
    tie_break: str | None
    amended: bool
    game_id: uuid.UUID | None
    changed_at: datetime.datetime
    changed_position: int
    changed_version: int


def game_rows(rows: Iterable[PlayerRound]) -> list[GameRow]:
    """Turn listed results rows (with their tournament) into rated-games rows."""
    rows = list(rows)
    players = _players_of(rows)
    opponents = _opponents_of(rows)
    return [_game_row(row, players, opponents) for row in rows]


def iter_game_rows(rows: QuerySet[PlayerRound], chunk: int = 1000) -> Iterator[GameRow]:
    """Stream a whole queryset as rows, reading players one chunk at a time."""
    found = rows.iterator(chunk_size=chunk)
    while batch := list(islice(found, chunk)):
        yield from game_rows(batch)


def _players_of(rows: Sequence[PlayerRound]) -> dict[tuple[Any, str], Player]:
    tournaments = {row.tournament_id for row in rows}
    ids = {row.player_id for row in rows} | {
        row.opponent_id for row in rows if row.opponent_id
    }
    found = Player.objects.filter(tournament_id__in=tournaments, player_id__in=ids)
    return {(p.tournament_id, p.player_id): p for p in found}


_Key = tuple[Any, str, int, str]


def _opponents_of(rows: Sequence[PlayerRound]) -> dict[_Key, PlayerRound]:
    """The second player's row of each game row (their side of the result)."""
    wanted = {
        (row.tournament_id, row.division, row.round, row.opponent_id)
        for row in rows
        if row.opponent_id
    }
    if not wanted:
        return {}
    found = PlayerRound.objects.filter(
        tournament_id__in={key[0] for key in wanted},
        round__in={key[2] for key in wanted},
        player_id__in={key[3] for key in wanted},
    )
    return {
        key: row
        for row in found
        if (key := (row.tournament_id, row.division, row.round, row.player_id))
        in wanted
    }


def _winner(first: PlayerRound, second: PlayerRound | None) -> str | None:
    for side in (first, second):
        if side is not None and side.outcome == "win":
            return side.player_id
    return None


def _game_row(
    row: PlayerRound,
    players: dict[tuple[Any, str], Player],
    opponents: dict[_Key, PlayerRound],
) -> GameRow:
    tournament = row.tournament
    first = players.get((row.tournament_id, row.player_id))
    second = (
        opponents.get((row.tournament_id, row.division, row.round, row.opponent_id))
        if row.opponent_id
        else None
    )
    second_player = (
        players.get((row.tournament_id, row.opponent_id)) if row.opponent_id else None
    )
    return GameRow(
        tournament=row.tournament_id,
        tournament_name=tournament.name,
        division=row.division,
        round=row.round,
        board=row.board,
        date=tournament.start_date,
        kind=_ROW_KIND[EntryKind(row.kind)].value,
        rated=row.rated,
        player1_id=row.player_id,
        player1_name=row.name,
        player1_member_id=first.member_id if first else "",
        player1_rating=row.rating,
        player1_kind=row.kind,
        player1_score=row.own_score,
        player1_pre_adjustment=row.own_pre_adjustment,
        player1_result=row.outcome,
        player1_spread=row.round_spread,
        player2_id=row.opponent_id or None,
        player2_name=second.name if second else None,
        player2_member_id=(
            (second_player.member_id if second_player else "") if second else None
        ),
        player2_rating=second.rating if second else None,
        player2_kind=second.kind if second else None,
        player2_score=row.opponent_score,
        player2_pre_adjustment=row.opponent_pre_adjustment,
        player2_result=second.outcome if second else None,
        player2_spread=second.round_spread if second else None,
        went_first=row.player_id if row.kind == EntryKind.GAME else None,
        winner=_winner(row, second),
        tie_break=TIE_BREAK_PRE_ADJUSTMENT if row.tie_break else None,
        amended=row.amended,
        game_id=row.game_id,
        changed_at=row.changed_at,
        changed_position=row.changed_position,
        changed_version=row.changed_version,
    )


# --- Rating estimates -------------------------------------------------------------

# How long estimates built at a tournament's version are kept: they never go stale
# for that version, but an ABSP running rating also reads the player's earlier
# events, which can change meanwhile.
ESTIMATES_TIMEOUT = 300


@dataclass(frozen=True, slots=True)
class PlayerEstimate:
    """A player's rated games and rating estimates in one division of one event.

    ``games`` to ``spread`` count played games only (byes and forfeits are never
    rated; they are counted apart), spread being the raw score difference (no cap).
    ``new_rating`` and ``rating_change`` are the estimate in the tournament's rating
    system (``rating_system``): tsh's for ``nsa2008``, ``naspa-csw`` and ``wespa``,
    the ABSP's running rating for ``absp``. Beside it, ``naspa_rating`` and
    ``wespa_rating`` (events rated on the Elo scale) and ``absp_event_rating`` and
    ``absp_rating`` (ABSP events). Everything counts rounds 1..``after_round``; a
    player without a rated game keeps the pre-event rating.
    """

    number: int
    after_round: int
    rating_system: str
    games: int
    wins: int
    losses: int
    draws: int
    spread: int
    byes: int
    forfeits: int
    expected_wins: float | None
    performance_rating: int | None
    new_rating: int | None
    rating_change: int | None
    naspa_rating: int | None
    wespa_rating: int | None
    absp_event_rating: int | None
    absp_rating: int | None


def _estimate(
    record: TournamentRecord, player: PlayerRecord, after: int, **estimates: Any
) -> PlayerEstimate:
    """The row of one player: counts, then the estimates given (None otherwise)."""
    fields = dict.fromkeys(
        (
            "expected_wins",
            "performance_rating",
            "naspa_rating",
            "wespa_rating",
            "absp_event_rating",
            "absp_rating",
        )
    )
    fields.update(estimates)
    new = fields["new_rating"]
    return PlayerEstimate(
        number=player.number,
        after_round=after,
        rating_system=record.rating_system,
        rating_change=None if not player.rating or new is None else new - player.rating,
        **rated_record(player, after),
        **fields,
    )


def division_estimates(
    record: TournamentRecord,
    division: DivisionRecord,
    *,
    after_round: int | None = None,
    absp_history: Mapping[int, Sequence[AbspEvent]] | None = None,
) -> dict[int, PlayerEstimate]:
    """Estimate every player of a division, keyed by player number.

    ``after_round`` (default: the last round with a result) limits the rounds
    counted. ``absp_history`` gives, by player number, the player's earlier ABSP
    events (newest first) for the running ABSP rating. Raises
    ``rules.ratings.RatingsError`` when the two sides of a game disagree.
    """
    last = max(
        (
            entry.round
            for player in division.players
            for entry in player.rounds
            if entry.result is not None
        ),
        default=0,
    )
    after = last if after_round is None else min(after_round, last)
    if record.rating_system == "absp":
        return _absp_estimates(record, division, after, absp_history or {})
    if record.rating_system == "none":
        # A body this project does not compute (config.tsh's "aus"): the rated
        # record only, the estimates switched off.
        return {
            player.number: _estimate(record, player, after, new_rating=None)
            for player in division.players
        }
    return _elo_estimates(record, division, after)


def rounds_of(record: TournamentRecord, division: DivisionRecord) -> int:
    """The rounds the division plays (its own, else the event's): what decides a
    NASPA split event's segments for its players."""
    return division.rounds or record.rounds


def _elo_estimates(
    record: TournamentRecord, division: DivisionRecord, after: int
) -> dict[int, PlayerEstimate]:
    """tsh's NASPA (the tournament's system, or nsa2008) and wespa estimates."""
    naspa_name = record.rating_system if record.rating_system != "wespa" else "nsa2008"
    options = {"rounds": rounds_of(record, division), "after_round": after}
    naspa = rate_division(
        division, elo_system(naspa_name, club=record.club_event), **options
    )
    wespa = rate_division(division, WESPA, **options)
    main = wespa if record.rating_system == "wespa" else naspa
    estimates = {}
    for player in division.players:
        change = main[player.number]
        estimates[player.number] = _estimate(
            record,
            player,
            after,
            expected_wins=round(change.expected, 3) if change.games else None,
            performance_rating=change.performance,
            new_rating=change.new,
            naspa_rating=naspa[player.number].new,
            wespa_rating=wespa[player.number].new,
        )
    return estimates


def new_ratings(
    record: TournamentRecord,
    division: DivisionRecord,
    after_round: int,
    absp_history: Mapping[int, Sequence[AbspEvent]] | None = None,
) -> dict[int, int | None]:
    """Each player's estimate after ``after_round`` in the tournament's own rating
    system only (``new_rating`` of ``division_estimates``, without the other
    systems' figures): tsh's ``newr`` of that round."""
    if record.rating_system == "absp":
        found = _absp_estimates(record, division, after_round, absp_history or {})
        return {number: estimate.new_rating for number, estimate in found.items()}
    if record.rating_system == "wespa":
        system = WESPA
    else:
        system = elo_system(record.rating_system, club=record.club_event)
    changes = rate_division(
        division, system, rounds=rounds_of(record, division), after_round=after_round
    )
    return {number: change.new for number, change in changes.items()}


def _absp_estimates(
    record: TournamentRecord,
    division: DivisionRecord,
    after: int,
    history: Mapping[int, Sequence[AbspEvent]],
) -> dict[int, PlayerEstimate]:
    """The ABSP event rating and the running rating with the player's history."""
    events = absp_event_ratings(division, after_round=after)
    estimates = {}
    for player in division.players:
        rating, event = events.get(player.number, (player.rating, AbspEvent(0, 0)))
        earlier = history.get(player.number, ())
        running = absp_running_rating([event, *earlier])
        estimates[player.number] = _estimate(
            record,
            player,
            after,
            new_rating=player.rating if running is None else running,
            absp_event_rating=rating if event.games else None,
            absp_rating=running,
        )
    return estimates


# What a record reads of a results row: the rules' entry (``entry_of``), the
# player, the rank.
RECORD_COLUMNS = ("player_id", "rank", *ENTRY_COLUMNS)


def tournament_record(tournament_id: uuid.UUID) -> TournamentRecord:
    """Every division's results as the writers' neutral records, read from the
    results model (the rules' entries as stored): nothing is decided again."""
    tournament = Tournament.objects.get(pk=tournament_id)
    rows = PlayerRound.objects.filter(tournament_id=tournament_id)
    by_player: dict[str, list[Any]] = {}
    # The columns as plain rows: a model instance per row cost 1.3 of the 2.2 s
    # a national event's record took (8,800 rows; the live tourney.js reads it
    # after every result).
    for values in rows.order_by("round").values(*RECORD_COLUMNS):
        row = SimpleNamespace(**values)
        by_player.setdefault(row.player_id, []).append(row)
    players = Player.objects.filter(tournament_id=tournament_id)
    numbers = {player.player_id: player.number for player in players}
    divisions = []
    for division in tournament.divisions:
        records = [
            PlayerRecord(
                number=player.number,
                name=player.name,
                rating=player.rating,
                rounds=tuple(
                    round_entry(entry_of(row), numbers.get(row.opponent_id))
                    for row in by_player.get(player.player_id, [])
                    if row.round > 0
                ),
                ranks=tuple(row.rank for row in by_player.get(player.player_id, [])),
                member_id=player.member_id,
                withdrawn=player.withdrawn,
                rating_text=player.rating_text,
                career_games=player.career_games,
                extensions=tuple((key, value) for key, value in player.extensions),
            )
            for player in sorted(players, key=lambda p: p.number)
            if player.division == division
        ]
        divisions.append(
            DivisionRecord(
                name=division,
                players=tuple(records),
                rounds=tournament.rounds_of(division),
            )
        )
    return TournamentRecord(
        name=tournament.name,
        date=tournament.start_date.isoformat(),
        divisions=tuple(divisions),
        rating_system=tournament.rating_system,
        club_event=tournament.club_event,
        rounds=tournament.rounds,
    )


def tournament_estimates(
    tournament: Tournament, after_round: int | None = None
) -> dict[str, dict[int, PlayerEstimate]]:
    """Every division's estimates, by division name then player number; cached by
    the tournament's version (and the round asked for)."""
    key = f"estimates:{tournament.tournament_id}:v{tournament.version}:{after_round}"
    found = cache.get(key)
    if found is None:
        record = tournament_record(tournament.tournament_id)
        found = {
            division.name: division_estimates(
                record,
                division,
                after_round=after_round,
                absp_history=absp_histories(tournament, division)
                if record.rating_system == "absp"
                else None,
            )
            for division in record.divisions
        }
        cache.set(key, found, ESTIMATES_TIMEOUT)
    return found


def absp_histories(
    tournament: Tournament, division: DivisionRecord
) -> dict[int, list[AbspEvent]]:
    """The earlier ABSP events of the division's players with a membership id, newest
    first, from the published ABSP-rated tournaments that started before this one,
    as far back as the running rating reads (150 games)."""
    members = {p.member_id: p.number for p in division.players if p.member_id}
    found: dict[int, list[AbspEvent]] = {number: [] for number in members.values()}
    earlier = (
        Player.objects.filter(
            member_id__in=members,
            tournament__published=True,
            tournament__rating_system="absp",
            tournament__start_date__lt=tournament.start_date,
        )
        .select_related("tournament")
        .order_by("-tournament__start_date", "-tournament__created_at")
    )
    for player in earlier:
        events = found[members[player.member_id]]
        if sum(event.games for event in events) >= ABSP.games:
            continue
        event = _absp_event_of(player.tournament, player.division, player.number)
        if event is not None and event.games:
            events.append(event)
    return found


def _absp_event_of(
    tournament: Tournament, division: str, number: int
) -> AbspEvent | None:
    key = f"absp-event:{tournament.tournament_id}:v{tournament.version}:{division}"
    events = cache.get(key)
    if events is None:
        record = tournament_record(tournament.tournament_id)
        events = {}
        for found in record.divisions:
            if found.name == division:
                try:
                    rated = absp_event_ratings(found)
                except RatingsError:
                    rated = {}
                events = {n: event for n, (_, event) in rated.items()}
        cache.set(key, events, ESTIMATES_TIMEOUT)
    return events.get(number)


def player_rating_list() -> QuerySet[Player]:
    """Every player of a published tournament, newest tournament first."""
    return (
        Player.objects.filter(tournament__published=True)
        .select_related("tournament")
        .order_by("-tournament__start_date", "tournament_id", "division", "number")
    )


@dataclass(frozen=True, slots=True)
class PlayerRatingRow:
    """One player of one tournament with their rated games and estimates."""

    tournament: uuid.UUID
    tournament_name: str
    date: datetime.date
    division: str
    player_id: str
    number: int
    name: str
    member_id: str
    withdrawn: bool
    rating: int
    career_games: int | None
    club_event: bool
    estimate: PlayerEstimate


def player_rating_rows(
    players: Iterable[Player], after_round: int | None = None
) -> list[PlayerRatingRow]:
    """Attach the estimates to players (with their tournament), after ``after_round``
    (default: the latest round); one computation per tournament version."""
    by_tournament: dict[uuid.UUID, dict[str, dict[int, PlayerEstimate]]] = {}
    rows = []
    for player in players:
        tournament = player.tournament
        if player.tournament_id not in by_tournament:
            by_tournament[player.tournament_id] = tournament_estimates(
                tournament, after_round
            )
        estimate = by_tournament[player.tournament_id][player.division][player.number]
        rows.append(
            PlayerRatingRow(
                tournament=player.tournament_id,
                tournament_name=tournament.name,
                date=tournament.start_date,
                division=player.division,
                player_id=player.player_id,
                number=player.number,
                name=player.name,
                member_id=player.member_id,
                withdrawn=player.withdrawn,
                rating=player.rating,
                career_games=player.career_games,
                club_event=tournament.club_event,
                estimate=estimate,
            )
        )
    return rows


# --- Submission files -------------------------------------------------------------


def naspa_t_text(
    record: TournamentRecord,
    divisions: Sequence[str] | None = None,
    *,
    firsts: bool = False,
) -> str:
    """Return the NASPA submission: per division a ``#division NAME`` line, then the
    division's ``.t`` lines (``rules.tsh.write_t``; it writes no header of its own),
    after a ``# note:`` comment for each thing the file cannot say as the system
    holds it (``rules.tsh.t_notes``: a tie won on the tie-break reads as a draw).

    ``divisions`` limits the file to those divisions, in the tournament's order.
    Raises ``rules.tsh.TshError`` for a name a ``.t`` file cannot hold.
    """
    return "".join(
        f"#division {division.name}\n"
        # What the file cannot say as the system holds it, as comments tsh skips.
        + "".join(f"# note: {note}\n" for note in t_notes(division))
        + write_t(division, firsts=firsts)
        for division in record.divisions
        if divisions is None or division.name in divisions
    )


def tou_text(record: TournamentRecord) -> str:
    """Return the AUPAIR ``.TOU`` file, names transliterated to ASCII by anyascii;
    raises ``SubmissionError`` like format_tou."""
    return format_tou(record, transliterate=anyascii)


def absp_csv_text(record: TournamentRecord) -> str:
    """Return the ABSP results CSV; raises ``SubmissionError`` like format_absp_csv."""
    return format_absp_csv(record)


# --- Change feed ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResultChange:
    """One event that changed a result, as stored (payload in the current schema)."""

    position: int
    tournament: uuid.UUID
    version: int
    event_type: str
    recorded_at: datetime.datetime
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ResultChangePage:
    """A page of the feed: pass ``next`` as ``after`` to continue.

    ``more`` is true when the page is full: ask again at once.
    """

    changes: tuple[ResultChange, ...]
    next: int
    more: bool


def result_changes(
    *,
    after: int = 0,
    limit: int = 100,
    tournament_id: uuid.UUID | None = None,
) -> ResultChangePage:
    """Return up to ``limit`` result-changing events after feed position ``after``.

    Positions are the feed's (``games.eventstore.feed``): numbered in commit
    order, so an event committed after this page is read always comes after
    ``next``, and nothing is held back. Only events of tournaments published now
    are returned; ``next`` moves past the others (and past the tournaments' other
    events), so a follower never rescans them.
    """
    published = Tournament.objects.filter(published=True)
    if tournament_id is not None:
        published = published.filter(pk=tournament_id)
    visible = set(published.values_list("tournament_id", flat=True))
    codec = stream_type(STREAM_TYPE).codec
    changes: list[ResultChange] = []
    cursor = after
    while True:
        page = read_feed(
            after=cursor,
            stream_types=None if tournament_id else [STREAM_TYPE],
            stream_ids=[tournament_id] if tournament_id else None,
            limit=max(limit, 100),
        )
        for item in page.events:
            recorded = item.event
            if recorded.type_name not in RESULT_EVENT_TYPES:
                continue
            if recorded.stream.id not in visible:
                continue
            _, _, payload = codec.encode(recorded.event)
            changes.append(
                ResultChange(
                    position=item.feed_position,
                    tournament=recorded.stream.id,
                    version=recorded.version,
                    event_type=recorded.type_name,
                    recorded_at=recorded.recorded_at,
                    payload=payload,
                )
            )
            if len(changes) == limit:
                return ResultChangePage(tuple(changes), item.feed_position, True)
        cursor = page.head
        if not page.full:
            return ResultChangePage(tuple(changes), cursor, False)
