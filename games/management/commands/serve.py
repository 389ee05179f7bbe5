"""Migrate, load the demo on an empty database, and serve on 127.0.0.1:8000.

The README's run command. ``serve 0.0.0.0:8000`` (``./run.sh 0.0.0.0:8000``)
serves the venue's network: it prints the addresses the room's phones can open
(this computer's network addresses, by psutil) and answers requests made to them
(added to ``ALLOWED_HOSTS``), so the director opens the console by one of them
and every printed link and QR code carries it (config/site_url.py).

The database (embedded PostgreSQL unless DATABASE_URL is set) was started when
settings loaded; Ctrl-C or SIGTERM stops the web server and, through atexit, the
embedded PostgreSQL. While serving, a watchdog restarts an embedded PostgreSQL
that dies, or stops the server with a message saying why (config/embedded_pg.py).

The server is uvicorn running ``config.asgi`` in this process, as production's
gunicorn workers do: the live feed as coroutines, the pages on a pool of threads
(games/feedserver.py). uvicorn catches SIGINT and SIGTERM, stops (open feed
streams are cut after ``GRACEFUL_SECONDS``), and raises the signal again once it
has stopped, so the handlers below still run: Ctrl-C ends quietly, SIGTERM exits
through atexit.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import signal
import socket
from typing import Any

import psutil
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand, CommandError, CommandParser

from config.embedded_pg import watch_embedded_postgres
from config.uvicorn_worker import GRACEFUL_SECONDS
from games.eventstore.repair import repair_projections

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Migrate, load demo data on an empty database, and run the web server."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--no-demo", action="store_true", help="Do not load the demo data."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=1)
        # A projection behind its log (detected by its version) is re-projected
        # before anyone reads it, when the log verifies; a log in doubt (shorter
        # than its projection or head, or a chain that fails) is left as it is.
        report = repair_projections()
        for stale in report.repaired:
            self.stdout.write(f"Repaired the projection of {stale}")
        for refusal in report.refused:
            message = (
                f"TAMPERING: {refusal}. Not re-projected and flagged: see "
                "`manage.py verify_events` (docs/RELIABILITY.md)"
            )
            self.stderr.write(self.style.ERROR(message))
            logger.error(message)
        if not options["no_demo"] and "demo" in get_commands():
            call_command("demo", if_empty=True)
        host, port = address(options["addrport"])
        self.stdout.write(f"Serving on http://{options['addrport']}/ (Ctrl-C stops)")
        self._announce(host, port)
        # A shell starting us in the background leaves SIGINT ignored; Ctrl-C (or
        # kill -INT) must still stop the server and, through atexit, PostgreSQL.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        watchdog = watch_embedded_postgres()
        try:
            with contextlib.suppress(KeyboardInterrupt):
                run_server(host, port)
        finally:
            if watchdog is not None:
                watchdog.stop()

    def _announce(self, host: str, port: int) -> None:
        """Say where the room reaches the site, and let those addresses in."""
        if _loopback(host):
            self.stdout.write(
                "Only this computer can open it; to serve the venue's network: "
                f'./run.sh 0.0.0.0:{port} (README, "At the venue")'
            )
            return
        hosts = served_hosts(host)
        # The run command answers at the addresses it announces, whatever
        # ALLOWED_HOSTS says (a deployment names its own in ALLOWED_HOSTS).
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, *hosts]
        self._warn_of_demo_sign_ins()
        addresses = [h for h in hosts if _is_ip(h)]
        if not addresses:
            self.stdout.write(
                "No network address found on this computer: connect it to the "
                "venue's network (or its hotspot) and start again."
            )
            return
        self.stdout.write("The room's phones and tablets reach it at:")
        for ip in addresses:
            shown = f"[{ip}]" if ":" in ip else ip
            self.stdout.write(f"  http://{shown}:{port}/")
        self.stdout.write(
            "Open the director's console by one of these: the scorecards' links "
            "and QR codes print the address it was opened by (or set SITE_URL)."
        )

    def _warn_of_demo_sign_ins(self) -> None:
        """The demo's accounts sign in with their names as passwords: harmless on
        127.0.0.1, anyone's director's account on the venue's Wi-Fi."""
        open_ = [
            user.get_username()
            for user in get_user_model().objects.filter(username__in=DEMO_SIGN_INS)
            if user.check_password(user.get_username())
        ]
        if open_:
            names = ", ".join(f"{name}/{name}" for name in sorted(open_))
            self.stderr.write(
                self.style.WARNING(
                    f"WARNING: the demo's sign-ins ({names}) still work, for anyone "
                    "on this network: change their passwords (manage.py "
                    "changepassword director) or serve a database without the demo."
                )
            )


# The accounts demo.py creates, each with its name as its password.
DEMO_SIGN_INS = ("director", "dev")


def address(addrport: str) -> tuple[str, int]:
    """("127.0.0.1", 8000) from "127.0.0.1:8000" (or "8000"); ("::", 8000) from
    "[::]:8000"."""
    host, _, port = addrport.rpartition(":")
    if not port.isascii() or not port.isdecimal():
        raise CommandError(
            f"Not an address and port: {addrport!r} (e.g. 127.0.0.1:8000)"
        )
    host = host.removeprefix("[").removesuffix("]")
    return host or "127.0.0.1", int(port)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    return _is_ip(host) and ipaddress.ip_address(host).is_loopback


def lan_addresses(ipv6: bool = False) -> list[str]:
    """This computer's addresses on its networks (IPv4; IPv6 global ones too when
    `ipv6`), loopback and link-local left out: no phone reaches those."""
    families = {socket.AF_INET, socket.AF_INET6} if ipv6 else {socket.AF_INET}
    found: list[str] = []
    for addresses in psutil.net_if_addrs().values():
        for item in addresses:
            if item.family not in families:
                continue
            ip = ipaddress.ip_address(item.address.split("%")[0])
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
                continue
            if str(ip) not in found:
                found.append(str(ip))
    return sorted(found, key=lambda text: (":" in text, text))


def served_hosts(host: str) -> list[str]:
    """The host names a request may carry to reach a server bound to `host`: every
    network address and this computer's name (``name.local`` by mDNS) for a
    wildcard bind, the address itself otherwise."""
    if host in ("0.0.0.0", "::"):
        name = socket.gethostname()
        names = [name, f"{name}.local"] if name else []
        return [*lan_addresses(ipv6=host == "::"), *names]
    return [host]


def run_server(host: str, port: int) -> None:
    """uvicorn serving the site until a signal stops it (no reloader: it would
    fork a child that outlives a SIGTERM)."""
    import uvicorn

    uvicorn.run(
        "config.asgi:application",
        host=host,
        port=port,
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
    )
