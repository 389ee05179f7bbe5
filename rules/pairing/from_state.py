"""Pairing from the tournament state: the inputs gathered from a
``TournamentState``, the round paired by its system, and the ``RoundPaired`` event.

Usage::

    event = pair_next_round(state, "A", 2, PairingMethod.SWISS, coin_flips=bits)
    pairing = pair_round(state, "A", 9, System.COP, bits, options=options)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from enum import StrEnum

from rules.division_rules import PairingOptions
from rules.outcome import half_points
from rules.pairing.boards import assign_boards
from rules.pairing.init_fontes import pair_init_fontes
from rules.pairing.inputs import PairingInputs
from rules.pairing.last_rounds import pair_ranked
from rules.pairing.reasons import schedule_reasons
from rules.pairing.repeats import meetings_before
from rules.pairing.round_robin import pair_round_robin
from rules.pairing.systems import Pairing, System
from rules.records import EntryKind
from rules.tournament import (
    PairingMethod,
    RoundPaired,
    TournamentError,
    TournamentState,
    WithdrawalPolicy,
)
from rules.tournament.standings import ranked_player_ids


def pairing_inputs(
    state: TournamentState,
    division: str,
    round_: int,
    based_on_round: int | None = None,
) -> PairingInputs:
    """Collect the inputs for pairing ``round_`` of ``division``.

    Players withdrawn in ``round_`` (either policy) are left out: with the forfeit
    policy the state gives them a forfeit loss for the round. The ranking is the
    standings after ``based_on_round`` (default: the previous round), which must be
    complete. Raises TournamentError (``unknown_division``, ``invalid_round``,
    ``previous_round_incomplete``).
    """
    based = _checked_basis(state, division, round_, based_on_round)
    ids = state.division_players[division]
    active = {
        player_id
        for player_id in ids
        if state.players[player_id].withdrawn_in(round_) is None
    }
    ranked = tuple(p for p in ranked_player_ids(state, division, based) if p in active)
    played = [
        tuple(sorted(pair))
        for pair, rounds in meetings_before(state, division, round_).items()
        for _ in rounds
    ]
    byes, firsts, seconds, previous = _history(state, ids, round_)
    groups = {}
    spreads = {}
    for player_id in ranked:
        totals = state.cards[player_id].totals_after(based)
        groups[player_id] = half_points(totals.wins, totals.draws)
        spreads[player_id] = totals.spread
    return PairingInputs(
        ranked=ranked,
        score_groups=groups,
        played=tuple((a, b) for a, b in played),
        byes=dict(byes),
        firsts=dict(firsts),
        seconds=dict(seconds),
        spreads=spreads,
        rounds_left=state.rounds_of(division) - based,
        rounds=state.rounds_of(division),
        previous=previous,
    )


def _checked_basis(
    state: TournamentState, division: str, round_: int, based_on_round: int | None
) -> int:
    """Check that ``round_`` of ``division`` can be paired on the standings after
    ``based_on_round`` (default: the round before), complete; return that round."""
    if division not in state.division_players:
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    # A division may play fewer rounds than the tournament (tsh's max_div_rounds).
    last = state.rounds_of(division)
    if type(round_) is not int or not 1 <= round_ <= last:
        raise TournamentError(
            "invalid_round",
            f"Round must be from 1 to {last} (division {division}'s rounds).",
            "round",
        )
    based = round_ - 1 if based_on_round is None else based_on_round
    if type(based) is not int or not 0 <= based < round_:
        raise TournamentError(
            "invalid_round",
            "Pairings can only be based on standings after an earlier round.",
            "based_on_round",
        )
    ids = state.division_players[division]
    for player_id in ids:
        entry = state.cards[player_id].entries[based - 1] if based else None
        if entry is not None and not entry.has_result and entry.kind is EntryKind.GAME:
            raise TournamentError(
                "previous_round_incomplete",
                f"Round {based} still has games without a result; enter them before"
                f" pairing round {round_}.",
                "round",
            )
    return based


def _history(
    state: TournamentState, ids: Sequence[str], round_: int
) -> tuple[Counter[str], Counter[str], Counter[str], dict[str, str]]:
    """Return each player's byes, firsts and seconds before ``round_``, and their
    opponent of the round before."""
    byes: Counter[str] = Counter()
    firsts: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    previous: dict[str, str] = {}
    for earlier in range(1, round_):
        for player_id in ids:
            entry = state.cards[player_id].entries[earlier - 1]
            if entry is None:
                continue
            if entry.kind is EntryKind.BYE:
                byes[player_id] += 1
            elif entry.kind is EntryKind.GAME and entry.went_first is not None:
                (firsts if entry.went_first else seconds)[player_id] += 1
            if earlier == round_ - 1 and entry.opponent is not None:
                previous[player_id] = entry.opponent
    return byes, firsts, seconds, previous


def pair_round(
    state: TournamentState,
    division: str,
    round_: int,
    method: PairingMethod | System | str,
    coin_flips: Sequence[bool] = (),
    *,
    based_on_round: int | None = None,
    schedule_start: int = 1,
    options: PairingOptions | None = None,
) -> Pairing:
    """Pair ``round_`` of ``division`` by ``method`` under ``options``.

    Round robin: the players registered and not withdrawn when the schedule starts
    (round ``schedule_start``), in player-number order, follow the Berger table, and
    a late entry takes a free seat of it (``_seat_late_entries``);
    InitFontes likewise, in pre-event order, for ``options.init_fontes_rounds``
    rounds from ``schedule_start``. In a later round of either schedule a player
    withdrawn under ``not_paired`` drops out and their opponent has the bye, and
    one withdrawn under ``forfeit`` stays paired and forfeits (tsh practice for
    keeping a schedule intact). The other systems pair the standings after
    ``based_on_round`` (``pairing_inputs``). Raises TournamentError as the pairing
    functions and ``pairing_inputs`` do, and (``invalid_setting``) for a method a
    director pairs by hand or a bad option.
    """
    system = _system(method)
    options = options or PairingOptions()
    options.check()
    fixed = options.boards()
    for player_id in fixed:
        state.player(player_id, "options.fixed_boards")
    if system is System.ROUND_ROBIN:
        players = list(state.division_players.get(division, ()))
        pairing = _schedule_from_state(
            state,
            division,
            round_,
            schedule_start,
            players,
            pair_round_robin,
            fixed,
            seat_late_entries=True,
        )
        return replace(pairing, reasons=schedule_reasons(system, pairing))
    if system is System.INIT_FONTES:
        order = list(_checked_ranking(state, division))
        rounds = options.init_fontes_rounds

        def schedule(players: Sequence[str], k: int) -> Pairing:
            return pair_init_fontes(players, rounds, k)

        pairing = _schedule_from_state(
            state, division, round_, schedule_start, order, schedule, fixed
        )
        return replace(pairing, reasons=schedule_reasons(system, pairing))
    inputs = pairing_inputs(state, division, round_, based_on_round)
    pairing = pair_ranked(system, inputs, options, tuple(coin_flips))
    based = round_ - 1 if based_on_round is None else based_on_round
    if pairing.reasons is None:
        return pairing
    return replace(pairing, reasons=replace(pairing.reasons, based_on_round=based))


def pair_next_round(
    state: TournamentState,
    division: str,
    round_: int,
    method: PairingMethod | System | str,
    coin_flips: Sequence[bool] = (),
    *,
    based_on_round: int | None = None,
    schedule_start: int = 1,
    options: PairingOptions | None = None,
) -> RoundPaired:
    """Return the ``RoundPaired`` event pairing ``round_`` by ``method``.

    See ``pair_round``. The event records the method and the coin flips consumed.
    """
    system = _system(method)
    try:
        recorded = PairingMethod(system.value)
    except ValueError:
        raise TournamentError(
            "invalid_setting",
            f"{system.value} pairings cannot be recorded: the tournament's pairing"
            " methods do not list it.",
            "method",
        ) from None
    pairing = pair_round(
        state,
        division,
        round_,
        system,
        coin_flips,
        based_on_round=based_on_round,
        schedule_start=schedule_start,
        options=options,
    )
    return RoundPaired(
        division=division,
        round=round_,
        games=pairing.games,
        byes=pairing.byes,
        method=recorded,
        coin_flips=pairing.coin_flips,
        gibsons=pairing.gibsons,
        reasons=pairing.reasons,
    )


def _system(method: PairingMethod | System | str) -> System:
    value = method.value if isinstance(method, StrEnum) else method
    try:
        return System(value)
    except ValueError:
        raise TournamentError(
            "invalid_setting",
            f"{value} pairings are made by the director, not the system.",
            "method",
        ) from None


def _checked_ranking(state: TournamentState, division: str) -> tuple[str, ...]:
    if division not in state.division_players:
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    return ranked_player_ids(state, division, 0)


def _schedule_from_state(
    state: TournamentState,
    division: str,
    round_: int,
    schedule_start: int,
    order: Sequence[str],
    schedule: Callable[[Sequence[str], int], Pairing],
    fixed: Mapping[str, int],
    *,
    seat_late_entries: bool = False,
) -> Pairing:
    if division not in state.division_players:
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    if type(round_) is not int or not 1 <= schedule_start <= round_:
        raise TournamentError(
            "invalid_round",
            "The schedule must start at or before the round being paired.",
            "round",
        )
    players = [
        player_id
        for player_id in order
        if state.players[player_id].withdrawn_in(schedule_start) is None
        and state.players[player_id].joined_after_round < schedule_start
    ]
    if seat_late_entries:
        players = _seat_late_entries(state, round_, schedule_start, order, players)
    table = schedule(players, round_ - schedule_start + 1)
    games = []
    byes = [
        player_id
        for player_id in table.byes
        if state.players[player_id].withdrawn_in(round_) is None
    ]
    for game in table.games:
        out = [
            player_id
            for player_id in (game.first, game.second)
            if state.players[player_id].withdrawn_in(round_)
            is WithdrawalPolicy.NOT_PAIRED
        ]
        if not out:
            games.append((game.first, game.second))
        elif len(out) == 1:
            other = game.second if out[0] == game.first else game.first
            if state.players[other].withdrawn_in(round_) is None:
                byes.append(other)
    return Pairing(assign_boards(games, fixed), tuple(byes))


def _seat_late_entries(
    state: TournamentState,
    round_: int,
    schedule_start: int,
    order: Sequence[str],
    starters: list[str],
) -> list[str]:
    """Return the round robin's seats with the late entries seated.

    The Berger table is the starters' (the players there when the schedule
    began), so a late entry takes a free seat rather than redrawing it (which
    would repeat games already played): first the phantom's seat of an odd field
    (they meet, each round, the player the table gave the bye), then the seats of
    players withdrawn not paired, in the order they withdrew (they meet those
    players' opponents). Late entries are seated in registration order, from the
    round after the one they joined in. A late entry with no free seat is
    refused by name (``no_round_robin_seat``): such a round is paired by hand.
    The seats of players withdrawn with forfeits stay theirs (tsh practice:
    their opponents win by forfeit).
    """
    late = [
        player_id
        for player_id in order
        if schedule_start <= state.players[player_id].joined_after_round < round_
        and state.players[player_id].withdrawn_in(round_) is None
    ]
    if not late:
        return starters
    seats: list[str | None] = list(starters)
    free = []
    if len(seats) % 2:
        seats.append(None)
        free.append(len(seats) - 1)
    withdrawn = []
    for index, player_id in enumerate(starters):
        player = state.players[player_id]
        if player.withdrawn_in(round_) is WithdrawalPolicy.NOT_PAIRED:
            since = max(w.from_round for w in player.withdrawals if w.covers(round_))
            withdrawn.append((since, index))
    free += [index for _, index in sorted(withdrawn)]
    if len(late) > len(free):
        name = state.players[late[len(free)]].name
        raise TournamentError(
            "no_round_robin_seat",
            f"{name} joined after the round robin began and its schedule has no"
            f" free seat in round {round_} (an even field, and no player withdrawn"
            " to take the place of): pair this round by hand.",
            "round",
        )
    for player_id, index in zip(late, free, strict=False):
        seats[index] = player_id
    # An unfilled phantom drops out: the table adds it back at the same place.
    return [seat for seat in seats if seat is not None]
