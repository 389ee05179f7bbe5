"""The URL converter of a division's name: every name a log holds fits one segment.

New names that cannot be a path segment are refused by the rules
(``rules.tournament.check_division_name``), but a log keeps divisions added before
that rule: a name with a slash ("A/B") or a backslash, or "..". Their pages must
still work, so the name is escaped into one segment ("A/B" becomes "A%2FB", which
``reverse`` sends as ``A%252FB``) and unescaped when a request comes in. Any other
name is left as it is, so the addresses of ordinary divisions do not change::

    register_converter(DivisionConverter, "division")
    path("divisions/<division:division>/", …)
"""

from __future__ import annotations

import re

# "%" first, so that what the other escapes write is never read as a name's own.
_ESCAPES = {"%": "%25", "/": "%2F", "\\": "%5C"}


_DOTS = {".": "%2E", "..": "%2E%2E"}


_ESCAPED = re.compile(r"%(25|2F|5C|2E)", re.IGNORECASE)


class DivisionConverter:
    regex = "[^/]+"

    def to_python(self, value: str) -> str:
        return _ESCAPED.sub(lambda match: chr(int(match.group(1), 16)), value)

    def to_url(self, value: str) -> str:
        if value in _DOTS:
            return _DOTS[value]
        if not any(char in value for char in _ESCAPES):
            return value
        return "".join(_ESCAPES.get(char, char) for char in value)
