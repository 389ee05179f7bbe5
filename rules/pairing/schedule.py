"""The round schedule: which system pairs each round, on which round's results, and
the rounds it pairs by itself (tsh's ``autopair``).

A scheduled round is due when it is not paired yet, the round before it is paired,
and every game of the round it is based on has its result (round 0: none needed).
``pair_scheduled`` pairs a due round as ``pair_next_round`` does, marked
``scheduled``; the service draws the coin flips and appends it as the system.
``projected_opponents`` tells a round-robin player their opponents of the rounds not
paired yet (the whole schedule, for the scorecards), from the same Berger table.

Usage::

    line = next_due_round(state, "A")
    if line is not None:
        event = pair_scheduled(state, "A", line, coin_flips=bits)
    opponents = projected_opponents(state, "A")   # {player: {round: opponent}}
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.errors import TournamentError
from rules.pairing.from_state import pair_next_round, pair_round
from rules.records import EntryKind
from rules.tournament import (
    PairingMethod,
    PairingReasons,
    RoundPaired,
    ScheduledRound,
    TournamentState,
)

# The systems that follow a fixed table: their schedule starts at the first round
# of the run of rounds they pair in a row.
_TABLES = (PairingMethod.ROUND_ROBIN, PairingMethod.INIT_FONTES)


def next_due_round(state: TournamentState, division: str) -> ScheduledRound | None:
    """Return the division's first scheduled round that is due now, or None."""
    for line in state.schedule_of(division):
        if line.round > state.rounds_of(division):
            return None  # past the division's own rounds (max_div_rounds)
        if state.round_state(division, line.round) is not None:
            continue
        if line.round > 1 and state.round_state(division, line.round - 1) is None:
            return None  # rounds pair in order: the one before comes first
        return line if results_complete(state, division, line.based_on_round) else None
    return None


def results_complete(state: TournamentState, division: str, round_: int) -> bool:
    """True when every game of ``round_`` has its result (round 0: always)."""
    if round_ == 0:
        return True
    if state.round_state(division, round_) is None:
        return False
    for player_id in state.division_players[division]:
        entry = state.cards[player_id].entries[round_ - 1]
        if entry is not None and entry.kind is EntryKind.GAME and not entry.has_result:
            return False
    return True


def schedule_start(
    schedule: Sequence[ScheduledRound], round_: int, method: PairingMethod
) -> int:
    """Return the first round of the run of ``method`` rounds that ends at
    ``round_`` (a table system's round 1)."""
    by_round = {line.round: line.method for line in schedule}
    start = round_
    while by_round.get(start - 1) is method:
        start -= 1
    return start


def pair_scheduled(
    state: TournamentState,
    division: str,
    line: ScheduledRound,
    coin_flips: Sequence[bool] = (),
) -> RoundPaired:
    """Return the ``RoundPaired`` of the scheduled round ``line``, marked
    ``scheduled``. Raises TournamentError as ``pair_next_round`` does."""
    method = PairingMethod(line.method)
    event = pair_next_round(
        state,
        division,
        line.round,
        method,
        coin_flips,
        based_on_round=line.based_on_round,
        schedule_start=schedule_start(state.schedule_of(division), line.round, method)
        if method in _TABLES
        else 1,
        options=state.options_of(division),
    )
    return RoundPaired(
        division=event.division,
        round=event.round,
        games=event.games,
        byes=event.byes,
        method=event.method,
        coin_flips=event.coin_flips,
        gibsons=event.gibsons,
        scheduled=True,
        reasons=event.reasons,
    )


def _round_robin_rounds(state: TournamentState, division: str) -> dict[int, int]:
    """The division's round-robin rounds not paired yet, each with the round its
    table starts at: the rounds the schedule gives to round robin, and, past a
    round-robin round paired without a schedule line, the rest of its cycle."""
    schedule = state.schedule_of(division)
    scheduled = {line.round: line.method for line in schedule}
    rounds: dict[int, int] = {}
    last = state.paired_rounds(division)
    for round_ in range(last + 1, state.rounds_of(division) + 1):
        method = scheduled.get(round_)
        if method is PairingMethod.ROUND_ROBIN:
            rounds[round_] = schedule_start(schedule, round_, method)
    if last and last + 1 not in scheduled:
        paired = state.round_state(division, last)
        if paired is not None and paired.pairing.method is PairingMethod.ROUND_ROBIN:
            start = last
            while (before := state.round_state(division, start - 1)) is not None and (
                before.pairing.method is PairingMethod.ROUND_ROBIN
            ):
                start -= 1
            field = len(state.division_players[division])
            end = min(state.rounds_of(division), start + field - (1 - field % 2) - 1)
            for round_ in range(last + 1, end + 1):
                if round_ in scheduled:
                    break
                rounds[round_] = start
    return rounds


def projected_opponents(
    state: TournamentState, division: str
) -> dict[str, dict[int, str | None]]:
    """Return each player's round-robin opponent (None: the bye) in the rounds of
    the division's round robin not paired yet, as the table gives them today (a
    later withdrawal or late entry changes them as it changes the pairing)."""
    projected: dict[str, dict[int, str | None]] = {}
    for round_, start in sorted(_round_robin_rounds(state, division).items()):
        try:
            pairing = pair_round(
                state,
                division,
                round_,
                PairingMethod.ROUND_ROBIN,
                schedule_start=start,
                options=state.options_of(division),
            )
        except TournamentError:
            continue  # a table the field cannot follow: nothing to foretell
        for game in pairing.games:
            projected.setdefault(game.first, {})[round_] = game.second
            projected.setdefault(game.second, {})[round_] = game.first
        for player_id in pairing.byes:
            projected.setdefault(player_id, {})[round_] = None
    return projected


def would_pair(
    state: TournamentState,
    division: str,
    round_: int,
    coin_flips: Sequence[bool] = (),
) -> PairingReasons:
    """What the system would pair ``round_`` of ``division`` as, with its reasons:
    shown beside a director's hand pairing and kept in its event.

    The method is the round schedule's for the round; else the division's last
    system pairing's (a director pairing by hand mid-event replaces the system they
    were using); else Swiss, which on round 1's pre-event order pairs the top half
    against the bottom half, as tsh's first-round default does. When the system
    cannot pair the round (an earlier round without results, say), the reasons
    say why and hold no boards.
    """
    line = next((s for s in state.schedule_of(division) if s.round == round_), None)
    method = line.method if line is not None else _last_system_method(state, division)
    start = 1
    if line is not None and method in _TABLES:
        start = schedule_start(state.schedule_of(division), round_, method)
    try:
        pairing = pair_round(
            state,
            division,
            round_,
            method,
            coin_flips,
            based_on_round=line.based_on_round if line is not None else None,
            schedule_start=start,
            options=state.options_of(division),
        )
    except TournamentError as error:
        return PairingReasons(system=method.value, unavailable=error.message)
    assert pairing.reasons is not None
    return pairing.reasons


def _last_system_method(state: TournamentState, division: str) -> PairingMethod:
    for round_ in range(state.paired_rounds(division), 0, -1):
        paired = state.round_state(division, round_)
        if paired is not None and paired.pairing.method is not PairingMethod.MANUAL:
            return paired.pairing.method
    return PairingMethod.SWISS
