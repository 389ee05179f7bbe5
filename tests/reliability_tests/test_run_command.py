"""The run command (``manage.py serve``, what ``./run.sh`` runs) and its embedded
PostgreSQL: stopped with the server even after an earlier crash, restarted when it
dies under the server, and a clear exit when it cannot be."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from config.embedded_pg import postmaster_pid, process_alive
from tests.reliability_tests.conftest import free_port, http, manage, subprocess_env


def postgres_running(pgdata: Path) -> bool:
    pid = postmaster_pid(pgdata)
    return pid is not None and process_alive(pid)


def wait_until(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.2)


@pytest.fixture
def pgdata() -> Iterator[Path]:
    """A data directory of its own (short: the server's socket lives in it); any
    PostgreSQL a failed test leaves running there is killed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="scrabble-run-"))
    yield path
    pid = postmaster_pid(path)
    if pid is not None and process_alive(pid):
        os.kill(pid, signal.SIGKILL)
    shutil.rmtree(path, ignore_errors=True)


class Server:
    """``manage.py serve --no-demo`` on its own port and data directory."""

    def __init__(self, pgdata: Path, log: IO[str]) -> None:
        env = subprocess_env(EMBEDDED_PGDATA=str(pgdata))
        del env["DATABASE_URL"]  # the embedded server, as ./run.sh starts it
        self.url = f"http://127.0.0.1:{free_port()}"
        self.log = log
        self.process = subprocess.Popen(
            manage("serve", "--no-demo", self.url.removeprefix("http://")),
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def healthy(self) -> bool:
        assert self.process.poll() is None, self.output()
        try:
            return http(f"{self.url}/api/health")[0] == 200
        except OSError:
            return False

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def stop(self, sig: int = signal.SIGTERM) -> int:
        self.process.send_signal(sig)
        return self.process.wait(timeout=60)


@contextmanager
def serving(pgdata: Path) -> Iterator[Server]:
    with tempfile.TemporaryFile(mode="w+") as log:
        server = Server(pgdata, log)
        try:
            wait_until(server.healthy, 120, "the run command serves")
            yield server
        finally:
            if server.process.poll() is None:
                server.process.kill()
                server.process.wait()


def test_a_clean_stop_after_an_earlier_crash_stops_postgres(pgdata):
    """Today's defect: a kill -9 left its handle behind, and every later clean stop
    left PostgreSQL running."""
    with serving(pgdata) as crashed:
        crashed.stop(signal.SIGKILL)
    assert postgres_running(pgdata)  # nobody was left to stop it
    with serving(pgdata) as server:
        server.stop()
    wait_until(lambda: not postgres_running(pgdata), 30, "PostgreSQL stops")


def test_postgres_that_dies_under_the_server_is_restarted(pgdata):
    with serving(pgdata) as server:
        first = postmaster_pid(pgdata)
        os.kill(first, signal.SIGKILL)
        # The watchdog says so once the restart returns, which can be after the new
        # postmaster already answers.
        wait_until(
            lambda: (
                postmaster_pid(pgdata) not in (None, first)
                and server.healthy()
                and "is running again" in server.output()
            ),
            60,
            "PostgreSQL runs again, the server answers and the watchdog says so",
        )
        assert "has stopped; restarting it" in server.output()
        assert "is running again" in server.output()
        server.stop()
    wait_until(lambda: not postgres_running(pgdata), 30, "PostgreSQL stops")


def test_postgres_that_cannot_restart_stops_the_server_with_a_message(pgdata):
    with serving(pgdata) as server:
        pid = postmaster_pid(pgdata)
        # A data directory PostgreSQL refuses: no restart can succeed.
        (pgdata / "PG_VERSION").write_text("99\n")
        os.kill(pid, signal.SIGKILL)
        code = server.process.wait(timeout=120)
        output = server.output()
    assert code != 0
    assert "error: PostgreSQL would not start again" in output
    assert "Stopping the web server" in output
    assert not postgres_running(pgdata)
