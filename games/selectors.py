"""Selectors: every read of games, by role, whatever runs it (SQL or the ORM).

Who may read a game is decided once, by its tournament's rule, which the tournaments
app registers (``games.context``): casual games are public, a tournament's games
are readable as the tournament is. The game documents and the game page's header
are plain SQL: a national event has thousands of games and players open them at
random, so most reads of a game are first reads and must be cheap to build (through
the ORM and the serializer a game took 7 ms, mostly Django's query compilation,
model instances and per-field serializer work). Lists go through the ORM (filters,
pagination); a game at an earlier version is replayed from its events.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from django.db.models import Q, QuerySet
from django.utils.crypto import constant_time_compare, salted_hmac
from rest_framework.fields import DateTimeField

from config.replicas import reading
from games import racks as hidden_racks
from games.context import tournament_link
from games.eventstore.models import StoredEvent
from games.eventstore.store import read_stream
from games.eventstore.streams import RecordedEvent
from games.models import GameProjection
from games.serializers import GameDetailOutput, TurnOutput
from games.services import STREAM_TYPE, game_load, game_stream
from games.streams import GameAggregate
from rules import state as rs
from rules.events import Visibility
from rules.tiles import sort_tiles
from rules.tournament import RecordedGame

# --- who may read ------------------------------------------------------------------


class Readable(Protocol):
    """What the read rule needs of a game (a GameHeader, a GameDetail or a
    GameProjection row)."""

    game_id: Any
    tournament_id: Any
    visibility: str
    created_by_id: int | None
    share_version: int | None


def game_list(user: Any = None) -> QuerySet[GameProjection]:
    """Games `user` may list: games of readable tournaments, public casual games
    and the user's own (a game shared by its secret link is not listed)."""
    casual = Q(visibility=Visibility.PUBLIC)
    if user is not None and user.is_authenticated:
        casual |= Q(created_by=user)
    return GameProjection.objects.filter(
        (Q(tournament_id__isnull=True) & casual)
        | Q(tournament_id__in=tournament_link().readable_ids(user))
    )


def game_can_read(game: GameProjection, user: Any, token: str | None = None) -> bool:
    return game_readable(game, user, token=token)


def game_readable(game: Readable, user: Any, *, token: str | None = None) -> bool:
    """Whether `user` may read the game (the one read rule of games).

    A tournament's game is readable as the tournament is (its rule, asked of the
    registered link; a `published` attribute is the tournament's flag read with
    the game). A casual game is readable by anyone when public, by its owner, and
    by whoever holds its secret link (`token`) while it is shared by link.
    """
    if game.tournament_id is not None:
        published = getattr(game, "published", None)
        return tournament_link().may_read(game.tournament_id, user, published=published)
    if game.visibility == Visibility.PUBLIC:
        return True
    if getattr(user, "is_authenticated", False) and game.created_by_id == user.pk:
        return True
    return (
        game.visibility == Visibility.LINK
        and game.share_version is not None
        and token is not None
        and constant_time_compare(token, share_token(game.game_id, game.share_version))
    )


def game_is_owner(game: Readable, user: Any) -> bool:
    """Whether `user` owns the casual game (who may publish or share it)."""
    return (
        game.tournament_id is None
        and getattr(user, "is_authenticated", False)
        and game.created_by_id == user.pk
    )


# --- who may see the racks --------------------------------------------------------


class RackReadable(Readable, Protocol):
    """What the rack rule needs of a game (a GameHeader, a GameDetail or a
    GameProjection row)."""

    is_over: bool


@dataclass(frozen=True, slots=True)
class RackView:
    """The racks of a game a reader may see: the racks as they stood after each
    version up to `through` (None: every version). A rack is a score-sheet line's
    (the tiles held before its move) at that line's version, a state's at the
    version it stands at."""

    through: int | None
    # Whether `through` moves as time passes (a racks' broadcast delay), not only
    # with the game's events: a page showing it is not kept by the clock-blind
    # ASGI page cache (games/pagecache.py).
    moves_with_clock: bool = False

    def shows(self, version: int) -> bool:
        return self.through is None or version <= self.through

    @property
    def every(self) -> bool:
        return self.through is None


EVERY_RACK = RackView(None)


