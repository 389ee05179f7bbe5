"""A tournament's live feed: its own events and its games', as they commit.

Pairings, results, amendments, self-entered scores and every move of every game
of the tournament, in commit order (``games.livefeed`` sends them as Server-Sent
Events). The store cannot tell which games belong to a tournament, so each read
first looks at the streams of the next events (``feed_window``), keeps the
tournament's own and its games', and reads those: a poll costs an index range
over what committed since, whatever the size of the log.

What it sends of each event is what a signed-out reader of the tournament's
public pages and API sees (``games.feed_documents``): ``TOURNAMENT_FIELDS``
below, registered from ``TournamentsConfig.ready``. The team's changes, account
links, self-entry and its pending reports, and the rack delay are not on it.

Usage::

    page = tournament_feed_page(tournament_id, after=cursor)
"""

from __future__ import annotations

import uuid
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request

from games.eventstore.feed import FeedPage, feed_window, read_feed
from games.feed_documents import Fields, Payload
from games.livefeed import AFTER, PAGE, STREAM_RESPONSE, FeedApi, FeedScope, reader_key
from games.models import GameProjection
from tournaments.core import access, headers
from tournaments.core.aggregate import STREAM_TYPE
from tournaments.core.events import RESULT_EVENT_TYPES
from tournaments.core.headers import PLAYER_FIELDS
from tournaments.setup.serializers import TournamentOutput


def tournament_feed_page(
    tournament_id: uuid.UUID, *, after: int, limit: int = PAGE
) -> FeedPage:
    """The tournament's and its games' events after feed position `after`."""
    window = feed_window(after=after)
    games = [stream_id for kind, stream_id in window.streams if kind == "game"]
    ours = {tournament_id} & {
        stream_id for kind, stream_id in window.streams if kind == STREAM_TYPE
    }
    if games:
        ours |= set(
            GameProjection.objects.filter(
                game_id__in=games, tournament_id=tournament_id
            ).values_list("game_id", flat=True)
        )
    if not ours:
        return FeedPage((), window.head, False)
    return read_feed(
        after=after, stream_ids=sorted(ours), until=window.head, limit=limit
    )


class TournamentFeedApi(FeedApi):
    """Every event of a tournament and its games as it commits."""

    @extend_schema(
        operation_id="tournaments_feed", parameters=[AFTER], responses=STREAM_RESPONSE
    )
    def get(self, request: Request, tournament_id: uuid.UUID) -> Any:
        header = readable(tournament_id, request.user)
        tid = header.pk
        return self.stream(
            request,
            FeedScope(
                read=lambda after: tournament_feed_page(tid, after=after),
                # Asked again at every poll: unpublished, the stream ends.
                check=lambda: readable(tid, request.user),
                pages={
                    name: reverse(route, args=[tid])
                    for name, route in (
                        ("tournament", "api-tournament"),
                        ("players", "api-players"),
                        ("standings", "api-standings"),
                    )
                },
                key=("tournament", tid, *reader_key(request)),
            ),
        )


def readable(tournament_id: uuid.UUID, user: Any) -> Any:
    """The tournament's header if `user` may read it; 404 otherwise."""
    return access.readable_header(headers.tournament_header(tournament_id), user)


# --- what the feed sends of the tournament's events ----------------------------------


def _public(fields: tuple[str, ...] | list[str], *keys: str) -> tuple[str, ...]:
    """`keys` and the event fields a public serializer shows (`fields`)."""
    return (*keys, *(name for name in fields if name not in ("id", "version")))


# The settings the tournament's document shows (TournamentOutput).
_SETTINGS = _public(TournamentOutput.Meta.fields)
# A player's fields as the players API shows them (PlayerOutput: its "id" is the
# event's player_id): a registration and a correction.
_PLAYER = _public(PLAYER_FIELDS, "player_id")


def _whole(payload: Payload) -> dict[str, Any]:
    return dict(payload)


def _paired(payload: Payload) -> dict[str, Any]:
    # The pairings page's: boards (first moved first) and byes; not the coin flips
    # that decided who went first.
    return {
        key: payload[key]
        for key in ("division", "round", "games", "byes", "method")
        if key in payload
    }


TOURNAMENT_FIELDS: dict[str, Fields] = {
    "tournament_created": _SETTINGS,
    "settings_changed": _SETTINGS,
    "lexicon_chosen": ("lexicon",),
    "division_added": ("name",),
    "division_renamed": ("name", "new_name"),
    # A division's tile set and lexicon, pairing rules and prize table: the
    # division, pairing-rules and prizes endpoints show them to anyone.
    "game_setup_set": ("division", "setup"),
    "pairing_rules_set": ("division", "options"),
    "prize_table_set": ("division", "table"),
    "player_registered": _PLAYER,
    "player_edited": _PLAYER,
    "round_paired": _paired,
    # The registration day: a move and a division's rounds show on the public
    # pages (its players, its schedule); a check-in is the team's roll call only.
    "player_moved": ("player_id", "division"),
    "division_rounds_set": ("division", "rounds"),
    # The public ratings change feed (/api/ratings/changes) sends these payloads
    # whole: results, forfeits, credits, withdrawals, publication.
    **{type_name: _whole for type_name in RESULT_EVENT_TYPES},
}
