"""Serializers of results, standings and scorecards."""

from __future__ import annotations

from rest_framework import serializers

from rules import tournament as rt
from rules.records import EntryKind
from tournaments.core.serializers import ExpectedVersionMixin, player_id_field
from tournaments.players.serializers import PlayerOutput

KINDS = [kind.value for kind in EntryKind]


OUTCOMES = ["win", "draw", "loss", ""]


def _score(help_text: str = "") -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=rt.MIN_SCORE,
        max_value=rt.MAX_SCORE,
        required=False,
        allow_null=True,
        help_text=help_text,
    )


GAME_ID_HELP = (
    "A game recorded move by move for this board: the result's scores, "
    "pre-adjustment scores and winner are read from its replay (scores given as "
    "well must agree with it)."
)


PRE_HELP = (
    "Only for tied final scores (the tie rule needs them); read from the game "
    "when game_id is given."
)


class ResultInput(ExpectedVersionMixin):
    round = serializers.IntegerField(min_value=1, max_value=rt.MAX_ROUNDS)
    player_a = player_id_field()
    player_b = player_id_field()
    score_a = _score("Required unless game_id is given.")
    score_b = _score("Required unless game_id is given.")
    pre_adjustment_a = _score(PRE_HELP)
    pre_adjustment_b = _score(PRE_HELP)
    game_id = serializers.UUIDField(
        required=False, allow_null=True, help_text=GAME_ID_HELP
    )

    def validate(self, attrs: dict) -> dict:
        if attrs.get("game_id") is None:
            missing = {
                field: "Give the score, or the game_id of the recorded game."
                for field in ("score_a", "score_b")
                if attrs.get(field) is None
            }
            if missing:
                raise serializers.ValidationError(missing)
        return attrs


class AmendInput(ExpectedVersionMixin):
    round = serializers.IntegerField(min_value=1, max_value=rt.MAX_ROUNDS)
    player_a = player_id_field()
    player_b = player_id_field()
    score_a = _score("The new scores (or absentee, for a forfeit).")
    score_b = _score("The new scores (or absentee, for a forfeit).")
    pre_adjustment_a = _score(PRE_HELP)
    pre_adjustment_b = _score(PRE_HELP)
    game_id = serializers.UUIDField(
        required=False, allow_null=True, help_text=GAME_ID_HELP
    )
    absentee = player_id_field(required=False, allow_null=True)
    reason = serializers.CharField(
        max_length=rt.MAX_REASON_LENGTH, required=False, default=""
    )


class _StandingChangeOutput(serializers.Serializer):
    player = serializers.CharField()
    name = serializers.CharField()
    rank_before = serializers.IntegerField(allow_null=True)
    rank_after = serializers.IntegerField(allow_null=True)
    record_before = serializers.CharField()
    record_after = serializers.CharField()
    spread_before = serializers.IntegerField()
    spread_after = serializers.IntegerField()
    moved = serializers.BooleanField()


class _RoundStandingsOutput(serializers.Serializer):
    round = serializers.IntegerField()
    changes = _StandingChangeOutput(many=True, help_text="Only the lines that change.")


class _PairingChangeOutput(serializers.Serializer):
    round = serializers.IntegerField()
    method = serializers.CharField()
    reproducible = serializers.BooleanField(
        help_text="False: the recorded pairing is not the system's on the log as it"
        " is (rules changed since); not compared (see note)."
    )
    based_on_round = serializers.IntegerField(allow_null=True)
    differs = serializers.BooleanField()
    games_before = serializers.ListField(child=serializers.CharField())
    games_after = serializers.ListField(child=serializers.CharField())
    games_gone = serializers.ListField(child=serializers.CharField())
    games_new = serializers.ListField(child=serializers.CharField())
    firsts_changed = serializers.ListField(child=serializers.CharField())
    byes_before = serializers.ListField(child=serializers.CharField())
    byes_after = serializers.ListField(child=serializers.CharField())
    gibsons_before = serializers.ListField(child=serializers.CharField())
    gibsons_after = serializers.ListField(child=serializers.CharField())
    new_coin_flips = serializers.BooleanField(
        help_text="The corrected pairing needs coin flips the round did not record."
    )
    note = serializers.CharField()


class _GibsonChangeOutput(serializers.Serializer):
    round = serializers.IntegerField()
    before = serializers.ListField(child=serializers.CharField())
    after = serializers.ListField(child=serializers.CharField())


class _PrizeWinnerOutput(serializers.Serializer):
    player = serializers.CharField()
    name = serializers.CharField()
    amount = serializers.CharField()


class _PrizeChangeOutput(serializers.Serializer):
    prize = serializers.CharField()
    before = _PrizeWinnerOutput(many=True)
    after = _PrizeWinnerOutput(many=True)


class AmendPreviewOutput(serializers.Serializer):
    """What an amendment would change (``rules.impact``)."""

    version = serializers.IntegerField(
        help_text="The log's version previewed: send it as expected_version."
    )
    division = serializers.CharField()
    round = serializers.IntegerField()
    standings = _RoundStandingsOutput(many=True)
    pairings = _PairingChangeOutput(many=True)
    gibsons = _GibsonChangeOutput(many=True)
    prizes = _PrizeChangeOutput(many=True)
    summary = serializers.ListField(child=serializers.CharField())


class ForfeitInput(ExpectedVersionMixin):
    round = serializers.IntegerField(min_value=1, max_value=rt.MAX_ROUNDS)
    absentee = player_id_field()


class StandingOutput(serializers.Serializer):
    """A line of the standings (a ``PlayerRound`` row: the totals after a round)."""

    rank = serializers.IntegerField(
        allow_null=True,
        help_text="None: left out of the ranking (a withdrawn player, tsh's rule).",
    )
    player = serializers.CharField(source="player_id")
    number = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    points = serializers.FloatField()
    record = serializers.CharField()
    spread = serializers.IntegerField(source="running_spread")
    total_score = serializers.IntegerField()
    games = serializers.IntegerField()
    byes = serializers.IntegerField()
    withdrawn = serializers.BooleanField()


class StandingsOutput(serializers.Serializer):
    division = serializers.CharField()
    after_round = serializers.IntegerField()
    standings = StandingOutput(many=True)


class ScorecardLineOutput(serializers.Serializer):
    """A round of a player's scorecard: the rules' entry and the totals after it."""

    round = serializers.IntegerField()
    kind = serializers.ChoiceField(KINDS)
    opponent_id = serializers.CharField()
    opponent_name = serializers.CharField()
    went_first = serializers.BooleanField(allow_null=True)
    board = serializers.IntegerField(allow_null=True)
    own_score = serializers.IntegerField(allow_null=True)
    opponent_score = serializers.IntegerField(allow_null=True)
    own_pre_adjustment = serializers.IntegerField(allow_null=True)
    opponent_pre_adjustment = serializers.IntegerField(allow_null=True)
    result = serializers.ChoiceField(OUTCOMES, source="outcome")
    tie_break = serializers.BooleanField()
    has_result = serializers.BooleanField()
    spread = serializers.IntegerField(
        source="counted_spread", help_text="As counted (after a spread cap)."
    )
    uncapped_spread = serializers.IntegerField(source="round_spread")
    record = serializers.CharField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    running_spread = serializers.IntegerField()
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="The rank after this round (None: left out of the ranking).",
    )
    game_id = serializers.UUIDField(allow_null=True)
    amended = serializers.BooleanField()


class ScorecardOutput(serializers.Serializer):
    player = PlayerOutput()
    rounds = ScorecardLineOutput(many=True)
