"""Signed-out HTML pages under load (issue 33): the page cache on the event loop
(games/pagecache.py) against the serving path without it, in the same run.

    python bench/run.py --scale national --only pages

The server is gunicorn with config/gunicorn.conf.py (its uvicorn worker, two
processes on two cores, production settings), started once per measurement with
``PAGE_CACHE_MB`` set (ours) or ``0`` (the anchor: every page through a2wsgi and
Django, whose version-keyed cache still skips the render); the two alternate,
``ROUNDS`` times each, and the best of each is quoted with the load average.

The load generator is ``wrk`` (Debian's package, C, one thread), not locust: a
Python generator on the same two cores took about as much CPU as the server it
measured. Its own CPU is measured (``RUSAGE_CHILDREN`` around each run) and
reported as the share of one core it used. The readers ask, in a fixed shuffled
order, for the standings, scorecards and game pages in locust's page mix (4:2:3),
signed out: every division's standings, every scorecard, the games of the last
two rounds (what a room's readers follow during play). Two shapes, after a few
seconds' warm-up (each process fills its caches):

- ``paced``: 55 connections, each sending its next request 50 ms after its last
  answer (wrk's ``delay``), i.e. about ``RATE`` requests a second when the
  server keeps up: the latency at the target rate;
- ``max``: 16 connections back to back: the most the server answers.

Needs ``wrk`` on the PATH (``apt-get install wrk``); without it the stage says so
and records nothing (CI's small run then proves the rest still runs).
"""

from __future__ import annotations

import json
import random
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

RATE = 1000  # the target: signed-out pages a second
ROUNDS = 3  # each of ours and the anchor, alternating
# Each paced connection waits 50 ms after an answer: 55 of them ask about 1,000
# times a second when each answer takes about 5 ms.
PACED_CONNECTIONS = 55
PACED_PAUSE_MS = 50
MAX_CONNECTIONS = 16
PATHS = 3000  # the shuffled list wrk cycles through

_SCRIPT = """
local paths = {%(paths)s}
local i = 0
local pause = %(pause)s
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i %% #paths) + 1])
end
if pause > 0 then
  delay = function() return pause end
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT %%d %%d %%d %%d %%d %%d %%d %%d %%d %%d\\n",
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write,
    e.timeout, latency:percentile(50), latency:percentile(95),
    latency:percentile(99)))
end
"""


def page_paths(tid: str, seed: int, games: list[str]) -> list[str]:
    """Standings, scorecards and game pages in locust's page mix (4:2:3)."""
    from tournaments.models import Player

    players = list(
        Player.objects.filter(tournament_id=tid).values_list("division", "player_id")
    )
    divisions = sorted({division for division, _ in players})
    rng = random.Random(seed)
    kinds = ["standings"] * 4 + ["scorecard"] * 2 + ["game"] * 3
    paths = []
    for _ in range(PATHS):
        kind = rng.choice(kinds)
        if kind == "standings":
            paths.append(
                f"/tournaments/{tid}/divisions/{rng.choice(divisions)}/standings/"
            )
        elif kind == "scorecard":
            paths.append(f"/tournaments/{tid}/players/{rng.choice(players)[1]}/")
        else:
            paths.append(f"/games/{rng.choice(games)}/")
    return paths


def _check(port: int, paths: list[str]) -> None:
    """Each kind of page answers 200 signed out, twice (the second from the page
    cache when it is on), with the same body: else the figures mean nothing."""
    import urllib.request

    for path in {path.split("/")[-3]: path for path in paths}.values():
        bodies = []
        for _ in range(2):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as answer:
                if answer.status != 200:
                    raise RuntimeError(f"pages: {path} answered {answer.status}")
                bodies.append(answer.read())
        if bodies[0] != bodies[1]:
            raise RuntimeError(f"pages: {path} answered two different pages")


