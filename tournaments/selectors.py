"""Every read of the tournaments app, by role: access, headers, results, the audit.

Results come from one read model, ``PlayerRound``: each player's round as
``rules.tournament`` decided it (kind, opponent, seat, scores, outcome, spread) with
the standing after it. Standings, scorecards, a round's pairings and the ratings
lists are views of those rows; nothing here decides a result again.

The hottest reads (standings, scorecards, the headers every cached page needs) are
plain SQL returning tuples: through the ORM, compiling each query and building a
model instance per row cost several times what PostgreSQL spent answering (profiled
at national scale: a scorecard took 13 ms, 4.5 queries of which about 2 ms each was
Django's own work). Callers get typed rows either way.

Usage::

    header = readable_header(tournament_header(tid), request.user)
    shown, rows = standings(tid, "A", after_round=None)
    lines = scorecard_lines(tid, player_id, "A")
    boards = round_boards(tid, "A", 3)
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.http import Http404

from config.replicas import reading
from games.eventstore.store import read_stream
from games.eventstore.streams import stream_type
from rules import tournament as rt
from rules.division_rules import PairingOptions, Prize, PrizeTable
from rules.outcome import record_points
from rules.prizes import player_classes, prize_winners
from rules.standings import format_record
from tournaments.models import DIRECTOR, Director, Player, PlayerRound, Tournament
from tournaments.serializers import PlayerOutput
from tournaments.services import tournament_state, tournament_stream

# --- Who may read ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentHeader:
    """What a read needs before its body: who may see it and its cache key."""

    pk: uuid.UUID
    version: int
    published: bool
    rounds: int
    divisions: list[str]
    division_versions: dict[str, int]
    name: str = ""
    # Set by scorecard_header: the player's row, when the player exists.
    player: dict[str, Any] | None = None
    ranking: str = "extended"  # the rule the standings are ranked by
    self_entry: bool = False  # players may report their own games

    def division_version(self, division: str) -> int:
        # A tournament projected before division versions existed: the stream's.
        return self.division_versions.get(division, self.version)


def tournament_list(user: Any = None) -> QuerySet[Tournament]:
    """Published tournaments, and those the user directs."""
    visible = Q(published=True)
    if user is not None and user.is_authenticated:
        visible |= Q(directors__user=user)
    return Tournament.objects.filter(visible).distinct()


def tournament_role(tournament: Tournament | TournamentHeader, user: Any) -> str | None:
    """The user's role in the tournament's team (DIRECTOR, SCOREKEEPER), or None."""
    if user is None or not user.is_authenticated:
        return None
    return (
        Director.objects.filter(tournament_id=tournament.pk, user=user)
        .values_list("role", flat=True)
        .first()
    )


def tournament_is_director(
    tournament: Tournament | TournamentHeader, user: Any
) -> bool:
    return tournament_role(tournament, user) == DIRECTOR


def tournament_can_read(tournament: Tournament | TournamentHeader, user: Any) -> bool:
    """Published tournaments are public; the others are their team's only."""
    return tournament.published or tournament_role(tournament, user) is not None


def tournament_team(tournament: Tournament) -> list[tuple[str, str]]:
    """The team as (username, role), directors first."""
    rows = Director.objects.filter(tournament=tournament).values_list(
        "user__username", "role"
    )
    return sorted(rows, key=lambda row: (row[1] != DIRECTOR, row[0]))


def readable_header(header: TournamentHeader | None, user: Any) -> TournamentHeader:
    """The header if the user may read the tournament; 404 otherwise (no existence
    leak), for the reads that start from a header instead of the model."""
    if header is None or not tournament_can_read(header, user):
        raise Http404  # no message: the API's 404 body stays DRF's own
    return header


# --- Headers -----------------------------------------------------------------------

_HEADER = """
SELECT tournament_id, version, published, rounds, divisions, division_versions, name,
       ranking, self_entry
FROM tournaments_tournament WHERE tournament_id = %s
"""


def _header(
    row: tuple[Any, ...], player: dict[str, Any] | None = None
) -> TournamentHeader:
    # Django's connection hands jsonb over as text (JSONField parses it itself).
    (
        pk,
        version,
        published,
        rounds,
        divisions,
        division_versions,
        name,
        ranking,
        self_entry,
    ) = row
    return TournamentHeader(
        pk,
        version,
        published,
        rounds,
        json.loads(divisions),
        json.loads(division_versions),
        name,
        player,
        ranking,
        self_entry,
    )


