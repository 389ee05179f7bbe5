"""Serializers of the field and the team."""

from __future__ import annotations

from rest_framework import serializers

from games.serializer_base import BoundedListField, StrictSerializer
from rules import tournament as rt
from tournaments.core.headers import PLAYER_FIELDS
from tournaments.core.serializers import ExpectedVersionMixin, division_field
from tournaments.models import Player


class PlayerOutput(serializers.ModelSerializer):
    id = serializers.CharField(source="player_id")

    class Meta:
        model = Player
        fields = list(PLAYER_FIELDS)


class PlayerEntryInput(StrictSerializer):
    name = serializers.CharField(max_length=rt.MAX_NAME_LENGTH)
    rating = serializers.IntegerField(min_value=0, max_value=3500, default=0)
    member_id = serializers.CharField(
        max_length=rt.MAX_ID_LENGTH, required=False, default=""
    )
    career_games = serializers.IntegerField(
        min_value=0,
        max_value=100_000,
        required=False,
        allow_null=True,
        default=None,
        help_text="Rated games played before the event (tsh's lifeg).",
    )


class PlayersRegisterInput(ExpectedVersionMixin):
    division = division_field()
    # A ListField rather than many=True: the schema then documents the maximum.
    players = BoundedListField(
        child=PlayerEntryInput(),
        min_length=1,
        max_length=rt.MAX_PLAYERS_PER_DIVISION,
    )


class WithdrawInput(ExpectedVersionMixin):
    from_round = serializers.IntegerField(min_value=1, max_value=rt.MAX_ROUNDS)
    policy = serializers.ChoiceField(
        [p.value for p in rt.WithdrawalPolicy], default="forfeit"
    )


class ReactivateInput(ExpectedVersionMixin):
    from_round = serializers.IntegerField(min_value=1, max_value=rt.MAX_ROUNDS)


class PlayerPatchInput(ExpectedVersionMixin):
    """A player's details to correct; give only those to change."""

    name = serializers.CharField(max_length=rt.MAX_NAME_LENGTH, required=False)
    rating = serializers.IntegerField(min_value=0, max_value=3500, required=False)
    member_id = serializers.CharField(
        max_length=rt.MAX_ID_LENGTH, required=False, allow_blank=True
    )
    career_games = serializers.IntegerField(
        min_value=0, max_value=100_000, required=False
    )


class CorrectionOutput(serializers.Serializer):
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.CharField())
    notes = serializers.ListField(
        child=serializers.CharField(),
        help_text="What the correction affects that it did not change (a pairing "
        "made with the old rating).",
    )


class TeamMemberInput(ExpectedVersionMixin):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(
        ["director", "scorekeeper"],
        help_text="scorekeeper: may enter and amend results, nothing else.",
    )


class TeamRemoveInput(ExpectedVersionMixin):
    username = serializers.CharField(max_length=150)


class TeamMemberOutput(serializers.Serializer):
    username = serializers.CharField()
    role = serializers.CharField()


class LateEntryInput(ExpectedVersionMixin):
    division = division_field()
    name = serializers.CharField(max_length=rt.MAX_NAME_LENGTH)
    rating = serializers.IntegerField(min_value=0, max_value=3500, default=0)
    member_id = serializers.CharField(
        max_length=rt.MAX_ID_LENGTH, required=False, default=""
    )
    career_games = serializers.IntegerField(
        min_value=0, max_value=100_000, required=False, allow_null=True, default=None
    )
    credit = serializers.ChoiceField(
        ["forfeit", "neither", "none"],
        default="neither",
        help_text="The rounds already paired: forfeit (a loss by the forfeit spread "
        "each), neither (opponent 0, score 0, as tsh), none (nothing recorded).",
    )


class MissedRoundInput(ExpectedVersionMixin):
    round = serializers.IntegerField(min_value=1, max_value=rt.MAX_ROUNDS)
    policy = serializers.ChoiceField(
        [p.value for p in rt.WithdrawalPolicy], default="forfeit"
    )


# --- The registration day ----------------------------------------------------------


class CheckInInput(ExpectedVersionMixin):
    present = serializers.BooleanField(
        default=True, help_text="false: take a check-in back."
    )


class CheckInOutput(serializers.Serializer):
    id = serializers.CharField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    checked_in = serializers.BooleanField()
    withdrawn = serializers.BooleanField()


class NoShowsOutput(serializers.Serializer):
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.CharField())
    withdrawn = serializers.ListField(child=serializers.CharField())


class PlayerMoveInput(ExpectedVersionMixin):
    division = division_field()


class DivisionRoundsInput(ExpectedVersionMixin):
    rounds = serializers.IntegerField(
        min_value=1,
        max_value=rt.MAX_ROUNDS,
        allow_null=True,
        help_text="The division's rounds (tsh's max_div_rounds); null: the"
        " tournament's.",
    )
