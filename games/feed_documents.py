"""What the live feed sends of an event: what a signed-out reader of the public
pages and API may see of it, and nothing else (issue 30, item 8).

The feed's follower may be anyone who may read the tournament or the game, so a
document is built from an allowlist per stream type and event type: the fields a
signed-out reader already sees through the public serializers (the game's
``GameOutput``, ``StateOutput`` and score sheet; the tournament's
``TournamentOutput``, ``PlayerOutput``, pairings, division settings and the
public ratings change feed). An event type not on its stream's list (the team's
changes, with the usernames that would let anyone lock a team out of sign-in,
account links, players' pending self-entry reports, and any type added later
before someone decides what of it is public) is sent as a ``head``: it moves the
follower's id past the event and says nothing of it. No document carries the
event's metadata (who recorded it, the draws' seed) except a game's public
context on its first event.

The racks of a game still being recorded follow the rack rule
(``games.selectors.rack_view``) as it stands for a signed-out reader when the
event is sent: none before the game ends or the tournament's delay passes.

Each app registers its streams' lists: the games' is here, the tournaments app
registers its own from ``TournamentsConfig.ready`` (``tournaments.room.feed``).

Usage::

    document = event_document(item)   # None: send a head instead
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games import racks as hidden_racks
from games import selectors
from games.eventstore.feed import FeedEvent
from games.eventstore.streams import stream_type
from games.models import GameProjection

Payload = Mapping[str, Any]
# The public part of an event's payload (a field list, or a function for a
# payload whose public part is not a plain subset of its fields).
Fields = tuple[str, ...] | Callable[[Payload], dict[str, Any]]

_ALLOWLISTS: dict[str, dict[str, Fields]] = {}


def register_feed_fields(stream: str, allowlist: Mapping[str, Fields]) -> None:
    """What the feed sends of each event type of `stream` (a stream type's name);
    a type left out is sent as a head."""
    _ALLOWLISTS[stream] = dict(allowlist)


def allowlist(stream: str) -> Mapping[str, Fields]:
    return _ALLOWLISTS.get(stream, {})


def pick(payload: Payload, fields: Fields) -> dict[str, Any]:
    """The allowed part of `payload`."""
    if callable(fields):
        return fields(payload)
    return {name: payload[name] for name in fields if name in payload}


def event_document(
    item: FeedEvent, *, now: datetime | None = None
) -> dict[str, Any] | None:
    """The event as the feed sends it to every follower, or None when its type is
    not public (the feed sends a head: the follower's id still advances)."""
    recorded = item.event
    fields = allowlist(recorded.stream.type).get(recorded.type_name)
    if fields is None:
        return None
    _, schema_version, payload = stream_type(recorded.stream.type).codec.encode(
        recorded.event
    )
    document: dict[str, Any] = {
        "position": item.feed_position,
        "stream_type": recorded.stream.type,
        "stream_id": str(recorded.stream.id),
        "version": recorded.version,
        "event_type": recorded.type_name,
        "schema_version": schema_version,
        "recorded_at": recorded.recorded_at.isoformat(),
    }
    if recorded.stream.type == GAME_STREAM:
        if recorded.type_name in hidden_racks.WITHOUT_RACKS:
            shown = _racks_shown(recorded.stream.id, recorded.version, now)
            payload = hidden_racks.event_payload(
                recorded.type_name, payload, shown=shown
            )
        if recorded.version == 1:
            document["context"] = pick(recorded.metadata, GAME_CONTEXT)
    document["payload"] = pick(payload, fields)
    return document


# --- the game stream ---------------------------------------------------------------

GAME_STREAM = "game"

# A game's first event's metadata that its public document shows (GameOutput:
# tournament, division, round, board, the players' names and tournament ids).
GAME_CONTEXT = (
    "tournament_id",
    "division",
    "round",
    "board",
    "player_names",
    "player_ids",
    "title",
)


def _started(payload: Payload) -> dict[str, Any]:
    # The rules' whole ruleset and tile set are the game's; its documents name
    # them (GameOutput.ruleset, StateOutput.tile_set).
    return {
        "players": payload["players"],
        "lexicon": payload.get("lexicon"),
        "ruleset": payload["ruleset"]["name"],
        "tile_set": payload["tile_set"]["name"],
    }


# Every field a signed-out reader of a game sees on its page and through the
# API (the score sheet, the state, the notes without their authors); racks only
# as the rack rule shows them (games.racks takes them out first).
GAME_FIELDS: dict[str, Fields] = {
    "game_started": _started,
    "tiles_drawn": ("player", "tiles", "unknown"),
    "tiles_returned": ("player", "tiles", "unknown"),
    "rack_recorded": ("player", "tiles"),
    "rack_forgotten": ("player", "exchanged"),
    "tiles_placed": ("player", "position", "word", "score", "rack"),
    "tiles_exchanged": ("player", "tiles", "unknown", "rack"),
    "turn_passed": ("player", "rack"),
    "play_challenged": ("challenger", "outcome", "words", "score", "rack"),
    "time_penalty": ("player", "minutes", "score"),
    "score_corrected": ("player", "amount", "reason"),
    "game_ended": ("reason", "player", "racks", "adjustments", "final_scores"),
    "note_added": ("target_version", "text"),
    "note_edited": ("note_version", "text"),
    "note_deleted": ("note_version",),
    "visibility_changed": ("visibility",),
    "events_superseded": ("from_version", "reason"),
}

register_feed_fields(GAME_STREAM, GAME_FIELDS)


# A catch-up sends up to a thousand events of a few games, each asked the rule (two
# queries): the answer is kept per game for a second. It can only be behind in a
# way that hides: the rule shows more as time passes, and an event newer than the
# answer (the game's end, or a correction that reopens it) asks again. A change of
# the tournament's delay reaches the feed within the second.
RULE_SECONDS = 1.0
_MEMO_SIZE = 1024
_memo_lock = threading.Lock()
_memo: dict[uuid.UUID, tuple[float, int, datetime, selectors.RackView]] = {}


def _racks_shown(game_id: uuid.UUID, version: int, now: datetime | None) -> bool:
    """Whether a signed-out reader may see the racks of `version` of the game, as
    the rule stands when the event is sent (a follower catching up on a game that
    has ended since gets them)."""
    at = now or timezone.now()
    with _memo_lock:
        kept = _memo.get(game_id)
    if kept is not None:
        until, known_version, asked_at, view = kept
        if time.monotonic() < until and version <= known_version and at >= asked_at:
            return view.shows(version)
    game = GameProjection.objects.filter(pk=game_id).only(*_RULE_FIELDS).first()
    if game is None:
        return False
    view = selectors.rack_view(game, AnonymousUser(), now=at)
    with _memo_lock:
        if len(_memo) >= _MEMO_SIZE:
            _memo.clear()
        _memo[game_id] = (time.monotonic() + RULE_SECONDS, game.version, at, view)
    return view.shows(version)


# What the rule reads of a game's row (not its board and score sheet).
_RULE_FIELDS = (
    "game_id",
    "version",
    "is_over",
    "tournament_id",
    "created_by_id",
    "visibility",
    "share_version",
)


def forget_rack_rules() -> None:
    """Drop the answers kept (a test that moves its clock)."""
    with _memo_lock:
        _memo.clear()
