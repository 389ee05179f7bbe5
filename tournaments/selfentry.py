"""Players enter their own results: both players of a game confirm the score.

Placeholder for the codes only (the rest follows): a round's code is printed on
a player's scorecard and proves, without an account, that the report comes
from that player.
"""

from __future__ import annotations

import hashlib
import hmac
import uuid

from django.conf import settings

# Letters and digits that cannot be misread on paper (no 0/O, 1/I/L).
_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


def round_code(tournament_id: uuid.UUID, player_id: str, round_: int) -> str:
    """The player's code for the round: an HMAC of the server's key, so only the
    printed scorecard knows it."""
    digest = hmac.new(
        settings.SECRET_KEY.encode(),
        f"selfentry:{tournament_id}:{player_id}:{round_}".encode(),
        hashlib.sha256,
    ).digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(CODE_LENGTH):
        number, index = divmod(number, len(_ALPHABET))
        letters.append(_ALPHABET[index])
    return "".join(letters)


def enabled(tournament_id: uuid.UUID) -> bool:
    """Whether the tournament lets players enter their own results."""
    return False
