"""The handler for the end of a game: who ended it and why, the end-of-game rack
adjustments, and the final scores (RULES.md, "End of game").

Usage (through ``apply``)::

    state = apply(state, GameEnded(reason=EndReason.WENT_OUT, player=0))
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.endings import scoreless_adjustments, went_out_adjustments
from rules.errors import (
    EndReasonError,
    GameOverError,
    InvalidEventError,
    RackMismatchError,
    RackUnknownError,
    TileUnavailableError,
)
from rules.events import (
    EndReason,
    GameEnded,
)
from rules.outcome import decide
from rules.ruleset import GoingOutRule
from rules.state.steps import (
    _check_letters,
    _check_player,
    _check_score,
    _evolve,
    _settled_bag,
)
from rules.state.values import Bag, Discrepancy, GameState, Rack, Turn, TurnKind
from rules.tiles import (
    rack_value,
    remove_tiles,
    sort_tiles,
    split_known,
)

# Endings where the named player loses whatever the scores.
_LOSING_REASONS = (EndReason.RESIGNED, EndReason.FORFEIT, EndReason.TIMED_OUT)
# Endings the board decides, whose adjustments count the racks left.
_NATURAL_REASONS = (EndReason.WENT_OUT, EndReason.SCORELESS_TURNS)


def _end(state: GameState, event: GameEnded, version: int) -> GameState:
    _check_end(state, event)
    bag = _settled_bag(state)
    racks, pool = _end_racks(state, event, bag.candidates)
    computed = _end_adjustments(state, event, racks)
    count = len(state.players)
    if event.adjustments:
        if len(event.adjustments) != count:
            raise InvalidEventError(
                f"Give an adjustment for each of the {count} players"
            )
        credited = tuple(event.adjustments)
    else:
        credited = computed
    for points in (*event.adjustments, *event.final_scores):
        _check_score(state, points, "An end-of-game score")
    discrepancies = state.discrepancies + tuple(
        Discrepancy(version, player, "adjustment", credited[player], computed[player])
        for player in range(count)
        if credited[player] != computed[player]
    )
    scores = state.scores
    final = tuple(
        score + change for score, change in zip(scores, credited, strict=True)
    )
    lines = _end_lines(state, event, version, racks, credited, computed, final)
    loser = event.player if event.reason in _LOSING_REASONS else None
    outcome = decide(
        final, scores, ties_are_draws=state.ruleset.ties_are_draws, loser=loser
    )
    went_out = event.reason is EndReason.WENT_OUT
    return _evolve(
        state,
        racks=racks,
        bag=Bag(bag.count, pool),
        aside=None,
        scores=final,
        scores_before_adjustments=scores,
        adjustments=credited,
        version=version,
        turns=state.turns + lines,
        discrepancies=discrepancies,
        last_play=None,
        pending_end=None,
        pending_player=None,
        end_reason=event.reason,
        ended_by=state.pending_player if went_out else event.player,
        winner=outcome.winner,
        decided_by_tiebreak=outcome.decided_by_tiebreak,
    )


def _check_end(state: GameState, event: GameEnded) -> None:
    """Check the game may end now for the reason given, with the fields given."""
    players = state.players
    count = len(players)
    if state.end_reason is not None:
        raise GameOverError("The game has already ended")
    reason = event.reason
    if event.player is not None:
        _check_player(state, event.player)
    if reason is EndReason.WENT_OUT:
        if state.pending_end is not EndReason.WENT_OUT:
            raise EndReasonError(
                "Nobody has gone out: a player goes out by placing their last tile "
                "when the bag is empty"
            )
        if event.player is not None and event.player != state.pending_player:
            raise EndReasonError(
                f"{players[state.pending_player or 0]} went out, not "
                f"{players[event.player]}"
            )
    elif reason is EndReason.SCORELESS_TURNS:
        if state.pending_end is not EndReason.SCORELESS_TURNS:
            limit = state.ruleset.scoreless_limit(count)
            raise EndReasonError(
                f"There have been {state.scoreless_turns} consecutive scoreless turns; "
                f"{limit} end the game"
            )
    elif reason in _LOSING_REASONS and event.player is None:
        raise InvalidEventError(f"Say which player {reason.value.replace('_', ' ')}")
    if event.final_scores and reason not in (
        EndReason.ADJUDICATED,
        EndReason.DIRECTOR_DECISION,
    ):
        raise InvalidEventError(
            "Final scores are given only when a game is adjudicated or decided by "
            "the director"
        )
    if event.final_scores and len(event.final_scores) != count:
        raise InvalidEventError(f"Give a final score for each of the {count} players")


def _end_racks(
    state: GameState, event: GameEnded, pool: str
) -> tuple[tuple[Rack, ...], str]:
    """The racks left at the end, with those the event records checked and known.

    Returns the racks and the tiles that may still be unseen once they are known.
    """
    racks = list(state.racks)
    if not event.racks:
        return tuple(racks), pool
    count = len(state.players)
    if len(event.racks) != count:
        raise InvalidEventError(f"Give the rack left for each of the {count} players")
    for player, recorded in enumerate(event.racks):
        _check_letters(state, recorded, "the rack")
        rack = racks[player]
        name = state.players[player]
        if len(recorded) != rack.count:
            raise RackMismatchError(
                f"{name} holds {rack.count} tiles, not the {len(recorded)} of "
                f"{recorded or 'an empty rack'}"
            )
        left, missing = split_known(rack.known, recorded)
        if left:
            raise RackMismatchError(
                f"The rack {recorded} recorded for {name} at the end lacks "
                f"{left}, known to be on it"
            )
        if missing:
            pool_left = remove_tiles(pool, sort_tiles(missing))
            if pool_left is None:
                raise TileUnavailableError(
                    f"The rack {recorded} recorded for {name} at the end cannot "
                    f"be right: not every tile of {sort_tiles(missing)} can still "
                    "be unseen"
                )
            pool = pool_left
        racks[player] = Rack(sort_tiles(recorded), 0)
    return tuple(racks), pool


def _end_adjustments(
    state: GameState, event: GameEnded, racks: tuple[Rack, ...]
) -> tuple[int, ...]:
    """What the rules give each player at the end (RULES.md, "End of the game").

    Going out and a scoreless end count the racks left; a director's end moves the
    scores to the final scores given, if any, and otherwise changes nothing.
    """
    if event.reason in _NATURAL_REASONS:
        for player, rack in enumerate(racks):
            if rack.unknown:
                raise RackUnknownError(
                    f"The tiles left on {state.players[player]}'s rack are not "
                    "known: record them to end the game"
                )
        values = state.context.values
        rack_values = [rack_value(rack.known, values) for rack in racks]
        if event.reason is EndReason.WENT_OUT:
            goer = state.pending_player or 0
            return went_out_adjustments(goer, rack_values, state.ruleset.going_out)
        return scoreless_adjustments(rack_values)
    if event.final_scores:
        return tuple(
            final - score
            for final, score in zip(event.final_scores, state.scores, strict=True)
        )
    return (0,) * len(state.players)


def _end_lines(
    state: GameState,
    event: GameEnded,
    version: int,
    racks: tuple[Rack, ...],
    credited: tuple[int, ...],
    computed: tuple[int, ...],
    final: tuple[int, ...],
) -> tuple[Turn, ...]:
    """The score-sheet lines of the end: one per rack counted or score changed, or
    one line saying why the game ended when nothing changed."""
    count = len(state.players)
    sheet = _EndSheet(version, racks, credited, computed, final)
    lines: list[Turn] = []
    reason = event.reason
    if reason is EndReason.WENT_OUT:
        lines.extend(_went_out_lines(state, sheet))
    elif reason is EndReason.SCORELESS_TURNS:
        # Every rack counts, from the player who would have moved next.
        order = [(state.turn + offset) % count for offset in range(count)]
        lines.extend(sheet.rack_line(player) for player in order)
    else:
        lines.extend(
            Turn(
                version,
                player,
                TurnKind.ADJUDICATION,
                score=credited[player],
                cumulative=final[player],
                computed=computed[player],
                detail=reason.value,
            )
            for player in range(count)
            if credited[player]
        )
    if not lines:
        lines.append(
            Turn(
                version,
                event.player,
                TurnKind.GAME_ENDED,
                detail=reason.value,
                cumulative=final[event.player] if event.player is not None else 0,
            )
        )
    return tuple(lines)


@dataclass(frozen=True, slots=True)
class _EndSheet:
    """What the end's score-sheet lines are written from: the racks counted and
    each player's credited, computed and final scores."""

    version: int
    racks: tuple[Rack, ...]
    credited: tuple[int, ...]
    computed: tuple[int, ...]
    final: tuple[int, ...]

    def rack_line(self, player: int) -> Turn:
        """The line of a rack counted against (or for) ``player``."""
        return Turn(
            self.version,
            player,
            TurnKind.END_RACK,
            score=self.credited[player],
            cumulative=self.final[player],
            computed=self.computed[player],
            rack=self.racks[player].known or None,
            tiles=self.racks[player].known,
        )


