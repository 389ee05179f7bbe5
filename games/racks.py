"""What a reader sees of the racks the rack rule hides from them.

Who may see which racks is decided once, in ``games.selectors.rack_view``; this
module only takes the racks out of what a reader is sent: an event's payload
(the events API, the live feed), a state (the state API), a score sheet's lines
(the detail API). A hidden rack becomes a count, as a recorder who did not see
the tiles would have recorded it (``TilesDrawn(unknown=7)``), so what is left is
still a valid record of the game, with every score and word.

Usage::

    view = selectors.rack_view(game, request.user, now=timezone.now())
    payload = event_payload("tiles_drawn", payload, shown=view.shows(version))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

Payload = Mapping[str, Any]


class Shows(Protocol):
    """Which versions' racks a reader may see (``selectors.RackView``)."""

    def shows(self, version: int) -> bool: ...


def _tiles_as_count(payload: Payload) -> dict[str, Any]:
    """Drawn, returned or exchanged tiles as a count only."""
    tiles = payload.get("tiles") or ""
    return {
        **payload,
        "tiles": "",
        "unknown": payload.get("unknown", 0) + len(tiles),
        **({"rack": None} if "rack" in payload else {}),
    }


def _no_rack(payload: Payload) -> dict[str, Any]:
    return {**payload, "rack": None}


def _rack_recorded(payload: Payload) -> dict[str, Any]:
    return {**payload, "tiles": ""}


def _game_ended(payload: Payload) -> dict[str, Any]:
    return {**payload, "racks": []}


# Every game event that carries tiles of a rack, and the same event without them
# (tests/games_tests/test_racks.py checks that every event type of the game
# stream is either here or carries no tile of a rack).
WITHOUT_RACKS: dict[str, Callable[[Payload], dict[str, Any]]] = {
    "tiles_drawn": _tiles_as_count,
    "tiles_returned": _tiles_as_count,
    "tiles_exchanged": _tiles_as_count,
    "rack_recorded": _rack_recorded,
    "tiles_placed": _no_rack,
    "turn_passed": _no_rack,
    "play_challenged": _no_rack,
    "game_ended": _game_ended,
}

# The game's start metadata that reveals what is drawn: the seed of the random
# draws (games.services: the draws are reproducible from it).
SECRET_CONTEXT = frozenset({"seed"})


def event_payload(type_name: str, payload: Payload, *, shown: bool) -> dict[str, Any]:
    """The payload as a reader sees it: whole when its racks are `shown`."""
    hide = None if shown else WITHOUT_RACKS.get(type_name)
    return dict(payload) if hide is None else hide(payload)


def event_metadata(metadata: Payload, *, shown: bool) -> dict[str, Any]:
    """An event's metadata as a reader sees it (no seed while racks are hidden)."""
    if shown:
        return dict(metadata)
    return {key: value for key, value in metadata.items() if key not in SECRET_CONTEXT}


def state_payload(payload: Payload, *, unseen: str) -> dict[str, Any]:
    """A state document (``selectors.state_payload``) without its racks: each
    rack a count, and every player's unseen tiles a spectator's (`unseen`: the
    tiles not on the board), since one player's unseen tiles tell their rack."""
    return {
        **payload,
        "racks": [
            {"known": "", "unknown": len(rack["known"]) + rack["unknown"]}
            for rack in payload["racks"]
        ],
        "unseen": [unseen for _ in payload["unseen"]],
    }


def turn_lines(lines: list[dict[str, Any]], view: Shows) -> list[dict[str, Any]]:
    """Score-sheet lines (the detail API's turns) without the racks `view`
    hides."""
    return [line if view.shows(line["version"]) else _line(line) for line in lines]


def _line(line: dict[str, Any]) -> dict[str, Any]:
    return {**line, "rack": ""}
