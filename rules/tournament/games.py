"""What the tournament says of its games: their rules and results read back.

A game recorded move by move for a tournament plays under the tournament's ruleset
(``game_ruleset``), and its result is read from its replay, never typed twice
(``result_from_game`` with the game as a ``RecordedGame``).

Usage::

    rules = game_ruleset(state, "A")
    event = result_from_game(ResultRecorded(round=1, player_a="p1", player_b="p2",
                                            game_id=game.game_id), game, tid)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from rules.errors import TournamentError
from rules.ruleset import Ruleset, ruleset
from rules.tournament.events import ResultAmended, ResultRecorded
from rules.tournament.state import TournamentState


def game_ruleset(state: TournamentState, division: str | None = None) -> Ruleset:
    """Return the rules a game of the tournament plays under: its preset, with the
    tournament's challenge and tie rules.

    ``division`` is the game's division (None: the tournament's). Every division
    plays under the same ruleset; only the tile set and the lexicon differ by
    division (``TournamentState.game_setup``). Raises TournamentError
    (``unknown_division``) for a division the tournament does not have.
    """
    if division is not None and division not in state.divisions:
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    settings = state.settings
    return ruleset(
        settings.preset.value,
        challenge=settings.challenge_rule,
        ties_are_draws=settings.ties_are_draws,
    )


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """What a game recorded move by move says of its result, from its replay.

    ``player_ids`` are the tournament's player ids in move order; the scores are in
    the same order. ``loser`` is a player who lost whatever the scores (resigned,
    forfeited, ran out of time), or None.
    """

    game_id: str
    tournament_id: str | None
    round: int | None
    player_ids: tuple[str, ...]
    final_scores: tuple[int, ...]
    pre_adjustment_scores: tuple[int, ...]
    is_over: bool
    loser: int | None = None


ResultEvent = TypeVar("ResultEvent", ResultRecorded, ResultAmended)


def result_from_game(
    event: ResultEvent, game: RecordedGame | None, tournament_id: str
) -> ResultEvent:
    """Return ``event`` with its scores read from the game it links.

    A game's result is derived from its replay, never typed twice: the scores and
    the scores before the end-of-game adjustments come from ``game``, and a score
    the event gives as well must agree. Raises TournamentError (field named) when
    the game is not this pairing's finished game or the event contradicts it.
    """
    if game is None or game.tournament_id != tournament_id:
        raise TournamentError(
            "unknown_game",
            "game_id names no game recorded for this tournament.",
            "game_id",
        )
    players = (event.player_a, event.player_b)
    if game.round != event.round or sorted(game.player_ids) != sorted(players):
        raise TournamentError(
            "game_not_of_pairing",
            f"The game {game.game_id} is not the round {event.round} game of these"
            " players.",
            "game_id",
        )
    if not game.is_over:
        raise TournamentError(
            "game_not_over", "The recorded game has not ended yet.", "game_id"
        )
    a, b = (game.player_ids.index(player) for player in players)
    read = {
        "score_a": game.final_scores[a],
        "score_b": game.final_scores[b],
        "pre_adjustment_a": game.pre_adjustment_scores[a],
        "pre_adjustment_b": game.pre_adjustment_scores[b],
    }
    if game.loser is not None and _ahead(game, game.loser):
        raise TournamentError(
            "game_lost_by_decision",
            "The recorded game was lost by a player who was not behind (resigned or"
            " out of time): record its result as a forfeit instead.",
            "game_id",
        )
    for field, value in read.items():
        given = getattr(event, field)
        if given is not None and given != value:
            raise TournamentError(
                "result_contradicts_game",
                f"{field} is {given}, but the recorded game says {value}.",
                field,
            )
    return replace(
        event,
        score_a=read["score_a"],
        score_b=read["score_b"],
        pre_adjustment_a=read["pre_adjustment_a"],
        pre_adjustment_b=read["pre_adjustment_b"],
    )


def _ahead(game: RecordedGame, player: int) -> bool:
    """True when ``player`` scored at least as much as every other player."""
    own = game.final_scores[player]
    return all(own >= score for score in game.final_scores)
