"""The console's forms of the tournament itself: create, settings, divisions,
the team, publication.
"""

from __future__ import annotations

from typing import Any

from django import forms

from rules import tournament as rt
from rules.errors import RulesError
from rules.numbers import NumberError, whole_number
from rules.ruleset import ChallengeRule
from rules.tilesets import TILE_SETS
from tournaments.core.events import MAX_RACK_DELAY_MINUTES
from tournaments.core.forms import lexicon_field, number_input

PRESET_CHOICES = [
    ("classic", "Classic (the seeds' rules)"),
    ("naspa", "NASPA"),
    ("wespa", "WESPA"),
]


CHALLENGE_CHOICES = [
    ("", "As the preset"),
    (ChallengeRule.SINGLE.value, "Single (free challenge)"),
    (ChallengeRule.DOUBLE.value, "Double (the challenger loses a turn)"),
    (ChallengeRule.FIVE_POINT.value, "5 points per word"),
    (ChallengeRule.TEN_POINT.value, "10 points per word"),
    (ChallengeRule.VOID.value, "Void (no challenges)"),
]


TIE_CHOICES = [
    ("", "As the preset"),
    ("breaker", "A tie goes to the higher score before the end-of-game adjustments"),
    ("draw", "A tie is a draw"),
]


METHOD_CHOICES = [
    (rt.PairingMethod.SWISS.value, "Swiss"),
    (rt.PairingMethod.KING_OF_THE_HILL.value, "King of the hill"),
    (rt.PairingMethod.ROUND_ROBIN.value, "Round robin"),
    (rt.PairingMethod.INIT_FONTES.value, "InitFontes (opening rounds)"),
    (rt.PairingMethod.CHEW.value, "Chew pairings (prize contenders)"),
    (rt.PairingMethod.COP.value, "Castellano O'Connor (COP)"),
    (rt.PairingMethod.MANUAL.value, "By hand (below)"),
]


POLICY_CHOICES = [
    (rt.WithdrawalPolicy.FORFEIT.value, "Forfeit every later paired round"),
    (rt.WithdrawalPolicy.NOT_PAIRED.value, "Simply not paired any more"),
]


TILE_SET_CHOICES = [(name, name.capitalize()) for name in TILE_SETS]


# --- tournament ------------------------------------------------------------------


