"""Test helpers: read a Server-Sent Events body as a browser's EventSource does."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Message:
    """One dispatched message: its type ("message" unless named), id and data."""

    type: str
    id: int | None
    data: Any


def parse(text: str) -> tuple[list[Message], int | None]:
    """The messages of an event-stream body, and the ``retry`` it asked for.

    ``data`` is decoded as JSON; comments are skipped, as the browser skips them.
    """
    messages: list[Message] = []
    retry = None
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        if "retry" in fields:
            retry = int(fields["retry"])
        if "data" in fields:
            messages.append(
                Message(
                    fields.get("event", "message"),
                    int(fields["id"]) if "id" in fields else None,
                    json.loads(fields["data"]),
                )
            )
    return messages, retry


def events(messages: list[Message]) -> list[dict[str, Any]]:
    """The feed's events (the default messages), without the ``head`` markers."""
    return [m.data for m in messages if m.type == "message"]
