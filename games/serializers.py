"""Input and output serializers of the games API."""

from __future__ import annotations

from typing import Any

from django.core.validators import MaxLengthValidator
from rest_framework import serializers

from games.models import GameProjection, GameTurn
from games.serializer_base import StrictSerializer
from rules import events as ev
from rules import tournament as rt
from rules.events import ChallengeOutcome, EndReason, Visibility
from rules.numbers import NumberError, whole_number
from rules.ruleset import PRESETS
from rules.tilesets import TILE_SETS

# Bounds on integers a client sends: past them a value is a typing slip, and the
# read models' integer columns are 32-bit.
MAX_VERSION = 1_000_000
MAX_ROUNDS = rt.MAX_ROUNDS
MAX_BOARD = 10_000
# A game has two to four players (rules.state); a play lays at most a rack's seven
# tiles, so it forms its main word and at most one cross-word per tile.
MAX_PLAYERS = 4
MAX_WORDS_FORMED = 8


class ExpectedVersion(StrictSerializer):
    expected_version = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        help_text="The game's version you read; a stale one answers 409.",
    )


class GameOutput(serializers.ModelSerializer):
    id = serializers.UUIDField(source="game_id")

    class Meta:
        model = GameProjection
        fields = [
            "id",
            "version",
            "tournament_id",
            "division",
            "round",
            "board_number",
            "title",
            "players",
            "ruleset",
            "lexicon",
            "scores",
            "scores_before_adjustments",
            "to_move",
            "is_over",
            "winner",
            "decided_by_tiebreak",
            "end_reason",
            "turn_count",
            "bag_count",
            "discrepancies",
            "visibility",
            "started_at",
            "updated_at",
        ]


class NoteOutput(serializers.Serializer):
    id = serializers.IntegerField(
        help_text="The version of the event that added the note: name it to edit "
        "or delete the note."
    )
    text = serializers.CharField()
    author = serializers.CharField(help_text="Empty for a note read from a GCG file.")
    author_id = serializers.IntegerField(allow_null=True)
    written_at = serializers.DateTimeField(allow_null=True)
    edited_at = serializers.DateTimeField(allow_null=True)


class TurnOutput(serializers.ModelSerializer):
    notes = NoteOutput(many=True)

    class Meta:
        model = GameTurn
        fields = [
            "index",
            "version",
            "player",
            "kind",
            "rack",
            "position",
            "word",
            "words",
            "score",
            "cumulative",
            "withdrawn",
            "notes",
        ]


class GameDetailOutput(GameOutput):
    board = serializers.ListField(child=serializers.CharField())
    turns = TurnOutput(many=True)

    class Meta(GameOutput.Meta):
        fields = [*GameOutput.Meta.fields, "board", "turns"]


class RackOutput(serializers.Serializer):
    known = serializers.CharField()
    unknown = serializers.IntegerField()


class StateOutput(serializers.Serializer):
    version = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    tile_set = serializers.CharField(help_text="The tile set the game is played with.")
    lexicon = serializers.CharField(help_text="Its lexicon (empty: none named).")
    scores = serializers.ListField(child=serializers.IntegerField())
    scores_before_adjustments = serializers.ListField(child=serializers.IntegerField())
    adjustments = serializers.ListField(child=serializers.IntegerField())
    to_move = serializers.IntegerField(allow_null=True)
    is_over = serializers.BooleanField()
    end_reason = serializers.CharField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    decided_by_tiebreak = serializers.BooleanField()
    board = serializers.ListField(child=serializers.CharField())
    last_play_squares = serializers.ListField(child=serializers.CharField())
    racks = RackOutput(many=True)
    bag_count = serializers.IntegerField()
    unseen = serializers.ListField(child=serializers.CharField())
    scoreless_turns = serializers.IntegerField()
    turn_count = serializers.IntegerField()


class EventOutput(serializers.Serializer):
    position = serializers.IntegerField()
    version = serializers.IntegerField()
    type = serializers.CharField(source="type_name")
    schema_version = serializers.IntegerField()
    payload = serializers.JSONField()
    metadata = serializers.JSONField()
    recorded_at = serializers.DateTimeField()
    recorded_by = serializers.IntegerField(source="recorded_by_id", allow_null=True)
    superseded = serializers.BooleanField(
        help_text="Voided by a later correction (kept in the log)."
    )


VISIBILITY = serializers.ChoiceField(
    [v.value for v in Visibility],
    default=Visibility.PRIVATE.value,
    help_text="Who may read a casual game: private (its owner; the default), link "
    "(whoever has its secret link) or public. A tournament's game is readable as "
    "its tournament is.",
)