def tournament_header(tournament_id: uuid.UUID) -> TournamentHeader | None:
    with reading().cursor() as cursor:
        cursor.execute(_HEADER, [tournament_id])
        row = cursor.fetchone()
    return None if row is None else _header(row)


# The columns, in PlayerOutput's order (its "id" is the player_id column).
PLAYER_FIELDS = tuple(PlayerOutput.Meta.fields)
_PLAYER_COLUMNS = ", ".join(
    f"p.{'player_id' if name == 'id' else name}" for name in PLAYER_FIELDS
)

# The player's row comes with the tournament's: a scorecard's cache key needs the
# player's division.
_SCORECARD_HEADER = f"""
SELECT t.tournament_id, t.version, t.published, t.rounds, t.divisions,
       t.division_versions, t.name, t.ranking, t.self_entry,
       {_PLAYER_COLUMNS}
FROM tournaments_tournament t
LEFT JOIN tournaments_player p
       ON p.tournament_id = t.tournament_id AND p.player_id = %s
WHERE t.tournament_id = %s
"""


def scorecard_header(
    tournament_id: uuid.UUID, player_id: str
) -> TournamentHeader | None:
    with reading().cursor() as cursor:
        cursor.execute(_SCORECARD_HEADER, [player_id, tournament_id])
        row = cursor.fetchone()
    if row is None:
        return None
    player = None if row[9] is None else dict(zip(PLAYER_FIELDS, row[9:], strict=True))
    return _header(row[:9], player)


# --- Players -----------------------------------------------------------------------


def players_by_id(tournament: Tournament) -> dict[str, Player]:
    return {p.player_id: p for p in Player.objects.filter(tournament=tournament)}


def division_roster(tournament: Tournament, division: str) -> dict[int, Player]:
    """The division's players by number."""
    return {
        player.number: player
        for player in Player.objects.filter(tournament=tournament, division=division)
    }


# --- Results: standings ------------------------------------------------------------

# Served by player_round_standings (tournament, division, round, position).
_LAST_ROUND = """
SELECT max(round) FROM tournaments_player_round
WHERE tournament_id = %s AND division = %s
"""


def last_round(tournament_id: uuid.UUID, division: str) -> int | None:
    """The division's last round with rows: its last paired round, 0 before round 1
    is paired (the pre-event order), None while the division has no player."""
    with reading().cursor() as cursor:
        cursor.execute(_LAST_ROUND, [tournament_id, division])
        (last,) = cursor.fetchone()
    return last


def paired_rounds(tournament_id: uuid.UUID, division: str) -> int:
    """How many rounds of the division are paired."""
    return last_round(tournament_id, division) or 0


# Serves the latest standings too: the subquery finds the division's last round
# through the same index (player_round_standings).
_STANDINGS = """
SELECT round, rank, player_id, number, name, rating, wins, losses, draws,
       spread, total_score, games, byes, withdrawn
FROM tournaments_player_round
WHERE tournament_id = %s AND division = %s
  AND round = COALESCE(%s, (SELECT max(round) FROM tournaments_player_round
                            WHERE tournament_id = %s AND division = %s))
ORDER BY position
"""


def standings(
    tournament_id: uuid.UUID, division: str, after_round: int | None
) -> tuple[int, list[dict[str, Any]]]:
    """The division's standings after ``after_round`` (None: the latest round; 0:
    the pre-event order), shaped as ``StandingOutput`` documents them."""
    with reading().cursor() as cursor:
        cursor.execute(
            _STANDINGS,
            [tournament_id, division, after_round, tournament_id, division],
        )
        rows = cursor.fetchall()
    shown = rows[0][0] if rows else (after_round or 0)
    return shown, [
        {
            "rank": rank,
            "player": player_id,
            "number": number,
            "name": name,
            "rating": rating,
            "wins": wins,
            "losses": losses,
            "draws": draws,
            "points": record_points(wins, draws),
            "record": format_record(wins, losses, draws),
            "spread": spread,
            "total_score": total_score,
            "games": games,
            "byes": byes,
            "withdrawn": withdrawn,
        }
        for (
            _,
            rank,
            player_id,
            number,
            name,
            rating,
            wins,
            losses,
            draws,
            spread,
            total_score,
            games,
            byes,
            withdrawn,
        ) in rows
    ]


