"""A minimal stream type for testing the store's contract without game rules."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import ClassVar

from games.eventstore.codec import Codec
from games.eventstore.streams import StreamKey, StreamType


class CounterError(Exception):
    """Raised when a counter event breaks the counter's rules."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Added:
    type_name: ClassVar[str] = "added"
    amount: int
    note: str = ""


class CounterStream(StreamType[int]):
    """A counter: amounts must be positive and the total at most 100."""

    name = "counter"
    rejection_errors = (CounterError,)

    def __init__(self) -> None:
        self.codec = Codec()
        self.codec.register("added", Added)
        self.projected: dict[uuid.UUID, int] = {}

    def initial_state(self, stream: StreamKey) -> int:
        return 0

    def apply(self, state: int, event: object, version: int, metadata) -> int:
        assert isinstance(event, Added)
        if event.amount <= 0:
            raise CounterError("not_positive", f"{event.amount} is not positive")
        if state + event.amount > 100:
            raise CounterError("too_big", "the total would pass 100")
        return state + event.amount

    def project(self, stream, state, new_events, **options) -> None:
        self.projected[stream.id] = state

    def reset_projections(self) -> None:
        self.projected.clear()
