"""Services of pairing: a round's pairings and a division's pairing rules.

Usage::

    round_pair(tournament_id=tid, division="A", round_=1, method="swiss", user=mara)
    pairing_rules_set(tournament_id=tid, division="A", options=options, user=mara)
    round_schedule_set(tournament_id=tid, division="A", rounds=[(2, "swiss", 1)],
                       user=mara)
    pair_due_rounds(tid)   # the write path calls it after every result
"""

from __future__ import annotations

import logging
import secrets
import uuid
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.eventstore.errors import ConcurrencyError
from games.eventstore.store import (
    AppendResult,
)
from rules import pairing as rp
from rules import tournament as rt
from rules.division_rules import (
    PairingOptions,
)
from rules.errors import RulesError
from tournaments.core.access import is_director
from tournaments.core.aggregate import tournament_state
from tournaments.core.errors import PermissionDeniedError
from tournaments.core.writes import append_as_director, append_as_system

logger = logging.getLogger(__name__)


def _coin_flips(count: int) -> tuple[bool, ...]:
    # The only randomness of pairing: drawn here, recorded in the event (the ones
    # used), so the pairing replays identically from the log.
    bits = secrets.randbits(count)
    return tuple(bool(bits >> i & 1) for i in range(count))


def round_pair(
    *,
    tournament_id: uuid.UUID,
    division: str,
    round_: int,
    method: str,
    user: Any,
    games: Sequence[tuple[int, str, str]] | None = None,
    byes: Sequence[str] = (),
    based_on_round: int | None = None,
    allow_repeats: bool = True,
    expected_version: int | None = None,
) -> AppendResult:
    """Pair a round by system (under the division's pairing rules) or by hand.

    A manual pairing gives `games` as (board, first, second) and `byes`. Without
    `allow_repeats`, one that pairs players who met before is refused
    (``repeat_pairing``, naming them and the rounds): the API and the console pass
    False until the director confirms, so the repeats are shown before the
    pairing is stored; code that stores a known pairing (the demo, imports) keeps
    the default.
    """
    pairing_method = rt.PairingMethod(method)
    _, state = tournament_state(tournament_id)
    assert state.rules is not None
    if not is_director(state, user):
        # Before the pairing is worked out: a refusal of the rights, not of the
        # round, is the answer for someone who may not pair.
        raise PermissionDeniedError("Only this tournament's directors may pair.")
    if pairing_method is rt.PairingMethod.MANUAL:
        event = rt.RoundPaired(
            division=division,
            round=round_,
            games=tuple(
                rt.Board(board=board, first=first, second=second)
                for board, first, second in games or ()
            ),
            byes=tuple(byes),
            method=pairing_method,
            # What the system would have done, kept beside the director's choice.
            reasons=rp.would_pair(
                state.rules,
                division,
                round_,
                _coin_flips(rp.coin_flips_needed(state.rules, division)),
            ),
        )
        if not allow_repeats:
            _refuse_repeats(state.rules, event)
    else:
        event = rp.pair_next_round(
            state.rules,
            division,
            round_,
            pairing_method,
            _coin_flips(rp.coin_flips_needed(state.rules, division)),
            based_on_round=based_on_round,
            options=state.rules.options_of(division),
        )
    return append_as_director(
        tournament_id=tournament_id,
        events=[event],
        user=user,
        expected_version=expected_version,
    )


def _refuse_repeats(rules: rt.TournamentState, event: rt.RoundPaired) -> None:
    if event.division not in rules.division_players:
        return  # the rules name the unknown division when the event is applied
    repeats = rp.round_repeats(rules, event.division, event.round, event.games)
    if not repeats:
        return

    def name(player_id: str) -> str:
        found = rules.players.get(player_id)
        return found.name if found else player_id

    said = "; ".join(
        f"{name(a)} and {name(b)} (round{'s' if r.times > 1 else ''} "
        f"{', '.join(map(str, r.rounds))})"
        for r in repeats
        for a, b in [r.players]
    )
    count = f"{len(repeats)} game{'s' if len(repeats) > 1 else ''}"
    raise rt.TournamentError(
        "repeat_pairing",
        f"{count} of this pairing repeat{'s' if len(repeats) == 1 else ''} an"
        f" earlier round: {said}. Store it anyway to keep the repeats.",
        "games",
    )


