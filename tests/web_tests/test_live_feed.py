"""The live feed over HTTP, as a streamer's client reads it: every committed event
of a tournament and its games exactly once, in order, to a reader that keeps
dropping its connection and resuming from its last id while writers race."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from urllib.parse import urlsplit

import pytest
from django.db import connections

from games import services as game_services
from games.eventstore.errors import ConcurrencyError
from games.eventstore.models import FeedEntry, StoredEvent
from games.feed_documents import allowlist
from games.livefeed import close_streams
from tests.reliability_tests.conftest import make_tournament, start_game
from tournaments.results import services

NOTES_PER_WRITER = 12


def _note_writer(game_id, target, user, seed, failures):
    rng = random.Random(seed)
    try:
        for n in range(NOTES_PER_WRITER):
            while True:
                try:
                    game_services.game_note(
                        game_id=game_id,
                        target_version=target,
                        text=f"note {seed}/{n}",
                        user=user,
                    )
                    break
                except ConcurrencyError:
                    continue
            time.sleep(rng.uniform(0, 0.03))
    except BaseException as error:  # pragma: no cover - reported by the test
        failures.append(error)
    finally:
        connections.close_all()


def _result_writer(tournament_id, pairs, user, failures):
    try:
        for first, second in pairs:
            services.result_record(
                tournament_id=tournament_id,
                round_=1,
                player_a=first,
                player_b=second,
                score_a=400,
                score_b=350,
                user=user,
            )
            time.sleep(0.05)
    except BaseException as error:  # pragma: no cover - reported by the test
        failures.append(error)
    finally:
        connections.close_all()


class Reader:
    """An SSE client that reads a few events at a time, then hangs up and comes
    back with ``Last-Event-ID``, as a browser's EventSource does after a drop."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host, self.port, self.path = parts.hostname, parts.port, parts.path
        self.last: int | None = None
        self.events: list[dict] = []
        self.ids: list[int] = []
        self.connections = 0
        self.rng = random.Random(5)

    def read_once(self) -> None:
        """One connection: read up to a random number of messages, then hang up."""
        self.connections += 1
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        headers = {"Accept": "text/event-stream"}
        if self.last is not None:
            headers["Last-Event-ID"] = str(self.last)
        conn.request("GET", self.path, headers=headers)
        response = conn.getresponse()
        assert response.status == 200
        wanted = self.rng.randint(1, 6)
        fields: dict[str, str] = {}
        try:
            while wanted:
                line = response.readline()
                if not line:
                    return  # the server closed the stream
                line = line.decode().rstrip("\n")
                if line:
                    if not line.startswith(":"):
                        name, _, value = line.partition(":")
                        fields[name] = value.removeprefix(" ")
                    continue
                if "id" in fields:
                    self.last = int(fields["id"])
                if "data" in fields and fields.get("event", "message") == "message":
                    self.events.append(json.loads(fields["data"]))
                    self.ids.append(int(fields["id"]))
                    wanted -= 1
                fields = {}
        finally:
            conn.close()


@pytest.mark.django_db(transaction=True)
def test_a_reconnecting_reader_gets_every_event_once_in_order_while_writers_race(
    live_server, director, settings
):
    settings.FEED_HOLD_SECONDS = 2
    settings.FEED_POLL_SECONDS = 0.05
    settings.FEED_KEEPALIVE_SECONDS = 0.2
    # The writers race with notes: more than a person writes, so no quota.
    settings.NOTES_PER_MINUTE = 0
    tournament_id, ids = make_tournament(director, players=8)
    pairs = [(ids[n], ids[n + 1]) for n in range(0, 8, 2)]
    games = [
        start_game(
            director,
            context={
                "tournament_id": str(tournament_id),
                "division": "A",
                "round": 1,
                "board": board,
                "player_ids": list(pair),
            },
        )
        for board, pair in enumerate(pairs, start=1)
    ]
    casual, casual_turn = start_game(director)
    failures: list = []
    writers = [
        threading.Thread(
            target=_note_writer, args=(game_id, turn, director, seed, failures)
        )
        for seed, (game_id, turn) in enumerate([*games, (casual, casual_turn)])
    ]
    writers.append(
        threading.Thread(
            target=_result_writer, args=(tournament_id, pairs, director, failures)
        )
    )
    reader = Reader(f"{live_server.url}/api/tournaments/{tournament_id}/feed")
    for thread in writers:
        thread.start()
    while any(thread.is_alive() for thread in writers):
        reader.read_once()
    for thread in writers:
        thread.join(30)
    assert not failures
    head = FeedEntry.objects.order_by("-feed_position")[0].feed_position
    deadline = time.monotonic() + 30
    while (reader.last or 0) < head and time.monotonic() < deadline:
        reader.read_once()

    assert close_streams()
    scope = [tournament_id, *(game_id for game_id, _ in games)]
    # Every event a signed-out reader may see (the team's go out as heads).
    committed = {
        (stream_id, version)
        for stream_id, version, kind, event_type in StoredEvent.objects.filter(
            stream_id__in=scope
        ).values_list("stream_id", "version", "stream_type", "event_type")
        if event_type in allowlist(kind)
    }
    got = [(event["stream_id"], event["version"]) for event in reader.events]
    assert len(got) == len(set(got)), "an event was delivered twice"
    assert {(str(s), v) for s, v in committed} == set(got), "an event was missed"
    assert reader.ids == sorted(reader.ids)
    assert str(casual) not in {stream for stream, _ in got}
    print(
        f"\nFIGURES live feed: {len(got)} events over {reader.connections} "
        f"connections, each once and in order"
    )