def tiles_pattern(least: int, most: int) -> str:
    """Tiles as printed on them in any tile set (Spanish [CH], Catalan L·L; . a
    tile on the board, ? a blank): the game's tile set checks them, naming what
    it lacks."""
    return rf"^(?:[^\W\d_]|[.?·\[\]]){{{least},{most}}}$"


class GameStartInput(StrictSerializer):
    players = serializers.ListField(
        child=serializers.CharField(max_length=ev.MAX_PLAYER_NAME_LENGTH),
        min_length=2,
        max_length=MAX_PLAYERS,
    )
    ruleset = serializers.ChoiceField(list(PRESETS), default="classic")
    lexicon = serializers.CharField(max_length=64, required=False, allow_null=True)
    tile_set = serializers.ChoiceField(
        list(TILE_SETS),
        required=False,
        allow_null=True,
        help_text="English by default; a tournament's game is played with its "
        "division's (leave it out).",
    )
    seed = serializers.IntegerField(
        min_value=0, max_value=2**63 - 1, required=False, allow_null=True
    )
    racks = serializers.ListField(
        child=serializers.RegexField(tiles_pattern(0, 28), allow_blank=True),
        required=False,
        max_length=MAX_PLAYERS,
        help_text="Opening racks read off a scoresheet (default: drawn at random), "
        "as printed on the tiles.",
    )
    tournament_id = serializers.UUIDField(required=False, allow_null=True)
    division = serializers.CharField(
        max_length=rt.MAX_DIVISION_NAME_LENGTH, required=False, default=""
    )
    round = serializers.IntegerField(
        min_value=1, max_value=MAX_ROUNDS, required=False, allow_null=True
    )
    board = serializers.IntegerField(
        min_value=1, max_value=MAX_BOARD, required=False, allow_null=True
    )
    player_ids = serializers.ListField(
        child=serializers.CharField(max_length=rt.MAX_ID_LENGTH),
        required=False,
        max_length=MAX_PLAYERS,
    )
    visibility = VISIBILITY


class DrawsField(serializers.DictField):
    """Tiles each player drew, read off a scoresheet: {"0": "AEIRST"}."""

    child = serializers.RegexField(tiles_pattern(1, 28))

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", "Keys: player numbers 0-3.")
        super().__init__(**kwargs)
        # A validator the schema reads (maxProperties).
        self.validators.append(MaxLengthValidator(MAX_PLAYERS))

    def to_internal_value(self, data: object) -> dict[int, str]:
        if isinstance(data, dict) and len(data) > MAX_PLAYERS:
            raise serializers.ValidationError(
                f"At most {MAX_PLAYERS} entries, one per player."
            )
        values = super().to_internal_value(data)
        draws: dict[int, str] = {}
        for key, tiles in values.items():
            try:
                player = whole_number(str(key), low=0, high=MAX_PLAYERS - 1)
            except NumberError:
                raise serializers.ValidationError(
                    f"{key!r} is not a player number (0 moved first)."
                ) from None
            draws[player] = tiles
        return draws


class PlaceInput(ExpectedVersion):
    position = serializers.RegexField(
        r"^(?:[1-9]|1[0-5])[A-Oa-o]$|^[A-Oa-o](?:[1-9]|1[0-5])$",
        help_text="8D = row 8 from column D, across; D8 = down.",
        error_messages={"invalid": "Give a square like 8D (across) or D8 (down)."},
    )
    word = serializers.RegexField(
        tiles_pattern(1, 60),
        help_text="The whole word; . for a tile on the board, lower case = blank.",
        error_messages={"invalid": "Letters only, . for tiles already on the board."},
    )
    # The highest score a single play can reach is under 2,000.
    score = serializers.IntegerField(
        min_value=0, max_value=2000, required=False, allow_null=True
    )
    rack = serializers.RegexField(tiles_pattern(0, 28), required=False, allow_null=True)
    draws = DrawsField(required=False)


class ExchangeInput(ExpectedVersion):
    tiles = serializers.RegexField(tiles_pattern(0, 28), required=False, default="")
    count = serializers.IntegerField(
        min_value=0, max_value=7, required=False, default=0
    )
    draws = DrawsField(required=False)

    def validate(self, attrs: dict) -> dict:
        if not attrs["tiles"] and not attrs["count"]:
            raise serializers.ValidationError(
                {"tiles": "Give the tiles exchanged, or how many (count)."}
            )
        return attrs


class PassInput(ExpectedVersion):
    pass


class ChallengeInput(ExpectedVersion):
    outcome = serializers.ChoiceField(
        [o.value for o in ChallengeOutcome], required=False, allow_null=True
    )
    words = serializers.ListField(
        child=serializers.RegexField(tiles_pattern(2, 60)),
        required=False,
        default=list,
        max_length=MAX_WORDS_FORMED,
    )
    challenger = serializers.IntegerField(
        min_value=0, max_value=3, required=False, allow_null=True
    )


