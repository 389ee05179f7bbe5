"""Verify the event log under its key, and every projection against a replay."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.eventstore.models import FeedSeal, FlaggedStream
from games.eventstore.repair import (
    Refusal,
    find_stale,
    flag_streams,
    log_versions,
    projection_differences,
    repair_projections,
    reproject,
)
from games.eventstore.seal import verify_feed
from games.eventstore.streams import StreamKey, projection_indexes
from games.eventstore.verify import head_problems, verify_log


class Command(BaseCommand):
    help = (
        "Verify the event log: every stream's versions run 1, 2, 3…, every chain "
        "hash verifies under EVENT_LOG_KEY, and every stream's log ends where its "
        "head was recorded (tampering is reported with its stream and version). "
        "Then every projection: at its log's version (a log shorter than its "
        "projection is tampering), and equal to a fresh replay of the log. "
        "--repair re-projects what is stale or differs where the log is sound, "
        "and flags the streams whose log is not."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--replay",
            action="store_true",
            help="Also decode every event and apply it through the rules in order "
            "while checking the chains (names the event the rules refuse).",
        )
        parser.add_argument(
            "--repair",
            action="store_true",
            help="Re-project the streams whose projection is behind the log or "
            "differs from a replay, when their log verifies; flag the others.",
        )
        parser.add_argument(
            "--skip-contents",
            action="store_true",
            help="Do not compare the projections' rows with a replay (quicker).",
        )

    feed_broken = False

    def handle(self, *args: Any, **options: Any) -> None:
        self.feed_broken = False
        events, streams, problems = verify_log(replay=options["replay"])
        tampered: list[Refusal] = []
        for problem in problems:
            self.stderr.write(f"TAMPERED {problem}")
            tampered.append(
                Refusal(problem.stream, f"version {problem.version}: {problem.problem}")
            )
        for head in head_problems():
            self.stderr.write(f"TAMPERED {head}")
            tampered.append(Refusal(head.stream, head.problem))
        tampered += self._feed()
        stale = []
        for item in find_stale():
            if item.log_is_shorter:
                self.stderr.write(f"TAMPERED {item.stream}: {item.shortfall}")
                tampered.append(Refusal(item.stream, item.shortfall))
            else:
                stale.append(item)
        in_doubt = {refusal.stream.id for refusal in tampered}
        differing = []
        if not options["skip_contents"]:
            differing = self._compare(in_doubt | {item.stream.id for item in stale})
        unrepaired = self._repair(stale, differing, tampered, options["repair"])
        for flag in FlaggedStream.objects.order_by("stream_type", "stream_id"):
            since = f"{flag.flagged_at:%Y-%m-%d %H:%M}"
            self.stderr.write(f"FLAGGED {flag} (since {since})")
        if tampered or self.feed_broken:
            self.stderr.write(
                f"{len(tampered)} problem(s) in {events} events of {streams} streams"
            )
        else:
            self.stdout.write(
                f"{events} events of {streams} streams verified: every chain is intact"
            )
        if tampered or unrepaired or self.feed_broken:
            raise SystemExit(1)

    def _feed(self) -> list[Refusal]:
        """The feed's chain and its agreement with the log (each break reported);
        the streams in doubt. A break that names no stream is reported alone."""
        refusals = []
        for problem in verify_feed():
            self.stderr.write(f"TAMPERED {problem}")
            if problem.stream is not None:
                refusals.append(Refusal(problem.stream, problem.problem))
            else:
                self.feed_broken = True
        head = FeedSeal.objects.order_by("-feed_position").first()
        if head is not None:
            # An anchor to keep outside the database: a roll-back of the whole
            # feed's tail (with kept copies of heads) shows against it.
            self.stdout.write(
                f"feed sealed up to {head.feed_position}: {head.mac[:16]}…"
            )
        return refusals

    def _compare(self, skipped: set[Any]) -> list[StreamKey]:
        """The streams whose projection differs from a replay (each reported)."""
        differing = []
        for name in projection_indexes():
            for stream_id in sorted(log_versions(name), key=str):
                if stream_id in skipped:
                    continue
                stream = StreamKey(name, stream_id)
                differences = projection_differences(stream)
                for line in differences:
                    self.stderr.write(f"PROJECTION {stream}: {line}")
                if differences:
                    differing.append(stream)
        return differing

    def _repair(
        self,
        stale: list[Any],
        differing: list[StreamKey],
        tampered: list[Refusal],
        repair: bool,
    ) -> list[Any]:
        """Repair (with `repair`) or report what needs it; what is left unrepaired."""
        if not repair:
            for item in stale:
                self.stderr.write(f"STALE {item} (run with --repair)")
            if differing:
                self.stderr.write(
                    f"{len(differing)} projection(s) differ from a replay "
                    "(run with --repair)"
                )
            return [*stale, *differing]
        report = repair_projections()
        for item in report.repaired:
            self.stdout.write(f"repaired {item}")
        for stream in differing:
            if self.feed_broken:
                # A break in the feed that names no stream: any log may have
                # lost its last events, so no replay is made official.
                self.stderr.write(f"NOT repaired {stream}: the feed's chain is broken")
                continue
            reproject(stream)
            self.stdout.write(f"repaired {stream}: it differed from a replay")
        flag_streams(tampered)
        doubted = {refusal.stream.id for refusal in [*tampered, *report.refused]}
        # What verified cleanly now is no longer in doubt (restored, say).
        FlaggedStream.objects.exclude(stream_id__in=doubted).delete()
        return []
