"""Whole numbers read from text: the one parser every reader of a number uses.

A number a person types or a file holds is read here, and nowhere else, because
Python's own tools disagree about what a digit is: ``"²".isdigit()`` is True but
``int("²")`` raises; ``int("１")`` (a fullwidth one) and ``int("٣")`` (an Arabic-Indic
three) are accepted although no Scrabble file or form writes them; ``int()`` of more
than 4,300 digits raises, and a number with hundreds of digits overflows every
column it is stored in. Here a whole number is ASCII digits only, with an optional
``-`` where the caller allows negatives, at most ``max_digits`` of them, within the
caller's bounds; anything else is a :class:`NumberError` whose message says what
was expected, for the caller to put on its field or line.

Usage::

    whole_number("12", low=1)            # 12
    whole_number("²")                    # NumberError: "… a whole number …"
    is_whole_number("0012")              # True (a tokenizer's test)
"""

from __future__ import annotations

__all__ = ["MAX_DIGITS", "NumberError", "expected", "is_whole_number", "whole_number"]

# 18 digits fit a PostgreSQL bigint (and a feed position); every count, score,
# round, rating or version the system reads is far below that.
MAX_DIGITS = 18
_DIGITS = frozenset("0123456789")


class NumberError(ValueError):
    """Text that is not a whole number within bounds; ``message`` says what was
    expected (e.g. "a whole number from 1 to 40")."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def is_whole_number(
    text: str, *, signed: bool = False, max_digits: int = MAX_DIGITS
) -> bool:
    """Whether `text` is ASCII digits (after a ``-`` when `signed`), 1 to
    `max_digits` of them: the test a tokenizer makes before :func:`whole_number`."""
    digits = text[1:] if signed and text.startswith("-") else text
    return 0 < len(digits) <= max_digits and _DIGITS.issuperset(digits)


def whole_number(
    text: str,
    *,
    low: int | None = None,
    high: int | None = None,
    max_digits: int = MAX_DIGITS,
) -> int:
    """The whole number `text` writes (surrounding spaces ignored), from `low` to
    `high` (each optional); a ``-`` sign is read only where `low` allows a
    negative. Raise :class:`NumberError` otherwise."""
    value = text.strip()
    signed = low is None or low < 0
    if not is_whole_number(value, signed=signed, max_digits=max_digits):
        raise NumberError(expected(low, high))
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        raise NumberError(expected(low, high))
    return number


def expected(low: int | None, high: int | None) -> str:
    """What a number must be, in words: "a whole number from 1 to 40"."""
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    if low is not None:
        return f"a whole number, {low} or more"
    if high is not None:
        return f"a whole number, {high} or less"
    return "a whole number"
