"""One line in words for every event a game's stream holds.

The log's readers (the admin's list of events) see each event in words; a game's
pages say more (``games.presenters``). No summary shows a rack or the tiles drawn:
the log's reader may be someone the game hides them from. ``SUMMARIES`` has one
entry per event type the game stream registers (a test checks every one).

Usage::

    summary("tiles_placed", {"player": 0, "position": "8D", "word": "ZAP", ...})
    # "Player 1 played ZAP at 8D (for 32)"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Payload = Mapping[str, Any]


def summary(type_name: str, payload: Payload) -> str:
    """The event in words (its type's name for a type without a summary)."""
    describe = SUMMARIES.get(type_name)
    return type_name if describe is None else describe(payload)


def _who(payload: Payload, key: str = "player") -> str:
    return f"Player {payload[key] + 1}"


def _started(p: Payload) -> str:
    return f"Game started: {' v '.join(p['players'])}"


def _drawn(p: Payload) -> str:
    count = len(p["tiles"]) + p.get("unknown", 0)
    return f"{_who(p)} drew {count} tile{'s' if count != 1 else ''}"


def _returned(p: Payload) -> str:
    count = len(p["tiles"]) + p.get("unknown", 0)
    return f"{_who(p)} put {count} tile{'s' if count != 1 else ''} back in the bag"


def _placed(p: Payload) -> str:
    score = "" if p.get("score") is None else f" (for {p['score']})"
    return f"{_who(p)} played {p['word']} at {p['position']}{score}"


def _exchanged(p: Payload) -> str:
    count = len(p["tiles"]) + p.get("unknown", 0)
    return f"{_who(p)} exchanged {count} tile{'s' if count != 1 else ''}"


def _challenged(p: Payload) -> str:
    return f"{_who(p, 'challenger')} challenged: {p['outcome']}"


def _penalty(p: Payload) -> str:
    return f"{_who(p)}: time penalty, {p['minutes']} min over"


def _corrected(p: Payload) -> str:
    return f"{_who(p)}: score corrected by {p['amount']:+d} ({p['reason']})"


def _ended(p: Payload) -> str:
    scores = "–".join(str(score) for score in p.get("final_scores", ()))
    return f"Game over ({p['reason']})" + (f": {scores}" if scores else "")


SUMMARIES: dict[str, Callable[[Payload], str]] = {
    "game_started": _started,
    "tiles_drawn": _drawn,
    "tiles_returned": _returned,
    "rack_recorded": lambda p: f"{_who(p)}'s rack recorded",
    "rack_forgotten": lambda p: f"{_who(p)}'s rack no longer known",
    "tiles_placed": _placed,
    "tiles_exchanged": _exchanged,
    "turn_passed": lambda p: f"{_who(p)} passed",
    "play_challenged": _challenged,
    "time_penalty": _penalty,
    "score_corrected": _corrected,
    "game_ended": _ended,
    "note_added": lambda p: f"Note on event {p['target_version']}",
    "note_edited": lambda p: f"Note {p['note_version']} edited",
    "note_deleted": lambda p: f"Note {p['note_version']} deleted",
    "visibility_changed": lambda p: f"Visibility: {p['visibility']}",
    "events_superseded": lambda p: (
        f"Events from {p['from_version']} superseded ({p['reason']})"
    ),
}
