"""Deriving each player's entries and totals: the incremental core of ``apply``.

An ``Entry`` (what a round was for a player) is derived from the raw facts of the
round (seats, results, credits, withdrawals); ``_refresh`` recomputes only the
(player, round) cells an event can change and moves the totals by the difference,
and ``derive_cards`` recomputes every card from scratch (the reference it must
agree with).

Usage::

    cards = _refresh(state, players, rounds, [("p1", 3), ("p2", 3)])
    assert derive_cards(state) == dict(state.cards)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from rules.records import LOSING_KINDS, EntryKind
from rules.tournament.enums import Outcome, WithdrawalPolicy
from rules.tournament.state import (
    _ZERO,
    Entry,
    GameResult,
    Player,
    PlayerCard,
    RoundState,
    Seat,
    Settings,
    Totals,
    TournamentState,
)


def _cap(spread: int, cap: int | None) -> int:
    if cap is None:
        return spread
    return max(-cap, min(cap, spread))


def _awarded(
    round_: int,
    kind: EntryKind,
    spread: int,
    version: int,
    settings: Settings,
    seat: Seat | None = None,
    awarded: Outcome | None = None,
) -> Entry:
    """Return a bye, forfeit or credit entry: its outcome follows from its kind
    (a bye or a forfeit win is a win even when its spread setting is 0) or, for a
    credit, from ``awarded`` (a RoundAwarded) or else the sign of its spread (0:
    neither, as tsh counts it)."""
    if awarded is not None:
        outcome: Outcome | None = awarded
    elif kind is EntryKind.CREDIT:
        outcome = None if spread == 0 else Outcome.WIN if spread > 0 else Outcome.LOSS
    elif kind in LOSING_KINDS:
        outcome = Outcome.LOSS
    else:
        outcome = Outcome.WIN
    return Entry(
        round=round_,
        kind=kind,
        opponent=None if seat is None else seat.opponent,
        went_first=None if seat is None else seat.went_first,
        board=None if seat is None else seat.board,
        outcome=outcome,
        round_spread=spread,
        counted_spread=_cap(spread, settings.cap(round_)),
        version=version,
    )


def _derive_entry(
    player: Player,
    round_state: RoundState | None,
    players: Mapping[str, Player],
    settings: Settings,
) -> Entry | None:
    """Return what the round is for the player, from the raw facts; None: nothing."""
    if round_state is None:
        return None
    round_ = round_state.round
    credit = round_state.unpaired.get(player.player_id)
    if credit is not None:
        return _awarded(
            round_,
            EntryKind.CREDIT,
            credit.spread,
            credit.version,
            settings,
            awarded=credit.outcome,
        )
    seat = round_state.seats.get(player.player_id)
    if seat is None or seat.opponent is None:
        return _unopposed_entry(player, round_state, seat, settings)
    opponent = players[seat.opponent]
    result = round_state.result_of(player.player_id, opponent.player_id)
    if result is not None:
        return _result_entry(player.player_id, seat, result, settings)
    version = max(
        round_state.version,
        player.status_version(round_),
        opponent.status_version(round_),
    )
    # A withdrawn player's paired game is a forfeit, whatever the policy: they
    # were paired and did not play.
    if player.withdrawn_in(round_) is not None:
        return _awarded(
            round_,
            EntryKind.WITHDRAWAL_FORFEIT,
            -settings.forfeit_spread,
            version,
            settings,
            seat,
        )
    if opponent.withdrawn_in(round_) is not None:
        return _awarded(
            round_,
            EntryKind.FORFEIT_WIN,
            settings.forfeit_spread,
            version,
            settings,
            seat,
        )
    return Entry(
        round=round_,
        kind=EntryKind.GAME,
        opponent=seat.opponent,
        went_first=seat.went_first,
        board=seat.board,
        version=version,
        first_known=seat.first_known,
    )


def _unopposed_entry(
    player: Player, round_state: RoundState, seat: Seat | None, settings: Settings
) -> Entry | None:
    """Return the entry of a round with a bye or without a seat."""
    round_ = round_state.round
    policy = player.withdrawn_in(round_)
    version = max(round_state.version, player.status_version(round_))
    if policy is WithdrawalPolicy.FORFEIT:
        # tsh practice for an inactive player with a negative bye score: a
        # forfeit loss in every round paired without them.
        return _awarded(
            round_,
            EntryKind.WITHDRAWAL_FORFEIT,
            -settings.forfeit_spread,
            version,
            settings,
        )
    if seat is None or policy is not None:
        return None
    return _awarded(round_, EntryKind.BYE, settings.bye_spread, version, settings)


def _result_entry(
    player_id: str, seat: Seat, result: GameResult, settings: Settings
) -> Entry:
    """Return the entry of a paired game with a recorded result."""
    amended = result.previous is not None
    if result.absentee is not None:
        absent = result.absentee == player_id
        return replace(
            _awarded(
                result.round,
                EntryKind.FORFEIT_LOSS if absent else EntryKind.FORFEIT_WIN,
                -settings.forfeit_spread if absent else settings.forfeit_spread,
                result.version,
                settings,
                seat,
            ),
            amended=amended,
        )
    own, other = result.scores_for(player_id)
    own_pre_adjustment, other_pre = result.pre_adjustment_for(player_id)
    assert own is not None
    assert other is not None
    if result.winner is None:
        outcome = Outcome.DRAW
    elif result.winner == player_id:
        outcome = Outcome.WIN
    else:
        outcome = Outcome.LOSS
    spread = own - other
    return Entry(
        round=result.round,
        kind=EntryKind.GAME,
        opponent=seat.opponent,
        went_first=seat.went_first,
        board=seat.board,
        own_score=own,
        opponent_score=other,
        own_pre_adjustment=own_pre_adjustment,
        opponent_pre_adjustment=other_pre,
        outcome=outcome,
        tie_break=result.tie_break,
        round_spread=spread,
        counted_spread=_cap(spread, settings.cap(result.round)),
        game_id=result.game_id,
        amended=amended,
        version=result.version,
        first_known=seat.first_known,
    )


def _refresh(
    state: TournamentState,
    players: Mapping[str, Player],
    rounds: Mapping[tuple[str, int], RoundState],
    cells: Iterable[tuple[str, int]],
    cards: Mapping[str, PlayerCard] | None = None,
) -> dict[str, PlayerCard]:
    """Recompute the given (player, round) cells and adjust the totals by delta."""
    new_cards = dict(state.cards if cards is None else cards)
    by_player: dict[str, set[int]] = {}
    for player_id, round_ in cells:
        by_player.setdefault(player_id, set()).add(round_)
    for player_id, round_numbers in by_player.items():
        player = players[player_id]
        card = new_cards[player_id]
        entries = list(card.entries)
        totals = card.totals
        changed = False
        for round_ in round_numbers:
            new = _derive_entry(
                player, rounds.get((player.division, round_)), players, state.settings
            )
            old = entries[round_ - 1]
            if new == old:
                continue
            changed = True
            if old is not None:
                totals = totals - Totals.of(old)
            if new is not None:
                totals = totals + Totals.of(new)
            entries[round_ - 1] = new
        if changed:
            new_cards[player_id] = PlayerCard(tuple(entries), totals)
    return new_cards


def derive_cards(state: TournamentState) -> dict[str, PlayerCard]:
    """Recompute every player's card from scratch (the reference for ``apply``)."""
    cards: dict[str, PlayerCard] = {}
    for player_id, player in state.players.items():
        entries = tuple(
            _derive_entry(
                player,
                state.rounds.get((player.division, round_)),
                state.players,
                state.settings,
            )
            for round_ in range(1, state.settings.rounds + 1)
        )
        totals = _ZERO
        for entry in entries:
            if entry is not None:
                totals = totals + Totals.of(entry)
        cards[player_id] = PlayerCard(entries, totals)
    return cards
