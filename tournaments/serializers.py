"""Input and output serializers of the tournaments API (one pair per endpoint)."""

from __future__ import annotations

from decimal import Decimal

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.serializer_base import BoundedListField, StrictSerializer
from rules import tournament as rt
from rules.division_rules import DEFAULT_GIBSON_SPREAD, PrizeKind, TieBreak, TieRule
from rules.records import EntryKind
from rules.tilesets import TILE_SETS
from tournaments.models import Player, Tournament


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
            "spread_caps",
            "ranking",
            "rating_system",
            "club_event",
            "tile_set",
            "lexicon",
            "divisions",
            "published",
            "updated_at",
        ]


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


TILE_SET_HELP = (
    "The tile set the games are played with (a division may choose its own)."
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
            "rating_text",
            "career_games",
        ]


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


KINDS = [kind.value for kind in EntryKind]
OUTCOMES = ["win", "draw", "loss", ""]


class SideOutput(serializers.Serializer):
    """One player's side of a board, as the rules decided it."""

    player = serializers.CharField(source="player_id")
    number = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(KINDS)
    score = serializers.IntegerField(source="own_score", allow_null=True)
    pre_adjustment = serializers.IntegerField(source="own_pre", allow_null=True)
    outcome = serializers.ChoiceField(
        OUTCOMES, help_text="'' while the game is to be played (or a credit of 0)."
    )
    spread = serializers.IntegerField(
        source="counted_spread", help_text="As counted (after a spread cap)."
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
    spread = serializers.IntegerField()
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
    result = serializers.ChoiceField(OUTCOMES)
    tie_break = serializers.BooleanField()
    has_result = serializers.BooleanField()
    spread = serializers.IntegerField(help_text="As counted (after a spread cap).")
    uncapped_spread = serializers.IntegerField()
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
    division = division_field()
    file = serializers.FileField()


class TshEventImportInput(StrictSerializer):
    name = serializers.CharField(max_length=rt.MAX_NAME_LENGTH)
    start_date = serializers.DateField()
    end_date = serializers.DateField(required=False, allow_null=True)
    published = serializers.BooleanField(default=True)
    config = serializers.FileField(help_text="config.tsh")
    files = serializers.ListField(
        child=serializers.FileField(),
        min_length=1,
        max_length=rt.MAX_DIVISIONS,
        help_text="The .t file of every division config.tsh names.",
    )


class NotTakenOutput(serializers.Serializer):
    line = serializers.IntegerField()
    text = serializers.CharField()


class TshEventImportOutput(serializers.Serializer):
    tournament = TournamentOutput()
    divisions = serializers.ListField(child=serializers.CharField())
    not_taken = NotTakenOutput(
        many=True, help_text="config.tsh lines this system has no setting for."
    )


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


class DivisionOutput(serializers.Serializer):
    """A division and what its games are played with."""

    name = serializers.CharField()
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


class TouImportInput(ExpectedVersionMixin):
    file = serializers.FileField(
        help_text="An AUPAIR .TOU file: every division in it is imported (a "
        "division the tournament lacks is added)."
    )
    ratings_list = serializers.FileField(
        required=False,
        help_text="A ratings list (CSV: membership id, name, rating, career games) "
        "to register the players with, matched by name: a .TOU has no ratings.",
    )


class RatingsListImportInput(ExpectedVersionMixin):
    file = serializers.FileField(
        help_text="CSV: membership id, name, rating, career games (an optional "
        "header row; comma, semicolon or tab)."
    )
    division = division_field(required=False, help_text="Only this division's players.")


class UnmatchedPlayerOutput(serializers.Serializer):
    player_id = serializers.CharField()
    name = serializers.CharField()


class RatingsListImportOutput(serializers.Serializer):
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.CharField())
    updated = serializers.ListField(
        child=serializers.CharField(), help_text="Players whose rating changed."
    )
    unchanged = serializers.ListField(
        child=serializers.CharField(), help_text="Players the list already agrees with."
    )
    unmatched = UnmatchedPlayerOutput(
        many=True,
        help_text="Players not on the list (by membership id, or by name for a "
        "player without one).",
    )


# --- A division's pairing rules and prizes -------------------------------------------


class FixedBoardField(StrictSerializer):
    player_id = serializers.CharField(max_length=64)
    board = serializers.IntegerField(min_value=1, max_value=1000)


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
