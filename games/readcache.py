"""Serve read endpoints from a cache keyed by the stream's version.

A projection row carries the version of the last event it reflects, so a response
built at version V is right for as long as the stream stays at V: the key includes
the version and nothing ever needs invalidating. The same key is the response's ETag,
so a client polling standings gets a 304 until a result changes them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from rest_framework.renderers import JSONRenderer

TIMEOUT = 300


def cached_json(
    request: HttpRequest,
    parts: Iterable[object],
    version: int,
    build: Callable[[], Any],
) -> HttpResponse:
    """The JSON of `build()`, from the cache when this version was served before."""
    key = "read:" + ":".join(str(part) for part in parts) + f":v{version}"
    etag = '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        body = cache.get(key)
        if body is None:
            body = JSONRenderer().render(build())
            cache.set(key, body, TIMEOUT)
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    # Readers may keep the body but must ask again: results arrive at any time.
    response["Cache-Control"] = "no-cache"
    return response
