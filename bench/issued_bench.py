"""What recording and signing every issued file costs a poller of tourney.js
(issue 34, must-have 1).

    python bench/issued_bench.py [--scale small|club] [--polls 200] [--rounds 5]

On a throwaway embedded PostgreSQL: one tournament (``--scale``: its players and
rounds) with every round paired and played, then its ``tourney.js`` fetched
``--polls`` times by signed-out readers (200 answers from the read cache, no
``If-None-Match``: the worst case, each pays the body's sha256), "before" (the
view's response as it was, no register, no signature) and "after", interleaved,
``--rounds`` times; the best of each is kept. Then the first issue of a new body
(the register's insert and the signature) against a 200 built from scratch. Prints
milliseconds a request and the ratios after/before, with the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import _setup_django

SCALES = {"small": (10, 4), "club": (40, 7)}  # players, rounds


def _key_file() -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    path = Path(tempfile.mkdtemp()) / "signing.pem"
    path.write_bytes(
        Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return str(path)


def _tournament(players: int, rounds: int) -> object:
    """A published tournament, every round paired (circle method: no repeats) and
    played, through the services."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Player
    from tournaments.pairing import services as pairing
    from tournaments.players import services as register
    from tournaments.results import services as results
    from tournaments.setup import services as setup

    user = get_user_model().objects.create_user(
        "bench-director", password="x" * 12, is_staff=True
    )
    tid = setup.tournament_create(
        user=user,
        name="Issued files benchmark",
        start_date="2026-11-21",
        end_date="2026-11-22",
        rounds=rounds,
        published=True,
    ).stream.id
    register.players_register(
        tournament_id=tid,
        division="A",
        entries=[(f"Player {n:03d}", 2000 - n, "") for n in range(players)],
        user=user,
    )
    ids = list(
        Player.objects.filter(tournament_id=tid)
        .order_by("number")
        .values_list("player_id", flat=True)
    )
    for round_ in range(1, rounds + 1):
        ring = [ids[0], *ids[1:][round_ - 1 :], *ids[1:][: round_ - 1]]
        games = [
            (board, ring[board - 1], ring[-board])
            for board in range(1, players // 2 + 1)
        ]
        pairing.round_pair(
            tournament_id=tid,
            division="A",
            round_=round_,
            method="manual",
            games=games,
            user=user,
        )
        for board, first, second in games:
            results.result_record(
                tournament_id=tid,
                round_=round_,
                player_a=first,
                player_b=second,
                score_a=380 + 7 * board + round_,
                score_b=360 + 3 * board,
                user=user,
            )
    return tid


def _switch(after: bool) -> None:
    """The view as it is (after), or returning its response unrecorded."""
    from tournaments.issued import registry
    from tournaments.ratings import views

    views.issued_response = (
        registry.issued_response if after else (lambda request, response, **_: response)
    )


def _per_request(client: object, url: str, polls: int) -> float:
    """The median milliseconds of a request (a loaded machine's stalls land in
    the tail, not in the figure)."""
    times = []
    for _ in range(polls):
        start = time.perf_counter()
        response = client.get(url)  # type: ignore[attr-defined]
        times.append(time.perf_counter() - start)
        assert response.status_code == 200
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=sorted(SCALES), default="small")
    parser.add_argument("--polls", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    os.environ.setdefault("FILE_SIGNING_KEY", _key_file())
    _setup_django(None)
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client

    from tournaments.issued import registry
    from tournaments.models import IssuedFile

    call_command("migrate", verbosity=0)
    players, rounds = SCALES[options.scale]
    tid = _tournament(players, rounds)
    url = f"/tournaments/{tid}/tourney.js"
    client = Client(HTTP_HOST="localhost")  # in ALLOWED_HOSTS (DEBUG off)
    size = len(client.get(url).content)
    print(f"{players} players, {rounds} rounds: tourney.js {size:,} bytes")
    best: dict[bool, float] = {}
    first: dict[bool, float] = {}
    for round_ in range(options.rounds):
        for after in (False, True) if round_ % 2 == 0 else (True, False):
            _switch(after)
            best[after] = min(
                best.get(after, float("inf")), _per_request(client, url, options.polls)
            )
            # A first issue: a body neither cached nor registered nor signed.
            cache.clear()
            registry._SIGNED.clear()
            registry._BY_TAG.clear()
            start = time.perf_counter()
            client.get(url)
            took = (time.perf_counter() - start) * 1000
            first[after] = min(first.get(after, float("inf")), took)
    _switch(True)
    load = Path("/proc/loadavg").read_text().split()[0]
    print(
        f"cached 200 poll: {best[False]:.3f} ms before, {best[True]:.3f} ms after:"
        f" {best[True] / best[False]:.2f}x (best of {options.rounds} medians of"
        f" {options.polls}; load average {load})"
    )
    print(
        f"first issue of a body (built, registered, signed): {first[False]:.1f} ms"
        f" before, {first[True]:.1f} ms after: {first[True] / first[False]:.2f}x"
    )
    print(f"register rows: {IssuedFile.objects.count()} (one per distinct body)")
    for kb in (13, 241):  # this club's file; 400 players, 20 rounds (SCALING.md)
        for tagged in (True, False):
            took = _wrapper_alone(tid, kb * 1024, options.polls, tagged=tagged)
            how = "with its ETag" if tagged else "without an ETag (a printout)"
            print(
                f"the wrapper alone on a {kb} KB body seen before, {how}:"
                f" {took * 1000:.0f} us ({took / best[False]:.1%} of the cached poll)"
            )
    return 0


def _wrapper_alone(tid: object, size: int, polls: int, *, tagged: bool) -> float:
    """Milliseconds ``issued_response`` adds to a 200 whose body this process
    has issued before (the poller's case): a look-up by the read cache's ETag, or
    without one the body's sha256 and a look-up."""
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpResponse
    from django.test import RequestFactory

    from tournaments.issued.registry import issued_response

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    response = HttpResponse((b"newt={" + b"0123456789," * size)[:size])
    if tagged:
        response["ETag"] = f'"bench-{size}"'

    def once() -> None:
        issued_response(
            request,
            response,
            tournament_id=tid,
            position=1,
            kind="bench",
            name="bench.js",
        )

    once()  # the first issue: registered and signed
    start = time.perf_counter()
    for _ in range(polls):
        once()
    return (time.perf_counter() - start) * 1000 / polls


if __name__ == "__main__":
    raise SystemExit(main())
