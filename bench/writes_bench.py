"""A director's result entry while 50 readers saturate the machine: the writer
process (config/writer.py) against writes on the page workers' threads (the
anchor, ``WEB_WRITER=0``), alternated in one run.

    python bench/writes_bench.py --scale load [--runs 3] [--seconds 40]
    python bench/writes_bench.py --database-url URL --plan PLAN   # a kept database

Each measurement gets a fresh copy of the tournament (``CREATE DATABASE … TEMPLATE``)
with the same last round left to score, gunicorn as production runs it
(config/gunicorn.conf.py, 2 workers) and bench/locustfile.py's load: 50 readers of
the HTML pages and 5 directors who spread the round's results over the phase (one
each every few seconds, as at a venue). Reported per variant: the result entry's
p50/p95, the readers' own p50/p95 and requests/s, the load average before and
after, and every acknowledged result looked for afterwards. Without a plan the
tournament is built first (bench/run.py's set-up at ``--scale``: small takes
seconds, for CI). Writes bench/results-writes-<scale>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import run as bench_run  # noqa: E402  (after the path)

DIRECTORS = 5
STAGES = ["chain", "verify", "rules", "standings", "replay", "http", "bulk"]
VARIANTS = {"threads": {"WEB_WRITER": "0"}, "writer": {"WEB_WRITER": "1"}}


def _admin(conninfo: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(conninfo, autocommit=True) as connection:
        connection.execute(sql)


def _url(settings: dict[str, Any], name: str) -> str:
    return (
        f"postgresql://{settings['USER']}:{settings['PASSWORD']}@/"
        f"{name}?host={settings['HOST']}"
    )


def _recorded(url: str, tid: str, round_: int) -> set[tuple[str, str]]:
    import psycopg

    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT player_id, opponent_id FROM tournaments_player_round"
            " WHERE tournament_id = %s AND round = %s AND kind = 'game'"
            " AND went_first AND has_result",
            (tid, round_),
        ).fetchall()
    return {(a, b) for a, b in rows}


def measure(
    variant: str,
    base: str,
    settings: dict[str, Any],
    plan: dict[str, Any],
    seconds: int,
) -> dict[str, Any]:
    """One phase on a fresh copy of `base` under `variant`'s server."""
    copy = f"writes_{uuid.uuid4().hex[:10]}"
    admin = _url(settings, "postgres")
    _admin(admin, f'CREATE DATABASE "{copy}" TEMPLATE "{base}"')
    url = _url(settings, copy)
    env = {
        **os.environ,
        **VARIANTS[variant],
        "DATABASE_URL": url,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
    }
    env.pop("EMBEDDED_PG_TEMP", None)
    port = 8790 + (os.getpid() % 100)
    # run.py's server and load generator, with this phase's length.
    shim = bench_run.Bench.__new__(bench_run.Bench)
    shim.scale = SimpleNamespace(http_seconds=seconds)  # type: ignore[assignment]
    server = shim._gunicorn(port, env)
    try:
        shim._wait_for(port)
        time.sleep(3)  # the other worker's (and the writer's) warm-up
        pending = plan["pending"]
        wait = seconds * DIRECTORS / max(len(pending), 1)
        load_before = os.getloadavg()
        stats = shim._locust(
            port,
            plan,
            "pages",
            directors=DIRECTORS,
            director_wait=wait,
        )
        stats["load_before"] = load_before
        stats["load_after"] = os.getloadavg()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    rounds = {result["round"] for result in pending}
    recorded: set[tuple[str, str]] = set()
    for round_ in rounds:
        recorded |= _recorded(url, plan["tournament_id"], round_)
    acked = {(r["player_a"], r["player_b"]) for r in stats.pop("acked", [])}
    stats["results_offered"] = len(pending)
    stats["results_acknowledged"] = len(acked)
    stats["acknowledged_lost"] = len(acked - recorded)
    _admin(admin, f'DROP DATABASE "{copy}" WITH (FORCE)')
    return stats


def _summary(stats: dict[str, Any]) -> str:
    entry = stats.get("enter result", {})
    reads = stats["reads"]
    return (
        f"result p50/p95 {entry.get('p50_ms')}/{entry.get('p95_ms')} ms "
        f"({entry.get('requests')} entered, {stats['acknowledged_lost']} lost); "
        f"reads p50/p95 {reads['p50_ms']}/{reads['p95_ms']} ms, "
        f"{reads['rps']:.0f}/s; load {stats['load_before'][0]:.1f} -> "
        f"{stats['load_after'][0]:.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=sorted(bench_run.SCALES), default="small")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--plan", default=None, help="a plan saved by run.py")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seconds", type=int, default=None)
    parser.add_argument("--output", default=None)
    args = parser.parse_args(argv)
    bench_run._setup_django(args.database_url)
    from django.db import connection

    seconds = args.seconds or bench_run.SCALES[args.scale].http_seconds
    if args.plan:
        plan = json.loads(Path(args.plan).read_text())
    else:
        bench = bench_run.Bench(args.scale, 1, True, STAGES)
        bench.skip_eventsourcing = True
        bench.run()
        plan = bench.http_plan()
    settings = dict(connection.settings_dict)
    base = settings["NAME"]
    connection.close()  # a template must have no other connection
    out: dict[str, Any] = {"scale": args.scale, "seconds": seconds, "runs": []}
    for index in range(args.runs):
        # Alternate which goes first, so neither always meets the same machine.
        order = list(VARIANTS) if index % 2 == 0 else list(reversed(VARIANTS))
        pair: dict[str, Any] = {}
        for variant in order:
            pair[variant] = measure(variant, base, settings, plan, seconds)
            print(f"run {index + 1} {variant}: {_summary(pair[variant])}", flush=True)
        out["runs"].append(pair)
    output = Path(args.output or ROOT / "bench" / f"results-writes-{args.scale}.json")
    output.write_text(json.dumps(out, indent=2, default=str) + "\n")
    print(f"written to {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