class TournamentCreateForm(forms.Form):
    name = forms.CharField(label="Name", max_length=200)
    start_date = forms.DateField(
        label="First day", widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label="Last day", widget=forms.DateInput(attrs={"type": "date"})
    )
    venue = forms.CharField(label="Venue", max_length=200, required=False)
    rounds = forms.IntegerField(
        label="Rounds", min_value=1, max_value=rt.MAX_ROUNDS, widget=number_input()
    )
    preset = forms.ChoiceField(label="Rules", choices=PRESET_CHOICES)
    challenge_rule = forms.ChoiceField(
        label="Challenge rule", choices=CHALLENGE_CHOICES, required=False
    )
    ties = forms.ChoiceField(label="Tied games", choices=TIE_CHOICES, required=False)
    bye_spread = forms.IntegerField(
        label="Bye spread", initial=50, min_value=0, widget=number_input()
    )
    forfeit_spread = forms.IntegerField(
        label="Forfeit spread", initial=50, min_value=0, widget=number_input()
    )
    spread_cap = forms.IntegerField(
        label="Spread cap per game",
        required=False,
        min_value=1,
        help_text="Empty: no cap.",
        widget=number_input(),
    )
    spread_caps = forms.CharField(
        label="Spread cap by round",
        required=False,
        max_length=600,
        help_text="Optional, tsh's list: one cap per round, e.g. 200 700 300;"
        " later rounds take the cap above.",
    )
    ranking = forms.ChoiceField(
        label="Ranking",
        choices=[
            (rt.Ranking.EXTENDED.value, "Wins, losses, spread, total score, rating"),
            (rt.Ranking.TSH.value, "As tsh ranks (wins, losses, spread)"),
        ],
        initial=rt.Ranking.EXTENDED.value,
        required=False,
    )
    rating_system = forms.ChoiceField(
        label="Rating system",
        choices=[
            (rt.RatingSystem.NSA2008.value, "NASPA (nsa2008)"),
            (rt.RatingSystem.NASPA_CSW.value, "NASPA Collins (naspa-csw)"),
            (rt.RatingSystem.WESPA.value, "WESPA"),
            (rt.RatingSystem.ABSP.value, "ABSP"),
        ],
        initial=rt.RatingSystem.NSA2008.value,
        required=False,
    )
    club_event = forms.BooleanField(
        label="Club tournament (NASPA's LCT rule for the estimates)", required=False
    )
    tile_set = forms.ChoiceField(
        label="Tile set", choices=TILE_SET_CHOICES, initial="english", required=False
    )
    lexicon = lexicon_field()
    divisions = forms.CharField(
        label="Divisions",
        initial="A",
        max_length=400,
        help_text="Their names, separated by commas.",
    )
    published = forms.BooleanField(
        label="Public (anyone may read pairings and standings)",
        initial=True,
        required=False,
    )

    # The rules' field names for TournamentCreated and DivisionAdded.
    FIELDS = {
        "name": "name",
        "start_date": "start_date",
        "end_date": "end_date",
        "venue": "venue",
        "rounds": "rounds",
        "preset": "preset",
        "challenge_rule": "challenge_rule",
        "ties_are_draws": "ties",
        "bye_spread": "bye_spread",
        "forfeit_spread": "forfeit_spread",
        "spread_cap": "spread_cap",
        "spread_caps": "spread_caps",
        "ranking": "ranking",
        "rating_system": "rating_system",
        "club_event": "club_event",
        "tile_set": "tile_set",
        "lexicon": "lexicon",
    }

    def clean_spread_caps(self) -> list[int]:
        words = self.cleaned_data["spread_caps"].replace(",", " ").split()
        try:
            return [whole_number(word, low=1) for word in words]
        except NumberError:
            raise forms.ValidationError(
                "Write whole numbers of 1 or more, one per round, e.g. 200 700 300."
            ) from None

    def clean_divisions(self) -> list[str]:
        names = [name.strip() for name in self.cleaned_data["divisions"].split(",")]
        names = [name for name in names if name]
        if not names:
            raise forms.ValidationError("Name at least one division.")
        if len(names) > rt.MAX_DIVISIONS:
            raise forms.ValidationError(
                f"A tournament may have at most {rt.MAX_DIVISIONS} divisions."
            )
        for name in names:
            _check_division_name(name)
        if len(set(names)) != len(names):
            raise forms.ValidationError("Each division name once.")
        return names

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        ties = data.get("ties") or ""
        return {
            "name": data["name"].strip(),
            "start_date": data["start_date"].isoformat(),
            "end_date": data["end_date"].isoformat(),
            "venue": data.get("venue", "").strip(),
            "rounds": data["rounds"],
            "preset": data["preset"],
            "challenge_rule": data.get("challenge_rule") or None,
            "ties_are_draws": None if not ties else ties == "draw",
            "bye_spread": data["bye_spread"],
            "forfeit_spread": data["forfeit_spread"],
            "spread_cap": data.get("spread_cap"),
            "spread_caps": data.get("spread_caps", []),
            "ranking": data.get("ranking") or rt.Ranking.EXTENDED.value,
            "rating_system": data.get("rating_system") or rt.RatingSystem.NSA2008.value,
            "club_event": data.get("club_event", False),
            "tile_set": data.get("tile_set") or "english",
            "lexicon": data.get("lexicon", "").strip(),
            "divisions": data["divisions"],
            "published": data.get("published", False),
        }


class DivisionAddForm(forms.Form):
    name = forms.CharField(label="New division", max_length=64)

    def clean_name(self) -> str:
        return _check_division_name(self.cleaned_data["name"].strip())


def _check_division_name(name: str) -> str:
    """The rules' verdict on a new division's name, as the field's error."""
    try:
        return rt.check_division_name(name)
    except RulesError as error:
        raise forms.ValidationError(error.message) from None


class PublishForm(forms.Form):
    published = forms.BooleanField(required=False)


# --- corrections of the tournament -------------------------------------------------


