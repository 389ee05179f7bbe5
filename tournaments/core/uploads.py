"""Files a director uploads (player lists, tsh files): their limits and their text.

The API and the console read them the same way: a size limit named in the refusal,
then UTF-8 (a byte-order mark dropped), else Latin-1, the encoding older tsh files
on Windows were written in.
"""

from __future__ import annotations

from typing import Any

MAX_LIST_BYTES = 256 * 1024


MAX_T_FILE_BYTES = 1024 * 1024


# A whole event's tourney.js: sixteen times the file this system serves for 400
# players and 20 rounds (241 KB; tsh's adds its message dictionary to the config).
MAX_TOURNEY_JS_BYTES = 4 * 1024 * 1024


# tsh's own size limit is far above a real config.tsh (a few KB).
MAX_CONFIG_BYTES = 256 * 1024


def _size(limit: int) -> str:
    if limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MB"
    return f"{limit // 1024} KB"


class UploadTooLargeError(ValueError):
    """Raised when an upload is over its limit; the message says the limit."""


def read_upload(upload: Any, limit: int, what: str) -> str:
    """Return the text of ``upload``; raise UploadTooLargeError over ``limit``."""
    if upload.size > limit:
        raise UploadTooLargeError(f"{what} may be at most {_size(limit)}.")
    data = upload.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")
