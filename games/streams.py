"""The game stream type: every event validated by ``rules.state``, and its projection.

A game stream holds only rules events, so its versions are the versions the rules
refer to (``NoteAdded.target_version``, ``EventsSuperseded.from_version``). Facts the
rules do not read (the tournament, round and board of a game, the players' tournament
ids, a GCG file's title and line numbers) travel in the events' metadata; the first
event's metadata is the game's context.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from games.codec import Codec
from games.eventstore import RecordedEvent, StreamKey, StreamType
from games.models import GameProjection, GameTurn
from rules import events as ev
from rules import state as rs
from rules.errors import RulesError


@dataclass(frozen=True, slots=True)
class GameAggregate:
    """The events of a game so far and the state they replay to."""

    events: tuple[ev.Event, ...] = ()
    state: rs.GameState | None = None
    context: Mapping[str, Any] = field(default_factory=dict)


class GameStream(StreamType[GameAggregate]):
    """Game streams: placements, draws, challenges… validated by the rules."""

    name = "game"
    rejection_errors = (RulesError,)

    def __init__(self) -> None:
        self.codec = Codec()
        self.codec.register_all(ev.EVENT_TYPES)

    def initial_state(self, stream: StreamKey) -> GameAggregate:
        return GameAggregate()

    def apply(
        self,
        state: GameAggregate,
        event: object,
        version: int,
        metadata: Mapping[str, Any],
    ) -> GameAggregate:
        events = (*state.events, event)
        context = dict(metadata) if version == 1 else state.context
        if isinstance(event, ev.EventsSuperseded):
            # A correction voids earlier events: the state is the replay of the rest.
            new_state = rs.replay(events)
        else:
            new_state = rs.apply(state.state, event, version=version)
        return GameAggregate(events=events, state=new_state, context=context)

    def reset_projections(self) -> None:
        GameProjection.objects.all().delete()

    def project(
        self,
        stream: StreamKey,
        state: GameAggregate,
        new_events: Sequence[RecordedEvent],
        *,
        rebuilding: bool = False,
    ) -> None:
        game_state = state.state
        assert game_state is not None
        now = timezone.now()
        values = state_values(game_state, new_events[-1].version)
        values["updated_at"] = now
        first = new_events[0]
        if first.version == 1:
            context = dict(first.metadata)
            names = context.get("player_names") or list(game_state.players)
            player_ids = context.get("player_ids") or [""] * len(names)
            nicks = list(game_state.players)
            values.update(
                tournament_id=context.get("tournament_id"),
                division=context.get("division", ""),
                round=context.get("round"),
                board_number=context.get("board"),
                title=context.get("title", ""),
                players=[
                    {"nick": nick, "name": name, "player_id": player_id}
                    for nick, name, player_id in zip(
                        nicks, names, player_ids, strict=True
                    )
                ],
                ruleset=game_state.ruleset.name,
                lexicon=game_state.lexicon or "",
                created_by_id=first.recorded_by_id,
                started_at=first.recorded_at,
            )
            game, _ = GameProjection.objects.update_or_create(
                game_id=stream.id, defaults=values
            )
        else:
            GameProjection.objects.filter(game_id=stream.id).update(**values)
            game = GameProjection(game_id=stream.id)
        # The score sheet can change anywhere (a withdrawn phony, a correction, a
        # note on an old turn): rewrite it. A game has about 30 lines.
        GameTurn.objects.filter(game=game).delete()
        GameTurn.objects.bulk_create(turn_rows(game, game_state))


def state_values(game_state: rs.GameState, version: int) -> dict[str, Any]:
    """The projection's state columns for a game state."""
    return {
        "version": version,
        "scores": list(game_state.scores),
        "scores_before_adjustments": list(
            game_state.scores_before_adjustments or game_state.scores
        ),
        "to_move": None if game_state.game_over else game_state.turn,
        "is_over": game_state.game_over,
        "winner": game_state.winner,
        "decided_by_tiebreak": game_state.decided_by_tiebreak,
        "end_reason": game_state.end_reason.value if game_state.end_reason else "",
        "turn_count": len(game_state.turns),
        "board": list(game_state.board.rows()),
        "bag_count": game_state.bag.count,
        "discrepancies": [
            {
                "version": d.version,
                "player": d.player,
                "kind": d.kind,
                "recorded": d.recorded,
                "computed": d.computed,
            }
            for d in game_state.discrepancies
        ],
    }


def turn_rows(game: GameProjection, game_state: rs.GameState) -> list[GameTurn]:
    """The score sheet of a game state as rows."""
    return [
        GameTurn(
            game=game,
            index=index,
            version=turn.version,
            player=turn.player,
            kind=turn.kind.value,
            rack=turn.recorded_rack or turn.rack or "",
            position=turn.position or "",
            word=turn.word or "",
            words=[
                {"word": w.word, "score": w.score, "breakdown": w.breakdown()}
                for w in turn.words
            ],
            score=turn.score,
            cumulative=turn.cumulative,
            withdrawn=turn.withdrawn,
            notes=list(turn.notes),
        )
        for index, turn in enumerate(game_state.turns, start=1)
    ]
