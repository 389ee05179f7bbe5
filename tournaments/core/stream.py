"""The tournament stream type: validation through ``rules.tournament``.

Each append is validated by applying the new events to the cached aggregate (never
by replaying the whole tournament); then ``core.projection`` rewrites only the read
models the events can change. Every 200 versions the state is kept sealed
(``SNAPSHOT_EVERY``) so a cold worker starts near the end of the log.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from django.db import DatabaseError, connection, transaction

from games import snapshots
from games.eventstore import kept
from games.eventstore.codec import Codec
from games.eventstore.streams import RecordedEvent, StreamKey, StreamType
from rules import tournament as rt
from rules.errors import RulesError
from tournaments.core import aggregate, events, summaries
from tournaments.core.aggregate import TournamentAggregate, _system_apply
from tournaments.core.projection import (
    project_tournament,
)
from tournaments.models import (
    Director,
    Player,
    PlayerRound,
    Tournament,
)

logger = logging.getLogger(__name__)


# Schema 2 of a result: scores before the end-of-game adjustments only where the
# rules ask for them (a tie) or a recorded game gave them.
RESULT_SCHEMAS = {"result_recorded": 2, "result_amended": 2}


def _drop_unasked_pre_adjustment(payload: dict[str, Any]) -> dict[str, Any]:
    """Upcast a schema-1 result: forget pre-adjustment scores nobody asked for.

    The amend form used to send the superseded result's finals back as the new
    result's pre-adjustment scores, so schema-1 results hold stale ones that would
    still count in the total-score tie-break. A slip's non-tied result has none.
    """
    scores = payload.get("score_a"), payload.get("score_b")
    asked = scores[0] is not None and scores[0] == scores[1]
    if payload.get("game_id") is None and not asked:
        payload["pre_adjustment_a"] = payload["pre_adjustment_b"] = None
    return payload


class TournamentStream(StreamType[TournamentAggregate]):
    """Tournament streams: director actions, validated by ``rules.tournament``."""

    name = "tournament"
    rejection_errors = (RulesError,)
    long_streams = True

    def summary(self, type_name: str, payload: Mapping[str, Any]) -> str:
        # The admin's list knows no players' names: the audit page does.
        return summaries.summary(type_name, dict(payload), {})

    def summarized_types(self) -> frozenset[str]:
        return frozenset(summaries.SUMMARIES)

    def __init__(self) -> None:
        self.codec = Codec()
        self.codec.register_all(rt.EVENT_TYPES, RESULT_SCHEMAS)
        self.codec.register_all(events.SYSTEM_EVENT_TYPES)
        for type_name in RESULT_SCHEMAS:
            self.codec.register_upcaster(type_name, 1, _drop_unasked_pre_adjustment)

    def initial_state(self, stream: StreamKey) -> TournamentAggregate:
        return TournamentAggregate()

    def stored_state(
        self, stream: StreamKey, version: int
    ) -> tuple[int, TournamentAggregate] | None:
        found = kept.kept(stream, version)
        if found is None:
            return None
        kept_version, blob = found
        state = snapshots.unseal(
            _SNAPSHOTS, _fingerprint(), stream.id, kept_version, blob
        )
        if not isinstance(state, TournamentAggregate):
            return None
        return kept_version, state

    def keep_state(
        self, stream: StreamKey, since: int, version: int, state: TournamentAggregate
    ) -> None:
        # Every SNAPSHOT_EVERY versions: a cold worker then applies fewer than
        # that many events to the kept state, and a director's result pays for
        # the pickling (a few milliseconds at national scale) once in a while.
        if since // SNAPSHOT_EVERY == version // SNAPSHOT_EVERY:
            return
        _write_snapshot(stream, version, state)

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

    def admit(self, state: TournamentAggregate, event: object) -> None:
        if not isinstance(event, _SYSTEM_TYPES):
            rt.admit(state.rules, event)

    def reset_projections(self) -> None:
        # Every tournament read model, at once (the ORM's cascading delete reads
        # each row's key first).
        tables = [
            model._meta.db_table
            for model in (
                PlayerRound,
                Player,
                Director,
                Tournament,
            )
        ]
        with connection.cursor() as cursor:
            # Checks deferred in this transaction must run first (TRUNCATE refuses
            # a table with pending trigger events).
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {', '.join(tables)}")
        kept.forget(self.name)

    def project(
        self,
        stream: StreamKey,
        state: TournamentAggregate,
        new_events: Sequence[RecordedEvent],
        *,
        rebuilding: bool = False,
        previous: TournamentAggregate | None = None,
    ) -> None:
        version = project_tournament(stream.id, state, new_events, full=rebuilding)
        if rebuilding:
            # The rebuild replayed the whole tournament: keep its state.
            _write_snapshot(stream, version, state)


_SYSTEM_TYPES = tuple(events.SYSTEM_EVENT_TYPES.values())


# Tournament states kept by the store (games.eventstore.kept): one every this many
# versions.
SNAPSHOT_EVERY = 200


_SNAPSHOTS = "tournaments.snapshots"


@cache
def _fingerprint() -> bytes:
    """The rules' fingerprint and the sources of what a kept state pickles: the
    aggregate's class and the system's events (and this module, which seals it)."""
    digest = hashlib.sha256(snapshots.rules_fingerprint())
    digest.update(Path(__file__).read_bytes())
    digest.update(Path(aggregate.__file__).read_bytes())
    digest.update(Path(events.__file__).read_bytes())
    return digest.digest()


def _write_snapshot(
    stream: StreamKey, version: int, state: TournamentAggregate
) -> None:
    blob = snapshots.seal(_SNAPSHOTS, _fingerprint(), stream.id, version, state)
    try:
        with transaction.atomic():
            kept.keep(stream, version, blob)
    except DatabaseError:
        # A kept state only saves a replay: failing to keep one fails nothing.
        logger.exception("tournament %s: state not kept", stream.id)
