"""Selectors: read a tournament's projections (never the log, except the audit)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404

from games.eventstore.store import read_stream
from games.eventstore.streams import stream_type
from rules.standings import format_record
from tournaments import reads
from tournaments.models import Director, Pairing, Player, Standing, Tournament
from tournaments.services import tournament_stream


def tournament_list(user: Any = None) -> QuerySet[Tournament]:
    """Published tournaments, and those the user directs."""
    visible = Q(published=True)
    if user is not None and user.is_authenticated:
        visible |= Q(directors__user=user)
    return Tournament.objects.filter(visible).distinct()


def tournament_is_director(
    tournament: Tournament | reads.TournamentHeader, user: Any
) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return Director.objects.filter(tournament_id=tournament.pk, user=user).exists()


def tournament_can_read(
    tournament: Tournament | reads.TournamentHeader, user: Any
) -> bool:
    """Published tournaments are public; the others are their directors' only."""
    return tournament.published or tournament_is_director(tournament, user)


def readable_header(
    header: reads.TournamentHeader | None, user: Any
) -> reads.TournamentHeader:
    """The header if the user may read the tournament; 404 otherwise (no existence
    leak), for the reads that start from a header instead of the model."""
    if header is None or not tournament_can_read(header, user):
        raise Http404  # no message: the API's 404 body stays DRF's own
    return header


def players_by_id(tournament: Tournament) -> dict[str, Player]:
    return {p.player_id: p for p in Player.objects.filter(tournament=tournament)}


def last_round_with_standings(tournament: Tournament, division: str) -> int:
    row = (
        Standing.objects.filter(tournament=tournament, division=division)
        .order_by("-after_round")
        .values_list("after_round", flat=True)
        .first()
    )
    return row or 0


def standings_after(
    tournament: Tournament, division: str, after_round: int | None = None
) -> tuple[int, QuerySet[Standing]]:
    """The division's standings after `after_round` (default: the latest round)."""
    if after_round is None:
        after_round = last_round_with_standings(tournament, division)
    rows = Standing.objects.filter(
        tournament=tournament, division=division, after_round=after_round
    ).order_by("rank", "number")
    return after_round, rows


def round_pairings(
    tournament: Tournament, division: str, round_: int
) -> QuerySet[Pairing]:
    return Pairing.objects.filter(
        tournament=tournament, division=division, round=round_
    ).order_by("board", "first_id")


@dataclass(frozen=True, slots=True)
class ScorecardLine:
    """One round of a player's scorecard."""

    round: int
    kind: str  # game, bye, forfeit_win, forfeit_loss, unplayed
    opponent_id: str
    opponent_name: str
    went_first: bool | None
    own_score: int | None
    opponent_score: int | None
    result: str  # win, draw, loss, "" (no result yet)
    spread: int | None
    record: str
    running_spread: int | None
    game_id: uuid.UUID | None
    board: int | None = None  # the pairing's board, when the round was paired


@dataclass(frozen=True, slots=True)
class LatestStanding:
    """Where a player stands after the division's latest round with standings."""

    after_round: int
    rank: int
    record: str
    spread: int


def player_scorecard(
    tournament: Tournament, player: Player
) -> tuple[list[ScorecardLine], LatestStanding | None]:
    """The player's rounds with the running record, and the latest standing, from
    the projections (two statements)."""
    pairings, standing_rows = reads.player_rounds(
        tournament.pk, player.player_id, player.division
    )
    lines = _lines(player.player_id, pairings, standing_rows)
    # Every player of a division has a row after every round (rules.standings), so
    # the player's latest row is the division's latest standings.
    last = max(standing_rows, key=lambda row: row.after_round, default=None)
    latest = (
        None
        if last is None
        else LatestStanding(
            last.after_round,
            last.rank,
            format_record(last.wins, last.losses, last.draws),
            last.spread,
        )
    )
    return lines, latest


def scorecard_lines(
    tournament_id: uuid.UUID, player_id: str, division: str
) -> list[ScorecardLine]:
    """The scorecard's lines from ids (the API reads it without model rows)."""
    pairings, standing_rows = reads.player_rounds(tournament_id, player_id, division)
    return _lines(player_id, pairings, standing_rows)


def _lines(
    player_id: str,
    pairings: list[reads.PairingRow],
    standing_rows: list[reads.StandingRow],
) -> list[ScorecardLine]:
    mine = {p.round: p for p in pairings}
    standing = {row.after_round: row for row in standing_rows}
    lines = []
    previous_spread = 0
    for round_ in sorted(set(mine) | set(standing)):
        pairing = mine.get(round_)
        row = standing.get(round_)
        running = row.spread if row is not None else None
        delta = None if running is None else running - previous_spread
        if running is not None:
            previous_spread = running
        lines.append(_scorecard_line(player_id, round_, pairing, row, delta))
    return lines


def _scorecard_line(
    me: str,
    round_: int,
    pairing: reads.PairingRow | None,
    row: reads.StandingRow | None,
    delta: int | None,
) -> ScorecardLine:
    record = format_record(row.wins, row.losses, row.draws) if row else ""
    running = row.spread if row else None
    if pairing is None:
        kind = "unplayed" if not delta else ("bye" if delta > 0 else "forfeit_loss")
        return ScorecardLine(
            round_,
            kind,
            "",
            "",
            None,
            None,
            None,
            _outcome(delta),
            delta,
            record,
            running,
            None,
        )
    if not pairing.second_id:
        return ScorecardLine(
            round_,
            "bye",
            "",
            "",
            None,
            None,
            None,
            "win",
            delta,
            record,
            running,
            None,
        )
    first = pairing.first_id == me
    opponent = pairing.second_id if first else pairing.first_id
    own, theirs = (
        (pairing.first_score, pairing.second_score)
        if first
        else (pairing.second_score, pairing.first_score)
    )
    if not pairing.has_result:
        result = ""
    elif pairing.winner_id == me:
        result = "win"
    elif pairing.winner_id:
        result = "loss"
    else:
        result = "loss" if pairing.absentee_id else "draw"
    kind = "game"
    if pairing.absentee_id:
        kind = "forfeit_loss" if me in pairing.absentee_id.split(",") else "forfeit_win"
    return ScorecardLine(
        round_, kind, opponent, pairing.opponent_name or opponent, first, own, theirs,
        result, delta if pairing.has_result else None, record, running,
        pairing.game_id, pairing.board,
    )  # fmt: skip


def _outcome(delta: int | None) -> str:
    if not delta:
        return ""
    return "win" if delta > 0 else "loss"


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
    from django.contrib.auth import get_user_model

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
    entries = []
    for recorded in events:
        _, _, payload = codec.encode(recorded.event)
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
                summary=_summary(recorded.type_name, payload, names),
                payload=payload,
                supersedes=supersedes,
            )
        )
    return entries


def _summary(type_name: str, payload: dict[str, Any], names: dict[str, str]) -> str:
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
    return type_name
