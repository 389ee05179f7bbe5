"""The register of issued files: record a body once, sign it, and tell whether an
uploaded file is one of them (and if not, the first line that differs).

Every file a download hands out goes through :func:`issued_response`, a wrapper
around the response the export view built (so it composes with whatever the view
does: the version it read, a past position): the first time this process sees
a body (by its sha256, or by the read cache's ETag when it has one) the register
is asked for its row, which is written only if no one issued the body before
(``INSERT … ON CONFLICT DO NOTHING``), and the signature is made. tourney.js
polled every second by hundreds of readers costs a look-up by its ETag per 200
answer and no write at all (a 304 not even that): the register grows by distinct
bodies, never by downloads, and a download never touches the tournament's stream
(its version and ETag stay as they were).

Usage::

    response = tournament_file(...)        # the export as the view built it
    return issued_response(request, response, tournament_id=…, position=…,
                           kind="naspa.t", name="riverside.t")
    verdict = verify(data, signature)      # valid, tournament, position, reason
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import threading
import uuid
from collections.abc import Sequence

from cachetools import LRUCache
from django.db import DEFAULT_DB_ALIAS
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone

from tournaments.core import past
from tournaments.issued import signing
from tournaments.models import IssuedFile

# A line's digest is 8 bytes (a changed line is told from the record's with
# odds of 2^-64; validity itself is the whole body's sha256). A record keeps at
# most this many (64 KB): a longer file's difference past them is named as "after
# line N".
MAX_LINES = 8192
# Candidates compared line by line when an unsigned file matches no record.
MAX_CANDIDATES = 50
# The share of lines an unsigned changed copy must have in common with an issued
# file to be named as a changed copy of it (one line always may differ).
SAME_SHARE = 0.8

# digest -> signature document, per process: the hot path of a poller.
_SIGNED: LRUCache[tuple[str, str], bytes] = LRUCache(maxsize=4096)
# (ETag, size, key id) -> (sha256, signature document), per process.
_BY_TAG: LRUCache[tuple[str, int, str], tuple[str, bytes]] = LRUCache(maxsize=4096)
_SIGNED_LOCK = threading.Lock()


def split_lines(body: bytes) -> list[bytes]:
    """The file's lines as a reader numbers them (LF or CRLF ends; a last line
    without its end still a line)."""
    lines = body.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def line_digest(line: bytes) -> bytes:
    return hashlib.sha256(line.rstrip(b"\r")).digest()[:8]


def _signed(value: bytes) -> int:
    return int.from_bytes(value, "big", signed=True)


def payload_of(row: IssuedFile) -> signing.Payload:
    return signing.Payload(
        key=signing.current_key_id(),
        tournament=str(row.tournament_id),
        position=row.position,
        issued_at=row.issued_at.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        file=row.name,
        sha256=row.sha256,
        size=row.size,
    )


def record(
    body: bytes,
    *,
    tournament_id: uuid.UUID,
    position: int,
    kind: str,
    name: str,
    user: object,
) -> IssuedFile:
    """The register's row for ``body``: written now if it is the first time it
    is issued, else the first issue's row as it stands."""
    sha = signing.digest(body)
    # Read on the primary (a GET may read a replica, which may not have the row
    # yet): every worker after the first finds the row, and writes nothing.
    primary = IssuedFile.objects.using(DEFAULT_DB_ALIAS)
    found = primary.filter(sha256=sha).first()
    if found is not None:
        return found
    row = _new_row(body, sha, tournament_id, position, kind, name, user)
    if past.shown_at() is not None:
        # A read of the past runs in a transaction that is rolled back: the row
        # is written once it is, and this one is signed meanwhile.
        past.after_the_past(lambda: _insert(row))
        return row
    _insert(row)
    # Another worker may have written it since: the first issue's row is kept.
    return primary.get(sha256=sha)


def _insert(row: IssuedFile) -> None:
    IssuedFile.objects.bulk_create([row], ignore_conflicts=True)


