"""Words for why a round is paired as it is (the reasons its ``RoundPaired`` keeps).

The rules decided every reason (``rules.pairing.reasons``); this module only says
them: a sentence for the round, one per board and one per bye, and, beside a
director's hand pairing, what the system would have done and who would have had
another opponent.

Usage::

    explanation = explain(event, names)
    explanation.summary, explanation.boards, explanation.byes
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from rules import pairing as rp
from rules import tournament as rt

Namer = Callable[[str], str]

_SYSTEMS = {
    "round_robin": "round robin",
    "king_of_the_hill": "King of the Hill",
    "swiss": "Swiss",
    "init_fontes": "InitFontes",
    "chew": "Chew pairings",
    "cop": "COP",
}
_FIRST_BY = {
    "fewer_firsts": "fewer firsts so far",
    "more_seconds": "as many firsts, more seconds",
    "schedule": "the schedule says so",
}


@dataclass(frozen=True, slots=True)
class BoardWhy:
    board: int
    pairing: str  # "Ann v Bob", first mover first
    text: str


@dataclass(frozen=True, slots=True)
class Explanation:
    """A round's reasons in words; ``hand`` when a director paired it by hand
    (then ``boards`` are what the system would have done)."""

    summary: str
    boards: tuple[BoardWhy, ...] = ()
    byes: tuple[str, ...] = ()
    hand: bool = False
    differences: tuple[str, ...] = field(default_factory=tuple)
    kept: bool = True


def explain(
    event: rt.RoundPaired, names: Mapping[str, str], *, preview: bool = False
) -> Explanation:
    """Say why ``event``'s round is paired as it is (``preview``: would be)."""
    reasons = event.reasons
    hand = event.method is rt.PairingMethod.MANUAL
    if reasons is None:
        return Explanation(
            summary="This round was paired before pairings kept their reasons."
            if not hand
            else "Paired by hand.",
            hand=hand,
            kept=False,
        )
    name = _namer(names)
    if hand and reasons.unavailable:
        return Explanation(
            summary="Paired by hand. The system could not have paired this round:"
            f" {reasons.unavailable}",
            hand=True,
        )
    boards = tuple(
        BoardWhy(b.board, f"{name(b.first)} v {name(b.second)}", _board(b, name))
        for b in reasons.boards
    )
    byes = tuple(_bye(bye, name) for bye in reasons.byes)
    if not hand:
        return Explanation(_summary(reasons, preview), boards, byes)
    differ = rp.differences(reasons, [(g.first, g.second) for g in event.games])
    return Explanation(
        _hand_summary(reasons, [name(p) for p in differ]),
        boards,
        byes,
        hand=True,
        differences=tuple(name(p) for p in differ),
    )


def _namer(names: Mapping[str, str]) -> Namer:
    return lambda player_id: names.get(player_id, player_id)


def _system(reasons: rt.PairingReasons) -> str:
    return _SYSTEMS.get(reasons.system, reasons.system)


def _basis(reasons: rt.PairingReasons) -> str:
    if reasons.schedule:
        return f"the {_system(reasons)} schedule"
    if reasons.based_on_round == 0:
        return f"{_system(reasons)} on the order before the first round"
    return f"{_system(reasons)} on the standings after round {reasons.based_on_round}"


def _summary(reasons: rt.PairingReasons, preview: bool = False) -> str:
    said = f"{'Would be paired' if preview else 'Paired'} by {_basis(reasons)}."
    if reasons.schedule:
        return f"{said} Each board and who goes first are the schedule's."
    if reasons.repeat_limit is None:
        limit = "No repeat limit."
    elif reasons.repeat_limit == 0:
        limit = "No pair meets again while the field allows it."
    else:
        limit = (
            f"No pair meets more than {_times(reasons.repeat_limit + 1)} while the"
            " field allows it."
        )
    beyond = (
        f" {_count(reasons.over_limit, 'game')} beyond the limit, the fewest the"
        " field allowed."
        if reasons.over_limit
        else ""
    )
    back = (
        f" {_count(reasons.back_to_back, 'rematch', 'rematches')} of last round."
        if reasons.back_to_back
        else ""
    )
    return f"{said} {limit}{beyond}{back}"


def _hand_summary(reasons: rt.PairingReasons, differ: Sequence[str]) -> str:
    said = (
        f"Paired by hand. The system ({_basis(reasons)}) would have paired it as below"
    )
    if not differ:
        return f"{said}: the same games."
    return (
        f"{said}; {_count(len(differ), 'player')} would have had another opponent:"
        f" {', '.join(differ)}."
    )


def _board(b: rt.BoardReason, name: Namer) -> str:
    parts = []
    if b.first_by == "schedule":
        parts.append("the schedule's game for this round")
    else:
        chooser, other = (
            (b.first, b.second) if b.chooser != b.second else (b.second, b.first)
        )
        parts.append(
            f"{name(chooser)} ({_standing(b, chooser)}) meets {name(other)}"
            f" ({_standing(b, other)})"
        )
        if b.passed_over_met:
            whom = "them" if len(b.passed_over_met) > 1 else "that player"
            parts.append(
                f"not {_list(b.passed_over_met, name)}, nearer in the standings:"
                f" {name(chooser)} met {whom} before"
            )
        if b.passed_over:
            parts.append(
                f"not {_list(b.passed_over, name)}: that game would have forced a"
                " repeat elsewhere in the round"
            )
    if b.met_before:
        parts.append(f"a repeat: they met {_times(b.met_before)} before")
    if b.back_to_back:
        parts.append("they met last round")
    parts += [f"{name(p)} is Gibsonized (their place is decided)" for p in b.gibson]
    if b.fixed_board:
        parts.append("a fixed board")
    parts.append(f"{name(b.first)} goes first: {_first(b)}")
    return "; ".join(parts) + "."


def _standing(b: rt.BoardReason, player: str) -> str:
    rank, group = (
        (b.rank_first, b.group_first)
        if player == b.first
        else (b.rank_second, b.group_second)
    )
    wins = "" if group is None else f", {_wins(group)}"
    return f"#{rank}{wins}"


def _first(b: rt.BoardReason) -> str:
    if b.first_by == "coin_flip":
        return "a coin flip"
    return _FIRST_BY.get(b.first_by, b.first_by)


def _bye(bye: rt.ByeReason, name: Namer) -> str:
    if bye.gibson:
        return f"{name(bye.player)} has the bye: Gibsonized, with an odd field."
    if not bye.rank:
        return f"{name(bye.player)} has the bye: the schedule's."
    said = (
        f"{name(bye.player)} has the bye: the lowest ranked (#{bye.rank}) of those"
        f" with the fewest byes ({bye.byes_before})"
    )
    if bye.passed_over:
        said += (
            f"; not {_list(bye.passed_over, name)}: their bye would have forced a"
            " repeat"
        )
    return said + "."


def _wins(group: int) -> str:
    whole, half = divmod(group, 2)
    number = f"{whole}{'½' if half else ''}" if whole or not half else "½"
    return f"{number} {'win' if group == 2 else 'wins'}"


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _list(players: Sequence[str], name: Namer) -> str:
    shown = [name(p) for p in players[:4]]
    more = len(players) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")
