"""Serializers of the ratings exports and of the ratings files' imports (tsh,
``.TOU``, a ratings body's list). The list outputs are flat on purpose: the CSV
form of a list has exactly the JSON form's keys as its columns.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.serializer_base import StrictSerializer
from rules import tournament as rt
from tournaments.core.serializers import (
    CommandOutput,
    ExpectedVersionMixin,
    division_field,
)
from tournaments.ratings.estimates import GameKind
from tournaments.results.serializers import KINDS
from tournaments.setup.serializers import TournamentOutput

GAME_KINDS = [kind.value for kind in GameKind]


# Plain text rather than two enum fields: the schema generator would name the same
# choice set twice (Player1ResultEnum, Player2ResultEnum) and warn.
RESULT_HELP = (
    "win, draw or loss (a forfeit is a loss for the absentee); empty for a credit "
    "of 0 (neither)."
)


class GameRowOutput(serializers.Serializer):
    tournament = serializers.UUIDField()
    tournament_name = serializers.CharField()
    division = serializers.CharField()
    round = serializers.IntegerField()
    board = serializers.IntegerField(
        allow_null=True,
        help_text="None for a player alone (bye, credit, unpaired forfeit).",
    )
    date = serializers.DateField(help_text="The tournament's first day.")
    kind = serializers.ChoiceField(GAME_KINDS)
    rated = serializers.BooleanField(
        help_text="True for a played game; byes and forfeits are never rated."
    )
    player1_id = serializers.CharField(
        help_text="Internal player id; player 1 sits first (moved first in a game)."
    )
    player1_name = serializers.CharField()
    player1_member_id = serializers.CharField(allow_blank=True)
    player1_rating = serializers.IntegerField(
        allow_null=True, help_text="Pre-event rating; 0 means unrated."
    )
    player1_kind = serializers.ChoiceField(
        KINDS, help_text="What the round was for player 1, as the rules decided it."
    )
    player1_score = serializers.IntegerField(
        allow_null=True, help_text="Final score; None for a bye or forfeit."
    )
    player1_pre_adjustment = serializers.IntegerField(
        allow_null=True, help_text="Score before the end-of-game adjustments."
    )
    player1_result = serializers.CharField(help_text=RESULT_HELP, allow_blank=True)
    player1_spread = serializers.IntegerField(
        help_text="Own minus opponent's final score (uncapped), or the awarded bye "
        "or forfeit spread."
    )
    player2_id = serializers.CharField(allow_null=True)
    player2_name = serializers.CharField(allow_null=True)
    player2_member_id = serializers.CharField(allow_null=True, allow_blank=True)
    player2_rating = serializers.IntegerField(allow_null=True)
    player2_kind = serializers.ChoiceField(KINDS, allow_null=True)
    player2_score = serializers.IntegerField(allow_null=True)
    player2_pre_adjustment = serializers.IntegerField(allow_null=True)
    player2_result = serializers.CharField(
        allow_null=True, allow_blank=True, help_text=f"{RESULT_HELP} None alone."
    )
    player2_spread = serializers.IntegerField(allow_null=True)
    went_first = serializers.CharField(
        allow_null=True, help_text="Who moved first (a played game only)."
    )
    winner = serializers.CharField(allow_null=True, help_text="None for a draw.")
    tie_break = serializers.CharField(
        allow_null=True,
        help_text="'pre_adjustment_score' when the final scores tied and the scores "
        "before the end-of-game adjustments decided the winner.",
    )
    amended = serializers.BooleanField()
    game_id = serializers.UUIDField(
        allow_null=True, help_text="The game recorded move by move, if any."
    )
    changed_at = serializers.DateTimeField(
        help_text="When the event that last changed this row was recorded."
    )
    changed_position = serializers.IntegerField(
        help_text="That event's position in the log (see /api/ratings/changes)."
    )
    changed_version = serializers.IntegerField(
        help_text="That event's version in the tournament's stream."
    )


class PlayerRatingOutput(serializers.Serializer):
    tournament = serializers.UUIDField()
    tournament_name = serializers.CharField()
    date = serializers.DateField()
    division = serializers.CharField()
    player_id = serializers.CharField()
    number = serializers.IntegerField(help_text="Line number in the submission files.")
    name = serializers.CharField()
    member_id = serializers.CharField(allow_blank=True)
    withdrawn = serializers.BooleanField()
    rating = serializers.IntegerField(help_text="Pre-event rating; 0 means unrated.")
    career_games = serializers.IntegerField(
        allow_null=True,
        help_text="Rated games before the event (tsh's lifeg); null: unknown, "
        "counted as established (100), as tsh does.",
    )
    rating_system = serializers.CharField(
        source="estimate.rating_system",
        help_text="The tournament's rating system, as tsh names it: nsa2008, "
        "naspa-csw, wespa or absp. new_rating follows it; none (a body this site "
        "does not compute): the estimates are switched off (null).",
    )
    club_event = serializers.BooleanField(
        help_text="A club event: NASPA's LCT rule (change / 3, capped at 50)."
    )
    after_round = serializers.IntegerField(
        source="estimate.after_round",
        help_text="The estimates count rounds 1 to this one.",
    )
    games = serializers.IntegerField(
        source="estimate.games", help_text="Rated (played) games with a result."
    )
    wins = serializers.IntegerField(source="estimate.wins")
    losses = serializers.IntegerField(source="estimate.losses")
    draws = serializers.IntegerField(source="estimate.draws")
    spread = serializers.IntegerField(
        source="estimate.spread", help_text="Over rated games, uncapped."
    )
    byes = serializers.IntegerField(source="estimate.byes")
    forfeits = serializers.IntegerField(
        source="estimate.forfeits", help_text="Forfeits won or lost (unrated)."
    )
    expected_wins = serializers.FloatField(
        source="estimate.expected_wins",
        allow_null=True,
        help_text="Elo systems: the expected score of the rated games.",
    )
    performance_rating = serializers.IntegerField(
        source="estimate.performance_rating",
        allow_null=True,
        help_text="Elo systems: tsh's performance rating of the rated games.",
    )
    new_rating = serializers.IntegerField(
        source="estimate.new_rating",
        allow_null=True,
        help_text="The estimate in the tournament's rating system (a newcomer's "
        "initial rating); the pre-event rating without a rated game.",
    )
    rating_change = serializers.IntegerField(
        source="estimate.rating_change",
        allow_null=True,
        help_text="new_rating - rating; null for an unrated player.",
    )
    naspa_rating = serializers.IntegerField(
        source="estimate.naspa_rating",
        allow_null=True,
        help_text="tsh's NASPA estimate (nsa2008, or naspa-csw when the tournament "
        "uses it); null for an ABSP event.",
    )
    wespa_rating = serializers.IntegerField(
        source="estimate.wespa_rating",
        allow_null=True,
        help_text="tsh's wespa estimate; null for an ABSP event.",
    )
    absp_event_rating = serializers.IntegerField(
        source="estimate.absp_event_rating",
        allow_null=True,
        help_text="ABSP event rating (ABSP events, players with a rated game).",
    )
    absp_rating = serializers.IntegerField(
        source="estimate.absp_rating",
        allow_null=True,
        help_text="ABSP running rating over this event and the player's earlier "
        "ABSP events here (by membership id), most recent 150 games.",
    )


class PlayerRatingInput(serializers.Serializer):
    after_round = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="Count rounds 1 to this one (the running estimate after it); "
        "default: every round with a result.",
    )


class ChangesInput(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0,
        default=0,
        help_text="Feed position (commit order): return events after it.",
    )
    limit = serializers.IntegerField(min_value=1, max_value=1000, default=100)
    tournament = serializers.UUIDField(required=False)


class ChangeOutput(serializers.Serializer):
    position = serializers.IntegerField(
        help_text="The event's feed position: events are numbered as they commit."
    )
    tournament = serializers.UUIDField()
    version = serializers.IntegerField()
    event_type = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    payload = serializers.JSONField()


class ChangesOutput(serializers.Serializer):
    results = ChangeOutput(many=True, source="changes")
    next = serializers.IntegerField(help_text="Pass as `after` for the next page.")
    more = serializers.BooleanField(
        help_text="True when the page is full: ask again at once."
    )


class NaspaTInput(serializers.Serializer):
    division = serializers.CharField(
        required=False, help_text="One division; default: every division."
    )
    firsts = serializers.BooleanField(
        default=False, help_text="Add tsh's `p12` field (who went first)."
    )


class TshImportInput(ExpectedVersionMixin):
    division = division_field()
    file = serializers.FileField()


class TshEventImportInput(StrictSerializer):
    name = serializers.CharField(
        max_length=rt.MAX_NAME_LENGTH,
        required=False,
        help_text="The event's name; by default config.tsh's event_name.",
    )
    start_date = serializers.DateField(
        required=False, help_text="The first day; by default config.tsh's event_date."
    )
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
    notes = serializers.ListField(
        child=serializers.CharField(),
        help_text="How config.tsh lines were mapped where it matters (a rating "
        "system this system does not compute, divisions of different rounds).",
    )


@extend_schema_serializer(component_name="TournamentFileImportOutput")
class FileImportOutput(CommandOutput):
    notes = serializers.ListField(
        child=serializers.CharField(),
        help_text="What is odd in the file and how it is kept (a .TOU's half-bye, "
        "win at equal scores, wide name, rounds out of their columns; a .t's off "
        "player, ties as draws): read as the reference program reads it, never "
        "refused for it.",
    )


class TourneyJsImportInput(StrictSerializer):
    file = serializers.FileField(
        help_text="A tourney.js as tsh writes it (newt={...};), its JSON, or the "
        "JavaScript object literal other tools write."
    )
    name = serializers.CharField(
        max_length=rt.MAX_NAME_LENGTH,
        required=False,
        help_text="Default: the file's event_name.",
    )
    start_date = serializers.DateField(
        required=False, help_text="Default: the file's event_date."
    )
    end_date = serializers.DateField(required=False, allow_null=True)
    published = serializers.BooleanField(default=True)


class ConfigKeyOutput(serializers.Serializer):
    key = serializers.CharField()
    value = serializers.CharField()


class ImportNoteOutput(serializers.Serializer):
    code = serializers.CharField(
        help_text="bye, forfeit, credit, late_entry, unpaired, withdrawn, "
        "config_not_taken, player_field_not_kept, rating_system"
    )
    message = serializers.CharField()
    division = serializers.CharField(allow_blank=True)
    player = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField(allow_null=True)


class TourneyJsImportOutput(serializers.Serializer):
    id = serializers.UUIDField()
    tournament = TournamentOutput()
    divisions = serializers.ListField(child=serializers.CharField())
    not_taken = ConfigKeyOutput(
        many=True, help_text="config keys this system has no setting for."
    )
    report = ImportNoteOutput(
        many=True,
        help_text="What the file holds that a director should see: kept as the "
        "file has it, and flagged.",
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