# --- Results: a player's rounds ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScorecardLine:
    """One round of a player's scorecard: the rules' entry and the totals after it.

    ``result`` is the outcome ("win", "draw", "loss"; "" while the game is to be
    played, for an unplayed round and for a credit of 0). ``spread`` is the round's
    spread as counted (after a cap), ``uncapped_spread`` before it.
    """

    round: int
    kind: str
    opponent_id: str
    opponent_name: str
    went_first: bool | None
    board: int | None
    own_score: int | None
    opponent_score: int | None
    own_pre_adjustment: int | None
    opponent_pre_adjustment: int | None
    result: str
    tie_break: bool
    has_result: bool
    spread: int
    uncapped_spread: int
    wins: int
    losses: int
    draws: int
    running_spread: int
    rank: int | None
    game_id: uuid.UUID | None
    amended: bool

    @property
    def record(self) -> str:
        return format_record(self.wins, self.losses, self.draws)


# The ScorecardLine fields read from a PlayerRound row, in order.
_LINE_COLUMNS = """
r.round, r.kind, r.opponent_id, o.name, r.first, r.board, r.own_score,
r.opponent_score, r.own_pre, r.opponent_pre, r.outcome, r.tie_break, r.has_result,
r.counted_spread, r.round_spread, r.wins, r.losses, r.draws, r.spread, r.rank,
r.game_id, r.amended
"""

# Served by player_round_player; the opponent's name comes along (a national
# division has hundreds of players).
_PLAYER_LINES = f"""
SELECT {_LINE_COLUMNS}
FROM tournaments_player_round r
LEFT JOIN tournaments_player o
       ON o.tournament_id = r.tournament_id AND o.player_id = r.opponent_id
WHERE r.tournament_id = %s AND r.player_id = %s AND r.division = %s AND r.round > 0
ORDER BY r.round
"""


def scorecard_lines(
    tournament_id: uuid.UUID, player_id: str, division: str
) -> list[ScorecardLine]:
    """The player's rounds 1 to the division's last paired round (one statement)."""
    with reading().cursor() as cursor:
        cursor.execute(_PLAYER_LINES, [tournament_id, player_id, division])
        rows = cursor.fetchall()
    return [_scorecard_line(row) for row in rows]


def _scorecard_line(row: tuple[Any, ...]) -> ScorecardLine:
    (round_, kind, opponent_id, opponent_name, *middle) = row
    return ScorecardLine(round_, kind, opponent_id, opponent_name or "", *middle)


@dataclass(frozen=True, slots=True)
class LatestStanding:
    """Where a player stands after the division's latest round."""

    after_round: int
    rank: int | None
    record: str
    spread: int


def latest_standing(lines: list[ScorecardLine]) -> LatestStanding | None:
    """The standing after the last of a player's scorecard lines."""
    if not lines:
        return None
    last = lines[-1]
    return LatestStanding(last.round, last.rank, last.record, last.running_spread)


# --- Results: a round's boards -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """One player's side of a board: the row of ``PlayerRound`` with names."""

    player_id: str
    number: int
    name: str
    kind: str
    first: bool | None
    own_score: int | None
    opponent_score: int | None
    own_pre: int | None
    opponent_pre: int | None
    outcome: str
    tie_break: bool
    has_result: bool
    spread: int
    counted_spread: int
    game_id: uuid.UUID | None
    amended: bool


@dataclass(frozen=True, slots=True)
class Board:
    """One line of a round's pairings: a game (both sides, the first mover first)
    or a player alone (a bye, a credit, a withdrawn player's forfeit)."""

    round: int
    board: int | None
    method: str
    first: Side
    second: Side | None

    @property
    def has_result(self) -> bool:
        return self.first.has_result

    @property
    def game_id(self) -> uuid.UUID | None:
        return self.first.game_id


_ROUND_ROWS = """
SELECT player_id, number, name, kind, first, own_score, opponent_score, own_pre,
       opponent_pre, outcome, tie_break, has_result, round_spread, counted_spread,
       game_id, amended, board, opponent_id, method
FROM tournaments_player_round
WHERE tournament_id = %s AND division = %s AND round = %s AND kind <> 'unplayed'
"""


