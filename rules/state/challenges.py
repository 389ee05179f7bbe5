"""The handler for a challenge: a phony withdrawn, or a valid play upheld with
the challenge rule's consequence (a lost turn, or points per word).

Usage (through ``apply``)::

    state = apply(state, PlayChallenged(player=1, outcome=ChallengeOutcome.VALID))
"""

from __future__ import annotations

from rules.errors import (
    ChallengesNotAllowedError,
    DrawBeforeWithdrawalError,
    GameOverError,
    InvalidEventError,
    NoPlayToChallengeError,
    WordNotFormedError,
)
from rules.events import (
    ChallengeOutcome,
    PlayChallenged,
)
from rules.ruleset import ChallengeRule
from rules.state.steps import (
    _add,
    _advance,
    _check_player,
    _check_recorded_rack,
    _check_score,
    _evolve,
    _flagged,
    _replace,
    _scoreless_end,
    _set,
)
from rules.state.values import (
    GameState,
    LastPlay,
    Rack,
    Turn,
    TurnKind,
    last_play_words,
)
from rules.tiles import (
    as_tiles,
    sort_tiles,
)


def _challenge(state: GameState, event: PlayChallenged, version: int) -> GameState:
    last = _challenged_play(state, event)
    _check_score(state, event.score, "A challenge's score")
    if event.outcome is ChallengeOutcome.PHONY:
        after = _withdraw_phony(state, event, last, version)
    else:
        after = _uphold_valid_play(state, event, last, version)
    if event.rack is not None:
        challenged = last.player
        _check_recorded_rack(
            state, challenged, event.rack, after.racks[challenged], state.bag.candidates
        )
    return after


def _challenged_play(state: GameState, event: PlayChallenged) -> LastPlay:
    """The play a challenge applies to, once the challenge is known to be allowed."""
    if state.end_reason is not None:
        raise GameOverError(
            "The game is over: its last play can no longer be challenged"
        )
    last = state.last_play
    if last is None or last.challenged:
        raise NoPlayToChallengeError(
            "There is no play to challenge: a challenge must follow the play it "
            "challenges, before the next turn"
        )
    challenger = event.challenger
    _check_player(state, challenger, "challenger")
    players = state.players
    if challenger == last.player:
        raise InvalidEventError(
            f"{players[challenger]} cannot challenge their own play"
        )
    if state.ruleset.challenge is ChallengeRule.VOID:
        raise ChallengesNotAllowedError(
            "This game has no challenges (void rule): a play stands as recorded"
        )
    formed_words = last_play_words(state)
    for word in event.words:
        if word.upper() not in formed_words:
            formed = ", ".join(formed_words)
            raise WordNotFormedError(
                f"{word.upper()} was not formed by {players[last.player]}'s play "
                f"(it formed {formed})"
            )
    return last


def _withdraw_phony(
    state: GameState, event: PlayChallenged, last: LastPlay, version: int
) -> GameState:
    """RULES.md: a phony's tiles go back to the rack and its score is removed."""
    challenged = last.player
    rack = state.racks[challenged]
    if rack.count != last.rack_after.count:
        raise DrawBeforeWithdrawalError(
            f"{state.players[challenged]} already drew after the play: record the "
            "withdrawal of the phony before the draw"
        )
    # Exactly the points the play was credited with come off: a recorded figure
    # that differs is reported and never credited (an old record's "-- +0" would
    # otherwise leave the phony's points on the score).
    computed = -last.score
    recorded = computed if event.score is None else event.score
    discrepancies = _flagged(
        state, version, challenged, "challenge", recorded, computed
    )
    scores = _add(state.scores, challenged, computed)
    returned = as_tiles("".join(tile for _, tile in last.new_tiles))
    rack = Rack(sort_tiles(rack.known + returned), rack.unknown)
    turns = list(state.turns)
    played = turns[last.turn_index]
    turns[last.turn_index] = _replace(played, withdrawn=True)
    turns.append(
        Turn(
            version,
            challenged,
            TurnKind.PHONY_WITHDRAWN,
            score=computed,
            cumulative=scores[challenged],
            computed=computed,
            rack=rack.known or None,
            recorded_rack=event.rack,
            position=played.position,
            word=played.word,
            words=played.words,
            tiles=returned,
            count=len(returned),
            detail=", ".join(event.words),
        )
    )
    # RULES.md: the withdrawn play counts as a scoreless turn, as if it had never
    # reset the run.
    scoreless = last.scoreless_before + 1
    return _evolve(
        state,
        board=last.board_before,
        racks=_set(state.racks, challenged, rack),
        scores=scores,
        scores_before_adjustments=scores,
        scoreless_turns=scoreless,
        pending_end=_scoreless_end(state, scoreless),
        pending_player=None,
        last_play=None,
        version=version,
        turns=tuple(turns),
        discrepancies=discrepancies,
    )


