"""The console's service worker, served from the site's root.

A worker controls only the pages under the path it is served from, so it cannot be
a static file (``/static/…`` would scope it to the static files): this view serves
``games/static/scrabble/console-sw.js`` at ``/console-sw.js``. It is fetched again
on each registration (``no-cache``), so a new version of it takes over on the next
visit. The Content-Security-Policy lets it run (``worker-src`` falls back to
``script-src 'self'``: it is our origin's).
"""

from __future__ import annotations

from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

WORKER = "scrabble/console-sw.js"


@require_GET
def console_worker(request: HttpRequest) -> HttpResponse:
    found = finders.find(WORKER)
    assert isinstance(found, str), f"{WORKER} is missing from the static files"
    response = HttpResponse(
        Path(found).read_bytes(), content_type="text/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    return response
