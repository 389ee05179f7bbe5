"""The site's Ed25519 signature of the files it issues, and its check.

No database here: ``manage.py verify_file`` checks a file offline with only the
public key. A signature is a short text document (the detached ``.sig``; the
``X-Signature`` header carries it base64-encoded)::

    scrabble-records-signature: 1
    key: ed25519:3f2a9c0b7d1e4a55
    tournament: 6d0f…
    position: 42
    issued-at: 2026-11-27T16:20:00Z
    file: riverside-club.t
    sha256: 9b1c…
    size: 2048
    signature: <base64 Ed25519 signature of every byte above this line>

The key lives outside the database (``FILE_SIGNING_KEY``: the path of a PEM
private key; with DEBUG on and none set, one derived from SECRET_KEY, so the demo
and tests sign without set-up). Keys retired by a rotation stay published
(``FILE_SIGNING_OLD_KEYS``: paths of their public keys) so files signed before
still verify; each key has an id, the first 16 hex digits of the sha256 of its raw
public key, named in every signature.

Usage::

    document = sign(Payload(...))               # bytes of the .sig
    check = check_signature(document, public_keys())   # Payload, or SignatureError
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import hashlib
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from django.conf import settings

MAGIC = "scrabble-records-signature: 1"
FIELDS = ("key", "tournament", "position", "issued-at", "file", "sha256", "size")
# A signature document is a few hundred bytes: anything far longer is not one.
MAX_SIGNATURE_BYTES = 4096


class SignatureError(ValueError):
    """A signature that cannot be read, or does not check; the message says why."""


@dataclasses.dataclass(frozen=True)
class Payload:
    """What a signature vouches for: these bytes were issued for this tournament
    at this position of its log."""

    key: str
    tournament: str
    position: int
    issued_at: str
    file: str
    sha256: str
    size: int

    def text(self) -> str:
        values = (
            self.key,
            self.tournament,
            self.position,
            self.issued_at,
            self.file,
            self.sha256,
            self.size,
        )
        lines = [MAGIC, *(f"{k}: {v}" for k, v in zip(FIELDS, values, strict=True))]
        return "".join(line + "\n" for line in lines)


def key_id(public: Ed25519PublicKey) -> str:
    raw = public.public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    return "ed25519:" + hashlib.sha256(raw).hexdigest()[:16]


def public_pem(public: Ed25519PublicKey) -> str:
    return public.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode("ascii")


def load_private_key(path: str) -> Ed25519PrivateKey:
    """The Ed25519 private key in the PEM file at ``path``; SignatureError when it
    is missing or not one."""
    try:
        key = serialization.load_pem_private_key(Path(path).read_bytes(), None)
    except (OSError, ValueError, TypeError) as error:
        raise SignatureError(f"FILE_SIGNING_KEY {path}: {error}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SignatureError(f"FILE_SIGNING_KEY {path}: not an Ed25519 private key")
    return key


def load_public_key(data: bytes, where: str) -> Ed25519PublicKey:
    """An Ed25519 public key from PEM bytes (or a private key's PEM: its public
    half)."""
    try:
        key = serialization.load_pem_public_key(data)
    except ValueError:
        try:
            private = serialization.load_pem_private_key(data, None)
        except (ValueError, TypeError) as error:
            raise SignatureError(f"{where}: not a PEM key ({error})") from None
        if not isinstance(private, Ed25519PrivateKey):
            raise SignatureError(f"{where}: not an Ed25519 key") from None
        return private.public_key()
    if not isinstance(key, Ed25519PublicKey):
        raise SignatureError(f"{where}: not an Ed25519 public key")
    return key


@cache
def _site_key(path: str, secret: str | None) -> Ed25519PrivateKey:
    if path:
        return load_private_key(path)
    if secret is None:
        raise SignatureError(
            "FILE_SIGNING_KEY is not set: the site cannot sign the files it issues"
        )
    # Started with DEBUG on and no key (config.checks refuses production without
    # one): a key derived from SECRET_KEY, the same in every worker, nothing to
    # set up for the demo and the tests.
    seed = hashlib.sha256(b"file-signing:" + secret.encode()).digest()
    return Ed25519PrivateKey.from_private_bytes(seed)


def site_key() -> Ed25519PrivateKey:
    """The key the site signs with now."""
    return _site_key(
        settings.FILE_SIGNING_KEY,
        settings.SECRET_KEY if settings.FILE_SIGNING_KEY_FROM_SECRET else None,
    )


@cache
def _old_keys(paths: tuple[str, ...]) -> tuple[Ed25519PublicKey, ...]:
    return tuple(load_public_key(Path(p).read_bytes(), p) for p in paths)


def public_keys() -> dict[str, Ed25519PublicKey]:
    """Every key a file signed by this site may name, by id: the current one
    first, then those retired by rotations."""
    keys = [site_key().public_key(), *_old_keys(tuple(settings.FILE_SIGNING_OLD_KEYS))]
    return {key_id(key): key for key in keys}


def current_key_id() -> str:
    return _key_id_of(site_key())


@cache
def _key_id_of(key: Ed25519PrivateKey) -> str:
    # Once per key: every issued response names it.
    return key_id(key.public_key())


def sign(payload: Payload) -> bytes:
    """The signature document of ``payload`` under the site's key."""
    text = payload.text()
    signature = site_key().sign(text.encode("utf-8"))
    return (text + "signature: " + base64.b64encode(signature).decode() + "\n").encode()