def _uphold_valid_play(
    state: GameState, event: PlayChallenged, last: LastPlay, version: int
) -> GameState:
    """A valid play stands; its effect follows the challenge rule (RULES.md)."""
    challenged, challenger = last.player, event.challenger
    credited, computed, kind = _valid_challenge_score(state, event)
    scores = _add(state.scores, challenged, credited)
    # RULES.md: under double challenge the challenger loses their next turn (none
    # is left when the play went out).
    loses_turn = (
        state.ruleset.challenge is ChallengeRule.DOUBLE and state.pending_end is None
    )
    lost_now = loses_turn and challenger == state.turn
    turns = list(state.turns)
    detail = ", ".join(event.words)
    if not lost_now or credited:
        # Under double challenge the lost turn is the line that records the
        # ruling, unless points were recorded for it too.
        turns.append(
            Turn(
                version,
                challenged,
                kind,
                score=credited,
                cumulative=scores[challenged],
                computed=computed,
                rack=state.racks[challenged].known or None,
                recorded_rack=event.rack,
                detail=detail,
            )
        )
    changes: dict[str, object] = {"last_play": _replace(last, challenged=True)}
    if lost_now:
        turns.append(
            Turn(
                version,
                challenger,
                TurnKind.LOST_TURN,
                cumulative=scores[challenger],
                rack=state.racks[challenger].known or None,
                detail=detail,
            )
        )
        following, lost, scoreless = _advance(
            state, challenger, version, turns, scores, state.scoreless_turns + 1
        )
        changes.update(
            turn=following,
            lost_turns=lost,
            scoreless_turns=scoreless,
            pending_end=_scoreless_end(state, scoreless),
            pending_player=None,
            last_play=None,
        )
    elif loses_turn:
        # The challenger is not next to act (more than two players): the turn is
        # lost when it comes round.
        pending = list(state.lost_turns or (0,) * len(state.players))
        pending[challenger] += 1
        changes["lost_turns"] = tuple(pending)
    return _evolve(
        state,
        scores=scores,
        scores_before_adjustments=scores,
        version=version,
        turns=tuple(turns),
        discrepancies=_flagged(
            state, version, challenged, "challenge", credited, computed
        ),
        **changes,
    )


def _valid_challenge_score(
    state: GameState, event: PlayChallenged
) -> tuple[int, int, TurnKind]:
    """The points for a valid play challenged: (credited, computed, the line's kind).

    A recorded bonus is credited as recorded (and reported when it differs).
    """
    per_word = state.ruleset.challenge_bonus
    recorded = event.score
    if not per_word:
        return (0 if recorded is None else recorded), 0, TurnKind.CHALLENGE
    computed = per_word * max(1, len(event.words))
    if (
        not event.words
        and recorded is not None
        and recorded > 0
        and recorded % per_word == 0
        and recorded <= per_word * len(last_play_words(state))
    ):
        # The words challenged were not recorded: a bonus for several words is as
        # right as one for a single word.
        computed = recorded
    credited = computed if recorded is None else recorded
    return credited, computed, TurnKind.CHALLENGE_BONUS
