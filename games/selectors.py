"""Selectors: read games from their projections, or replay a game to any point."""

from __future__ import annotations

import uuid
from typing import Any

from django.apps import apps
from django.db.models import Q, QuerySet

from games.eventstore.store import read_stream
from games.eventstore.streams import RecordedEvent
from games.models import GameProjection
from games.services import game_load, game_stream
from games.streams import GameAggregate
from rules import state as rs
from rules.tiles import sort_tiles


def _visible_tournament_ids(user: Any) -> QuerySet:
    tournament = apps.get_model("tournaments", "Tournament")
    visible = Q(published=True)
    if user is not None and user.is_authenticated:
        visible |= Q(directors__user=user)
    return tournament.objects.filter(visible).values("tournament_id")


def game_list(user: Any = None) -> QuerySet[GameProjection]:
    """Games anyone may read: casual games, and games of readable tournaments."""
    return GameProjection.objects.filter(
        Q(tournament_id__isnull=True)
        | Q(tournament_id__in=_visible_tournament_ids(user))
    )


def game_can_read(game: GameProjection, user: Any) -> bool:
    if game.tournament_id is None:
        return True
    return tournament_readable(game.tournament_id, user)


def game_readable(
    tournament_id: uuid.UUID | str | None, published: bool | None, user: Any
) -> bool:
    """``game_can_read`` from a game's tournament id and the published flag read
    with it: a query only for a signed-in reader of an unpublished tournament's
    game."""
    if tournament_id is None or published:
        return True
    if user is None or not user.is_authenticated:
        return False
    return tournament_readable(tournament_id, user)


def tournament_readable(tournament_id: uuid.UUID | str, user: Any) -> bool:
    """Whether the user may read the tournament's games (published, or directs it)."""
    return _visible_tournament_ids(user).filter(tournament_id=tournament_id).exists()


def game_events(game_id: uuid.UUID) -> list[RecordedEvent]:
    return read_stream(game_stream(game_id))


def state_after(aggregate: GameAggregate, version: int | None) -> rs.GameState:
    """The game as it stood after event `version` (corrections resolved)."""
    events = aggregate.events
    if version is None or version >= len(events):
        assert aggregate.state is not None
        return aggregate.state
    return rs.replay(events[: max(version, 1)])


def state_payload(state: rs.GameState, *, version: int) -> dict[str, Any]:
    """A JSON view of a game state: board, racks, scores, bag and unseen tiles."""
    last_tiles: list[str] = []
    if state.last_play is not None:
        from rules.board import square_name

        last_tiles = [square_name(index) for index, _ in state.last_play.new_tiles]
    return {
        "version": version,
        "players": list(state.players),
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


def game_state_at(game_id: uuid.UUID, version: int | None) -> dict[str, Any]:
    current, aggregate = game_load(game_id)
    state = state_after(aggregate, version)
    shown = current if version is None else min(version, current)
    return state_payload(state, version=shown)