def header_value(document: bytes) -> str:
    """The document as one header value (base64)."""
    return base64.b64encode(document).decode("ascii")


def read_document(data: bytes) -> tuple[Payload, bytes, bytes]:
    """The payload, the signed bytes and the signature of a signature document
    (the ``.sig`` file, or the header's base64 of it)."""
    if len(data) > MAX_SIGNATURE_BYTES:
        raise SignatureError("not a signature: too long")
    if not data.lstrip().startswith(MAGIC.encode()):
        try:
            data = base64.b64decode(data.strip(), validate=True)
        except (binascii.Error, ValueError):
            raise SignatureError(
                f"not a signature: the first line must be {MAGIC!r}"
            ) from None
    try:
        text = data.decode("utf-8").lstrip().replace("\r\n", "\n")
    except UnicodeDecodeError:
        raise SignatureError("not a signature: not UTF-8 text") from None
    signed, marker, rest = text.rpartition("signature: ")
    if not marker or not signed.startswith(MAGIC + "\n"):
        raise SignatureError(f"not a signature: the first line must be {MAGIC!r}")
    lines = signed.splitlines()[1:]
    values: dict[str, str] = {}
    for number, line in enumerate(lines, start=2):
        name, colon, value = line.partition(": ")
        if not colon or name not in FIELDS or name in values:
            raise SignatureError(f"not a signature: line {number} {line[:60]!r}")
        values[name] = value
    missing = [name for name in FIELDS if name not in values]
    if missing:
        raise SignatureError(f"not a signature: no {missing[0]!r} line")
    try:
        signature = base64.b64decode(rest.strip(), validate=True)
        payload = Payload(
            key=values["key"],
            tournament=values["tournament"],
            position=int(values["position"]),
            issued_at=values["issued-at"],
            file=values["file"],
            sha256=values["sha256"],
            size=int(values["size"]),
        )
    except (binascii.Error, ValueError):
        raise SignatureError("not a signature: a value cannot be read") from None
    return payload, signed.encode("utf-8"), signature


def check_signature(data: bytes, keys: Mapping[str, Ed25519PublicKey]) -> Payload:
    """The payload of a signature document that checks under one of ``keys``;
    SignatureError naming why not (unknown key, a signature that does not
    check)."""
    payload, signed, signature = read_document(data)
    key = keys.get(payload.key)
    if key is None:
        raise SignatureError(
            f"the signature names key {payload.key}, which is not this site's"
            f" (known: {', '.join(keys) or 'none'})"
        )
    try:
        key.verify(signature, signed)
    except InvalidSignature:
        raise SignatureError(
            "the signature does not check: the signature file was altered or"
            " made by someone else"
        ) from None
    return payload


def digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()
