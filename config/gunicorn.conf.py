"""gunicorn settings for production: ``gunicorn -c config/gunicorn.conf.py`` (the
project root as the working directory; the application, ``config.asgi:application``,
is named below).

The uvicorn worker class (``config.uvicorn_worker``, from the ``uvicorn-worker``
package): each worker process runs an event loop that follows the live feed's
streams as coroutines, and runs every other request in Django's WSGI application on
a pool of ``WEB_THREADS`` threads (8), as the threaded workers did (games/feedserver.py
says why). Before, with gunicorn's gthread workers, a feed stream held a thread and
wrote with a blocking send: 32 connections that never read took all 2 x 8 threads
and every other request timed out; now 64 such connections leave the pages
answering (docs/RELIABILITY.md, "The live feed"). ``--worker-class gthread
config.wsgi`` on the command line still runs the threaded server (the benchmark's
anchor).

One worker process per CPU (at least 2): the pages are CPU-bound Python, so a third
process on two cores only competed for them, and each process keeps its own page
cache, so fewer processes render fewer copies of each page after a result (national
benchmark, HTML pages with results entered at 8 a second, three paired 25 s runs: 2
workers used 3.7-4.4 ms of CPU a request and gave p95 96-130 ms, 3 workers 4.2-4.8
ms and 120-150 ms).

8 threads, not 4: directors' result entries wait on their tournament's lock in a
thread of their own, and with 4 the readers queued behind them (national benchmark,
reads p95 70 ms with 4 threads, 40 ms with 8). Each thread holds a database
connection: 2 x 8 = 16 of PostgreSQL's default 100 on two CPUs; the feed's polls run
on the same threads, so followers add no connection.

Keep-alive 5 s. It was off (0) under gunicorn's gthread workers: a keep-alive
connection stays with the worker process that accepted it, and a burst of clients
(55 in the national benchmark) landed mostly on one worker, which spent its one
core's worth of GIL while the other two idled (CPU 80% / 18% / 17%; HTML pages
p95 250 ms). Under the uvicorn worker, 0 means an idle connection is closed at
once without a ``Connection: close``, so a client that sends its next request on
it (any HTTP/1.1 client does) loses it: wrk, 16 connections, lost 4,116 of 10,683
signed-out page requests as read errors. With 5 s none was lost, and the pages
answered from the page cache (games/pagecache.py) cost so little CPU that where a
connection lands no longer matters much (bench/pages_bench.py, busy 2-core
machine: 11,900-12,700 pages/s with keep-alive against 2,650-3,300 without). Set
``WEB_KEEPALIVE=0`` to go back.

Writes in a process of their own (config/writer.py says why): the master starts
``python -m config.writer`` before the workers, on a Unix socket in a private
temporary directory, and stops it after them; each worker hands it every unsafe
request (a result, a pairing, a sign-in) instead of running it on its page threads.
A worker that cannot reach it (still warming up, or gone) writes itself, as before.
``WEB_WRITER=0`` turns it off (the benchmark's anchor). A reload (HUP) restarts the
workers, not the writer: restart the server to deploy new code.

``WEB_CONCURRENCY``, ``WEB_THREADS``, ``WEB_KEEPALIVE`` and ``WEB_WRITER`` override
these; ``--bind`` and the other command-line options still apply on top of this
file.
"""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any


def _cpus() -> int:
    # The CPUs this process may run on (a container's share, not the host's).
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 2


wsgi_app = "config.asgi:application"
worker_class = "config.uvicorn_worker.Worker"
workers = int(os.environ.get("WEB_CONCURRENCY", str(max(2, _cpus()))))
# The pages' thread pool (config.asgi reads the same variable); gthread's threads.
threads = int(os.environ.get("WEB_THREADS", "8"))
keepalive = int(os.environ.get("WEB_KEEPALIVE", "5"))


def post_worker_init(worker: Any) -> None:
    """Replay the tournaments being played now before taking requests (see
    games.eventstore.warmup: a cold replay would stall this worker's readers)."""
    from games.eventstore.warmup import warm_recent_streams

    warm_recent_streams("tournament")
    # The replayed tournaments are long-lived: out of the collector's sight, a full
    # collection no longer walks them (60 ms with a national event warmed, every
    # thread of the worker stalled meanwhile).
    gc.freeze()


_writer: dict[str, Any] = {}


def on_starting(server: Any) -> None:
    """Start the writer process; its socket's path goes to the workers by their
    environment (config.settings.WEB_WRITER_SOCKET)."""
    if os.environ.get("WEB_WRITER", "1") in {"0", "false", "no"}:
        return
    if server.cfg.worker_class_str != worker_class:
        return  # ``--worker-class gthread config.wsgi``: WSGI workers never hand over
    folder = tempfile.mkdtemp(prefix="scrabble-writer-")  # this user's only
    path = os.path.join(folder, "writer.sock")
    _writer["folder"] = folder
    _writer["process"] = subprocess.Popen(
        [sys.executable, "-m", "config.writer", path],
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )
    os.environ["WEB_WRITER_SOCKET"] = path


def on_exit(server: Any) -> None:
    """Stop the writer once the workers have stopped (their writes answered)."""
    process = _writer.pop("process", None)
    if process is not None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    folder = _writer.pop("folder", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
