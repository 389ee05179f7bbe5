"""Request parsing for the API: JSON bodies bounded in depth.

Python's JSON decoder recurses once per level, so a body nested a few thousand deep
raised ``RecursionError`` (a 500) before any view ran, from any JSON endpoint,
anonymous sign-in included. No request of this API nests more than a few levels;
``MAX_DEPTH`` is generous, and anything deeper is a 400 that says so.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32


def json_depth(value: Any) -> int:
    """How deeply `value` nests lists and objects (0: a scalar), without recursing."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                break
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth) for child in children)
    return deepest


def _too_deep() -> ParseError:
    return ParseError(f"JSON parse error - nested more than {MAX_DEPTH} levels deep.")


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, refusing bodies nested deeper than ``MAX_DEPTH`` (400)."""

    def parse(
        self, stream: Any, media_type: Any = None, parser_context: Any = None
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise _too_deep() from None
        if json_depth(data) > MAX_DEPTH:
            raise _too_deep()
        return data