def _new_row(
    body: bytes,
    sha: str,
    tournament_id: uuid.UUID,
    position: int,
    kind: str,
    name: str,
    user: object,
) -> IssuedFile:
    lines = split_lines(body)
    digests = [line_digest(line) for line in lines[:MAX_LINES]]
    first = digests[0] if digests else b"\0" * 8
    last = line_digest(lines[-1]) if lines else first
    row = IssuedFile(
        sha256=sha,
        tournament_id=tournament_id,
        position=position,
        kind=kind,
        name=name[:200],
        size=len(body),
        line_count=len(lines),
        lines=b"".join(digests),
        first_line=_signed(first),
        last_line=_signed(last),
        issued_at=timezone.now(),
        issued_to_id=getattr(user, "pk", None)
        if getattr(user, "is_authenticated", False)
        else None,
        key_id=signing.current_key_id(),
    )
    return row


def signature_for(
    body: bytes,
    *,
    tournament_id: uuid.UUID,
    position: int,
    kind: str,
    name: str,
    user: object,
) -> tuple[str, bytes]:
    """The body's sha256 and its signature document, recording it on this
    process's first sight of the body."""
    sha = signing.digest(body)
    key = (sha, signing.current_key_id())
    with _SIGNED_LOCK:
        document = _SIGNED.get(key)
    if document is None:
        row = record(
            body,
            tournament_id=tournament_id,
            position=position,
            kind=kind,
            name=name,
            user=user,
        )
        document = signing.sign(payload_of(row))
        if past.shown_at() is None:  # a past body's row is written after it
            with _SIGNED_LOCK:
                _SIGNED[key] = document
    return sha, document


def issued_response(
    request: HttpRequest,
    response: HttpResponse,
    *,
    tournament_id: uuid.UUID,
    position: int,
    kind: str,
    name: str,
) -> HttpResponse:
    """The export's response, recorded and signed: ``X-Signature`` (the
    signature document, base64) and a ``Link`` to the detached ``.sig``. Only a
    200 with a body is a file issued (a 304 or an error is not)."""
    if response.status_code != 200 or getattr(response, "streaming", False):
        return response
    shown = past.shown_at()
    if shown is not None:
        # ``?at=``: the file is the record as it stood at that position.
        position = shown.version
    body = response.content
    # A body served from the read cache carries its version's ETag, which already
    # promises every client the same bytes (a 304 rests on it): the poller's hot
    # path is then a look-up, not a sha256 of the body (15 us against 1.1 ms for
    # 241 KB on a loaded machine, bench/issued_bench.py).
    tag = (response.get("ETag", ""), len(body), signing.current_key_id())
    with _SIGNED_LOCK:
        known = _BY_TAG.get(tag) if tag[0] and shown is None else None
    if known is None:
        known = signature_for(
            body,
            tournament_id=tournament_id,
            position=position,
            kind=kind,
            name=name,
            user=getattr(request, "user", None),
        )
        if tag[0] and shown is None:
            with _SIGNED_LOCK:
                _BY_TAG[tag] = known
    sha, document = known
    response["X-Signature"] = signing.header_value(document)
    response["Link"] = f'<{reverse("issued-signature", args=[sha])}>; rel="signature"'
    return response


# --- verification -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Verdict:
    valid: bool
    tournament: str | None
    position: int | None
    issued_at: str | None
    reason: str


def _found(row: IssuedFile, reason: str, *, valid: bool) -> Verdict:
    payload = payload_of(row)
    return Verdict(valid, payload.tournament, row.position, payload.issued_at, reason)


