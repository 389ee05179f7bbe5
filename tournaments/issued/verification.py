"""Reading what a verifier uploads, shared by the API and the page: the size
bounds, and the rate limit on signed-out verifiers."""

from __future__ import annotations

from typing import Any

from tournaments.core.uploads import MAX_TOURNEY_JS_BYTES
from tournaments.issued import registry, signing

# The largest file this site issues is a big event's printout or tourney.js;
# twice the tourney.js upload limit holds any of them.
MAX_VERIFY_BYTES = 2 * MAX_TOURNEY_JS_BYTES


class UploadRefusedError(ValueError):
    """An upload that cannot be verified; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


def read_bounded(upload: Any, limit: int, field: str) -> bytes:
    if upload.size > limit:
        raise UploadRefusedError(field, f"may be at most {limit:,} bytes.")
    return upload.read()


def verify_uploads(file: Any, signature: Any | None) -> registry.Verdict:
    """The verdict on an uploaded file and optional signature; UploadRefusedError
    for one too large to be anything this site issued, or a signature that is not
    one."""
    body = read_bounded(file, MAX_VERIFY_BYTES, "file")
    sig = None
    if signature is not None:
        sig = read_bounded(signature, signing.MAX_SIGNATURE_BYTES, "signature")
        try:
            # One that cannot be read is bad input; one that does not check, a
            # verdict.
            signing.read_document(sig)
        except signing.SignatureError as error:
            raise UploadRefusedError("signature", f"{error}.") from None
    return registry.verify(body, sig)
