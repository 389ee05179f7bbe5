"""Signed-out pages answered on the event loop (games/pagecache.py, issue 33):
a page whose streams have not moved is answered without Django (no render, no
query), with Django's own headers, and every access rule still holds: an
unpublished tournament, a signed-in reader, a write in this process, a stale
watcher, a game page whose racks move with the clock.

The ASGI application is driven directly; its watcher is moved on by hand
(``poll_once``), never by a timer, so nothing here depends on timing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.wsgi import get_wsgi_application
from django.db import connections
from django.test import Client
from django.urls import reverse

from games import services as game_services
from games.feedserver import Site
from games.pagecache import HeadWatcher
from tests.games_tests.conftest import club_tournament
from tournaments.setup import services as setup_services

pytestmark = pytest.mark.django_db(transaction=True)


class Served:
    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.status = messages[0]["status"]
        self.headers = messages[0]["headers"]
        self.body = b"".join(m.get("body", b"") for m in messages[1:])

    def header(self, name: bytes) -> bytes | None:
        return dict(self.headers).get(name)


class Server:
    """The site's ASGI application over Django, counting what reaches Django."""

    def __init__(self) -> None:
        self.django_calls = 0
        django = get_wsgi_application()

        def counting(environ: dict[str, Any], start_response: Any) -> Any:
            self.django_calls += 1
            return django(environ, start_response)

        self.site = Site(counting, threads=1)
        assert self.site.page_cache is not None
        self.cache = self.site.page_cache
        self.loop = asyncio.new_event_loop()

    @property
    def watcher(self) -> HeadWatcher:
        return self.cache.watcher

    def poll(self) -> None:
        self.loop.run_until_complete(self.watcher.poll_once())

    def get(
        self,
        path: str,
        *,
        headers: tuple[tuple[bytes, bytes], ...] = (),
        host: bytes = b"testserver",
    ) -> Served:
        return self.request("GET", path, headers=headers, host=host)

    def request(
        self,
        method: str,
        path: str,
        *,
        headers: tuple[tuple[bytes, bytes], ...] = (),
        host: bytes = b"testserver",
    ) -> Served:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", host), *headers],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        messages: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            messages.append(message)

        self.loop.run_until_complete(self.site(scope, receive, send))
        return Served(messages)

    def close(self) -> None:
        # The pool's and the watcher's threads hold connections of their own.
        for executor in (self.site.executor, self.cache._executor):
            executor.submit(connections.close_all).result()
            executor.shutdown()
        self.loop.close()


@pytest.fixture
def server(settings, monkeypatch) -> Iterator[Server]:
    # The watcher moves only when a test says so; its reading stays current.
    monkeypatch.setattr(HeadWatcher, "start", lambda self: None)
    settings.PAGE_HEAD_MAX_AGE = 3600
    served = Server()
    served.poll()
    yield served
    served.close()


@pytest.fixture
def standings(recorder) -> tuple[Any, str]:
    tid, _ = club_tournament(recorder, ["Ann Able", "Ben Baker"])
    return tid, reverse("standings", args=[tid, "A"])


def test_a_page_that_has_not_moved_is_answered_without_django(server, standings):
    _, url = standings
    first = server.get(url)
    assert first.status == 200
    assert server.django_calls == 1
    again = server.get(url)
    assert server.django_calls == 1
    # Django's own answer: the same headers (CSP, ETag, Cache-Control, Vary) and body.
    assert again.headers == first.headers
    assert again.body == first.body
    for name in (b"content-security-policy", b"etag", b"cache-control", b"vary"):
        assert again.header(name) is not None, name
    # A reader holding the page gets Django's 304, kept as well.
    tag = ((b"if-none-match", first.header(b"etag") or b""),)
    assert server.get(url, headers=tag).status == 304
    assert server.django_calls == 2
    assert server.get(url, headers=tag).status == 304
    assert server.django_calls == 2


def test_a_new_event_of_the_tournament_drops_its_pages(server, standings, recorder):
    tid, url = standings
    server.get(url)
    setup_services.tournament_publish(tournament_id=tid, published=False, user=recorder)
    server.poll()
    assert server.get(url).status == 404
    assert server.django_calls == 2


def test_an_unpublished_tournament_is_never_answered_from_memory(
    server, standings, recorder
):
    tid, url = standings
    server.get(url)
    setup_services.tournament_publish(tournament_id=tid, published=False, user=recorder)
    server.poll()
    assert server.get(url).status == 404
    # The 404 is not kept either: publishing again shows the page at once.
    setup_services.tournament_publish(tournament_id=tid, published=True, user=recorder)
    server.poll()
    assert server.get(url).status == 200


def test_a_write_here_sends_every_page_to_django_until_the_next_window(
    server, standings, recorder
):
    tid, url = standings
    server.get(url)
    server.request("POST", "/no-such-page/")
    # Unpublished by the write, before the watcher has read a window after it.
    setup_services.tournament_publish(tournament_id=tid, published=False, user=recorder)
    assert server.get(url).status == 404


def test_a_stale_watcher_answers_nothing(server, standings, settings):
    _, url = standings
    server.get(url)
    settings.PAGE_HEAD_MAX_AGE = 0
    server.get(url)
    assert server.django_calls == 2


def test_a_signed_in_reader_gets_their_own_page(server, standings, recorder):
    _, url = standings
    server.get(url)
    client = Client()
    client.force_login(recorder)
    session = client.cookies["sessionid"].value
    page = server.get(url, headers=((b"cookie", f"sessionid={session}".encode()),))
    assert server.django_calls == 2
    assert page.status == 200
    assert b"rita" in page.body
    # A CSRF cookie alone is still a signed-out reader.
    server.get(url, headers=((b"cookie", b"csrftoken=abc"),))
    assert server.django_calls == 2


def test_a_game_whose_racks_move_with_the_clock_is_not_kept(server, recorder):
    tid, ids = club_tournament(recorder, ["Ann Able", "Ben Baker"])
    setup_services.settings_change(
        tournament_id=tid, changes={"rack_delay_minutes": 10}, user=recorder
    )
    gid = game_services.game_start(
        user=recorder,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "AJKQSXZ"],
        seed=4242,
        context={"tournament_id": tid, "division": "A", "player_ids": ids},
    ).stream.id
    game_services.game_place(game_id=gid, position="8D", word="WINDY", user=recorder)
    server.poll()
    url = reverse("game-detail", args=[gid])
    assert server.get(url).status == 200
    assert server.get(url).status == 200
    assert server.django_calls == 2
    # Once it has ended, its page no longer moves with the clock: kept.
    game_services.game_end(game_id=gid, reason="resigned", player=1, user=recorder)
    server.poll()
    server.get(url)
    server.get(url)
    assert server.django_calls == 3


def test_only_a_request_django_answers_alike_gets_the_kept_page(server, standings):
    _, url = standings
    server.get(url)
    # A host Django refuses is refused, not answered from memory.
    assert server.get(url, host=b"evil.example").status == 400
    # An API token, an htmx request, a HEAD, a pending message: Django decides.
    server.get(url, headers=((b"authorization", b"Token abc"),))
    server.get(url, headers=((b"hx-request", b"true"),))
    server.request("HEAD", url)
    server.get(url, headers=((b"cookie", b"messages=x"),))
    assert server.django_calls == 6
    # Another cookie (the viewer's spoiler switch) is a page of its own.
    server.get(url, headers=((b"cookie", b"spoilers=hide"),))
    server.get(url, headers=((b"cookie", b"spoilers=hide"),))
    assert server.django_calls == 7
