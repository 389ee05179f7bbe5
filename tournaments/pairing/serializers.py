"""Serializers of pairing."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from games.serializer_base import BoundedListField, StrictSerializer
from rules import pairing as rp
from rules import tournament as rt
from rules.division_rules import (
    DEFAULT_GIBSON_SPREAD,
    FixedBoard,
    PairingOptions,
)
from tournaments.core.serializers import (
    ExpectedVersionMixin,
    division_field,
    player_id_field,
)
from tournaments.results.serializers import KINDS, OUTCOMES


class BoardInput(StrictSerializer):
    board = serializers.IntegerField(min_value=1, max_value=10_000)
    first = player_id_field()
    second = player_id_field()


class PairRoundInput(ExpectedVersionMixin):
    division = division_field()
    method = serializers.ChoiceField(
        [m.value for m in rt.PairingMethod if m is not rt.PairingMethod.IMPORTED]
    )
    games = BoundedListField(
        child=BoardInput(),
        required=False,
        max_length=rt.MAX_PLAYERS_PER_DIVISION // 2,
    )
    byes = BoundedListField(
        child=player_id_field(),
        required=False,
        default=list,
        max_length=rt.MAX_PLAYERS_PER_DIVISION,
    )
    based_on_round = serializers.IntegerField(
        min_value=0, max_value=rt.MAX_ROUNDS, required=False
    )
    allow_repeats = serializers.BooleanField(
        default=False,
        help_text="Store a manual pairing even though some of its games repeat"
        " earlier rounds (without it, such a pairing is refused with the repeats"
        " listed).",
    )

    def validate(self, attrs: dict) -> dict:
        manual = attrs["method"] == rt.PairingMethod.MANUAL.value
        if manual and not attrs.get("games") and not attrs.get("byes"):
            raise serializers.ValidationError(
                {"games": "A manual pairing lists its games (board, first, second)."}
            )
        if not manual and (attrs.get("games") or attrs.get("byes")):
            raise serializers.ValidationError(
                {"games": "Games are given only with the manual method."}
            )
        return attrs


class SideOutput(serializers.Serializer):
    """One player's side of a board, as the rules decided it."""

    player = serializers.CharField(source="player_id")
    number = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(KINDS)
    score = serializers.IntegerField(source="own_score", allow_null=True)
    pre_adjustment = serializers.IntegerField(
        source="own_pre_adjustment", allow_null=True
    )
    outcome = serializers.ChoiceField(
        OUTCOMES, help_text="'' while the game is to be played (or a credit of 0)."
    )
    spread = serializers.IntegerField(
        source="counted_spread", help_text="As counted (after a spread cap)."
    )
    gibsonized = serializers.BooleanField(
        help_text="The pairing Gibsonized this player: their place is decided, so"
        " they meet a player out of the money (or have the bye)."
    )


class PairingOutput(serializers.Serializer):
    """A line of a round's pairings: a game (``first`` moved first) or a player
    alone (``second`` null: a bye, a credit, a withdrawn player's forfeit)."""

    round = serializers.IntegerField()
    board = serializers.IntegerField(allow_null=True)
    method = serializers.CharField()
    first = SideOutput()
    second = SideOutput(allow_null=True)
    has_result = serializers.BooleanField()
    tie_break = serializers.BooleanField(
        source="first.tie_break",
        help_text="The final scores tied and the scores before the end-of-game "
        "adjustments decided the winner.",
    )
    amended = serializers.BooleanField(source="first.amended")
    game_id = serializers.UUIDField(allow_null=True)


