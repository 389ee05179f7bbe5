"""The best plays of a turn, on demand: ``rules.analysis`` over a game's position,
with the word list configured for the game or its tournament.

Computed when asked, never stored as events: the answer is cached by the game's
version (a later event may change any line), the turn and the word list. The
word list's move graph is built once per process; so is a leave table
(``LEAVES``), which adds equity. Usage::

    result = turn_analysis(game_id, turn=12, version=header.version)
    result.analysis.plays[0], result.analysis.played_rank

Raises ``AnalysisError`` (a ``RulesError``: 400 at the API) naming why a turn
cannot be analysed: no such line, a line that is no move, a rack not recorded,
no word list configured.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied

from games import selectors, services
from games.context import tournament_link
from games.models import GameTurn
from rules.analysis import (
    AnalysisError,
    LeaveTable,
    RankedPlay,
    TurnAnalysis,
    analyse,
)
from rules.errors import RulesError
from rules.movegen import WordGraph
from rules.state import GameState, Turn, TurnKind

# Lines that record a move of the player on turn.
MOVES = (TurnKind.PLACEMENT, TurnKind.EXCHANGE, TurnKind.PASS)
TIMEOUT = 3600


@dataclass(frozen=True, slots=True)
class AnalysisResult:
    """A turn's analysis, with the line it analyses and the word list used."""

    turn: int
    player: int
    lexicon: str
    analysis: TurnAnalysis


_GRAPHS: dict[str, WordGraph] = {}
_LEAVES: dict[str, LeaveTable] = {}


def game_lexicon_name(state_lexicon: str | None, context: Mapping[str, Any]) -> str:
    """The word list a game is analysed with: its own, else its division's or
    tournament's (a game started before they named one)."""
    if state_lexicon:
        return state_lexicon
    if context.get("tournament_id"):
        try:
            return tournament_link().game_setup(context).lexicon or ""
        except RulesError:
            return ""  # the division was renamed since: it names none
    return ""


def word_graph(name: str) -> WordGraph:
    """The move graph of the configured word list `name` (built once)."""
    lexicon = services.configured_lexicon(name)
    if lexicon is None:
        raise AnalysisError(
            "no_lexicon",
            f"The word list {name} is not configured on this server (LEXICONS)."
            if name
            else "No word list is named for this game or its tournament.",
        )
    if name not in _GRAPHS:
        _GRAPHS[name] = WordGraph.from_words(lexicon.words)
    return _GRAPHS[name]


def leave_table(name: str) -> LeaveTable | None:
    """The leave table configured for the word list `name` (LEAVES), if any."""
    path = getattr(settings, "LEAVES", {}).get(name)
    if not path:
        return None
    if path not in _LEAVES:
        _LEAVES[path] = LeaveTable.from_lines(Path(path).read_text(encoding="utf-8"))
    return _LEAVES[path]


def turn_analysis(game_id: uuid.UUID, turn: int, *, version: int) -> AnalysisResult:
    """The analysis of score-sheet line `turn` of the game at `version`."""
    key = f"analysis:{game_id}:v{version}:t{turn}"
    cached = cache.get(key)
    if cached is not None:
        return cached
    _, aggregate = services.game_load(game_id, version=version, keep=False)
    final = aggregate.state
    assert final is not None
    lines = final.turns
    if not 1 <= turn <= len(lines):
        raise AnalysisError(
            "no_turn", f"This game has {len(lines)} turns on its score sheet."
        )
    line = lines[turn - 1]
    if line.kind not in MOVES or line.player is None:
        raise AnalysisError("not_a_move", f"Turn {turn} is not a player's move.")
    before = selectors.state_after(aggregate, line.version - 1)
    name = game_lexicon_name(final.lexicon, aggregate.context)
    graph = word_graph(name)
    result = AnalysisResult(
        turn=turn,
        player=line.player,
        lexicon=name,
        analysis=analyse(
            before,
            _rack(before, line),
            graph,
            leaves=leave_table(name),
            played=line,
        ),
    )
    cache.set(key, result, TIMEOUT)
    return result


class RackHiddenError(PermissionDenied):
    """The turn's rack is hidden from the reader (the rack rule): its best plays
    would tell it (HTTP 403)."""


def require_rack_shown(
    game_id: uuid.UUID, turn: int, racks: selectors.RackView
) -> None:
    """Raise RackHiddenError unless `racks` shows the rack of score-sheet line
    `turn` (a line that does not exist is turn_analysis's to refuse)."""
    if racks.every:
        return
    version = (
        GameTurn.objects.filter(game_id=game_id, index=turn)
        .values_list("version", flat=True)
        .first()
    )
    if version is not None and not racks.shows(version):
        raise RackHiddenError(
            "The racks of this game are hidden while it is recorded: its best"
            " plays are shown once the racks are."
        )


def _rack(state: GameState, line: Turn) -> str:
    """The rack the player held: as the line recorded it whole, else as the state
    knew it when every tile was known (a partial record is not the rack)."""
    assert line.player is not None
    rack = state.racks[line.player]
    recorded = (line.recorded_rack or "").upper()
    if recorded and len(recorded) == rack.count:
        return recorded
    if rack.is_known and rack.known:
        return rack.known
    raise AnalysisError(
        "rack_unknown",
        "The rack on this turn was not recorded: its plays cannot be ranked.",
    )


def analysis_document(result: AnalysisResult) -> dict[str, Any]:
    """The analysis as the API gives it (AnalysisOutput)."""
    analysis = result.analysis
    return {
        "turn": result.turn,
        "player": result.player,
        "lexicon": result.lexicon,
        "rack": analysis.rack,
        "by_equity": analysis.by_equity,
        "candidates": analysis.candidates,
        "plays": [_play_document(play) for play in analysis.plays],
        "played": _play_document(analysis.played) if analysis.played else None,
        "played_rank": analysis.played_rank,
    }


def _play_document(play: RankedPlay) -> dict[str, Any]:
    return {
        "rank": play.rank,
        "kind": play.kind,
        "move": play.gcg(),
        "position": play.position,
        "word": play.word,
        "score": play.score,
        "leave": play.leave,
        "equity": play.equity,
        "words": list(play.words),
    }
