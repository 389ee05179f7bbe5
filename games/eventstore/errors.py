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
