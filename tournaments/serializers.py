"""Input and output serializers of the tournaments API (one pair per endpoint)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.serializer_base import StrictSerializer
from rules import tournament as rt
from tournaments.models import Pairing, Player, Standing, Tournament


class ExpectedVersionMixin(StrictSerializer):
    expected_version = serializers.IntegerField(
        min_value=0,
        max_value=10_000_000,
        required=False,
        help_text="The stream version you read; a stale one answers 409.",
    )


class TournamentOutput(serializers.ModelSerializer):
    id = serializers.UUIDField(source="tournament_id")

    class Meta:
        model = Tournament
        fields = [
            "id",
            "version",
            "name",
            "start_date",
            "end_date",
            "venue",
            "rounds",
            "preset",
            "challenge_rule",
            "ties_are_draws",
            "bye_spread",
            "forfeit_spread",
            "spread_cap",
            "divisions",
            "published",
            "updated_at",
        ]


class TournamentCreateInput(StrictSerializer):
    name = serializers.CharField(max_length=200)
    start_date = serializers.DateField()
    end_date = serializers.DateField(required=False)
    venue = serializers.CharField(max_length=200, required=False, default="")
    rounds = serializers.IntegerField(min_value=1, max_value=100)
    preset = serializers.ChoiceField([p.value for p in rt.Preset], default="classic")
    challenge_rule = serializers.ChoiceField(
        [c.value for c in rt.ChallengeRule], required=False, allow_null=True
    )
    ties_are_draws = serializers.BooleanField(required=False, allow_null=True)
    bye_spread = serializers.IntegerField(min_value=0, max_value=1000, default=50)
    forfeit_spread = serializers.IntegerField(min_value=0, max_value=1000, default=50)
    spread_cap = serializers.IntegerField(
        min_value=1, max_value=1000, required=False, allow_null=True
    )
    divisions = serializers.ListField(
        child=serializers.CharField(max_length=64), min_length=1, default=["A"]
    )
    published = serializers.BooleanField(default=True)

    def validate(self, attrs: dict) -> dict:
        end = attrs.get("end_date") or attrs["start_date"]
        if end < attrs["start_date"]:
            raise serializers.ValidationError(
                {"end_date": "The end date is before the start date."}
            )
        attrs["end_date"] = end
        if len(set(attrs["divisions"])) != len(attrs["divisions"]):
            raise serializers.ValidationError(
                {"divisions": "Division names must be different."}
            )
        return attrs


class PlayerOutput(serializers.ModelSerializer):
    id = serializers.CharField(source="player_id")

    class Meta:
        model = Player
        fields = [
            "id",
            "division",
            "number",
            "name",
            "rating",
            "member_id",
            "withdrawn",
            "joined_after_round",
        ]


class PlayerEntryInput(StrictSerializer):
    name = serializers.CharField(max_length=200)
    rating = serializers.IntegerField(min_value=0, max_value=3500, default=0)
    member_id = serializers.CharField(max_length=64, required=False, default="")


class PlayersRegisterInput(ExpectedVersionMixin):
    division = serializers.CharField(max_length=64)
    players = PlayerEntryInput(many=True, allow_empty=False)


class WithdrawInput(ExpectedVersionMixin):
    from_round = serializers.IntegerField(min_value=1, max_value=100)
    policy = serializers.ChoiceField(
        [p.value for p in rt.WithdrawalPolicy], default="forfeit"
    )


class ReactivateInput(ExpectedVersionMixin):
    from_round = serializers.IntegerField(min_value=1, max_value=100)


class BoardInput(StrictSerializer):
    board = serializers.IntegerField(min_value=1, max_value=10_000)
    first = serializers.CharField(max_length=64)
    second = serializers.CharField(max_length=64)


class PairRoundInput(ExpectedVersionMixin):
    division = serializers.CharField(max_length=64)
    method = serializers.ChoiceField(
        [m.value for m in rt.PairingMethod if m is not rt.PairingMethod.IMPORTED]
    )
    games = BoardInput(many=True, required=False)
    byes = serializers.ListField(
        child=serializers.CharField(max_length=64), required=False, default=list
    )
    based_on_round = serializers.IntegerField(
        min_value=0, max_value=100, required=False
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


class PairingOutput(serializers.ModelSerializer):
    first = serializers.CharField(source="first_id")
    second = serializers.CharField(source="second_id", allow_blank=True)
    first_name = serializers.SerializerMethodField()
    second_name = serializers.SerializerMethodField()
    winner = serializers.CharField(source="winner_id", allow_blank=True)
    absentee = serializers.CharField(source="absentee_id", allow_blank=True)

    class Meta:
        model = Pairing
        fields = [
            "division",
            "round",
            "board",
            "method",
            "first",
            "first_name",
            "second",
            "second_name",
            "has_result",
            "first_score",
            "second_score",
            "first_pre_adjustment",
            "second_pre_adjustment",
            "winner",
            "absentee",
            "amended",
            "game_id",
        ]

    def get_first_name(self, obj: Pairing) -> str:
        return self.context["names"].get(obj.first_id, "")

    def get_second_name(self, obj: Pairing) -> str:
        return self.context["names"].get(obj.second_id, "")


class ResultInput(ExpectedVersionMixin):
    round = serializers.IntegerField(min_value=1, max_value=100)
    player_a = serializers.CharField(max_length=64)
    player_b = serializers.CharField(max_length=64)
    score_a = serializers.IntegerField(min_value=-1000, max_value=2000)
    score_b = serializers.IntegerField(min_value=-1000, max_value=2000)
    pre_adjustment_a = serializers.IntegerField(
        min_value=-1000, max_value=2000, required=False, allow_null=True
    )
    pre_adjustment_b = serializers.IntegerField(
        min_value=-1000, max_value=2000, required=False, allow_null=True
    )
    game_id = serializers.UUIDField(required=False, allow_null=True)


class AmendInput(ExpectedVersionMixin):
    round = serializers.IntegerField(min_value=1, max_value=100)
    player_a = serializers.CharField(max_length=64)
    player_b = serializers.CharField(max_length=64)
    score_a = serializers.IntegerField(
        min_value=-1000, max_value=2000, required=False, allow_null=True
    )
    score_b = serializers.IntegerField(
        min_value=-1000, max_value=2000, required=False, allow_null=True
    )
    pre_adjustment_a = serializers.IntegerField(
        min_value=-1000, max_value=2000, required=False, allow_null=True
    )
    pre_adjustment_b = serializers.IntegerField(
        min_value=-1000, max_value=2000, required=False, allow_null=True
    )
    absentee = serializers.CharField(max_length=64, required=False, allow_null=True)
    reason = serializers.CharField(max_length=500, required=False, default="")


class ForfeitInput(ExpectedVersionMixin):
    round = serializers.IntegerField(min_value=1, max_value=100)
    absentee = serializers.CharField(max_length=64)


class StandingOutput(serializers.ModelSerializer):
    player = serializers.CharField(source="player_id")
    record = serializers.CharField()
    points = serializers.FloatField()

    class Meta:
        model = Standing
        fields = [
            "rank",
            "player",
            "number",
            "name",
            "rating",
            "wins",
            "losses",
            "draws",
            "points",
            "record",
            "spread",
            "total_score",
            "games",
            "byes",
            "withdrawn",
        ]


class StandingsOutput(serializers.Serializer):
    division = serializers.CharField()
    after_round = serializers.IntegerField()
    standings = StandingOutput(many=True)


class ScorecardLineOutput(serializers.Serializer):
    round = serializers.IntegerField()
    kind = serializers.CharField()
    opponent_id = serializers.CharField()
    opponent_name = serializers.CharField()
    went_first = serializers.BooleanField(allow_null=True)
    own_score = serializers.IntegerField(allow_null=True)
    opponent_score = serializers.IntegerField(allow_null=True)
    result = serializers.CharField()
    spread = serializers.IntegerField(allow_null=True)
    record = serializers.CharField()
    running_spread = serializers.IntegerField(allow_null=True)
    game_id = serializers.UUIDField(allow_null=True)


class ScorecardOutput(serializers.Serializer):
    player = PlayerOutput()
    rounds = ScorecardLineOutput(many=True)


class AuditEntryOutput(serializers.Serializer):
    version = serializers.IntegerField()
    position = serializers.IntegerField()
    recorded_at = serializers.DateTimeField()
    recorded_by = serializers.CharField()
    event_type = serializers.CharField()
    summary = serializers.CharField()
    payload = serializers.JSONField()
    supersedes = serializers.JSONField(allow_null=True)


# Named apart from games' CommandOutput (which has the game's state) in the schema.
@extend_schema_serializer(component_name="TournamentCommandOutput")
class CommandOutput(serializers.Serializer):
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.CharField())


class TshImportInput(ExpectedVersionMixin):
    division = serializers.CharField(max_length=64)
    file = serializers.FileField()