def _went_out_lines(state: GameState, sheet: _EndSheet) -> list[Turn]:
    """The lines of a game a player went out in: their bonus for the others'
    racks, then the others' racks where they count."""
    count = len(state.players)
    goer = state.pending_player or 0
    others = [(goer + offset) % count for offset in range(1, count)]
    lines = [
        Turn(
            sheet.version,
            goer,
            TurnKind.END_BONUS,
            score=sheet.credited[goer],
            cumulative=sheet.final[goer],
            computed=sheet.computed[goer],
            tiles="".join(sheet.racks[other].known for other in others),
        )
    ]
    # Under "twice" the others' scores do not change: no line unless the record
    # gave them one.
    plus_minus = state.ruleset.going_out is GoingOutRule.PLUS_MINUS
    lines.extend(
        sheet.rack_line(player)
        for player in others
        if plus_minus or sheet.credited[player] or sheet.computed[player]
    )
    return lines


def _rescored(
    state: GameState, scores: tuple[int, ...], before: tuple[int, ...]
) -> dict[str, object]:
    """The outcome fields after a score change to a finished game."""
    loser = state.ended_by if state.end_reason in _LOSING_REASONS else None
    outcome = decide(
        scores, before, ties_are_draws=state.ruleset.ties_are_draws, loser=loser
    )
    return {
        "winner": outcome.winner,
        "decided_by_tiebreak": outcome.decided_by_tiebreak,
    }
