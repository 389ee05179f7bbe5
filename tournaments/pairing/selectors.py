"""Reads of pairing: how many rounds are paired, a round's boards (with the
players the pairing Gibsonized), the round schedule and the round-robin rounds
foretold."""

from __future__ import annotations

import dataclasses
import json
import uuid
from dataclasses import dataclass

from config.replicas import reading
from games.eventstore.streams import stream_type
from rules import pairing as rp
from rules import tournament as rt
from tournaments.core.aggregate import STREAM_TYPE, tournament_state

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


# --- Results: a round's boards -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """One player's side of a board: the row of ``PlayerRound`` with names."""

    player_id: str
    number: int
    name: str
    kind: str
    went_first: bool | None
    own_score: int | None
    opponent_score: int | None
    own_pre_adjustment: int | None
    opponent_pre_adjustment: int | None
    outcome: str
    tie_break: bool
    has_result: bool
    round_spread: int
    counted_spread: int
    game_id: uuid.UUID | None
    amended: bool
    # The pairing system Gibsonized this player (their place decided): as the
    # round's RoundPaired event records it.
    gibsonized: bool = False


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
SELECT player_id, number, name, kind, went_first, own_score, opponent_score,
       own_pre_adjustment, opponent_pre_adjustment, outcome, tie_break, has_result,
       round_spread, counted_spread, game_id, amended, board, opponent_id, method
FROM tournaments_player_round
WHERE tournament_id = %s AND division = %s AND round = %s AND kind <> 'unplayed'
"""


_GIBSONIZING = frozenset(
    {
        rt.PairingMethod.KING_OF_THE_HILL,
        rt.PairingMethod.SWISS,
        rt.PairingMethod.CHEW,
        rt.PairingMethod.COP,
    }
)


def round_boards(tournament_id: uuid.UUID, division: str, round_: int) -> list[Board]:
    """The round's games by board, then the players alone, by number."""
    with reading().cursor() as cursor:
        cursor.execute(_ROUND_ROWS, [tournament_id, division, round_])
        rows = cursor.fetchall()
    # Only a ranked system Gibsonizes: the log is read for those rounds alone.
    ranked = any(row[18] in _GIBSONIZING for row in rows)
    gibsons = round_pairing(tournament_id, division, round_).gibsons if ranked else ()
    sides = {
        row[0]: (
            dataclasses.replace(Side(*row[:16]), gibsonized=row[0] in gibsons),
            row[16],
            row[17],
            row[18],
        )
        for row in rows
    }
    boards = []
    for side, board, opponent_id, method in sides.values():
        if opponent_id and side.went_first is not True:
            continue  # the second mover: on the first mover's line
        second = sides[opponent_id][0] if opponent_id else None
        boards.append(Board(round_, board, method, side, second))
    boards.sort(key=lambda b: (b.board is None, b.board or 0, b.first.number))
    return boards


def _rules(tournament_id: uuid.UUID) -> rt.TournamentState:
    _, aggregate = tournament_state(tournament_id)
    assert aggregate.rules is not None
    return aggregate.rules


def round_pairing(
    tournament_id: uuid.UUID, division: str, round_: int
) -> rt.RoundPaired:
    """The round's pairing in force as the log records it (who was Gibsonized,
    whether the round schedule paired it); an empty one when it is not paired."""
    found = _rules(tournament_id).round_state(division, round_)
    if found is None:
        return rt.RoundPaired(division=division, round=round_, games=())
    return found.pairing


def round_explanation(
    tournament_id: uuid.UUID, division: str, round_: int
) -> tuple[rt.RoundPaired, dict[str, str]] | None:
    """The round's pairing in force, with the players' names its reasons need;
    None when the round is not paired."""
    _, aggregate = tournament_state(tournament_id)
    rules = aggregate.rules
    assert rules is not None
    found = rules.round_state(division, round_)
    if found is None:
        return None
    names = {p: rules.players[p].name for p in rules.division_players[division]}
    version = aggregate.stream_version_of(found.version)
    return _stored_pairing(tournament_id, version) or found.pairing, names


def _stored_pairing(tournament_id: uuid.UUID, version: int) -> rt.RoundPaired | None:
    """The ``RoundPaired`` at ``version`` of the tournament's log, as stored
    (its reasons included: the kept state leaves them out)."""
    with reading().cursor() as cursor:
        cursor.execute(
            "SELECT event_type, schema_version, payload FROM event_log"
            " WHERE stream_id = %s AND version = %s",
            [tournament_id, version],
        )
        row = cursor.fetchone()
    if row is None or row[0] != rt.RoundPaired.type_name:
        return None
    payload = row[2] if isinstance(row[2], dict) else json.loads(row[2])
    event = stream_type(STREAM_TYPE).codec.decode(row[0], row[1], payload)
    return event if isinstance(event, rt.RoundPaired) else None


def next_round_preview(
    tournament_id: uuid.UUID, division: str, round_: int
) -> tuple[rt.PairingReasons, dict[str, str]]:
    """What the system would pair ``round_`` as now, shown beside the hand
    pairing form. Who goes first is left out: the coin flips are drawn only
    when the round is paired, so every tie reads as a flip still to come."""
    rules = _rules(tournament_id)
    flips = (True,) * rp.coin_flips_needed(rules, division)
    names = {p: rules.players[p].name for p in rules.division_players.get(division, ())}
    return rp.would_pair(rules, division, round_, flips), names


def round_schedule(
    tournament_id: uuid.UUID, division: str
) -> tuple[rt.ScheduledRound, ...]:
    """The division's round schedule, by round (empty: none)."""
    return _rules(tournament_id).schedule_of(division)


def foretold_opponents(
    tournament_id: uuid.UUID, division: str
) -> dict[str, dict[int, str | None]]:
    """Each player's round-robin opponents (None: the bye) in the division's
    rounds not paired yet, as the table gives them today."""
    return rp.projected_opponents(_rules(tournament_id), division)