def _wrk(port: int, script: Path, seconds: int, connections: int) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [
            "wrk",
            "-t1",
            f"-c{connections}",
            f"-d{seconds}s",
            "--timeout",
            "10s",
            "-s",
            str(script),
            f"http://127.0.0.1:{port}/",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=seconds + 60,
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = next(line for line in out.splitlines() if line.startswith("RESULT "))
    requests, duration, status, connect, read, write, timeout, p50, p95, p99 = map(
        int, line.split()[1:]
    )
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {
        "rps": requests / (duration / 1e6),
        "requests": requests,
        # Non-2xx/3xx answers, and sockets that failed (the server closes each
        # connection after its answer: wrk reconnects, a read error is a loss).
        "errors": status + connect + read + write + timeout,
        "errors_by_kind": {
            "status": status,
            "connect": connect,
            "read": read,
            "write": write,
            "timeout": timeout,
        },
        "p50_ms": p50 / 1000,
        "p95_ms": p95 / 1000,
        "p99_ms": p99 / 1000,
        "generator_core_share": cpu / (duration / 1e6),
        "loadavg": Path("/proc/loadavg").read_text().split()[0],
    }


def bench_pages(bench: Any, rounds: int | None = None) -> None:
    """Ours against the anchor, alternating; writes bench.results["pages"]."""
    rounds = rounds or (1 if bench.scale_name == "small" else ROUNDS)
    if shutil.which("wrk") is None:
        print("pages: wrk is not installed (apt-get install wrk); skipped", flush=True)
        bench.results["pages"] = {"skipped": "wrk not installed"}
        return
    seconds = 2 if bench.ci else 3 if bench.scale_name == "small" else 10
    port = 8766
    # The games of the last two rounds: what a room's readers follow during play.
    recent = bench.game_ids[-max(1, 2 * len(bench.game_ids) // bench.scale.rounds) :]
    paths = page_paths(str(bench.tid), bench.seed, recent)
    runs: dict[str, dict[str, list[dict[str, float]]]] = {
        mode: {"paced": [], "max": []} for mode in ("ours", "anchor")
    }
    with tempfile.TemporaryDirectory(prefix="pages-bench-") as folder:
        scripts = {}
        for shape, pause in (
            ("paced", PACED_PAUSE_MS),
            ("max", 0),
        ):
            scripts[shape] = Path(folder) / f"{shape}.lua"
            scripts[shape].write_text(
                _SCRIPT
                % {
                    "paths": ",".join(json.dumps(path) for path in paths),
                    "pause": pause,
                }
            )
        for _ in range(rounds):
            for mode in ("ours", "anchor"):
                env = bench._child_env()
                env.update(
                    DEBUG="0",
                    ALLOWED_HOSTS="127.0.0.1,localhost",
                    SECURE_SSL_REDIRECT="0",
                    PAGE_CACHE_MB="32" if mode == "ours" else "0",
                )
                server = bench._gunicorn(port, env)
                try:
                    bench._wait_for(port)
                    time.sleep(2)  # every worker warmed (gunicorn.conf.py)
                    _check(port, paths)
                    # Passes over the pages first: both start with their caches
                    # filled, as a server in its steady state (the paced run
                    # follows the max run for the same reason).
                    _wrk(port, scripts["max"], 1 if bench.ci else 4, MAX_CONNECTIONS)
                    for shape, connections in (
                        ("max", MAX_CONNECTIONS),
                        ("paced", PACED_CONNECTIONS),
                    ):
                        runs[mode][shape].append(
                            _wrk(port, scripts[shape], seconds, connections)
                        )
                finally:
                    server.send_signal(signal.SIGTERM)
                    server.wait(timeout=30)
    result: dict[str, Any] = {"seconds": seconds, "rate": RATE, "runs": runs}
    for mode in ("ours", "anchor"):
        result[mode] = {
            "paced": min(runs[mode]["paced"], key=lambda run: run["p95_ms"]),
            "max": max(runs[mode]["max"], key=lambda run: run["rps"]),
        }
    result["max_rps_ratio"] = result["ours"]["max"]["rps"] / max(
        result["anchor"]["max"]["rps"], 1e-9
    )
    bench.results["pages"] = result
    kinds: dict[str, int] = {}
    for shapes in runs.values():
        for shape_runs in shapes.values():
            for run in shape_runs:
                for kind, count in run["errors_by_kind"].items():
                    kinds[kind] = kinds.get(kind, 0) + count
    errors = sum(kinds.values())
    print(f"pages done (errors: {kinds})", flush=True)
    if errors:
        raise RuntimeError(f"pages: {errors} requests failed")


def page_lines(results: dict[str, Any]) -> list[tuple[str, str]]:
    """The table's lines for the pages stage."""
    pages = results.get("pages")
    if not pages or "skipped" in pages:
        return [("signed-out pages", (pages or {}).get("skipped", "not run"))]
    lines = []
    for mode in ("ours", "anchor"):
        for shape in ("paced", "max"):
            run = pages[mode][shape]
            lines.append(
                (
                    f"pages {mode} {shape}",
                    f"{run['rps']:.0f} req/s p50 {run['p50_ms']:.1f} "
                    f"p95 {run['p95_ms']:.1f} p99 {run['p99_ms']:.1f} ms "
                    f"(wrk {100 * run['generator_core_share']:.0f}% of a core, "
                    f"load {run['loadavg']})",
                )
            )
    lines.append(("pages max req/s, ours / anchor", f"{pages['max_rps_ratio']:.2f}x"))
    return lines


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit("run it through bench/run.py --only pages")