def round_boards(tournament_id: uuid.UUID, division: str, round_: int) -> list[Board]:
    """The round's games by board, then the players alone, by number."""
    with reading().cursor() as cursor:
        cursor.execute(_ROUND_ROWS, [tournament_id, division, round_])
        rows = cursor.fetchall()
    sides = {row[0]: (Side(*row[:16]), row[16], row[17], row[18]) for row in rows}
    boards = []
    for side, board, opponent_id, method in sides.values():
        if opponent_id and side.first is not True:
            continue  # the second mover: on the first mover's line
        second = sides[opponent_id][0] if opponent_id else None
        boards.append(Board(round_, board, method, side, second))
    boards.sort(key=lambda b: (b.board is None, b.board or 0, b.first.number))
    return boards


# --- Results: the games recorded on a player's boards ------------------------------

# Served by games_game_division (tournament, division, round, board); the exact
# (round, board) pairs are picked from the rounds' and boards' cross product here.
_BOARD_GAMES = """
SELECT round, board_number, game_id FROM games_game
WHERE tournament_id = %s AND division = %s
  AND round = ANY(%s) AND board_number = ANY(%s)
ORDER BY started_at
"""


def board_game_ids(
    tournament_id: uuid.UUID, division: str, boards: list[tuple[int, int | None]]
) -> dict[tuple[int, int | None], uuid.UUID]:
    """The latest recorded game of each (round, board), by id: the games a
    scorecard links when no result names them."""
    wanted = {(round_, board) for round_, board in boards if board is not None}
    if not wanted:
        return {}
    with reading().cursor() as cursor:
        cursor.execute(
            _BOARD_GAMES,
            [
                tournament_id,
                division,
                sorted({round_ for round_, _ in wanted}),
                sorted({board for _, board in wanted}),
            ],
        )
        rows = cursor.fetchall()
    # Ordered by start: a later game of the same board replaces an earlier one.
    return {
        (round_, board): game_id
        for round_, board, game_id in rows
        if (round_, board) in wanted
    }


def missing_results(tournament: Tournament, division: str) -> int:
    """Paired games of the division still without a result."""
    return PlayerRound.objects.filter(
        tournament=tournament,
        division=division,
        kind="game",
        first=True,
        has_result=False,
    ).count()


# --- The audit ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One event of the tournament's log, as a director reads it."""

    version: int
    position: int
    recorded_at: Any
    recorded_by: str
    event_type: str
    summary: str
    payload: dict[str, Any]
    supersedes: dict[str, Any] | None


def tournament_audit(tournament: Tournament) -> list[AuditEntry]:
    """The whole log: who did what, when, and what each amendment superseded."""
    events = read_stream(tournament_stream(tournament.tournament_id))
    user_ids = {e.recorded_by_id for e in events if e.recorded_by_id}
    usernames = dict(
        get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username")
    )
    names = dict(
        Player.objects.filter(tournament=tournament).values_list("player_id", "name")
    )
    codec = stream_type("tournament").codec
    latest: dict[tuple[int, frozenset[str]], dict[str, Any]] = {}
    # What corrections change, as it stood before each of them (old and new).
    known: dict[str, dict[str, Any]] = {}
    entries = []
    for recorded in events:
        _, _, payload = codec.encode(recorded.event)
        changed = _before(recorded.type_name, payload, known)
        supersedes = None
        if recorded.type_name in ("result_recorded", "result_amended"):
            key = (
                payload["round"],
                frozenset((payload["player_a"], payload["player_b"])),
            )
            supersedes = (
                latest.get(key) if recorded.type_name == "result_amended" else None
            )
            latest[key] = payload
        entries.append(
            AuditEntry(
                version=recorded.version,
                position=recorded.position,
                recorded_at=recorded.recorded_at,
                recorded_by=usernames.get(recorded.recorded_by_id, ""),
                event_type=recorded.type_name,
                summary=_summary(recorded.type_name, payload, names, changed),
                payload=payload,
                supersedes=supersedes,
            )
        )
    return entries


# The fields a correction may change, by the key its values are known under.
_CORRECTED = {
    "player_edited": ("player_id", ("name", "rating", "member_id", "career_games")),
    "settings_changed": (
        None,
        (
            "rounds",
            "bye_spread",
            "forfeit_spread",
            "spread_cap",
            "spread_caps",
            "rating_system",
            "club_event",
            "tile_set",
            "lexicon",
        ),
    ),
}


