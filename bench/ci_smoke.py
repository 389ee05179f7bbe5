"""CI's run of the benchmark: ``bench/run.py --scale small --ci``, to prove it still
runs (every stage, the servers it starts, its load generators), never to judge its
figures.

    python bench/ci_smoke.py

Fails (exit 1) when the benchmark fails, runs past ``LIMIT`` seconds, writes no
figures for a stage, or leaves anything behind: a process of its own (its
gunicorn, locust, wrk and PostgreSQL run in a session of their own, and any left
in it once the benchmark has exited is named and stopped) or its temporary
PostgreSQL data directory.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Seconds: a guard against a hang, not a figure (150 s on a 2-core machine at load
# 14, eight other test runs alongside).
LIMIT = int(os.environ.get("BENCH_CI_LIMIT", "360"))
# What every stage writes into the results (the pages stage without wrk writes
# that it was skipped, which is not a failure: the rest ran).
STAGES = (
    "append",
    "append_interleaved",
    "eventsourcing",
    "chain",
    "verify",
    "rules",
    "amend_impact",
    "standings_after_result",
    "replay",
    "http",
    "http_pages",
    "pages",
    "bulk_games",
    "bulk_gcg",
)


def _session_processes(session: int) -> list[str]:
    """The processes still in `session` (``ps``: pid and command)."""
    out = subprocess.run(
        ["ps", "-e", "-o", "sid=,pid=,args="], capture_output=True, text=True
    ).stdout
    left = []
    for line in out.splitlines():
        sid, pid, args = line.split(None, 2)
        if int(sid) == session and int(pid) != os.getpid():
            left.append(f"{pid} {args}")
    return left


def main() -> int:
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-ci-") as folder:
        output = Path(folder) / "results.json"
        # Its temporary files, the throwaway PostgreSQL cluster among them
        # (config/embedded_pg.py, EMBEDDED_PG_TEMP), go here: what is left is its.
        scratch = Path(folder) / "tmp"
        scratch.mkdir()
        started = time.monotonic()
        bench = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "bench" / "run.py"),
                "--scale",
                "small",
                "--ci",
                "--output",
                str(output),
            ],
            cwd=ROOT,
            env={**os.environ, "TMPDIR": str(scratch)},
            start_new_session=True,
        )
        try:
            code = bench.wait(timeout=LIMIT)
        except subprocess.TimeoutExpired:
            problems.append(f"the benchmark ran past {LIMIT} s")
            bench.send_signal(signal.SIGTERM)  # its finally blocks stop its servers
            try:
                code = bench.wait(timeout=30)
            except subprocess.TimeoutExpired:
                bench.kill()
                code = bench.wait()
        seconds = time.monotonic() - started
        if code != 0:
            problems.append(f"the benchmark exited with {code}")
        elif not output.exists():
            problems.append("the benchmark wrote no results")
        else:
            results = json.loads(output.read_text())
            missing = [stage for stage in STAGES if not results.get(stage)]
            if missing:
                problems.append(f"no figures for: {', '.join(missing)}")
        left = _session_processes(bench.pid)
        if left:
            problems.append("processes left behind:\n  " + "\n  ".join(left))
            os.killpg(bench.pid, signal.SIGKILL)
        clusters = sorted(str(path) for path in scratch.glob("scrabble-pg-*"))
        if clusters:
            problems.append(f"PostgreSQL data left behind: {clusters}")
    print(f"bench CI run: {seconds:.0f} s", flush=True)
    for problem in problems:
        print(f"bench CI run FAILED: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