class SettingsForm(forms.Form):
    """Settings a director may correct after set-up (empty boxes: unchanged; the
    tile set and lexicon show the current ones and change when edited)."""

    rounds = forms.IntegerField(
        label="Rounds", min_value=1, max_value=rt.MAX_ROUNDS, required=False
    )
    bye_spread = forms.IntegerField(label="Bye spread", min_value=0, required=False)
    forfeit_spread = forms.IntegerField(
        label="Forfeit spread", min_value=0, required=False
    )
    spread_cap = forms.IntegerField(label="Spread cap", min_value=1, required=False)
    remove_cap = forms.BooleanField(label="No spread cap", required=False)
    spread_caps = forms.CharField(
        label="Spread cap by round", max_length=600, required=False
    )
    tile_set = forms.ChoiceField(
        label="Tile set", choices=TILE_SET_CHOICES, required=False
    )
    lexicon = lexicon_field()
    rack_delay_minutes = forms.IntegerField(
        label="Racks shown after (minutes)",
        min_value=0,
        max_value=MAX_RACK_DELAY_MINUTES,
        required=False,
        help_text="How long after each move everyone sees the racks of a game "
        "being recorded (0: at once); you and your team see them at once.",
    )
    racks_at_end = forms.BooleanField(
        label="Racks hidden until the game ends", required=False
    )

    clean_spread_caps = TournamentCreateForm.clean_spread_caps

    @classmethod
    def of(cls, tournament: Any, data: Any = None) -> SettingsForm:
        """The form showing the tournament's tile set, lexicon and rack delay."""
        initial = {
            "tile_set": tournament.tile_set,
            "lexicon": tournament.lexicon,
            "rack_delay_minutes": tournament.rack_delay_minutes,
            "racks_at_end": tournament.rack_delay_minutes is None,
        }
        return cls(data, initial=initial)

    def changes(self) -> dict[str, Any]:
        data = self.cleaned_data
        changes: dict[str, Any] = {
            field: data[field]
            for field in ("rounds", "bye_spread", "forfeit_spread", "spread_cap")
            if data.get(field) is not None
        }
        if data.get("remove_cap"):
            changes["spread_cap"] = None
        if self.data.get("spread_caps", "").strip():
            changes["spread_caps"] = data["spread_caps"]
        for field in ("tile_set", "lexicon"):
            if field in self.data and field in self.changed_data:
                changes[field] = data[field].strip()
        if "racks_at_end" in self.changed_data and data.get("racks_at_end"):
            changes["rack_delay_minutes"] = None
        elif data.get("rack_delay_minutes") is not None and (
            "rack_delay_minutes" in self.changed_data
            or "racks_at_end" in self.changed_data
        ):
            changes["rack_delay_minutes"] = data["rack_delay_minutes"]
        return changes


class DivisionSetupForm(forms.Form):
    """The tile set and lexicon of a division's games: its own, or the
    tournament's."""

    tile_set = forms.ChoiceField(label="Tile set", required=False)
    lexicon = lexicon_field()
    no_lexicon = forms.BooleanField(label="Name no lexicon", required=False)

    def __init__(self, *args: Any, tournament: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tile_set"].choices = [
            ("", f"As the tournament ({tournament.tile_set})"),
            *TILE_SET_CHOICES,
        ]
        self.fields["lexicon"].help_text = (
            f"Empty: as the tournament ({tournament.lexicon or 'none named'}). "
            + str(self.fields["lexicon"].help_text)
        )

    @classmethod
    def showing(cls, setup: rt.GameSetup, tournament: Any) -> DivisionSetupForm:
        return cls(
            initial={
                "tile_set": setup.tile_set or "",
                "lexicon": setup.lexicon or "",
                "no_lexicon": setup.lexicon == "",
            },
            tournament=tournament,
        )

    def setup(self) -> rt.GameSetup:
        data = self.cleaned_data
        lexicon = "" if data.get("no_lexicon") else data["lexicon"].strip() or None
        return rt.GameSetup(tile_set=data["tile_set"] or None, lexicon=lexicon)


class DivisionRenameForm(forms.Form):
    division = forms.CharField(widget=forms.HiddenInput, max_length=64)
    name = forms.CharField(label="New name", max_length=64)


class TeamForm(forms.Form):
    username = forms.CharField(label="User name", max_length=150)
    role = forms.ChoiceField(
        label="Role",
        choices=[
            ("director", "Co-director (everything)"),
            ("scorekeeper", "Scorekeeper (enters and amends results)"),
        ],
    )


class TeamRemoveForm(forms.Form):
    username = forms.CharField(max_length=150, widget=forms.HiddenInput)
