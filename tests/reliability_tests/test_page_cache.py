"""The page cache is no memory lever: keys hold only what a page reads, made-up
parameters add no entries, and the cache is bounded in bytes."""

from __future__ import annotations

import gc
import tracemalloc

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from config.memory_cache import BoundedMemoryCache
from games import services as game_services
from tests.reliability_tests.conftest import make_tournament

pytestmark = pytest.mark.django_db

FLOOD = 400


def page_cache() -> BoundedMemoryCache:
    return caches["default"]


@pytest.fixture
def game_id(director, shared_gcg_dir):
    result, _ = game_services.game_import_gcg(
        text=(shared_gcg_dir / "doug_v_emely.gcg").read_bytes(),
        user=director,
        visibility="public",
    )
    return result.stream.id


@pytest.fixture
def page_urls(director, game_id):
    tournament_id, ids = make_tournament(director)
    return [
        reverse("game-detail", args=[game_id]),
        reverse("standings", args=[tournament_id, "A"]),
        reverse("scorecard", args=[tournament_id, ids[0]]),
        reverse("tourney-js", args=[tournament_id]),
    ]


def test_made_up_query_parameters_add_no_entries(page_urls):
    client = Client()
    for url in page_urls:
        assert client.get(url).status_code == 200
    entries, held = len(page_cache()), page_cache().current_bytes
    for number in range(FLOOD):
        url = page_urls[number % len(page_urls)]
        response = client.get(f"{url}?z={number}")
        assert response.status_code == 200
    assert (len(page_cache()), page_cache().current_bytes) == (entries, held)
    print(f"FIGURES page cache: {FLOOD} made-up URLs, {held} bytes before and after")


# What Django's test client itself keeps per request (a signal receiver's weakref
# finalizer, about 1.4 KB), which a real server does not: left out of the count.
TEST_CLIENT_BOOKKEEPING = [
    tracemalloc.Filter(False, "*/weakref.py"),
    tracemalloc.Filter(False, "*/django/dispatch/dispatcher.py"),
]


def test_a_flood_of_made_up_urls_does_not_grow_the_worker(game_id):
    """The issue's attack: 400 requests with ?z=1..400 added 105 MB to a worker."""
    client = Client()
    url = reverse("game-detail", args=[game_id])
    client.get(url)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot().filter_traces(TEST_CLIENT_BOOKKEEPING)
        for number in range(FLOOD):
            assert client.get(f"{url}?z={number}").status_code == 200
        gc.collect()
        after = tracemalloc.take_snapshot().filter_traces(TEST_CLIENT_BOOKKEEPING)
    finally:
        tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    print(f"FIGURES page cache: {FLOOD} made-up URLs grew the process {grown} bytes")
    assert grown < 2**20


def test_every_turn_past_the_end_is_the_last_turns_page(game_id):
    client = Client()
    last = client.get(reverse("game-turn", args=[game_id, 28]))
    entries = len(page_cache())
    for turn in (29, 99, 10**9):
        past = client.get(reverse("game-turn", args=[game_id, turn]))
        assert past.content == last.content
        assert past["ETag"] == last["ETag"]
    query = client.get(reverse("game-detail", args=[game_id]), {"turn": "0028"})
    assert "Turn 28 of 28" in query.content.decode()
    assert (
        len(page_cache()) == entries + 1
    )  # ?turn=0028 is the viewer's own page for 28


def test_a_page_the_cache_already_holds_is_served_to_a_made_up_url(game_id):
    client = Client()
    url = reverse("game-turn", args=[game_id, 5])
    first = client.get(url)
    again = client.get(f"{url}?utm_source=x")
    assert again.content == first.content
    assert again["ETag"] == first["ETag"]


def test_the_cache_is_bounded_in_bytes():
    assert isinstance(page_cache(), BoundedMemoryCache)
    assert page_cache().max_bytes == settings.CACHES["default"]["OPTIONS"]["MAX_BYTES"]
    small = BoundedMemoryCache("bounded-test", {"OPTIONS": {"MAX_BYTES": 2**20}})
    small.clear()
    page = b"x" * 50_000
    for number in range(100):
        small.set(f"page:{number}", page)
        assert small.current_bytes <= 2**20
    assert small.get("page:99") == page  # the newest stay
    assert small.get("page:0") is None  # the least recently used went first
    # As many as fit, counting each entry's key and bookkeeping too.
    assert len(small) * 50_000 <= 2**20 < (len(small) + 1) * (50_000 + 400)
    small.set("huge", b"x" * 2**21)  # larger than the whole budget: not kept
    assert small.get("huge") is None
    assert small.current_bytes <= 2**20


def test_the_bounded_cache_keeps_djangos_cache_contract():
    store = BoundedMemoryCache("contract-test", {"OPTIONS": {"MAX_BYTES": 2**16}})
    store.clear()
    assert store.add("k", {"a": 1}) is True
    assert store.add("k", 2) is False
    assert store.get("k") == {"a": 1}
    assert store.has_key("k")
    store.set("gone", 1, timeout=-1)
    assert store.get("gone", "default") == "default"
    assert store.touch("k", timeout=60) is True
    store.add("n", 1)
    assert store.incr("n") == 2
    assert store.get("n") == 2
    assert store.delete("k") is True
    assert store.get("k") is None
    store.clear()
    assert len(store) == 0
    assert store.current_bytes == 0