def _before(
    type_name: str, payload: dict[str, Any], known: dict[str, dict[str, Any]]
) -> str:
    """Track players' details and the settings; for a correction, return its
    changes as "field old → new" (and remember the new values)."""
    if type_name == "player_registered":
        known[payload["player_id"]] = dict(payload)
    elif type_name == "tournament_created":
        # An older log's creation has no tile set or lexicon: it had these.
        known[""] = {"tile_set": "english", "lexicon": "", **payload}
    elif type_name == "lexicon_chosen":
        known.setdefault("", {})["lexicon"] = payload["lexicon"]
    elif type_name == "division_renamed":
        rules = known.pop(f"pairing:{payload['name']}", None)
        if rules is not None:
            known[f"pairing:{payload['new_name']}"] = rules
    elif type_name == "pairing_rules_set":
        return _pairing_rules_change(payload, known)
    if type_name not in _CORRECTED:
        return ""
    key_field, fields = _CORRECTED[type_name]
    key = str(payload.get(key_field, "")) if key_field else ""
    current = known.setdefault(key, {})
    if payload.get("clear_spread_cap"):
        payload = {**payload, "spread_cap": None}
        changes = ["spread_cap"]
    else:
        changes = []
    changes += [field for field in fields if payload.get(field) is not None]
    said = []
    for field in dict.fromkeys(changes):
        said.append(f"{field} {current.get(field)} → {payload.get(field)}")
        current[field] = payload.get(field)
    return ", ".join(said)


def _pairing_rules_change(
    payload: dict[str, Any], known: dict[str, dict[str, Any]]
) -> str:
    """A division's pairing rules as "option old → new" for what changed."""
    key = f"pairing:{payload['division']}"
    current = known.get(key) or _default_pairing_rules()
    new = payload["options"]
    known[key] = new
    return ", ".join(
        f"{name} {current.get(name)} → {value}"
        for name, value in new.items()
        if current.get(name) != value
    )


def _default_pairing_rules() -> dict[str, Any]:
    event = rt.PairingRulesSet(division="", options=PairingOptions())
    _, _, payload = stream_type("tournament").codec.encode(event)
    return dict(payload["options"])


def _summary(
    type_name: str, payload: dict[str, Any], names: dict[str, str], changed: str = ""
) -> str:
    def name(player_id: str | None) -> str:
        return names.get(player_id or "", player_id or "?")

    p = payload
    match type_name:
        case "tournament_created":
            return f"Created {p['name']} ({p['rounds']} rounds)"
        case "division_added":
            return f"Added division {p['name']}"
        case "player_registered":
            return f"Registered {p['name']} ({p['rating']}) in {p['division']}"
        case "player_withdrawn":
            who = name(p["player_id"])
            return f"{who} withdrew from round {p['from_round']} ({p['policy']})"
        case "player_reactivated":
            return f"{name(p['player_id'])} re-activated from round {p['from_round']}"
        case "round_paired":
            games = len(p["games"])
            return (
                f"Paired round {p['round']} of {p['division']} "
                f"({p['method']}, {games} games)"
            )
        case "result_recorded" | "result_amended":
            verb = "Amended" if type_name == "result_amended" else "Result"
            if p.get("absentee"):
                return f"{verb} round {p['round']}: {name(p['absentee'])} forfeits"
            return (
                f"{verb} round {p['round']}: {name(p['player_a'])} "
                f"{p['score_a']}–{p['score_b']} {name(p['player_b'])}"
            )
        case "forfeit_recorded":
            return f"Round {p['round']}: {name(p['absentee'])} forfeits"
        case "unpaired_round_recorded":
            who = name(p["player_id"])
            return f"Round {p['round']}: {who} credited {p['spread']:+d}"
        case "director_added":
            return f"Director added: {p['username']}"
        case "director_removed":
            return "Director removed"
        case "publication_changed":
            return "Published" if p["published"] else "Unpublished"
        case "player_account_linked":
            return f"{name(p['player_id'])} linked to a user account"
        case "player_edited":
            return f"Corrected {name(p['player_id'])}: {changed}"
        case "settings_changed":
            return f"Settings corrected: {changed}"
        case "division_renamed":
            return f"Division {p['name']} renamed {p['new_name']}"
        case "scorekeeper_added":
            return f"Scorekeeper added: {p['username']}"
        case "scorekeeper_removed":
            return "Scorekeeper removed"
        case "pairing_rules_set":
            return f"Pairing rules of {p['division']}: {changed or 'unchanged'}"
        case "prize_table_set":
            table = p["table"]
            return (
                f"Prize table of {p['division']}: {len(table['prizes'])} prizes,"
                f" {len(table['classes'])} rating classes"
            )
        case "lexicon_chosen":
            return f"Word list: {p['lexicon'] or 'none'}"
        case "game_setup_set":
            own = p["setup"]
            tiles = own["tile_set"] or "the tournament's"
            words = {None: "the tournament's", "": "none"}.get(
                own["lexicon"], own["lexicon"]
            )
            return f"Games of {p['division']}: tile set {tiles}, lexicon {words}"
    return type_name