def rack_view(game: RackReadable, user: Any, *, now: datetime) -> RackView:
    """Which racks of a readable game `user` may see at `now`: the one rack rule
    (issue 32), asked by every reader of racks (the game page, the state, detail
    and events API, the GCG download, the live feed).

    Everyone sees every rack of a game that has ended. While it is recorded,
    its recorders (a casual game's owner; a tournament's directors) and the
    tournament's team (directors and scorekeepers) see them at once; everyone
    else, the players of the game too, sees the racks as they stood the
    tournament's delay ago (``rack_delay_minutes``: a racks' broadcast delay), or
    none before the end when it sets none (the default, and a casual game's rule).
    """
    if game.is_over:
        return EVERY_RACK
    signed_in = bool(getattr(user, "is_authenticated", False))
    if game.tournament_id is None:
        if signed_in and game.created_by_id == user.pk:
            return EVERY_RACK
        return RackView(0)
    rule = tournament_link().rack_rule(game.tournament_id, user)
    if signed_in and rule.on_team:
        return EVERY_RACK
    if rule.delay_minutes is None:
        return RackView(0)
    if rule.delay_minutes == 0:
        return EVERY_RACK
    until = now - timedelta(minutes=rule.delay_minutes)
    through = (
        StoredEvent.objects.filter(
            stream_type=STREAM_TYPE, stream_id=game.game_id, recorded_at__lte=until
        )
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    return RackView(through or 0, moves_with_clock=True)


def share_token(game_id: uuid.UUID | str, share_version: int) -> str:
    """The secret of a game's link: keyed by the server's secret and the version of
    the event that shared it, so sharing again after a stop makes a new link and
    the old one stops working."""
    return salted_hmac("games.share", f"{game_id}:{share_version}").hexdigest()[:32]


# --- the game document (the API's GameDetailOutput) -------------------------------

# The columns, in the documented order (GameDetailOutput's "id" is game_id; its
# turns come from their own table).
GAME_FIELDS = tuple(name for name in GameDetailOutput.Meta.fields if name != "turns")
TURN_FIELDS = tuple(TurnOutput.Meta.fields)
_JSON_GAME_FIELDS = (
    "players",
    "scores",
    "scores_before_adjustments",
    "discrepancies",
    "board",
)
_DATETIME = DateTimeField()  # the API's one datetime format


@dataclass(frozen=True, slots=True)
class GameDetail:
    """A game's documented fields (without its turns), JSON-ready; its owner and
    the version that shared it by link (the read rule's), and its tournament's
    published flag (None for a casual game)."""

    fields: dict[str, Any]
    created_by_id: int | None
    share_version: int | None
    published: bool | None

    @property
    def version(self) -> int:
        return int(self.fields["version"])

    @property
    def game_id(self) -> str:
        return str(self.fields["id"])

    @property
    def tournament_id(self) -> str | None:
        return self.fields["tournament_id"]

    @property
    def visibility(self) -> str:
        return str(self.fields["visibility"])

    @property
    def is_over(self) -> bool:
        return bool(self.fields["is_over"])


def _with_tournament(columns: str, tournament_columns: tuple[str, ...]) -> str:
    """`SELECT columns, <the tournament's columns> FROM games_game g …` joined with
    the registered tournament table (NULLs when there is none)."""
    table = tournament_link().table
    if table is None:
        extra = ", ".join("NULL" for _ in tournament_columns)
        join = ""
    else:
        extra = ", ".join(f"t.{getattr(table, name)}" for name in tournament_columns)
        join = f"LEFT JOIN {table.table} t ON t.{table.id_column} = g.tournament_id "
    return (
        f"SELECT {columns}, {extra} FROM {GameProjection._meta.db_table} g "
        f"{join}WHERE g.game_id = %s"
    )


def game_detail(game_id: uuid.UUID) -> GameDetail | None:
    """The game's fields and its tournament's published flag, in one statement;
    None when there is no such game."""
    columns = ", ".join(
        f"g.{'game_id' if name == 'id' else name}" for name in GAME_FIELDS
    )
    columns += ", g.created_by_id, g.share_version"
    with reading().cursor() as cursor:
        cursor.execute(_with_tournament(columns, ("published_column",)), [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    *values, created_by_id, share_version, published = row
    game = dict(zip(GAME_FIELDS, values, strict=True))
    # Django's connection hands jsonb over as text (JSONField parses it itself).
    for name in _JSON_GAME_FIELDS:
        game[name] = json.loads(game[name])
    game["id"] = str(game["id"])
    if game["tournament_id"] is not None:
        game["tournament_id"] = str(game["tournament_id"])
    game["started_at"] = _DATETIME.to_representation(game["started_at"])
    game["updated_at"] = _DATETIME.to_representation(game["updated_at"])
    return GameDetail(game, created_by_id, share_version, published)


_TURNS = f"""
SELECT {", ".join(f'"{name}"' for name in TURN_FIELDS)}
FROM games_turn WHERE game_id = %s ORDER BY index
"""


def game_turns(game_id: uuid.UUID) -> list[dict[str, Any]]:
    """The score sheet, in turn order (TurnOutput's documents)."""
    with reading().cursor() as cursor:
        cursor.execute(_TURNS, [game_id])
        rows = cursor.fetchall()
    loads = json.loads
    turns = []
    for row in rows:
        turn = dict(zip(TURN_FIELDS, row, strict=True))
        turn["words"] = loads(turn["words"])
        turn["notes"] = loads(turn["notes"])
        turns.append(turn)
    return turns


# --- the game page's header --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameHeader:
    """What the game page needs before it replays: the game's version (the replay's
    bound) and title, who may read it (its visibility and owner, its tournament's
    published flag) and its tournament's name. The state kept at that version is
    the store's (games.eventstore.kept)."""

    game_id: uuid.UUID
    version: int
    title: str
    tournament_id: uuid.UUID | None
    turn_count: int = 0
    visibility: str = Visibility.PUBLIC
    created_by_id: int | None = None
    share_version: int | None = None
    is_over: bool = False
    tournament_name: str | None = None
    published: bool | None = None


def game_header(game_id: uuid.UUID) -> GameHeader | None:
    """The game's header in one statement, or None when there is no such game."""
    sql = _with_tournament(
        "g.game_id, g.version, g.title, g.tournament_id, g.turn_count, g.visibility,"
        " g.created_by_id, g.share_version, g.is_over",
        ("name_column", "published_column"),
    )
    with reading().cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    return None if row is None else GameHeader(*row)


# --- a tournament's games ----------------------------------------------------------


def tournament_game_ids(tournament_id: uuid.UUID) -> list[uuid.UUID]:
    """The games started for a tournament, from the log itself (a backup of the
    tournament takes them along): their first event's context names it."""
    first_events = StoredEvent.objects.filter(
        stream_type=STREAM_TYPE, version=1, metadata__tournament_id=str(tournament_id)
    )
    return list(first_events.values_list("stream_id", flat=True))


# --- replays -----------------------------------------------------------------------


def game_events(game_id: uuid.UUID) -> list[RecordedEvent]:
    return read_stream(game_stream(game_id))


def state_after(aggregate: GameAggregate, version: int | None) -> rs.GameState:
    """The game as it stood after event `version` (corrections resolved)."""
    events = aggregate.events
    if version is None or version >= len(events):
        assert aggregate.state is not None
        return aggregate.state
    return rs.replay(events[: max(version, 1)])


def state_payload(
    state: rs.GameState, *, version: int, racks: RackView = EVERY_RACK
) -> dict[str, Any]:
    """A JSON view of a game state: board, racks, scores, bag and unseen tiles
    (the racks as counts when `racks` does not show this version's)."""
    last_tiles: list[str] = []
    if state.last_play is not None:
        from rules.board import square_name

        last_tiles = [square_name(index) for index, _ in state.last_play.new_tiles]
    payload = {
        "version": version,
        "players": list(state.players),
        "tile_set": state.tile_set.name,
        "lexicon": state.lexicon or "",
        "scores": list(state.scores),
        "scores_before_adjustments": list(
            state.scores_before_adjustments or state.scores
        ),
        "adjustments": list(state.adjustments),
        "to_move": None if state.game_over else state.turn,
        "is_over": state.game_over,
        "end_reason": state.end_reason.value if state.end_reason else None,
        "winner": state.winner,
        "decided_by_tiebreak": state.decided_by_tiebreak,
        "board": list(state.board.rows()),
        "last_play_squares": last_tiles,
        "racks": [
            {"known": rack.known, "unknown": rack.unknown} for rack in state.racks
        ],
        "bag_count": state.bag.count,
        "unseen": [
            sort_tiles(rs.unseen_tiles(state, player))
            for player in range(len(state.players))
        ],
        "scoreless_turns": state.scoreless_turns,
        "turn_count": len(state.turns),
    }
    if racks.shows(version):
        return payload
    return hidden_racks.state_payload(payload, unseen=rs.unseen_tiles(state, None))


def game_state_at(
    game_id: uuid.UUID, version: int | None, racks: RackView = EVERY_RACK
) -> dict[str, Any]:
    current, aggregate = game_load(game_id)
    state = state_after(aggregate, version)
    shown = current if version is None else min(version, current)
    return state_payload(state, version=shown, racks=racks)


# A game that ended by one of these was lost by its loser whatever the scores.
_DECIDED_BY_A_LOSS = {"resigned", "forfeit", "timed_out"}


def recorded_game(game_id: uuid.UUID) -> RecordedGame | None:
    """What a recorded game says of its result (from its projection), or None."""
    game = (
        GameProjection.objects.filter(pk=game_id)
        .values(
            "tournament_id",
            "round",
            "players",
            "scores",
            "scores_before_adjustments",
            "is_over",
            "end_reason",
            "winner",
        )
        .first()
    )
    if game is None:
        return None
    loser = None
    if game["end_reason"] in _DECIDED_BY_A_LOSS and game["winner"] is not None:
        loser = 1 - game["winner"]
    scores = tuple(game["scores"])
    return RecordedGame(
        game_id=str(game_id),
        tournament_id=None
        if game["tournament_id"] is None
        else str(game["tournament_id"]),
        round=game["round"],
        player_ids=tuple(player.get("player_id") or "" for player in game["players"]),
        final_scores=scores,
        pre_adjustment_scores=tuple(game["scores_before_adjustments"] or scores),
        is_over=game["is_over"],
        loser=loser,
    )
