"""How long a fresh clone's first ``./run.sh`` takes, stage by stage.

    python bench/first_run.py [--rev HEAD] [--runs 3]

Each run: the tree of ``--rev`` (git archive) in a new temporary directory, no .venv
and no database, so ``./run.sh`` creates the virtualenv, installs (from pip's cache
when it is warm: this script never clears it), initialises the embedded PostgreSQL,
migrates, loads the demo and serves. The clock stops when ``/api/health`` answers
200; the times at which run.sh's own lines appeared say where the time went. The
machine's load average is printed with each run (a busy machine is slower).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
STAGES = {
    "==> creating .venv": "venv",
    "==> installing": "install",
    "Operations to perform": "migrate",
    "Demo loaded": "demo done",
    "Serving on": "serving",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(
            f"http://127.0.0.1:{port}/api/health", timeout=2
        ) as answer:
            return answer.status == 200
    except OSError:
        return False


def one_run(rev: str) -> dict[str, float]:
    workdir = Path(tempfile.mkdtemp(prefix="first-run-"))
    try:
        archive = subprocess.run(
            ["git", "archive", rev], cwd=PROJECT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(workdir)], input=archive, check=True)
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("EMBEDDED_PG", "DATABASE_", "DJANGO_"))
        }
        port = free_port()
        times: dict[str, float] = {}
        started = time.monotonic()
        process = subprocess.Popen(
            ["./run.sh", f"127.0.0.1:{port}"],
            cwd=workdir,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )

        def read() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                for mark, stage in STAGES.items():
                    if mark in line and stage not in times:
                        times[stage] = time.monotonic() - started

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        while not healthy(port):
            if process.poll() is not None:
                raise SystemExit(f"run.sh stopped ({process.returncode})")
            if time.monotonic() - started > 900:
                raise SystemExit("no answer after 900 s")
            time.sleep(0.25)
        times["answering"] = time.monotonic() - started
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=120)
        return times
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for number in range(1, args.runs + 1):
        load = os.getloadavg()[0]
        times = one_run(args.rev)
        stages = ", ".join(f"{stage} {at:.1f} s" for stage, at in times.items())
        print(f"{args.rev} run {number} (load {load:.2f}): {stages}", flush=True)


if __name__ == "__main__":
    main()
