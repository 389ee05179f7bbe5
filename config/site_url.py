"""The one place an absolute link is made: for paper (the scorecards' printed
links and QR codes) and for sharing (a game's share link).

A link on paper must be one the players' phones can open. ``SITE_URL`` (README,
"Configuration") names that address when the director set it; otherwise the link
takes the scheme and host of the request that made it, so a director who opened
the console by the laptop's address on the venue's network (what ``./run.sh
0.0.0.0:8000`` prints) prints links the room can reach, and one who opened it as
127.0.0.1 prints links only that laptop can open.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from rest_framework.request import Request


def public_url(request: HttpRequest | Request, path: str) -> str:
    """The absolute address of `path` (as ``reverse`` gives it) for the players."""
    base: str = settings.SITE_URL
    if base:
        return base + path
    return request.build_absolute_uri(path)