def _first_difference(body: bytes, row: IssuedFile) -> str:
    """Where ``body`` first departs from the issued file ``row``: its line."""
    lines = split_lines(body)
    recorded = [row.lines[i : i + 8] for i in range(0, len(row.lines), 8)]
    for number, line in enumerate(lines[: len(recorded)], start=1):
        if line_digest(line) != recorded[number - 1]:
            return (
                f"line {number} differs from the file issued at position"
                f" {row.position}: {_shown(line)}"
            )
    if len(recorded) < row.line_count and len(lines) > len(recorded):
        return (
            f"the file differs after line {len(recorded)} from the file issued at"
            f" position {row.position}"
        )
    if len(lines) > row.line_count:
        return (
            f"line {row.line_count + 1} was added: the file issued at position"
            f" {row.position} has {row.line_count} lines"
        )
    if len(lines) < row.line_count:
        return (
            f"line {len(lines) + 1} is missing: the file issued at position"
            f" {row.position} has {row.line_count} lines"
        )
    # Same lines, other bytes: line ends (CRLF for LF) or the last line's end.
    return (
        f"the line ends differ from the file issued at position {row.position}"
        " (every line's text is the same)"
    )


def _shown(line: bytes) -> str:
    """The uploaded line, for the reason (the uploader's own text, never the
    record's: the register keeps no content)."""
    text = line.rstrip(b"\r").decode("utf-8", errors="replace")
    return repr(text if len(text) <= 80 else text[:77] + "...")


def _common_lines(lines: Sequence[bytes], row: IssuedFile) -> int:
    recorded = {row.lines[i : i + 8] for i in range(0, len(row.lines), 8)}
    return sum(1 for line in lines[:MAX_LINES] if line_digest(line) in recorded)


def _best_match(body: bytes) -> IssuedFile | None:
    """The issued file an unsigned, changed copy most likely came from: among the
    records sharing its first or last line, the one with most lines in common, if
    it shares all but a fifth of them (all but one of a short file)."""
    lines = split_lines(body)
    if not lines:
        return None
    first, last = _signed(line_digest(lines[0])), _signed(line_digest(lines[-1]))
    candidates = list(
        IssuedFile.objects.filter(first_line=first).order_by("-issued_at")[
            :MAX_CANDIDATES
        ]
    ) + list(
        IssuedFile.objects.filter(last_line=last).order_by("-issued_at")[
            :MAX_CANDIDATES
        ]
    )
    scored = [
        (_common_lines(lines, row), -abs(row.size - len(body)), row)
        for row in candidates
    ]
    if not scored:
        return None
    common, _, best = max(scored, key=lambda item: item[:2])
    # Only a near copy names its record: a few lines many files share ("#division
    # A") must not name another tournament, perhaps one not published.
    size = max(len(lines), best.line_count)
    if common < size - max(1, int(size * (1 - SAME_SHARE))):
        return None
    return best


def verify(body: bytes, signature: bytes | None) -> Verdict:
    """Whether ``body`` is byte for byte a file this site issued (and, with a
    signature, the one the signature vouches for); if not, why, naming the first
    line that differs from the record."""
    sha = signing.digest(body)
    row = IssuedFile.objects.filter(sha256=sha).first()
    if signature is not None:
        try:
            payload = signing.check_signature(signature, signing.public_keys())
        except signing.SignatureError as error:
            return Verdict(False, None, None, None, str(error))
        signed_row = IssuedFile.objects.filter(sha256=payload.sha256).first()
        if payload.sha256 != sha:
            if signed_row is None:
                return Verdict(
                    False,
                    payload.tournament,
                    payload.position,
                    payload.issued_at,
                    "the file is not the one the signature vouches for (its sha256"
                    " differs), and that file is not in this site's register",
                )
            return _found(signed_row, _first_difference(body, signed_row), valid=False)
        if row is None:
            return Verdict(
                False,
                payload.tournament,
                payload.position,
                payload.issued_at,
                "the signature checks, but this site's register has no such file",
            )
        return _found(
            row,
            f"issued by this site for this tournament at position {row.position};"
            " the signature checks",
            valid=True,
        )
    if row is not None:
        return _found(
            row,
            f"issued by this site for this tournament at position {row.position}",
            valid=True,
        )
    match = _best_match(body)
    if match is None:
        return Verdict(
            False,
            None,
            None,
            None,
            "no file issued by this site matches: not one of its files, or changed"
            " beyond recognition (give its .sig to name the file it should be)",
        )
    return _found(match, _first_difference(body, match), valid=False)
