"""What the API's serializers share: ``expected_version``, the fields of a
division and a player, and a command's answer.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.serializer_base import StrictSerializer
from rules import tournament as rt


class ExpectedVersionMixin(StrictSerializer):
    expected_version = serializers.IntegerField(
        min_value=0,
        max_value=10_000_000,
        required=False,
        help_text="The stream version you read; a stale one answers 409.",
    )


def division_name_field(**options: object) -> serializers.CharField:
    """A new division's name, refused as the rules refuse it (no "/": it is part
    of the division's web address)."""

    def check(name: str) -> None:
        try:
            rt.check_division_name(name)
        except rt.TournamentError as error:
            raise serializers.ValidationError(error.message) from None

    return serializers.CharField(
        max_length=rt.MAX_DIVISION_NAME_LENGTH,
        validators=[check],
        help_text="No / or \\, not . or .., no space at either end.",
        **options,
    )


def player_id_field(**options: object) -> serializers.CharField:
    return serializers.CharField(max_length=rt.MAX_ID_LENGTH, **options)


def division_field(**options: object) -> serializers.CharField:
    return serializers.CharField(max_length=rt.MAX_DIVISION_NAME_LENGTH, **options)


# Named apart from games' CommandOutput (which has the game's state) in the schema.
@extend_schema_serializer(component_name="TournamentCommandOutput")
class CommandOutput(serializers.Serializer):
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.CharField())
