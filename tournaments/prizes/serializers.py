"""Serializers of a division's prize table and its winners."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from rest_framework import serializers

from games.serializer_base import StrictSerializer
from rules.division_rules import (
    Prize,
    PrizeKind,
    PrizeTable,
    RatingClass,
    TieBreak,
    TieRule,
)
from tournaments.core.serializers import ExpectedVersionMixin


class RatingClassField(StrictSerializer):
    name = serializers.CharField(max_length=32)
    lowest = serializers.IntegerField(
        min_value=0, max_value=4000, allow_null=True, default=None
    )
    highest = serializers.IntegerField(
        min_value=0, max_value=4000, allow_null=True, default=None
    )


class PrizeField(StrictSerializer):
    kind = serializers.ChoiceField([k.value for k in PrizeKind])
    amount = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        min_value=Decimal(0),
        help_text="In the currency's units, to the cent (e.g. 150.00).",
    )
    place = serializers.IntegerField(min_value=1, max_value=1000, default=1)
    rating_class = serializers.CharField(max_length=32, allow_null=True, default=None)
    ties = serializers.ChoiceField([t.value for t in TieRule], default="split")
    tie_break = serializers.ChoiceField(
        [t.value for t in TieBreak], default="player_number"
    )
    exclusive = serializers.CharField(max_length=32, allow_null=True, default=None)
    label = serializers.CharField(max_length=100, allow_blank=True, default="")
    first_round = serializers.IntegerField(
        min_value=1, max_value=100, allow_null=True, default=None
    )
    last_round = serializers.IntegerField(
        min_value=1, max_value=100, allow_null=True, default=None
    )


class PrizeTableFields(StrictSerializer):
    classes = RatingClassField(many=True, default=list, max_length=50)
    prizes = PrizeField(many=True, max_length=200)


class PrizeTableInput(ExpectedVersionMixin, PrizeTableFields):
    pass


class PrizeWinnerOutput(serializers.Serializer):
    player = serializers.CharField(source="player_id")
    number = serializers.IntegerField()
    name = serializers.CharField()
    amount = serializers.CharField(help_text="Rounded to the cent.")
    value = serializers.IntegerField(
        help_text="What it was won with: the place, the points (a win 2, a draw"
        " 1), the score, or the rating gap of an upset."
    )
    round = serializers.IntegerField(allow_null=True)
    opponent = serializers.CharField(allow_null=True)
    shared_with = serializers.IntegerField()


class PrizeLineOutput(serializers.Serializer):
    prize = PrizeField()
    title = serializers.CharField()
    winners = PrizeWinnerOutput(many=True)


class PrizeBoardOutput(serializers.Serializer):
    division = serializers.CharField()
    after_round = serializers.IntegerField(allow_null=True)
    classes = RatingClassField(many=True)
    player_classes = serializers.DictField(child=serializers.CharField())
    prizes = PrizeLineOutput(many=True)


def table_from(data: Mapping[str, Any]) -> PrizeTable:
    """The prize table of a validated ``PrizeTableFields`` document (amounts in
    currency units become whole cents)."""
    return PrizeTable(
        classes=tuple(
            RatingClass(c["name"], c["lowest"], c["highest"]) for c in data["classes"]
        ),
        prizes=tuple(_prize_from(p) for p in data["prizes"]),
    )


def _prize_from(data: Mapping[str, Any]) -> Prize:
    return Prize(
        kind=PrizeKind(data["kind"]),
        amount=int(Decimal(data["amount"]) * 100),
        place=data["place"],
        rating_class=data["rating_class"],
        ties=TieRule(data["ties"]),
        tie_break=TieBreak(data["tie_break"]),
        exclusive=data["exclusive"],
        label=data["label"],
        first_round=data["first_round"],
        last_round=data["last_round"],
    )