# --- Prizes --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PrizeWinner:
    """A player's award: the amount is exact (a split may leave fractions of a
    cent); ``value`` is what it was won with (a place, wins as points ×2, a score,
    a rating gap) and ``round``/``opponent`` name a game prize's game."""

    player_id: str
    name: str
    number: int
    amount_cents: Fraction
    value: int
    round: int | None
    opponent: str | None
    shared_with: int


@dataclass(frozen=True, slots=True)
class PrizeLine:
    """One prize of the table, with its winners (none yet: nobody qualifies)."""

    index: int
    prize: Prize
    winners: tuple[PrizeWinner, ...]


@dataclass(frozen=True, slots=True)
class PrizeBoard:
    """A division's classes, prizes and winners after ``after_round`` (None:
    every result so far)."""

    division: str
    table: PrizeTable | None
    classes: dict[str, str]  # player id -> class name
    lines: tuple[PrizeLine, ...]
    after_round: int | None


def prize_board(
    tournament_id: uuid.UUID, division: str, after_round: int | None = None
) -> PrizeBoard:
    """Who wins the division's prizes, as ``rules.prizes`` decides from the table
    and the results (computed on read: a corrected result moves a prize)."""
    _, state = tournament_state(tournament_id)
    rules = state.rules
    assert rules is not None
    if division not in rules.division_players:
        raise Http404(f"No division {division}.")
    table = rules.prize_tables.get(division)
    if table is None:
        return PrizeBoard(division, None, {}, (), after_round)
    awards = prize_winners(rules, division, table, after_round)
    players = rules.players
    lines = tuple(
        PrizeLine(
            index,
            prize,
            tuple(
                PrizeWinner(
                    player_id=award.player_id,
                    name=players[award.player_id].name,
                    number=players[award.player_id].number,
                    amount_cents=award.amount,
                    value=award.value,
                    round=award.round,
                    opponent=players[award.opponent].name if award.opponent else None,
                    shared_with=award.shared_with,
                )
                for award in awards
                if award.prize_index == index
            ),
        )
        for index, prize in enumerate(table.prizes)
    )
    classes = player_classes(rules, division, table.classes)
    return PrizeBoard(division, table, classes, lines, after_round)


# --- A tournament's page -------------------------------------------------------------

# One statement whatever the number of divisions shown: per division, its players
# (player_division), its last round with rows (player_round_standings) and its
# recorded games (games_game_division), each through its index.
_DIVISION_SUMMARIES = """
SELECT d.name,
       (SELECT count(*) FROM tournaments_player p
        WHERE p.tournament_id = %(t)s AND p.division = d.name),
       (SELECT max(r.round) FROM tournaments_player_round r
        WHERE r.tournament_id = %(t)s AND r.division = d.name),
       (SELECT count(*) FROM games_game g
        WHERE g.tournament_id = %(t)s AND g.division = d.name)
FROM unnest(%(names)s::text[]) WITH ORDINALITY AS d(name, n)
ORDER BY d.n
"""


def division_summaries(
    tournament_id: uuid.UUID, divisions: list[str]
) -> list[dict[str, Any]]:
    """The tournament page's card of each division: its players, paired rounds,
    latest standings (None: no player yet) and recorded games."""
    with reading().cursor() as cursor:
        cursor.execute(_DIVISION_SUMMARIES, {"t": tournament_id, "names": divisions})
        rows = cursor.fetchall()
    return [
        {
            "name": name,
            "players": players,
            "paired": last or 0,
            "rounds": range(1, (last or 0) + 1),
            "standings_after": last,
            "games": games,
        }
        for name, players, last, games in rows
    ]
