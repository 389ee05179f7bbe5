"""How many live-feed subscribers one gunicorn worker holds, and what beyond.

    python bench/feed_load.py [--subscribers 4 8 16 32] [--results 5] [--worker gthread]

On a throwaway embedded PostgreSQL: one gunicorn worker (config/gunicorn.conf.py,
WEB_CONCURRENCY=1: its ASGI worker, streams as coroutines, pages on 8 threads; or
``--worker gthread``, the threaded server before, FEED_STREAMS=4), a published
tournament of 40 players with round 1 paired. For each count of subscribers
(clients that behave as a browser's EventSource: they resume with Last-Event-ID
and wait the server's ``retry`` after a closed answer), results are entered one a
second, and the bench measures how long each subscriber took to receive each
result, and how long a standings page took meanwhile.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import ROOT, _setup_django

PORT = 8766


class Subscriber(threading.Thread):
    """An EventSource: reads events, reconnects after the server closes."""

    def __init__(self, path: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.path, self.stop = path, stop
        self.last: str | None = None
        self.received: dict[int, float] = {}
        self.connections = 0
        self.held = 0  # connections the server kept open (a stream slot)

    def run(self) -> None:
        while not self.stop.is_set():
            retry = self._connect()
            self.stop.wait(retry)

    def _connect(self) -> float:
        # Longer than the server's keep-alive comments (5 s): a held stream that is
        # quiet is not taken for a dead one.
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=7)
        headers = {"Accept": "text/event-stream"}
        if self.last:
            headers["Last-Event-ID"] = self.last
        retry = 1.0
        try:
            conn.request("GET", self.path, headers=headers)
            response = conn.getresponse()
            self.connections += 1
            if response.getheader("Content-Length") is None:
                self.held += 1
            while not self.stop.is_set():
                try:
                    line = response.readline()
                except TimeoutError:
                    continue
                if not line:
                    break
                text = line.decode().rstrip("\n")
                if text.startswith("retry:"):
                    retry = int(text[6:]) / 1000
                elif text.startswith("id:"):
                    self.last = text[3:].strip()
                    self.received.setdefault(int(self.last), time.monotonic())
        except OSError:
            pass
        finally:
            conn.close()
        return retry


def _page_ms(path: str) -> float:
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    conn.request("GET", path)
    conn.getresponse().read()
    conn.close()
    return (time.monotonic() - start) * 1000


def _tournament():
    from django.contrib.auth import get_user_model

    from tournaments.models import Player
    from tournaments.pairing import services as pairing_services
    from tournaments.players import services as players_services
    from tournaments.setup import services as setup_services

    user = get_user_model().objects.create_user("feed-bench")
    tid = setup_services.tournament_create(
        user=user,
        name="Feed bench",
        start_date="2026-11-21",
        end_date="2026-11-21",
        rounds=5,
        published=True,
    ).stream.id
    players_services.players_register(
        tournament_id=tid,
        division="A",
        entries=[(f"Player {n:02d}", 2000 - n, "") for n in range(1, 41)],
        user=user,
    )
    ids = list(
        Player.objects.filter(tournament_id=tid)
        .order_by("number")
        .values_list("player_id", flat=True)
    )
    games = [(n // 2 + 1, ids[n], ids[n + 1]) for n in range(0, len(ids), 2)]
    pairing_services.round_pair(
        tournament_id=tid,
        division="A",
        round_=1,
        method="manual",
        games=games,
        user=user,
    )
    return user, tid, [(*game, 1) for game in games]


def _gunicorn(worker: str) -> subprocess.Popen[bytes]:
    from django.db import connection

    settings = connection.settings_dict
    env = dict(os.environ)
    env.pop("EMBEDDED_PG_TEMP", None)
    env.update(
        DATABASE_URL=(
            f"postgresql://{settings['USER']}:{settings['PASSWORD']}@/"
            f"{settings['NAME']}?host={settings['HOST']}"
        ),
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        WEB_CONCURRENCY="1",
        WEB_THREADS="8",
    )
    extra = ["--worker-class", "gthread", "config.wsgi"] if worker == "gthread" else []
    if worker == "gthread":
        env["FEED_STREAMS"] = "4"  # half the threads, as it was
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            str(ROOT / "config" / "gunicorn.conf.py"),
            "--bind",
            f"127.0.0.1:{PORT}",
            "--log-level",
            "warning",
            *extra,
        ],
        cwd=ROOT,
        env=env,
    )


def _round(count: int, results: list, user, tid) -> dict[str, float]:
    from games.eventstore.models import FeedEntry
    from tournaments.results import services as results_services

    stop = threading.Event()
    subscribers = [
        Subscriber(f"/api/tournaments/{tid}/feed", stop) for _ in range(count)
    ]
    for subscriber in subscribers:
        subscriber.start()
    time.sleep(2)
    committed: dict[int, float] = {}
    pages = []
    for board, first, second, round_ in results:
        stored = results_services.result_record(
            tournament_id=tid,
            round_=round_,
            player_a=first,
            player_b=second,
            score_a=400 + board,
            score_b=350,
            user=user,
        )
        committed_at = time.monotonic()
        feed = FeedEntry.objects.get(position=stored.recorded[0].position)
        committed[feed.feed_position] = committed_at
        pages.append(_page_ms(f"/tournaments/{tid}/divisions/A/standings/"))
        # At random moments: not in step with the subscribers' retries.
        time.sleep(random.uniform(0.5, 1.5))
    time.sleep(2)
    stop.set()
    for subscriber in subscribers:
        subscriber.join(5)
    latencies = [
        (subscriber.received[position] - at) * 1000
        for subscriber in subscribers
        for position, at in committed.items()
        if position in subscriber.received
    ]
    expected = len(subscribers) * len(committed)
    if os.environ.get("FEED_BENCH_DEBUG"):
        for s in subscribers:
            print(
                s.connections,
                s.held,
                [
                    round((s.received.get(p, 0) - at) * 1000)
                    for p, at in committed.items()
                ],
            )
    return {
        "subscribers": count,
        "held": sum(1 for s in subscribers if s.held),
        "delivered": f"{len(latencies)}/{expected}",
        "p50_ms": statistics.median(latencies) if latencies else float("nan"),
        "max_ms": max(latencies) if latencies else float("nan"),
        "page_p50_ms": statistics.median(pages),
        "page_max_ms": max(pages),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscribers", type=int, nargs="+", default=[4, 8, 16, 32])
    parser.add_argument("--results", type=int, default=4)
    parser.add_argument("--worker", choices=["asgi", "gthread"], default="asgi")
    options = parser.parse_args()
    _setup_django(None)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    user, tid, games = _tournament()
    server = _gunicorn(options.worker)
    try:
        for _ in range(100):
            try:
                _page_ms("/api/health")
                break
            except OSError:
                time.sleep(0.2)
        time.sleep(2)
        at = 0
        for count in options.subscribers:
            chunk = games[at : at + options.results]
            at += options.results
            row = _round(count, chunk, user, tid)
            print(
                f"{row['subscribers']:>3} subscribers: {row['held']} held a stream "
                f"at some point; delivered {row['delivered']}, p50 "
                f"{row['p50_ms']:.0f} ms, max {row['max_ms']:.0f} ms; standings "
                f"page p50 {row['page_p50_ms']:.0f} ms, "
                f"max {row['page_max_ms']:.0f} ms",
                flush=True,
            )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