class BoardReasonOutput(serializers.Serializer):
    board = serializers.IntegerField()
    first = serializers.CharField(help_text="Player id; goes first.")
    second = serializers.CharField()
    chooser = serializers.CharField(
        help_text="The player whose choice made the game (pairing from the top)."
    )
    rank_first = serializers.IntegerField(help_text="0 for a fixed schedule.")
    rank_second = serializers.IntegerField()
    group_first = serializers.IntegerField(
        allow_null=True, help_text="Score group: twice the wins plus the draws."
    )
    group_second = serializers.IntegerField(allow_null=True)
    met_before = serializers.IntegerField()
    back_to_back = serializers.BooleanField()
    passed_over = serializers.ListField(
        child=serializers.CharField(),
        help_text="Opponents preferred but not given: the game would have forced a"
        " repeat elsewhere in the round.",
    )
    passed_over_met = serializers.ListField(
        child=serializers.CharField(),
        help_text="Players nearer in the standings the chooser had met: the repeats"
        " avoided.",
    )
    gibson = serializers.ListField(child=serializers.CharField())
    fixed_board = serializers.BooleanField()
    first_by = serializers.ChoiceField(
        ["fewer_firsts", "more_seconds", "coin_flip", "schedule"]
    )
    coin_flip = serializers.BooleanField(allow_null=True)
    text = serializers.CharField(help_text="The reasons in words.")


class ByeReasonOutput(serializers.Serializer):
    player = serializers.CharField()
    byes_before = serializers.IntegerField()
    rank = serializers.IntegerField()
    passed_over = serializers.ListField(child=serializers.CharField())
    gibson = serializers.BooleanField()
    text = serializers.CharField()


class PairingReasonsOutput(serializers.Serializer):
    """Why a round is paired as it is. For a hand pairing (``hand_paired``) the
    boards are what the system would have done, and ``differences`` the players
    it would have given another opponent."""

    division = serializers.CharField()
    round = serializers.IntegerField()
    method = serializers.CharField()
    hand_paired = serializers.BooleanField()
    kept = serializers.BooleanField(
        help_text="False for a round paired before pairings kept their reasons."
    )
    system = serializers.CharField(allow_null=True)
    based_on_round = serializers.IntegerField(allow_null=True)
    repeat_limit = serializers.IntegerField(allow_null=True)
    over_limit = serializers.IntegerField(allow_null=True)
    back_to_back = serializers.IntegerField(allow_null=True)
    unavailable = serializers.CharField(
        allow_blank=True, help_text="Why the system could not have paired the round."
    )
    summary = serializers.CharField()
    boards = BoardReasonOutput(many=True)
    byes = ByeReasonOutput(many=True)
    differences = serializers.ListField(child=serializers.CharField())


def reasons_document(event: rt.RoundPaired, explanation: Any) -> dict[str, Any]:
    """The API's document of a round's reasons (``PairingReasonsOutput``)."""
    reasons = event.reasons
    texts = {line.board: line.text for line in explanation.boards}
    return {
        "division": event.division,
        "round": event.round,
        "method": event.method.value,
        "hand_paired": explanation.hand,
        "kept": explanation.kept,
        "system": reasons.system if reasons else None,
        "based_on_round": reasons.based_on_round if reasons else None,
        "repeat_limit": reasons.repeat_limit if reasons else None,
        "over_limit": reasons.over_limit if reasons else None,
        "back_to_back": reasons.back_to_back if reasons else None,
        "unavailable": reasons.unavailable if reasons else "",
        "summary": explanation.summary,
        "boards": [
            {**dataclasses.asdict(b), "text": texts.get(b.board, "")}
            for b in (reasons.boards if reasons else ())
        ],
        "byes": [
            {**dataclasses.asdict(bye), "text": text}
            for bye, text in zip(
                reasons.byes if reasons else (), explanation.byes, strict=False
            )
        ],
        "differences": [
            p
            for p in (
                rp.differences(reasons, [(g.first, g.second) for g in event.games])
                if reasons and explanation.hand
                else ()
            )
        ],
    }


# --- A division's round schedule -----------------------------------------------------

SCHEDULED_METHODS = [
    m.value
    for m in rt.PairingMethod
    if m not in (rt.PairingMethod.MANUAL, rt.PairingMethod.IMPORTED)
]


