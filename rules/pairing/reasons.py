"""Why a system pairing is what it is: the reasons kept in its ``RoundPaired``.

The planner notes, as it pairs, the opponents each player was refused before the
one they got (``_Planner.passed``) and the bye candidates passed over; this module
turns those notes, the inputs the round was paired on and the pairing into a
``PairingReasons``: per board the ranks and score groups, how often the two met,
the opponents the system preferred but did not give (and whether because the pair
had met or to keep the rest of the round free of repeats), the Gibsons, a fixed
board and how who goes first was decided (``rules.pairing.firsts``); per round the
repeat limit and the games beyond it, and the bye's reason.

Usage::

    reasons = ranked_reasons(System.SWISS, inputs, options, planner, pairing)
    reasons = would_pair(state, "A", 6, coin_flips=bits)   # beside a hand pairing
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.division_rules import PairingOptions
from rules.pairing.firsts import firsts_with_reasons
from rules.pairing.inputs import PairingInputs
from rules.pairing.planner import _Planner
from rules.pairing.systems import Pairing, System
from rules.tournament import (
    BoardReason,
    ByeReason,
    PairingReasons,
)


def ranked_reasons(
    system: System,
    inputs: PairingInputs,
    options: PairingOptions,
    planner: _Planner,
    pairing: Pairing,
) -> PairingReasons:
    """Return the reasons of a pairing made by ``planner`` from ``inputs``."""
    rank = {player: index + 1 for index, player in enumerate(inputs.ranked)}
    names = planner.ranked
    pairs = [(names[a], names[b]) for a, b in planner.pairs]
    _, _, first_by = firsts_with_reasons(
        pairs,
        firsts=inputs.firsts,
        seconds=inputs.seconds,
        coin_flips=pairing.coin_flips,
    )
    flips = iter(pairing.coin_flips)
    board_of = {frozenset((g.first, g.second)): g for g in pairing.games}
    fixed = options.boards()
    gibsons = set(pairing.gibsons)
    boards = []
    for (a, b), how in zip(planner.pairs, first_by, strict=True):
        game = board_of[frozenset((names[a], names[b]))]
        passed = planner.passed.get((a, b), ())
        met = _nearer_met(planner, a, b)
        boards.append(
            BoardReason(
                board=game.board,
                first=game.first,
                second=game.second,
                chooser=names[a],
                rank_first=rank[game.first],
                rank_second=rank[game.second],
                group_first=inputs.score_groups.get(game.first),
                group_second=inputs.score_groups.get(game.second),
                met_before=planner.times(a, b),
                back_to_back=planner.back_to_back(a, b),
                passed_over=tuple(names[c] for c in passed if c not in met),
                passed_over_met=tuple(names[c] for c in met),
                gibson=tuple(p for p in (game.first, game.second) if p in gibsons),
                fixed_board=game.first in fixed or game.second in fixed,
                first_by=how,
                coin_flip=next(flips) if how == "coin_flip" else None,
            )
        )
    return PairingReasons(
        system=system.value,
        repeat_limit=planner.limit,
        over_limit=sum(planner.over(a, b) for a, b in planner.pairs),
        back_to_back=sum(planner.back_to_back(a, b) for a, b in planner.pairs),
        boards=tuple(sorted(boards, key=lambda reason: reason.board)),
        byes=tuple(
            ByeReason(
                player=player,
                byes_before=inputs.byes.get(player, 0),
                rank=rank[player],
                passed_over=tuple(names[c] for c in planner.bye_passed),
                gibson=player in gibsons,
            )
            for player in pairing.byes
        ),
    )


def _nearer_met(planner: _Planner, a: int, b: int) -> tuple[int, ...]:
    """The players ``a`` had met (or played last round) who were still unpaired
    when ``a`` chose and stood nearer ``a`` in the standings than ``b``: the
    repeats the pairing avoided for ``a``, nearest first."""
    near = abs(b - a)
    refused = planner.passed.get((a, b), ())
    met = {
        c
        for c in (*planner.considered.get(a, ()), *refused)
        if c != b
        and abs(c - a) <= near
        and (planner.times(a, c) > 0 or planner.back_to_back(a, c))
    }
    return tuple(sorted(met, key=lambda c: (abs(c - a), c)))


def schedule_reasons(system: System, pairing: Pairing) -> PairingReasons:
    """The reasons of a fixed schedule's round (round robin, InitFontes): each
    board is the schedule's, who goes first included."""
    return PairingReasons(
        system=system.value,
        boards=tuple(
            BoardReason(
                board=game.board,
                first=game.first,
                second=game.second,
                first_by="schedule",
            )
            for game in pairing.games
        ),
        byes=tuple(ByeReason(player=player) for player in pairing.byes),
        schedule=True,
    )


def differences(
    reasons: PairingReasons, games: Sequence[tuple[str, str]]
) -> tuple[str, ...]:
    """The players whose opponent in ``games`` differs from the one ``reasons``
    gives them (a hand pairing against what the system would have done)."""
    system: dict[str, str] = {}
    for board in reasons.boards:
        system[board.first] = board.second
        system[board.second] = board.first
    hand: dict[str, str] = {}
    for first, second in games:
        hand[first] = second
        hand[second] = first
    return tuple(
        sorted(p for p in system.keys() | hand.keys() if system.get(p) != hand.get(p))
    )
