"""How the pages write a number with its sign, and escape a cell: one place each.

Usage::

    signed(32)               # "+32"
    signed(-24)              # "−24": a game's score change, with the typographic minus
    signed(-24, minus="-")   # "-24": a spread, as tsh and the printed tables write it
    escape("<Ann & Bob>")    # "&lt;Ann &amp; Bob&gt;"
"""

from __future__ import annotations

import html

TYPOGRAPHIC_MINUS = "\u2212"


def signed(value: int, *, minus: str = TYPOGRAPHIC_MINUS) -> str:
    """``value`` with its sign: ``+n``, ``{minus}n``, or ``0``."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{minus}{-value}"
    return "0"


def escape(text: object) -> str:
    """Django's ``escape`` without its lazy-string check, which cost more than the
    escaping itself over a page's hundreds of cells (same output: both use
    ``html.escape``)."""
    return html.escape(str(text))