class ScheduledRoundFields(StrictSerializer):
    round = serializers.IntegerField(min_value=1, max_value=rt.MAX_ROUNDS)
    method = serializers.ChoiceField(SCHEDULED_METHODS)
    based_on_round = serializers.IntegerField(
        min_value=0,
        max_value=rt.MAX_ROUNDS,
        help_text="The round whose results it is paired on (0: before any).",
    )


class RoundScheduleOutput(serializers.Serializer):
    rounds = ScheduledRoundFields(many=True)
    status = serializers.CharField(
        help_text="A round due by the schedule that could not be paired, and why"
        " ('' when none)."
    )


class RoundScheduleInput(ExpectedVersionMixin):
    rounds = BoundedListField(child=ScheduledRoundFields(), max_length=rt.MAX_ROUNDS)


def schedule_document(
    schedule: tuple[rt.ScheduledRound, ...],
) -> list[dict[str, Any]]:
    return [
        {
            "round": line.round,
            "method": line.method.value,
            "based_on_round": line.based_on_round,
        }
        for line in schedule
    ]


# --- A division's pairing rules and prizes -------------------------------------------


class FixedBoardField(StrictSerializer):
    player_id = serializers.CharField(max_length=64)
    board = serializers.IntegerField(min_value=1, max_value=1000)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # DRF hands a partial PATCH's `partial` down to the list's items, which
        # would let a pin through without its board or player: a pin is whole.
        missing = [name for name in ("player_id", "board") if name not in attrs]
        if missing:
            raise serializers.ValidationError(
                {name: ["This field is required."] for name in missing}
            )
        return attrs


class PairingRulesFields(StrictSerializer):
    max_repeats = serializers.IntegerField(
        min_value=0,
        max_value=100,
        allow_null=True,
        default=None,
        help_text="How often two players may have met before a round (0: never"
        " twice); null: the system's default (Swiss and Chew 0, others no limit).",
    )
    gibson = serializers.BooleanField(
        default=False,
        help_text="Gibsonize King of the Hill and Swiss rounds (Chew and COP"
        " always do).",
    )
    gibson_spread = serializers.IntegerField(
        min_value=0,
        max_value=10_000,
        default=DEFAULT_GIBSON_SPREAD,
        help_text="The spread a player is assumed to gain per round left.",
    )
    prize_places = serializers.IntegerField(
        min_value=1,
        max_value=1000,
        allow_null=True,
        default=None,
        help_text="How many places win money; null: a quarter of the division.",
    )
    prize_bands = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=1000),
        max_length=100,
        default=list,
        help_text="Chew pairings' bands, the last place of each (1, 2, 4: 1st,"
        " 2nd, 3rd-4th).",
    )
    fixed_boards = FixedBoardField(many=True, default=list, max_length=200)
    init_fontes_rounds = serializers.IntegerField(min_value=1, max_value=100, default=3)


class PairingRulesInput(ExpectedVersionMixin, PairingRulesFields):
    pass


def options_from(data: Mapping[str, Any]) -> PairingOptions:
    """The pairing options of a validated ``PairingRulesFields`` document."""
    return PairingOptions(
        max_repeats=data["max_repeats"],
        gibson=data["gibson"],
        gibson_spread=data["gibson_spread"],
        prize_places=data["prize_places"],
        prize_bands=tuple(data["prize_bands"]),
        fixed_boards=tuple(
            FixedBoard(pin["player_id"], pin["board"]) for pin in data["fixed_boards"]
        ),
        init_fontes_rounds=data["init_fontes_rounds"],
    )


def options_document(options: PairingOptions) -> dict[str, Any]:
    """The document ``options_from`` reads."""
    return {
        "max_repeats": options.max_repeats,
        "gibson": options.gibson,
        "gibson_spread": options.gibson_spread,
        "prize_places": options.prize_places,
        "prize_bands": list(options.prize_bands),
        "fixed_boards": [
            {"player_id": pin.player_id, "board": pin.board}
            for pin in options.fixed_boards
        ],
        "init_fontes_rounds": options.init_fontes_rounds,
    }