class NoteInput(ExpectedVersion):
    target_version = serializers.IntegerField(min_value=1, max_value=MAX_VERSION)
    text = serializers.CharField(max_length=ev.MAX_NOTE_LENGTH)


class NoteEditInput(ExpectedVersion):
    text = serializers.CharField(max_length=ev.MAX_NOTE_LENGTH)


class NoteDeleteInput(ExpectedVersion):
    pass


class VisibilityInput(ExpectedVersion):
    visibility = serializers.ChoiceField(
        [v.value for v in Visibility],
        help_text="private: the owner only; link: whoever has the secret link; "
        "public: anyone.",
    )


class VisibilityOutput(serializers.Serializer):
    visibility = serializers.ChoiceField([v.value for v in Visibility])
    share_url = serializers.CharField(
        allow_null=True,
        help_text="The secret link (while shared by link): whoever has it may read "
        "the game, through the pages or the API (?share=…).",
    )


class RankedPlayOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    kind = serializers.ChoiceField(["placement", "exchange", "pass"])
    move = serializers.CharField(help_text="As GCG writes it: 8D WINDY, -ADE, -.")
    position = serializers.CharField(allow_blank=True)
    word = serializers.CharField(allow_blank=True)
    score = serializers.IntegerField()
    leave = serializers.CharField(allow_blank=True)
    equity = serializers.FloatField(allow_null=True)
    words = serializers.ListField(child=serializers.CharField())


class AnalysisOutput(serializers.Serializer):
    turn = serializers.IntegerField()
    player = serializers.IntegerField()
    lexicon = serializers.CharField()
    rack = serializers.CharField()
    by_equity = serializers.BooleanField(
        help_text="Ranked by equity (score + leave value): a leave table is set."
    )
    candidates = serializers.IntegerField()
    plays = RankedPlayOutput(many=True)
    played = RankedPlayOutput(allow_null=True)
    played_rank = serializers.IntegerField(
        allow_null=True,
        help_text="Where the move made ranks (1 is best); null when it is not "
        "among the candidates (a word not in the list).",
    )


class CorrectionInput(ExpectedVersion):
    from_version = serializers.IntegerField(min_value=2, max_value=MAX_VERSION)
    reason = serializers.CharField(max_length=ev.MAX_REASON_LENGTH)


class ScoreCorrectionInput(ExpectedVersion):
    player = serializers.IntegerField(min_value=0, max_value=3)
    amount = serializers.IntegerField(min_value=-1000, max_value=1000)
    reason = serializers.CharField(max_length=ev.MAX_REASON_LENGTH)


class TimePenaltyInput(ExpectedVersion):
    player = serializers.IntegerField(min_value=0, max_value=3)
    minutes = serializers.IntegerField(min_value=1, max_value=60)


class EndInput(ExpectedVersion):
    reason = serializers.ChoiceField([r.value for r in EndReason])
    player = serializers.IntegerField(
        min_value=0, max_value=3, required=False, allow_null=True
    )
    final_scores = serializers.ListField(
        child=serializers.IntegerField(min_value=-1000, max_value=2000),
        required=False,
        default=list,
        max_length=MAX_PLAYERS,
    )


class GcgUploadInput(StrictSerializer):
    file = serializers.FileField()
    rules = serializers.ChoiceField(list(PRESETS), required=False, allow_null=True)
    visibility = VISIBILITY
    tournament_id = serializers.UUIDField(required=False, allow_null=True)
    division = serializers.CharField(
        max_length=rt.MAX_DIVISION_NAME_LENGTH, required=False, default=""
    )
    round = serializers.IntegerField(
        min_value=1, max_value=MAX_ROUNDS, required=False, allow_null=True
    )
    board = serializers.IntegerField(
        min_value=1, max_value=MAX_BOARD, required=False, allow_null=True
    )


class ProblemOutput(serializers.Serializer):
    line = serializers.IntegerField()
    code = serializers.CharField()
    message = serializers.CharField()


class DiscrepancyOutput(serializers.Serializer):
    line = serializers.IntegerField()
    kind = serializers.CharField()
    recorded = serializers.IntegerField()
    computed = serializers.IntegerField()


class GcgImportOutput(serializers.Serializer):
    id = serializers.UUIDField()
    version = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField())
    discrepancies = DiscrepancyOutput(many=True)
    # What the record says that the reader accepted anyway (issue 20), by line.
    warnings = ProblemOutput(many=True)


class CommandOutput(serializers.Serializer):
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.CharField())
    state = StateOutput()