def pairing_rules_set(
    *,
    tournament_id: uuid.UUID,
    division: str,
    options: PairingOptions,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Set the division's pairing rules (replacing the earlier ones); they govern
    the system pairings made from now on.

    A refusal names the option as the API and the forms name it (``gibson_spread``,
    not the event's ``options.gibson_spread``).
    """
    try:
        return append_as_director(
            tournament_id=tournament_id,
            events=[rt.PairingRulesSet(division=division, options=options)],
            user=user,
            expected_version=expected_version,
        )
    except RulesError as error:
        field = getattr(error, "field", None)
        if field:
            error.field = field.removeprefix("options.")  # type: ignore[attr-defined]
        raise


def round_schedule_set(
    *,
    tournament_id: uuid.UUID,
    division: str,
    rounds: Sequence[tuple[int, str, int]],
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Set the division's round schedule: (round, method, based on round) lines,
    replacing the earlier ones (none: no schedule). A round that is due at once
    (round 1 on round 0's results, say) is paired right after, by the write path.
    """
    lines = []
    for round_, method, based_on_round in rounds:
        try:
            pairing_method = rt.PairingMethod(method)
        except ValueError:
            raise rt.TournamentError(
                "invalid_schedule",
                f"Round {round_}: {method!r} is not a pairing method.",
                "rounds",
            ) from None
        lines.append(rt.ScheduledRound(round_, pairing_method, based_on_round))
    return append_as_director(
        tournament_id=tournament_id,
        events=[rt.RoundScheduleSet(division=division, rounds=tuple(lines))],
        user=user,
        expected_version=expected_version,
    )


# Each attempt pairs one round; a log changed by another writer meanwhile is read
# again. Bounded: a round pairs once, so a tournament has at most its rounds per
# division to pair, and a lost race costs an attempt.
_MAX_SCHEDULED_ATTEMPTS = 4 * rt.MAX_ROUNDS


def pair_due_rounds(tournament_id: uuid.UUID) -> list[AppendResult]:
    """Pair every round the round schedules say is due now, one after another, as
    the system (the coin flips drawn and recorded as a director's pairing's are).

    A round the rules cannot pair (a late entry with no round-robin seat, say) is
    left for the director, whose console says why (``schedule_status``). Never
    raises for a round: the write that triggered it is already stored.
    """
    appended: list[AppendResult] = []
    for _ in range(_MAX_SCHEDULED_ATTEMPTS):
        version, aggregate = tournament_state(tournament_id)
        rules = aggregate.rules
        if rules is None or not rules.round_schedules:
            return appended
        event = _next_scheduled_pairing(rules)
        if event is None:
            return appended
        try:
            with transaction.atomic():
                appended.append(
                    append_as_system(
                        tournament_id=tournament_id,
                        events=[event],
                        expected_version=version,
                    )
                )
        except ConcurrencyError:
            continue  # someone wrote meanwhile: look at the log again
        except RulesError:
            logger.exception("The schedule's pairing of round %s failed", event.round)
            return appended
    return appended


def _next_scheduled_pairing(rules: rt.TournamentState) -> rt.RoundPaired | None:
    for division in rules.divisions:
        line = rp.next_due_round(rules, division)
        if line is None:
            continue
        try:
            return rp.pair_scheduled(
                rules,
                division,
                line,
                _coin_flips(rp.coin_flips_needed(rules, division)),
            )
        except RulesError:
            continue  # left for the director (the console says why)
    return None


def schedule_status(rules: rt.TournamentState, division: str) -> str:
    """What the console says of the division's schedule: the round due now that
    the system could not pair, and why; "" when there is none."""
    line = rp.next_due_round(rules, division)
    if line is None:
        return ""
    try:
        rp.pair_scheduled(
            rules, division, line, (False,) * rp.coin_flips_needed(rules, division)
        )
    except RulesError as error:
        return (
            f"Round {line.round} is due by the schedule but could not be paired:"
            f" {getattr(error, 'message', error)}"
        )
    return ""


# --- Between the API's documents and the rules' values ------------------------------
