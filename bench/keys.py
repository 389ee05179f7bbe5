"""The keys a benchmark's production-like settings need, fixed and never secret.

Fixed rather than random: the game pages' snapshots are authenticated with the
secret key and the log is chained under the log key, so a rerun against a kept
database must use the keys that wrote it. The file-signing key (production
refuses to start without one, site.E001) is written once to a temporary file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


def use_bench_keys() -> None:
    """Set SECRET_KEY, EVENT_LOG_KEY and FILE_SIGNING_KEY unless already set."""
    os.environ.setdefault("SECRET_KEY", "bench-not-a-production-key-" + "0" * 32)
    os.environ.setdefault("EVENT_LOG_KEY", "bench-not-a-production-log-key-" + "0" * 32)
    if not os.environ.get("FILE_SIGNING_KEY"):
        os.environ["FILE_SIGNING_KEY"] = str(_signing_key_file())


def _signing_key_file() -> Path:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    seed = hashlib.sha256(b"bench-not-a-production-signing-key").digest()
    key = Ed25519PrivateKey.from_private_bytes(seed)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    path = Path(tempfile.gettempdir()) / f"bench-signing-{os.getuid()}.pem"
    if not path.exists() or path.read_bytes() != pem:
        path.write_bytes(pem)
        path.chmod(0o600)
    return path
