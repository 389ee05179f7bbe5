"""The prize table as a director types it in the console, one line per class or
prize, in the spirit of tsh's ``prize`` lines; read into the document the API
takes (``PrizeTableFields``) and written back from a stored table.

::

    # classes by pre-event rating, both bounds included
    class B 1200-1499
    class C -1199
    # kind [place] amount [options]
    place 1 200
    place 2 100 ties=all
    place 1 50 class=B exclusive=cash
    most_wins 25 class=C
    high_game 20 rounds=1-7
    best_upset 15 tie_break=earlier_round label="Best upset"

Options: ``class=`` (a class named above), ``ties=`` (split, all, tie_break),
``tie_break=`` (spread, total_score, lower_rating, earlier_round, player_number),
``exclusive=`` (a group name: a player wins one prize of the group at most),
``rounds=A-B`` (game prizes only) and ``label=``. ``#`` starts a comment.

Usage::

    document, lines = read_prize_text(text)   # PrizeTableError names the line
    text = prize_text(table)
"""

from __future__ import annotations

import re
import shlex
from decimal import Decimal, InvalidOperation
from typing import Any

from rules.division_rules import PrizeKind, PrizeTable
from rules.numbers import NumberError, whole_number

_KINDS = {kind.value: kind.value for kind in PrizeKind}


_OPTIONS = ("class", "ties", "tie_break", "exclusive", "rounds", "label")


_BAND = re.compile(r"^(\d*)-(\d*)$")


_ROUNDS = re.compile(r"^(\d*)-(\d*)$")


MAX_LINES = 300


class PrizeTableError(ValueError):
    """A line of the prize text that cannot be read; the message names it."""


def read_prize_text(text: str) -> tuple[dict[str, Any], dict[str, int]]:
    """Return the API document of ``text`` and, for each entry of it
    (``classes[0]``, ``prizes[2]``), the line it came from, so a refusal by the
    rules can name the line. Raises PrizeTableError for a line it cannot read."""
    classes: list[dict[str, Any]] = []
    prizes: list[dict[str, Any]] = []
    where: dict[str, int] = {}
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise PrizeTableError(f"Write at most {MAX_LINES} lines.")
    for number, raw in enumerate(lines, 1):
        content = raw.split("#", 1)[0].strip()
        if not content:
            continue
        try:
            words = shlex.split(content)
        except ValueError:
            raise PrizeTableError(f"Line {number}: a quote is not closed.") from None
        if words[0].lower() == "class":
            where[f"classes[{len(classes)}]"] = number
            classes.append(_class(words, number))
        else:
            where[f"prizes[{len(prizes)}]"] = number
            prizes.append(_prize(words, number))
    return {"classes": classes, "prizes": prizes}, where


def _class(words: list[str], number: int) -> dict[str, Any]:
    band = _BAND.match(words[2]) if len(words) == 3 else None
    if band is None or band.groups() == ("", ""):
        raise PrizeTableError(
            f'Line {number}: write a class as "class NAME LOW-HIGH" (either bound'
            ' may be left out: "class C -1199", "class A 1800-").'
        )
    low, high = band.groups()
    return {
        "name": words[1],
        "lowest": _whole(low, number, "a rating") if low else None,
        "highest": _whole(high, number, "a rating") if high else None,
    }


def _whole(text: str, number: int, what: str) -> int:
    """A number of the table (a place, a rating, a round), 1 to 6 digits: the
    serializer's bounds then say what range it must lie in."""
    try:
        return whole_number(text, low=0, max_digits=6)
    except NumberError:
        raise PrizeTableError(
            f"Line {number}: {text[:20]!r} is not {what} (a whole number)."
        ) from None


def _prize(words: list[str], number: int) -> dict[str, Any]:
    kind = _KINDS.get(words[0].lower().replace("-", "_"))
    if kind is None:
        raise PrizeTableError(
            f"Line {number}: {words[0]!r} is not a prize; write one of"
            f" {', '.join(_KINDS)} or class."
        )
    figures = [w for w in words[1:] if "=" not in w]
    options = [w for w in words[1:] if "=" in w]
    if not 1 <= len(figures) <= 2:
        raise PrizeTableError(
            f'Line {number}: write "{kind} [place] amount", e.g. "{kind} 1 100".'
        )
    place = _whole(figures[0], number, "a place") if len(figures) == 2 else 1
    if place < 1:
        raise PrizeTableError(f"Line {number}: the place must be 1 or more.")
    try:
        amount = Decimal(figures[-1])
    except InvalidOperation:
        raise PrizeTableError(
            f"Line {number}: {figures[-1]!r} is not an amount (e.g. 150 or 37.50)."
        ) from None
    prize: dict[str, Any] = {"kind": kind, "place": place, "amount": str(amount)}
    for option in options:
        prize.update(_option(option, number))
    return prize


def _option(option: str, number: int) -> dict[str, Any]:
    name, value = option.split("=", 1)
    name = name.lower()
    if name not in _OPTIONS:
        raise PrizeTableError(
            f"Line {number}: {name!r} is not an option; write one of"
            f" {', '.join(_OPTIONS)}."
        )
    if name == "class":
        return {"rating_class": value}
    if name == "rounds":
        rounds = _ROUNDS.match(value)
        if rounds is None or rounds.groups() == ("", ""):
            raise PrizeTableError(f'Line {number}: write rounds as "rounds=1-7".')
        first, last = rounds.groups()
        return {
            "first_round": _whole(first, number, "a round") if first else None,
            "last_round": _whole(last, number, "a round") if last else None,
        }
    return {name: value}


def prize_text(table: PrizeTable | None) -> str:
    """The text ``read_prize_text`` reads back as ``table``."""
    if table is None:
        return ""
    lines = [
        f"class {c.name} {'' if c.lowest is None else c.lowest}-"
        f"{'' if c.highest is None else c.highest}"
        for c in table.classes
    ]
    for prize in table.prizes:
        words = [
            prize.kind.value,
            str(prize.place),
            f"{Decimal(prize.amount) / 100:.2f}",
        ]
        if prize.rating_class:
            words.append(f"class={shlex.quote(prize.rating_class)}")
        if prize.ties.value != "split":
            words.append(f"ties={prize.ties.value}")
        if prize.tie_break.value != "player_number":
            words.append(f"tie_break={prize.tie_break.value}")
        if prize.exclusive:
            words.append(f"exclusive={shlex.quote(prize.exclusive)}")
        if prize.first_round or prize.last_round:
            words.append(f"rounds={prize.first_round or ''}-{prize.last_round or ''}")
        if prize.label:
            words.append(f"label={shlex.quote(prize.label)}")
        lines.append(" ".join(words))
    return "\n".join(lines)
