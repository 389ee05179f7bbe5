"""Chain the event log again under a new key, after verifying it under the old one."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.eventstore.chain import log_key
from games.eventstore.rekey import keyed, rechain
from games.eventstore.seal import verify_feed

OLD_KEY = "EVENT_LOG_OLD_KEY"


class Command(BaseCommand):
    help = (
        f"Re-key the event log: verify every stream under the key in {OLD_KEY} and "
        "chain it again under EVENT_LOG_KEY (docs/RELIABILITY.md, 'Key rotation'). "
        "Streams that do not verify under the old key are left as they are and "
        "listed. Appends wait while it runs."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        # From the environment, not an argument: a key on a command line is seen by
        # every user of the machine (ps) and kept in shell histories.
        old = os.environ.get(OLD_KEY)
        if not old:
            raise CommandError(f"{OLD_KEY} is not set: the key the log is chained with")
        old_key, new_key = log_key(old), log_key()
        # Sealing the feed again under the new key would bless a break in it:
        # the feed must verify under the old key first.
        broken = verify_feed(old_key)
        if broken:
            for problem in broken:
                self.stderr.write(f"TAMPERED {problem}")
            raise CommandError(
                "the feed does not verify under the old key: nothing was re-keyed "
                "(restore from a backup or investigate first; verify_events)"
            )
        report = rechain(keyed(old_key), keyed(new_key), new_key=new_key)
        for stream, problem in report.refused:
            self.stderr.write(f"NOT re-keyed (does not verify): {stream}: {problem}")
        self.stdout.write(
            f"{report.events} events of {report.streams} streams chained under "
            "EVENT_LOG_KEY"
        )
        if report.refused:
            raise SystemExit(1)
