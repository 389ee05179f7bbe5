"""Verify a file this site issued, offline: with its .sig and the site's public
key only (no database, no network).

    python manage.py verify_file riverside.t --signature riverside.t.sig \\
        --public-key site-key.pem

Exit 0 when the signature checks under the key and the file is byte for byte
the one it vouches for; 1 otherwise, with the reason; 2 when an input cannot be
read. Which line a changed file differs in needs the site's record: upload it to
``/verify/`` (or ``POST /api/verify``) for that.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.issued import signing


class Command(BaseCommand):
    help = (
        "Verify a file the site issued against its detached signature and the "
        "site's public key, offline (no database)."
    )
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The file as downloaded.")
        parser.add_argument(
            "--signature", help="Its .sig (default: FILE.sig beside it)."
        )
        parser.add_argument(
            "--public-key",
            action="append",
            required=True,
            help="The site's public key, PEM (from /api/signing-key); repeat for "
            "keys retired by a rotation.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        file = Path(options["file"])
        sig = Path(options["signature"] or f"{file}.sig")
        try:
            body = file.read_bytes()
            document = sig.read_bytes()
            keys = {}
            for path in options["public_key"]:
                key = signing.load_public_key(Path(path).read_bytes(), path)
                keys[signing.key_id(key)] = key
        except (OSError, signing.SignatureError) as error:
            raise CommandError(str(error), returncode=2) from None
        try:
            payload = signing.check_signature(document, keys)
        except signing.SignatureError as error:
            raise CommandError(f"NOT valid: {error}", returncode=1) from None
        actual = signing.digest(body)
        if actual != payload.sha256:
            raise CommandError(
                f"NOT valid: {file} is not the file the signature vouches for"
                f" ({payload.file}, {payload.size} bytes, sha256 {payload.sha256};"
                f" this one: {len(body)} bytes, sha256 {actual}). Upload it to the"
                " site's /verify/ page to see the first line that differs.",
                returncode=1,
            )
        self.stdout.write(
            f"valid: {file} is {payload.file} as issued for tournament"
            f" {payload.tournament} at log position {payload.position}, first"
            f" issued {payload.issued_at} (key {payload.key})"
        )
