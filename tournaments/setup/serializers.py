"""Serializers of the tournament itself and its divisions."""

from __future__ import annotations

from rest_framework import serializers

from games.serializer_base import BoundedListField, StrictSerializer
from rules import tournament as rt
from rules.tilesets import TILE_SETS
from tournaments.core.events import MAX_RACK_DELAY_MINUTES
from tournaments.core.serializers import (
    ExpectedVersionMixin,
    division_field,
    division_name_field,
)
from tournaments.models import Tournament


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
            "spread_caps",
            "ranking",
            "rating_system",
            "club_event",
            "tile_set",
            "lexicon",
            "divisions",
            "published",
            "rack_delay_minutes",
            "updated_at",
        ]


TILE_SET_HELP = (
    "The tile set the games are played with (a division may choose its own)."
)


RACK_DELAY_HELP = (
    "Minutes after each move before everyone sees the racks of a game being "
    "recorded (0: at once); null (the default): once the game has ended. The "
    "game's recorders and the tournament's team see them at once."
)


LEXICON_HELP = (
    "The word list the games are played with, by its short name (CSW24, NWL23, "
    "OSPS49; empty: none). A lexicon of a known language must go with its tile "
    "set. The server's LEXICONS setting says which it can rule challenges with."
)


class TournamentCreateInput(StrictSerializer):
    name = serializers.CharField(max_length=rt.MAX_NAME_LENGTH)
    start_date = serializers.DateField()
    end_date = serializers.DateField(required=False)
    venue = serializers.CharField(
        max_length=rt.MAX_NAME_LENGTH, required=False, default=""
    )
    rounds = serializers.IntegerField(min_value=1, max_value=rt.MAX_ROUNDS)
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
    spread_caps = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=1000),
        max_length=rt.MAX_ROUNDS,
        required=False,
        default=list,
        help_text="One spread cap per round (tsh's list); later rounds take "
        "spread_cap.",
    )
    ranking = serializers.ChoiceField(
        [r.value for r in rt.Ranking],
        default=rt.Ranking.EXTENDED.value,
        help_text="extended: wins, losses, spread, total score before the "
        "end-of-game adjustments, rating; tsh: exactly as tsh ranks.",
    )
    rating_system = serializers.ChoiceField(
        [r.value for r in rt.RatingSystem], default=rt.RatingSystem.NSA2008.value
    )
    club_event = serializers.BooleanField(
        default=False, help_text="A club tournament (NASPA's LCT rule)."
    )
    tile_set = serializers.ChoiceField(
        list(TILE_SETS), default="english", help_text=TILE_SET_HELP
    )
    lexicon = serializers.CharField(
        max_length=32,
        required=False,
        default="",
        allow_blank=True,
        help_text=LEXICON_HELP,
    )
    divisions = BoundedListField(
        child=division_name_field(),
        min_length=1,
        max_length=rt.MAX_DIVISIONS,
        default=["A"],
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


# --- Corrections, the team, late entries ---------------------------------------------


class SettingsPatchInput(ExpectedVersionMixin):
    """The settings a director may correct after set-up; give only those to change."""

    rounds = serializers.IntegerField(
        min_value=1, max_value=rt.MAX_ROUNDS, required=False
    )
    bye_spread = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    forfeit_spread = serializers.IntegerField(
        min_value=0, max_value=1000, required=False
    )
    spread_cap = serializers.IntegerField(
        min_value=1,
        max_value=1000,
        required=False,
        allow_null=True,
        help_text="null removes the cap.",
    )
    spread_caps = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=1000),
        max_length=rt.MAX_ROUNDS,
        required=False,
    )
    rating_system = serializers.ChoiceField(
        [r.value for r in rt.RatingSystem], required=False
    )
    club_event = serializers.BooleanField(required=False)
    tile_set = serializers.ChoiceField(
        list(TILE_SETS), required=False, help_text=TILE_SET_HELP
    )
    lexicon = serializers.CharField(
        max_length=32, required=False, allow_blank=True, help_text=LEXICON_HELP
    )
    rack_delay_minutes = serializers.IntegerField(
        min_value=0,
        max_value=MAX_RACK_DELAY_MINUTES,
        required=False,
        allow_null=True,
        help_text=RACK_DELAY_HELP,
    )


class DivisionOutput(serializers.Serializer):
    """A division and what its games are played with."""

    name = serializers.CharField()
    rounds = serializers.IntegerField(
        help_text="The rounds it plays: its own number (tsh's max_div_rounds), or"
        " else the tournament's."
    )
    tile_set = serializers.CharField(help_text="Its own, or else the tournament's.")
    lexicon = serializers.CharField(
        help_text="Its own, or else the tournament's (empty: none named)."
    )
    own_tile_set = serializers.CharField(
        allow_null=True, help_text="null: the division plays the tournament's."
    )
    own_lexicon = serializers.CharField(
        allow_null=True, help_text="null: the division plays the tournament's."
    )


class DivisionPatchInput(ExpectedVersionMixin):
    """Give only what changes: a new name, the division's own tile set or lexicon
    (null: back to the tournament's)."""

    # The rules refuse a name that cannot be in an address (field new_name).
    name = division_field(required=False, help_text="The division's new name.")
    tile_set = serializers.ChoiceField(
        list(TILE_SETS),
        required=False,
        allow_null=True,
        help_text="The division's own tile set; null: the tournament's.",
    )
    lexicon = serializers.CharField(
        max_length=32,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="The division's own lexicon (empty: none named); null: the "
        "tournament's.",
    )
