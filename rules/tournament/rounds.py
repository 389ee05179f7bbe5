"""Event handlers for rounds: pairings, results, forfeits, amendments, credits.

A result is decided once here (``rules.outcome.decide`` on the scores and the tie
rule) and stored on the round; the players' entries are then derived from it.

Usage (through ``apply``)::

    state = apply(state, RoundPaired(division="A", round=1,
                                     games=(Board(1, "p1", "p2"),)))
    state = apply(state, ResultRecorded(round=1, player_a="p1", player_b="p2",
                                        score_a=412, score_b=388))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules.errors import TournamentError
from rules.outcome import decide
from rules.tournament.checks import (
    MAX_AWARDED_SPREAD,
    _check_enum,
    _check_round,
    _check_score,
    _require_int,
)
from rules.tournament.entries import _refresh
from rules.tournament.enums import Outcome, PairingMethod, WithdrawalPolicy
from rules.tournament.events import (
    Board,
    ForfeitRecorded,
    ResultAmended,
    ResultRecorded,
    RoundAwarded,
    RoundPaired,
    TieWinRecorded,
    UnpairedRoundRecorded,
)
from rules.tournament.players import _check_division, _check_pairing_player
from rules.tournament.registration import _check_division_round
from rules.tournament.state import (
    Credit,
    GameResult,
    Player,
    RoundState,
    Seat,
    TournamentState,
)


def _round_paired(event: RoundPaired, state: TournamentState) -> TournamentState:
    division = _check_division(state, event.division)
    round_ = _check_round(state, event.round)
    _check_division_round(state, division, round_)
    _check_enum(event.method, PairingMethod, "method")
    previous = _check_repairable(state, division, round_)
    _check_pairing_shape(event)
    seats = _pairing_seats(state, event, division, round_)
    _check_gibsons(event, seats)
    _check_reasons(event, state.division_players[division])
    round_state = RoundState(
        division=division,
        round=round_,
        # The reasons decide nothing later: they stay in the log (read from there
        # by the pages), not in every kept state a cold worker unpickles.
        pairing=replace(event, reasons=None),
        seats=seats,
        results={},
        unpaired={},
        superseded_pairings=()
        if previous is None
        else (*previous.superseded_pairings, previous.pairing),
        version=state.version + 1,
    )
    rounds = {**state.rounds, (division, round_): round_state}
    # Every player of the division: byes, games, and withdrawn players' automatic
    # forfeits can all change.
    cells = [(player_id, round_) for player_id in state.division_players[division]]
    cards = _refresh(state, state.players, rounds, cells)
    return replace(state, rounds=rounds, cards=cards)


def _check_repairable(
    state: TournamentState, division: str, round_: int
) -> RoundState | None:
    """Check that the round may be paired now (the one before it is, and it has no
    results yet); return its current pairing, if any."""
    if round_ > 1 and state.round_state(division, round_ - 1) is None:
        raise TournamentError(
            "round_out_of_order",
            f"Round {round_ - 1} of division {division} is not paired yet.",
            "round",
        )
    previous = state.round_state(division, round_)
    if previous is not None and previous.has_results:
        raise TournamentError(
            "round_has_results",
            f"Round {round_} already has results; amend results instead of re-pairing.",
            "round",
        )
    return previous


def _check_pairing_shape(event: RoundPaired) -> None:
    """Check that the pairing lists games, byes and coin flips of the right types."""
    if not isinstance(event.games, tuple) or not isinstance(event.byes, tuple):
        raise TournamentError(
            "invalid_pairing", "games and byes must be lists.", "games"
        )
    # An imported round may hold no game and no bye: a file's round in which no
    # one played (each player credited, or nothing), kept so that the rounds
    # after it stand where the file has them.
    if not event.games and not event.byes and event.method != PairingMethod.IMPORTED:
        raise TournamentError(
            "empty_pairing", "A pairing needs at least one game or bye.", "games"
        )
    if not all(isinstance(flip, bool) for flip in event.coin_flips):
        raise TournamentError(
            "invalid_pairing", "coin_flips must be true/false values.", "coin_flips"
        )


def _check_gibsons(event: RoundPaired, seats: dict[str, Seat]) -> None:
    """Check that the Gibsonized players are players of this pairing, once each."""
    gibsons = event.gibsons
    if not isinstance(gibsons, tuple) or not all(isinstance(g, str) for g in gibsons):
        raise TournamentError(
            "invalid_pairing", "gibsons must be a list of player ids.", "gibsons"
        )
    if len(set(gibsons)) != len(gibsons) or not set(gibsons) <= seats.keys():
        raise TournamentError(
            "invalid_pairing",
            "Every Gibsonized player must be paired (or have the bye) in the round,"
            " once.",
            "gibsons",
        )
    if not isinstance(event.scheduled, bool):
        raise TournamentError(
            "invalid_pairing", "scheduled must be true or false.", "scheduled"
        )


def _check_reasons(event: RoundPaired, players: Sequence[str]) -> None:
    """Check that a pairing's reasons speak of its own games (a system pairing)
    or of players of its division (a hand pairing's system alternative)."""
    reasons = event.reasons
    if reasons is None:
        return
    boards = {(b.board, b.first, b.second) for b in reasons.boards}
    byes = {bye.player for bye in reasons.byes}
    if event.method is PairingMethod.MANUAL:
        named = {p for b in reasons.boards for p in (b.first, b.second)} | byes
        if named <= set(players):
            return
    elif boards == {(g.board, g.first, g.second) for g in event.games} and byes == set(
        event.byes
    ):
        return
    raise TournamentError(
        "invalid_pairing",
        "The pairing's reasons must describe its own boards and byes (a hand"
        " pairing's, players of its division).",
        "reasons",
    )


def _pairing_seats(
    state: TournamentState, event: RoundPaired, division: str, round_: int
) -> dict[str, Seat]:
    """Return each paired player's seat: every player once, boards used once, no
    withdrawn player paired (nor given a bye)."""
    seats: dict[str, Seat] = {}
    boards: set[int] = set()

    def seat(player_id: str, field: str, value: Seat) -> None:
        player = _check_pairing_player(state, division, player_id, field)
        if player_id in seats:
            raise TournamentError(
                "player_paired_twice",
                f"{player.name} is paired more than once in round {round_}.",
                field,
            )
        policy = player.withdrawn_in(round_)
        if policy is WithdrawalPolicy.NOT_PAIRED or (
            policy is not None and value.opponent is None
        ):
            raise TournamentError(
                "player_withdrawn",
                f"{player.name} is withdrawn in round {round_} and cannot be"
                + (" given a bye." if value.opponent is None else " paired."),
                field,
            )
        seats[player_id] = value

    for game in event.games:
        if not isinstance(game, Board):
            raise TournamentError(
                "invalid_pairing", "Each game needs a board.", "games"
            )
        if type(game.board) is not int or game.board < 1 or game.board in boards:
            raise TournamentError(
                "invalid_board",
                f"Board {game.board!r} must be a whole number of 1 or more, used once.",
                "games",
            )
        boards.add(game.board)
        if not isinstance(game.first_known, bool):
            raise TournamentError(
                "invalid_pairing", "first_known must be true or false.", "games"
            )
        known = game.first_known
        seat(game.first, "games", Seat(game.second, True, game.board, known))
        seat(game.second, "games", Seat(game.first, False, game.board, known))
    for player_id in event.byes:
        seat(player_id, "byes", Seat(None))
    return seats


def _paired_game(
    state: TournamentState, round_: object, player_a: object, player_b: object
) -> tuple[RoundState, Player, Player]:
    round_number = _check_round(state, round_)
    a = state.player(player_a, "player_a")  # type: ignore[arg-type]
    b = state.player(player_b, "player_b")  # type: ignore[arg-type]
    round_state = state.round_state(a.division, round_number)
    if round_state is None:
        raise TournamentError(
            "round_not_paired",
            f"Round {round_number} of division {a.division} is not paired yet.",
            "round",
        )
    seat = round_state.seats.get(a.player_id)
    if seat is None or seat.opponent != b.player_id:
        if seat is None:
            where = "is not paired"
        elif seat.opponent is None:
            where = "has a bye"
        else:
            where = f"plays {state.players[seat.opponent].name}"
        raise TournamentError(
            "game_not_paired",
            f"{a.name} and {b.name} are not paired in round {round_number}:"
            f" {a.name} {where}.",
            "player_b" if seat is not None else "player_a",
        )
    return round_state, a, b


def _game_result(
    state: TournamentState,
    event: ResultRecorded | ResultAmended,
    a: Player,
    b: Player,
    previous: GameResult | None,
) -> GameResult:
    """Validate the scores of ``event`` and decide the winner by the tie rule.

    An amendment replaces the whole result: what it does not give (pre-adjustment
    scores, the game link) is not carried over from the result it supersedes.
    """
    reason = event.reason if isinstance(event, ResultAmended) else ""
    if isinstance(event, ResultAmended) and event.absentee is not None:
        return _forfeit_result(state, event, a, b, previous)
    score_a = _check_score(event.score_a, "score_a")
    score_b = _check_score(event.score_b, "score_b")
    if event.game_id is not None and (
        not isinstance(event.game_id, str) or not event.game_id
    ):
        raise TournamentError(
            "invalid_game_id", "game_id must be a non-empty text.", "game_id"
        )
    pre = _pre_adjustment_scores(state, event, score_a, score_b)
    ties_are_draws = state.settings.ties_are_draws
    decided = decide(
        (score_a, score_b),
        (score_a, score_b) if pre is None else pre,
        ties_are_draws=ties_are_draws,
    )
    return GameResult(
        round=event.round,
        player_a=a.player_id,
        player_b=b.player_id,
        score_a=score_a,
        score_b=score_b,
        pre_adjustment_a=None if pre is None else pre[0],
        pre_adjustment_b=None if pre is None else pre[1],
        game_id=event.game_id,
        absentee=None,
        winner=None if decided.winner is None else (a, b)[decided.winner].player_id,
        version=state.version + 1,
        reason=reason,
        previous=previous,
        tie_break=decided.decided_by_tiebreak,
    )


def _pre_adjustment_scores(
    state: TournamentState,
    event: ResultRecorded | ResultAmended,
    score_a: int,
    score_b: int,
) -> tuple[int, int] | None:
    """Return the checked scores before the end-of-game adjustments, or None.

    They are asked for only when the final scores tie and the tie rule needs them
    (RULES.md, "Winner"); a result read from a recorded game (``game_id``) carries
    them whatever the scores. Anywhere else they would be a second, unchecked
    account of the game, so they are refused.
    """
    pre_a, pre_b = event.pre_adjustment_a, event.pre_adjustment_b
    if (pre_a is None) != (pre_b is None):
        raise TournamentError(
            "pre_adjustment_scores_required",
            "Give both scores before the end-of-game adjustments, or neither.",
            "pre_adjustment_a" if pre_a is None else "pre_adjustment_b",
        )
    tied = score_a == score_b
    if pre_a is None or pre_b is None:
        if tied and not state.settings.ties_are_draws:
            raise TournamentError(
                "pre_adjustment_scores_required",
                f"The final scores are tied at {score_a}: enter both scores before"
                " the end-of-game adjustments to decide the winner.",
                "pre_adjustment_a",
            )
        return None
    if not tied and event.game_id is None:
        raise TournamentError(
            "pre_adjustment_not_needed",
            f"The final scores {score_a}–{score_b} are not tied: the scores before"
            " the end-of-game adjustments are only entered for a tie.",
            "pre_adjustment_a",
        )
    return (
        _check_score(pre_a, "pre_adjustment_a"),
        _check_score(pre_b, "pre_adjustment_b"),
    )


def _forfeit_result(
    state: TournamentState,
    event: ResultAmended,
    a: Player,
    b: Player,
    previous: GameResult | None,
) -> GameResult:
    """Return an amendment to a forfeit by ``event.absentee``."""
    if event.absentee not in (a.player_id, b.player_id):
        raise TournamentError(
            "game_not_paired",
            f"The absentee must be {a.name} or {b.name}.",
            "absentee",
        )
    for field in ("score_a", "score_b", "pre_adjustment_a", "pre_adjustment_b"):
        if getattr(event, field) is not None:
            raise TournamentError("invalid_score", "A forfeit has no scores.", field)
    return GameResult(
        round=event.round,
        player_a=a.player_id,
        player_b=b.player_id,
        score_a=None,
        score_b=None,
        pre_adjustment_a=None,
        pre_adjustment_b=None,
        game_id=None,
        absentee=event.absentee,
        winner=b.player_id if event.absentee == a.player_id else a.player_id,
        version=state.version + 1,
        reason=event.reason,
        previous=previous,
    )


def _store_result(
    state: TournamentState, round_state: RoundState, result: GameResult
) -> TournamentState:
    key = frozenset((result.player_a, result.player_b))
    new_round = replace(round_state, results={**round_state.results, key: result})
    rounds = {**state.rounds, (round_state.division, round_state.round): new_round}
    cells = [(result.player_a, result.round), (result.player_b, result.round)]
    return replace(
        state, rounds=rounds, cards=_refresh(state, state.players, rounds, cells)
    )


def _duplicate(round_state: RoundState, a: Player, b: Player) -> None:
    if round_state.result_of(a.player_id, b.player_id) is not None:
        raise TournamentError(
            "duplicate_result",
            f"The round {round_state.round} game of {a.name} and {b.name} already"
            " has a result; amend it instead.",
            "round",
        )


def repeats_recorded_result(state: TournamentState, event: ResultRecorded) -> bool:
    """Whether ``event`` is the result already recorded for its game, sent again
    (a slip resent after a lost answer): the same pair, round and scores, from
    either side. Such a repeat is no new fact; a different score for a game that
    has one is still the ``duplicate_result`` refusal."""
    for round_state in state.rounds.values():
        if round_state.round != event.round:
            continue
        found = round_state.result_of(event.player_a, event.player_b)
        if found is None or found.absentee is not None:
            continue
        mine = (
            event.score_a,
            event.score_b,
            event.pre_adjustment_a,
            event.pre_adjustment_b,
        )
        if found.player_a != event.player_a:
            mine = (mine[1], mine[0], mine[3], mine[2])
        recorded = (found.score_a, found.score_b)
        if mine[:2] != recorded:
            return False
        given = mine[2:]
        return given == (None, None) or given == (
            found.pre_adjustment_a,
            found.pre_adjustment_b,
        )
    return False


def _result_recorded(event: ResultRecorded, state: TournamentState) -> TournamentState:
    round_state, a, b = _paired_game(state, event.round, event.player_a, event.player_b)
    _duplicate(round_state, a, b)
    return _store_result(state, round_state, _game_result(state, event, a, b, None))


def _forfeit_recorded(
    event: ForfeitRecorded, state: TournamentState
) -> TournamentState:
    round_number = _check_round(state, event.round)
    absentee = state.player(event.absentee, "absentee")
    round_state = state.round_state(absentee.division, round_number)
    if round_state is None:
        raise TournamentError(
            "round_not_paired",
            f"Round {round_number} of division {absentee.division} is not paired yet.",
            "round",
        )
    seat = round_state.seats.get(absentee.player_id)
    if seat is None or seat.opponent is None:
        raise TournamentError(
            "game_not_paired",
            f"{absentee.name} has no game in round {round_number} to forfeit.",
            "absentee",
        )
    opponent = state.players[seat.opponent]
    _duplicate(round_state, absentee, opponent)
    result = GameResult(
        round=round_number,
        player_a=absentee.player_id,
        player_b=opponent.player_id,
        score_a=None,
        score_b=None,
        pre_adjustment_a=None,
        pre_adjustment_b=None,
        game_id=None,
        absentee=absentee.player_id,
        winner=opponent.player_id,
        version=state.version + 1,
    )
    return _store_result(state, round_state, result)


def _result_amended(event: ResultAmended, state: TournamentState) -> TournamentState:
    round_state, a, b = _paired_game(state, event.round, event.player_a, event.player_b)
    previous = round_state.result_of(a.player_id, b.player_id)
    if previous is None:
        raise TournamentError(
            "no_result_to_amend",
            f"The round {round_state.round} game of {a.name} and {b.name} has no"
            " result yet; record it instead.",
            "round",
        )
    if not isinstance(event.reason, str):
        raise TournamentError("invalid_value", "reason must be text.", "reason")
    return _store_result(state, round_state, _game_result(state, event, a, b, previous))


def _unpaired_round_recorded(
    event: UnpairedRoundRecorded, state: TournamentState
) -> TournamentState:
    spread = _require_int(event.spread, "spread", "invalid_spread")
    if abs(spread) > MAX_AWARDED_SPREAD:
        raise TournamentError(
            "invalid_spread",
            f"spread must be positive (a win), negative (a loss) or 0 (neither), at"
            f" most {MAX_AWARDED_SPREAD} either way.",
            "spread",
        )
    return _credit(state, event.round, event.player_id, Credit(spread, 0))


def _round_awarded(event: RoundAwarded, state: TournamentState) -> TournamentState:
    outcome = _check_enum(event.outcome, Outcome, "outcome")
    spread = _require_int(event.spread, "spread", "invalid_spread")
    if abs(spread) > MAX_AWARDED_SPREAD:
        raise TournamentError(
            "invalid_spread",
            f"spread must be at most {MAX_AWARDED_SPREAD} either way.",
            "spread",
        )
    if (outcome is Outcome.WIN and spread < 0) or (
        outcome is Outcome.LOSS and spread > 0
    ):
        raise TournamentError(
            "invalid_spread",
            f"A {outcome.value} cannot be awarded a spread of {spread}.",
            "spread",
        )
    return _credit(
        state, event.round, event.player_id, Credit(spread, 0, Outcome(outcome))
    )


def _credit(
    state: TournamentState, round_: object, player_id: str, credit: Credit
) -> TournamentState:
    """Store a credit for a round the player is not paired in."""
    round_number = _check_round(state, round_)
    player = state.player(player_id)
    round_state = state.round_state(player.division, round_number)
    if round_state is None:
        raise TournamentError(
            "round_not_paired",
            f"Round {round_number} of division {player.division} is not paired yet.",
            "round",
        )
    if player.player_id in round_state.seats:
        raise TournamentError(
            "player_already_paired",
            f"{player.name} is paired in round {round_number}; record the game's"
            " result instead.",
            "player_id",
        )
    if player.player_id in round_state.unpaired:
        raise TournamentError(
            "duplicate_result",
            f"{player.name} already has an entry for round {round_number}.",
            "round",
        )
    credit = replace(credit, version=state.version + 1)
    new_round = replace(
        round_state, unpaired={**round_state.unpaired, player.player_id: credit}
    )
    rounds = {**state.rounds, (player.division, round_number): new_round}
    cards = _refresh(state, state.players, rounds, [(player.player_id, round_number)])
    return replace(state, rounds=rounds, cards=cards)


def _tie_win_recorded(event: TieWinRecorded, state: TournamentState) -> TournamentState:
    round_state, winner, loser = _paired_game(
        state, event.round, event.winner, event.loser
    )
    _duplicate(round_state, winner, loser)
    score = _check_score(event.score, "score")
    result = GameResult(
        round=round_state.round,
        player_a=winner.player_id,
        player_b=loser.player_id,
        score_a=score,
        score_b=score,
        pre_adjustment_a=None,
        pre_adjustment_b=None,
        game_id=None,
        absentee=None,
        winner=winner.player_id,
        version=state.version + 1,
        tie_break=True,
    )
    return _store_result(state, round_state, result)
