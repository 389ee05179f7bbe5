"""The game stream type: every event validated by ``rules.state``, and its projection.

A game stream holds only rules events, so its versions are the versions the rules
refer to (``NoteAdded.target_version``, ``EventsSuperseded.from_version``). Facts the
rules do not read (the tournament, round and board of a game, the players' tournament
ids, a GCG file's title and line numbers) travel in the events' metadata; the first
event's metadata is the game's context.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db import connection
from django.utils import timezone

from games import snapshots, summaries
from games.eventstore import kept
from games.eventstore.codec import Codec
from games.eventstore.sql import BulkInsert
from games.eventstore.streams import NewEvent, RecordedEvent, StreamKey, StreamType
from games.models import GameProjection, GameTurn
from games.notes import (
    NoteStamp,
    has_author,
    note_document,
    note_stamps,
    note_view,
    versions_of,
)
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
    # Its projection is raw statements and reads no row count: an append's
    # transaction is four waits for the server in pipeline mode instead of seven.
    pipelined = True

    def summary(self, type_name: str, payload: Mapping[str, Any]) -> str:
        return summaries.summary(type_name, payload)

    def summarized_types(self) -> frozenset[str]:
        return frozenset(summaries.SUMMARIES)

    # A rebuild writes the projections of this many games per statement.
    REBUILD_BATCH = 250

    def __init__(self) -> None:
        self.codec = Codec()
        self.codec.register_all(ev.EVENT_TYPES)
        self._games: list[dict[str, Any]] | None = None
        self._turns: list[TurnRow] = []
        self._kept: list[tuple[StreamKey, int, bytes]] = []

    def begin_rebuild(self) -> None:
        self._games, self._turns, self._kept = [], [], []

    def end_rebuild(self) -> None:
        self._flush()
        self._games = None

    def _flush(self) -> None:
        if self._games:
            _insert_games(self._games)
            _copy_turns(self._turns)
            kept.keep_many(self._kept)
        self._games, self._turns, self._kept = [], [], []

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

    def admit(self, state: GameAggregate, event: object) -> None:
        if isinstance(event, ev.Event):
            ev.admit(event)
        if isinstance(event, ev.NoteAdded) and state.state is not None:
            ev.admit_note(sum(len(turn.notes) for turn in state.state.turns))

    # Events after which the notes in a game are no longer the notes added
    # before: the limit on notes then needs the states between.
    _NOT_ADOPTED = (ev.NoteDeleted, ev.EventsSuperseded)

    def adopt(
        self, stream: StreamKey, new_events: Sequence[NewEvent], applied: Any
    ) -> GameAggregate | None:
        events = tuple(new.event for new in new_events)
        if not isinstance(applied, rs.GameState) or any(
            isinstance(event, self._NOT_ADOPTED) for event in events
        ):
            return None
        return GameAggregate(
            events=events, state=applied, context=dict(new_events[0].metadata)
        )

    def admit_adopted(self, new_events: Sequence[NewEvent], index: int) -> None:
        event = new_events[index].event
        if isinstance(event, ev.Event):
            ev.admit(event)
        if isinstance(event, ev.NoteAdded):
            # Notes only accumulate here (adopt takes no deletion): the notes in
            # the game before this one are the notes added before it.
            ev.admit_note(
                sum(isinstance(new.event, ev.NoteAdded) for new in new_events[:index])
            )

    def replay(
        self, stream: StreamKey, events: Iterable[RecordedEvent]
    ) -> GameAggregate:
        # The rules' own replay over the whole stream (the reference fold, which
        # resolves corrections once) instead of an aggregate per event: a rebuild
        # replays every game.
        recorded = list(events)
        if not recorded:
            return GameAggregate()
        game_events = tuple(item.event for item in recorded)
        return GameAggregate(
            events=game_events,
            state=rs.replay(game_events),
            context=dict(recorded[0].metadata),
        )

    def project(
        self,
        stream: StreamKey,
        state: GameAggregate,
        new_events: Sequence[RecordedEvent],
        *,
        rebuilding: bool = False,
        previous: GameAggregate | None = None,
    ) -> None:
        game_state = state.state
        assert game_state is not None
        first = new_events[0]
        if rebuilding and self._games is not None and first.version == 1:
            # A rebuild after a reset: no row exists; write games in batches.
            values, turns = _new_game(stream, state, new_events)
            self._games.append(values)
            self._turns.extend(turns)
            self._kept.append(_kept_state(stream, state, new_events[-1].version))
            if len(self._games) >= self.REBUILD_BATCH:
                self._flush()
            return
        values = _state_columns(stream, state, new_events[-1].version)
        if (
            rebuilding
            or first.version == 1
            or any(
                isinstance(recorded.event, ev.VisibilityChanged)
                for recorded in new_events
            )
        ):
            values.update(visibility_values(state))
        game = GameProjection(game_id=stream.id)
        if first.version == 1:
            values.update(context_values(state, first))
            values["game_id"] = stream.id
            # One statement whether or not a row exists (a rebuild or a repair),
            # of binary arrays: the ORM's upsert spent about 2 ms a new game
            # compiling and adapting.
            _UPSERT_GAMES.insert(
                _UPSERT_GAMES.json_rows([[values[name] for name in _GAME_FIELDS]])
            )
        else:
            GameProjection.objects.filter(game_id=stream.id).update(**values)
        kept.keep(*_kept_state(stream, state, values["version"]))
        old_turns: tuple[rs.Turn, ...] | None = None
        if previous is not None and not rebuilding:
            # An append: the state before it says which lines exist already.
            old_turns = previous.state.turns if previous.state is not None else ()
        _project_turns(game, game_state, old_turns)

    def bulk_projection(
        self,
        stream: StreamKey,
        state: GameAggregate,
        new_events: Sequence[RecordedEvent],
    ) -> tuple[list[list[Any]], list[list[Any]]] | None:
        """A new game's projection rows (its game row and score sheet, JSON
        encoded), made without the database: a bulk import makes them in its
        worker processes. None when a note names its author (whose name is read
        from the accounts): that game is projected by ``project``."""
        if any(
            has_author(recorded.metadata, recorded.recorded_by_id)
            for recorded in new_events
            if isinstance(recorded.event, _NOTE_EVENTS)
        ):
            return None
        # No note has an author: no stamps (a note without one shows none).
        values, turns = _new_game(stream, state, new_events, stamps={})
        return (
            _GAMES.json_rows([[values[name] for name in _GAME_FIELDS]]),
            _TURNS.json_rows(turns),
            _kept_state(stream, state, new_events[-1].version),
        )

    def write_bulk_projections(
        self,
        projections: Sequence[
            tuple[list[list[Any]], list[list[Any]], tuple[StreamKey, int, bytes]]
        ],
    ) -> None:
        """Write rows made by :meth:`bulk_projection`, in three statements (the
        games' states kept by the store in the last)."""
        _GAMES.insert([row for games, _, _ in projections for row in games])
        _TURNS.copy_binary(row for _, turns, _ in projections for row in turns)
        kept.keep_many(state for _, _, state in projections)

    def reset_projections(self) -> None:
        # TRUNCATE, not the ORM's delete: its cascade fetched every game's key and
        # deleted score sheets in batches (0.7 s of a national rebuild).
        with connection.cursor() as cursor:
            # Checks deferred in this transaction must run first (TRUNCATE refuses
            # a table with pending trigger events).
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(
                f"TRUNCATE {GameTurn._meta.db_table}, {GameProjection._meta.db_table}"
            )
        kept.forget(self.name)


def _state_columns(
    stream: StreamKey, state: GameAggregate, version: int
) -> dict[str, Any]:
    """The columns every projection of the game writes: its state."""
    game_state = state.state
    assert game_state is not None
    values = state_values(game_state, version)
    values["updated_at"] = timezone.now()
    return values


def kept_game(
    game_id: uuid.UUID, version: int
) -> tuple[rs.GameState, dict[str, Any]] | None:
    """The game's state and context as the store keeps them at `version` (that
    version only), or None when it keeps none this code can vouch for."""
    sealed = kept.kept(StreamKey(GameStream.name, game_id), version, exact=True)
    return None if sealed is None else snapshots.load(game_id, *sealed)


def _kept_state(
    stream: StreamKey, state: GameAggregate, version: int
) -> tuple[StreamKey, int, bytes]:
    """The game's state at `version` sealed for the store to keep (the game page
    starts from it: games.snapshots), written with every projection of it."""
    game_state = state.state
    assert game_state is not None
    return (
        stream,
        version,
        snapshots.dump(stream.id, version, game_state, state.context),
    )


def _new_game(
    stream: StreamKey,
    state: GameAggregate,
    new_events: Sequence[RecordedEvent],
    *,
    stamps: Mapping[int, NoteStamp] | None = None,
) -> tuple[dict[str, Any], list[TurnRow]]:
    """The game row and score sheet of a game projected from its first event."""
    game_state = state.state
    assert game_state is not None
    values = _state_columns(stream, state, new_events[-1].version)
    values.update(visibility_values(state))
    values.update(context_values(state, new_events[0]))
    values["game_id"] = stream.id
    game = GameProjection(game_id=stream.id)
    return values, turn_rows(game, game_state, stamps=stamps)


_NOTE_EVENTS = (ev.NoteAdded, ev.NoteEdited)


def visibility_values(state: GameAggregate) -> dict[str, Any]:
    """Who may read a casual game: its owner's latest choice, superseded or not (an
    undone move does not unpublish the game), else what it started with (casual
    games started before they could be private were public); and the version of
    the choice that made its secret link (games.selectors.share_token)."""
    visibility, version = state.context.get("visibility", "public"), None
    for index in range(len(state.events) - 1, -1, -1):
        event = state.events[index]
        if isinstance(event, ev.VisibilityChanged):
            visibility, version = event.visibility.value, index + 1
            break
    return {
        "visibility": visibility,
        "share_version": version if visibility == ev.Visibility.LINK else None,
    }


def context_values(state: GameAggregate, first: RecordedEvent) -> dict[str, Any]:
    """The projection columns that come from the game's start and its metadata."""
    game_state = state.state
    assert game_state is not None
    context = dict(first.metadata)
    names = context.get("player_names") or list(game_state.players)
    player_ids = context.get("player_ids") or [""] * len(names)
    return {
        "tournament_id": context.get("tournament_id"),
        "division": context.get("division", ""),
        "round": context.get("round"),
        "board_number": context.get("board"),
        "title": context.get("title", ""),
        "players": [
            {"nick": nick, "name": name, "player_id": player_id}
            for nick, name, player_id in zip(
                game_state.players, names, player_ids, strict=True
            )
        ],
        "ruleset": game_state.ruleset.name,
        "lexicon": game_state.lexicon or "",
        "created_by_id": first.recorded_by_id,
        "started_at": first.recorded_at,
    }


def _project_turns(
    game: GameProjection,
    game_state: rs.GameState,
    old_turns: tuple[rs.Turn, ...] | None,
) -> None:
    """Rewrite the score sheet from the first line that changed.

    Usually one line is added; a withdrawn phony marks an earlier line, a note or a
    correction can change any line, so compare rather than assume.
    """
    turns = game_state.turns
    start = 0
    if old_turns is not None:
        limit = min(len(old_turns), len(turns))
        while start < limit and old_turns[start] == turns[start]:
            start += 1
        if start == len(old_turns):
            start = min(start, len(turns))
    if old_turns is None or start < len(old_turns):
        GameTurn.objects.filter(game=game, index__gt=start).delete()
    rows = turn_rows(game, game_state, start)
    if rows:
        _insert_turns(rows)


class TurnRow(NamedTuple):
    """One score-sheet row as written to ``games_turn`` (cheaper than a model)."""

    game_id: Any
    index: int
    version: int
    player: int | None
    kind: str
    rack: str
    position: str
    word: str
    words: list[dict[str, Any]]
    score: int
    cumulative: int
    withdrawn: bool
    notes: list[dict[str, Any]]


# The score sheet is written on every append, and a rebuild writes games in
# batches: one statement of binary arrays each (the ORM's per-field adaptation
# dominated the append), the columns and their types from the models.
_TURNS = BulkInsert(GameTurn, TurnRow._fields)
_GAME_FIELDS = [field.attname for field in GameProjection._meta.concrete_fields]
_GAMES = BulkInsert(GameProjection, _GAME_FIELDS)
_UPSERT_GAMES = BulkInsert(GameProjection, _GAME_FIELDS, upsert_on=["game_id"])


def _insert_games(games: list[dict[str, Any]]) -> None:
    _GAMES.insert(
        _GAMES.json_rows([game[name] for name in _GAME_FIELDS] for game in games)
    )


def _copy_turns(rows: list[TurnRow]) -> None:
    """A rebuild's score sheets in bulk, through COPY."""
    _TURNS.copy(_TURNS.json_rows(rows))


def _insert_turns(rows: list[TurnRow]) -> None:
    _TURNS.insert(_TURNS.json_rows(rows))


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


def turn_rows(
    game: GameProjection,
    game_state: rs.GameState,
    start: int = 0,
    *,
    stamps: Mapping[int, NoteStamp] | None = None,
) -> list[TurnRow]:
    """The score sheet of a game state as rows (from line `start`, 0-based), each
    note with who wrote it and when (games.notes; read from the log unless
    `stamps` are given)."""
    game_id = game.game_id
    if stamps is None:
        stamps = note_stamps(game_id, versions_of(game_state.turns[start:]))
    return [
        TurnRow(
            game_id,
            index,
            turn.version,
            turn.player,
            turn.kind.value,
            turn.recorded_rack or turn.rack or "",
            turn.position or "",
            turn.word or "",
            [
                {"word": w.word, "score": w.score, "breakdown": w.breakdown()}
                for w in turn.words
            ],
            turn.score,
            turn.cumulative,
            turn.withdrawn,
            [note_document(note_view(note, stamps)) for note in turn.notes],
        )
        for index, turn in enumerate(game_state.turns[start:], start=start + 1)
    ]
