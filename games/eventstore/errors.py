"""The store's errors, and the refusal of an event by its stream's rules.

The store's own errors derive from :class:`EventStoreError`: a stale expected
version, a stream type nobody registered, a payload the codec cannot encode or
decode, a backup that cannot be restored. An event the rules refuse is not the
store's error but the rules': :class:`EventRejectedError` is a
``rules.errors.RulesError``, the one root of refusals that the API edge translates
(a 400 with the rule's code, message and field).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.errors import RulesError

if TYPE_CHECKING:
    from games.eventstore.streams import StreamKey


class EventStoreError(Exception):
    """Base of the store's own errors."""


class ConcurrencyError(EventStoreError):
    """Raised when `expected_version` is not the stream's current version."""

    def __init__(self, stream: StreamKey, expected: int, current: int) -> None:
        self.stream = stream
        self.expected = expected
        self.current = current
        super().__init__(
            f"{stream} is at version {current}, not {expected}: "
            "it changed since you read it"
        )


class UnknownStreamTypeError(EventStoreError):
    """Raised when no StreamType is registered under a stream's type name."""


class CodecError(EventStoreError):
    """Raised when an event cannot be encoded or a stored payload cannot be decoded."""


class EventRejectedError(RulesError):
    """Raised when the rules refuse one of the events of an append; nothing was
    written.

    Carries the rule's ``code``, ``message`` and ``field`` (the input at fault, when
    the rule names one) and ``index``, which of the appended events (0-based) was
    refused; the rule's own error is its ``__cause__``.
    """

    def __init__(
        self, code: str, message: str, index: int, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.index = index
        self.field = field


class TamperedStreamError(EventRejectedError):
    """Raised when an append finds its stream's log not ending where its head was
    recorded (events deleted or added in the database); nothing was written.

    A refusal like the rules' (a 400 with its code, the message on a form), so that
    no one adds to a stream whose history is in doubt until an administrator has
    restored it (``manage.py verify_events`` reports it).
    """

    def __init__(self, stream: StreamKey) -> None:
        super().__init__(
            "stream_tampered",
            f"The record of {stream} failed its integrity check (its log does not "
            "end where it was last written): nothing can be added to it until an "
            "administrator restores it.",
            0,
        )
        self.stream = stream


class StreamUnderReviewError(EventStoreError):
    """Raised when a stream's logged events cannot be replayed (the rules refuse
    one, or it cannot be decoded): a forged event inserted in the database, or a
    rules change that no longer accepts an old one.

    Readers are told the record is under review (a 503, never a 500; see
    ``config.middleware`` and ``games.api_errors``); the warm-up and the start-up
    repair flag the stream and go on (``games.eventstore.repair.flag_streams``).
    """

    def __init__(self, stream: StreamKey, version: int, reason: str) -> None:
        super().__init__(f"{stream}@{version} cannot be replayed: {reason}")
        self.stream = stream
        self.version = version
        self.reason = reason


class LogKeyChangedError(EventStoreError):
    """Raised when an append finds its stream's head authenticated under another
    key than this process's ``EVENT_LOG_KEY``: the log was re-keyed
    (``manage.py rekey_events``) while this server was running. Nothing was
    written; the server must be restarted with the new key (docs/RELIABILITY.md,
    "Key rotation")."""

    def __init__(self, stream: StreamKey) -> None:
        super().__init__(
            f"The event log was re-keyed: this server's EVENT_LOG_KEY is not the "
            f"log's, so nothing was written to {stream}. Restart it with the new key."
        )
        self.stream = stream
