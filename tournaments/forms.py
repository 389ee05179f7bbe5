"""Forms of the director console and the results entry.

The forms turn what a director types (player numbers, a pasted list, a pairing
written as lines) into the services' arguments. Every rule is the rules engine's:
the results form asks the rules about a result before it is stored by applying it
to the current tournament state (a value; nothing is written), so a slip is refused
at once with the same message the append would give.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings

from rules import tournament as rt
from rules.errors import RulesError
from rules.ruleset import ChallengeRule
from rules.tilesets import TILE_SETS
from tournaments.uploads import (
    MAX_CONFIG_BYTES,
    MAX_LIST_BYTES,
    MAX_T_FILE_BYTES,
    UploadTooLargeError,
    read_upload,
)

# A final score outside these bounds is possible but rare enough that it is more
# likely a typing slip (a digit dropped or doubled): the director confirms it.
PLAUSIBLE_MIN = 100
PLAUSIBLE_MAX = 800

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


def lexicon_field(**options: Any) -> forms.CharField:
    """A lexicon's short name; the help names the word lists the server has."""
    configured = ", ".join(sorted(getattr(settings, "LEXICONS", {}))) or "none"
    return forms.CharField(
        label="Lexicon",
        max_length=32,
        required=False,
        help_text="Its short name, e.g. CSW24, NWL23, OSPS49. This server rules"
        f" challenges with: {configured}.",
        **options,
    )


def _number_input(**attrs: Any) -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric", **attrs})


def apply_rejection(
    form: forms.Form, error: Any, fields: dict[str, str], prefix: str = ""
) -> None:
    """Show a rule's refusal next to the form field it names (else at the top)."""
    target = fields.get(getattr(error, "field", None) or "")
    message = f"{prefix}{getattr(error, 'message', str(error))}"
    form.add_error(target if target in form.fields else None, message)


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
        label="Rounds", min_value=1, max_value=rt.MAX_ROUNDS, widget=_number_input()
    )
    preset = forms.ChoiceField(label="Rules", choices=PRESET_CHOICES)
    challenge_rule = forms.ChoiceField(
        label="Challenge rule", choices=CHALLENGE_CHOICES, required=False
    )
    ties = forms.ChoiceField(label="Tied games", choices=TIE_CHOICES, required=False)
    bye_spread = forms.IntegerField(
        label="Bye spread", initial=50, min_value=0, widget=_number_input()
    )
    forfeit_spread = forms.IntegerField(
        label="Forfeit spread", initial=50, min_value=0, widget=_number_input()
    )
    spread_cap = forms.IntegerField(
        label="Spread cap per game",
        required=False,
        min_value=1,
        help_text="Empty: no cap.",
        widget=_number_input(),
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
        if not all(word.isdigit() and int(word) > 0 for word in words):
            raise forms.ValidationError(
                "Write whole numbers of 1 or more, one per round, e.g. 200 700 300."
            )
        return [int(word) for word in words]

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


# --- players ---------------------------------------------------------------------


def parse_player_list(
    text: str,
) -> tuple[list[tuple[str, int, str, int | None]], list[str]]:
    """Read "Name rating [member id [career games]]" lines; return the entries and
    the problems.

    The rating is the first whole number after the name; what follows it, if
    anything, is the member id (``-`` for none), then the career games (tsh's
    lifeg). Commas or tabs may separate the parts; the name is kept as written
    ("Quinn, Mara 1820" is "Quinn, Mara"). Blank lines and lines starting with #
    are skipped.
    """
    entries: list[tuple[str, int, str, int | None]] = []
    problems: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = list(re.finditer(r"[^\s,]+", line))
        rating_at = next(
            (
                index
                for index, part in enumerate(parts)
                if index > 0 and part.group().lstrip("-").isdigit()
            ),
            None,
        )
        if rating_at is None:
            problems.append(
                f"Line {number} ({line!r}): no rating; write "
                '"Name rating [member id [career games]]", e.g. "Ann Able 1500".'
            )
            continue
        rest = [part.group() for part in parts[rating_at + 1 :]]
        if len(rest) > 2 or (len(rest) == 2 and not rest[1].isdigit()):
            problems.append(
                f"Line {number} ({line!r}): after the rating only a member id and "
                "the career games (a whole number) may follow."
            )
            continue
        name = line[: parts[rating_at].start()].rstrip(" \t,")
        member = rest[0] if rest and rest[0] != "-" else ""
        career = int(rest[1]) if len(rest) == 2 else None
        entries.append((name, int(parts[rating_at].group()), member, career))
    if not entries and not problems:
        problems.append("The list is empty: one player per line.")
    return entries, problems


def _text_of(upload: Any, limit: int, what: str) -> str:
    try:
        return read_upload(upload, limit, what)
    except UploadTooLargeError as error:
        raise forms.ValidationError(str(error)) from None


class PlayerListForm(forms.Form):
    players = forms.CharField(
        label="Paste players, one per line",
        required=False,
        help_text='"Name rating [member id [career games]]", e.g. "Ann Able 1500 '
        '12345 310" (member id "-" for none).',
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    file = forms.FileField(label="or upload a list (.txt)", required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        text = data.get("players") or ""
        if upload is not None:
            text = _text_of(upload, MAX_LIST_BYTES, "A player list")
        if not text.strip():
            raise forms.ValidationError("Paste the players or choose a file.")
        entries, problems = parse_player_list(text)
        for problem in problems:
            self.add_error("players", problem)
        data["entries"] = entries
        return data


class TshImportForm(forms.Form):
    file = forms.FileField(label="tsh .t file")

    def clean_file(self) -> str:
        return _text_of(self.cleaned_data["file"], MAX_T_FILE_BYTES, "A .t file")


class TouImportForm(forms.Form):
    file = forms.FileField(label="AUPAIR .TOU file")
    ratings_list = forms.FileField(
        label="Ratings list (CSV, optional)",
        required=False,
        help_text="Membership id, name, rating, career games: the players are "
        "registered with them (a .TOU has no ratings).",
    )

    def clean_file(self) -> str:
        return _text_of(self.cleaned_data["file"], MAX_T_FILE_BYTES, "A .TOU file")

    def clean_ratings_list(self) -> str | None:
        upload = self.cleaned_data.get("ratings_list")
        if upload is None:
            return None
        return _text_of(upload, MAX_T_FILE_BYTES, "A ratings list")


class RatingsListForm(forms.Form):
    file = forms.FileField(
        label="Ratings list (CSV)",
        help_text="Membership id, name, rating, career games; one player a line.",
    )

    def clean_file(self) -> str:
        return _text_of(self.cleaned_data["file"], MAX_T_FILE_BYTES, "A ratings list")


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files from one input (Django's documented recipe)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class TshEventImportForm(forms.Form):
    """A whole tsh event: its config.tsh and the divisions' .t files."""

    name = forms.CharField(label="Name", max_length=200)
    start_date = forms.DateField(
        label="First day", widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label="Last day", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    config = forms.FileField(label="config.tsh")
    files = MultipleFileField(label="The divisions' .t files")

    def clean_config(self) -> str:
        return _text_of(self.cleaned_data["config"], MAX_CONFIG_BYTES, "config.tsh")

    def clean_files(self) -> dict[str, str]:
        return {
            upload.name: _text_of(upload, MAX_T_FILE_BYTES, f"{upload.name}")
            for upload in self.cleaned_data["files"]
        }


class RosterForm(forms.Form):
    """A form that names a player of the division by number."""

    def __init__(self, *args: Any, roster: dict[int, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.roster = roster

    def clean_player(self) -> Any:
        number = self.cleaned_data["player"]
        if number not in self.roster:
            raise forms.ValidationError(f"No player number {number} in this division.")
        return self.roster[number]


class WithdrawForm(RosterForm):
    player = forms.IntegerField(label="Player number", min_value=1)
    from_round = forms.IntegerField(label="From round", min_value=1)
    policy = forms.ChoiceField(label="Later rounds", choices=POLICY_CHOICES)


class ReactivateForm(RosterForm):
    player = forms.IntegerField(label="Player number", min_value=1)
    from_round = forms.IntegerField(label="From round", min_value=1)


class LinkAccountForm(RosterForm):
    player = forms.IntegerField(label="Player number", min_value=1)
    username = forms.CharField(label="Their user name", max_length=150)


class PlayerEditForm(RosterForm):
    """A correction of a player's details: the boxes left empty stay as they are."""

    player = forms.IntegerField(label="Player number", min_value=1)
    name = forms.CharField(label="Name", max_length=200, required=False)
    rating = forms.IntegerField(
        label="Rating", min_value=0, max_value=3500, required=False
    )
    member_id = forms.CharField(label="Member id", max_length=64, required=False)
    career_games = forms.IntegerField(label="Career games", min_value=0, required=False)

    def changes(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            field: data[field]
            for field in ("name", "rating", "member_id", "career_games")
            if data.get(field) not in (None, "")
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors and not self.changes():
            raise forms.ValidationError("Fill in at least one box to correct.")
        return data


LATE_CREDIT_CHOICES = [
    ("neither", "Neither a win nor a loss (opponent 0, score 0, as tsh)"),
    ("forfeit", "A forfeit loss each"),
    ("none", "Nothing recorded"),
]


class LateEntryForm(forms.Form):
    name = forms.CharField(label="Name", max_length=200)
    rating = forms.IntegerField(label="Rating", min_value=0, max_value=3500, initial=0)
    member_id = forms.CharField(label="Member id", max_length=64, required=False)
    career_games = forms.IntegerField(label="Career games", min_value=0, required=False)
    credit = forms.ChoiceField(
        label="The rounds already paired", choices=LATE_CREDIT_CHOICES
    )


class MissedRoundForm(RosterForm):
    player = forms.IntegerField(label="Player number", min_value=1)
    round = forms.IntegerField(label="Misses round", min_value=1)
    policy = forms.ChoiceField(
        label="That round",
        choices=[
            (rt.WithdrawalPolicy.FORFEIT.value, "A forfeit loss"),
            (rt.WithdrawalPolicy.NOT_PAIRED.value, "Simply not paired"),
        ],
    )


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

    clean_spread_caps = TournamentCreateForm.clean_spread_caps

    @classmethod
    def of(cls, tournament: Any, data: Any = None) -> SettingsForm:
        """The form showing the tournament's tile set and lexicon."""
        initial = {"tile_set": tournament.tile_set, "lexicon": tournament.lexicon}
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


# --- pairing ---------------------------------------------------------------------


class PairForm(forms.Form):
    round = forms.IntegerField(label="Round", min_value=1, widget=_number_input())
    method = forms.ChoiceField(label="Pair by", choices=METHOD_CHOICES)
    based_on_round = forms.IntegerField(
        label="On the standings after round",
        required=False,
        min_value=0,
        help_text="Empty: the round before.",
        widget=_number_input(),
    )
    manual = forms.CharField(
        label="Pairing by hand",
        required=False,
        help_text=(
            'One board per line: "board first second" by player number, the first '
            'player going first (e.g. "1 3 7"); "bye 5" for a bye.'
        ),
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )
    allow_repeats = forms.BooleanField(
        label="Store it even if some games repeat earlier rounds",
        required=False,
        help_text="Without this, a pairing by hand that repeats is shown with its"
        " repeats and not stored.",
    )

    def __init__(self, *args: Any, roster: dict[int, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.roster = roster

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["games"], data["byes"] = [], []
        if data.get("method") != rt.PairingMethod.MANUAL.value:
            return data
        games, byes, problems = [], [], []
        for number, raw in enumerate((data.get("manual") or "").splitlines(), 1):
            parts = raw.replace(",", " ").split()
            if not parts:
                continue
            if parts[0].lower() == "bye" and len(parts) == 2 and parts[1].isdigit():
                player = self.roster.get(int(parts[1]))
                if player is None:
                    problems.append(f"Line {number}: no player number {parts[1]}.")
                else:
                    byes.append(player.player_id)
                continue
            if len(parts) != 3 or not all(part.isdigit() for part in parts):
                problems.append(
                    f"Line {number} ({raw.strip()!r}): write "
                    '"board first second" or "bye N".'
                )
                continue
            board, first, second = (int(part) for part in parts)
            unknown = [n for n in (first, second) if n not in self.roster]
            if unknown:
                problems.append(f"Line {number}: no player number {unknown[0]}.")
                continue
            games.append(
                (board, self.roster[first].player_id, self.roster[second].player_id)
            )
        if not games and not byes and not problems:
            problems.append("Write at least one board or bye.")
        for problem in problems:
            self.add_error("manual", problem)
        data["games"], data["byes"] = games, byes
        return data


# --- results ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FieldNote:
    """What the instant check says about one field: an error, a warning or a hint."""

    level: str  # "error", "warn", "hint"
    text: str


RESULT_FIELDS = ("a_number", "a_score", "b_number", "b_score", "a_pre", "b_pre")
# The rules' field names on ResultRecorded / ResultAmended → this form's fields.
RESULT_RULE_FIELDS = {
    "player_a": "a_number",
    "player_b": "b_number",
    "score_a": "a_score",
    "score_b": "b_score",
    "pre_adjustment_a": "a_pre",
    "pre_adjustment_b": "b_pre",
    "absentee": "absentee",
}


def _score_field(label: str, **attrs: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=False,
        widget=_number_input(autocomplete="off", **attrs),
    )


class ResultEntryForm(forms.Form):
    """One score slip: player number, score, player number, score (and, for a tie,
    the scores before the end-of-game adjustments).

    Built on the tournament's rules state; `check()` gives the instant per-field
    notes of a partly typed slip, `is_valid()` the full verdict for storing it.
    """

    a_number = forms.IntegerField(
        label="Player", required=False, widget=_number_input(autocomplete="off")
    )
    a_score = _score_field("Score")
    b_number = forms.IntegerField(
        label="Opponent", required=False, widget=_number_input(autocomplete="off")
    )
    b_score = _score_field("Score")
    a_pre = _score_field("Before adjustments")
    b_pre = _score_field("Before adjustments")
    confirmed = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        rules: rt.TournamentState,
        division: str,
        round_: int,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.division = division
        self.round = round_
        self.roster = {
            rules.players[player_id].number: rules.players[player_id]
            for player_id in rules.division_players.get(division, ())
        }
        self.round_state = rules.round_state(division, round_)
        self.confirm_token = ""
        self.notes: dict[str, FieldNote] = {}
        self.tied = False

    # -- lookups ------------------------------------------------------------------

    def _player(self, field: str) -> rt.Player | None:
        number = self.cleaned_data.get(field)
        if number is None:
            return None
        player = self.roster.get(number)
        if player is None:
            self._note(
                field,
                "error",
                f"No player number {number} in division {self.division}.",
            )
        return player

    def _note(self, field: str, level: str, text: str) -> None:
        if field not in self.notes or self.notes[field].level != "error":
            self.notes[field] = FieldNote(level, text)

    def _seat_note(self, field: str, player: rt.Player) -> rt.Player | None:
        """Say whom `player` plays this round; return the opponent (None if none)."""
        round_state = self.round_state
        seat = round_state.seats.get(player.player_id) if round_state else None
        if round_state is None:
            self._note(field, "error", f"Round {self.round} is not paired yet.")
            return None
        if seat is None:
            self._note(
                field,
                "error",
                f"{player.name} is not paired in round {self.round}.",
            )
            return None
        if seat.opponent is None:
            self._note(
                field, "error", f"{player.name} has a bye in round {self.round}."
            )
            return None
        opponent = self.rules.players[seat.opponent]
        result = round_state.result_of(player.player_id, opponent.player_id)
        if result is not None:
            own, theirs = result.scores_for(player.player_id)
            shown = "a forfeit" if result.absentee else f"{own}–{theirs}"
            self._note(
                field,
                "error",
                f"{player.name} v {opponent.name} already has a result ({shown}): "
                "amend it instead.",
            )
            return opponent
        first = "goes first" if seat.first else "goes second"
        self._note(
            field,
            "hint",
            f"{player.name}: board {seat.board}, {first}, v #{opponent.number} "
            f"{opponent.name}",
        )
        return opponent

    # -- validation ----------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.notes = {}
        a = self._player("a_number")
        b = self._player("b_number")
        opponent = self._seat_note("a_number", a) if a else None
        if b is not None:
            if a is not None and opponent is not None and opponent is not b:
                self._note(
                    "b_number",
                    "error",
                    f"{b.name} is not {a.name}'s opponent in round {self.round}: "
                    f"{a.name} plays #{opponent.number} {opponent.name}.",
                )
            elif a is None or opponent is None:
                self._seat_note("b_number", b)
            else:
                self._note("b_number", "hint", b.name)
        if a is not None and b is not None and a is b:
            self._note("b_number", "error", "A player cannot play themself.")
        score_a, score_b = data.get("a_score"), data.get("b_score")
        for field, score in (("a_score", score_a), ("b_score", score_b)):
            if score is not None and not PLAUSIBLE_MIN <= score <= PLAUSIBLE_MAX:
                self._note(
                    field,
                    "warn",
                    f"{score} is an unusual final score: check the slip.",
                )
        self.tied = score_a is not None and score_a == score_b
        if not self.tied:
            # Boxes left over from a slip first typed as a tie: the scores before
            # the adjustments are asked for a tie only.
            data["a_pre"] = data["b_pre"] = None
        complete = None not in (a, b, score_a, score_b)
        if complete and not self._has_error_notes():
            self._ask_the_rules(a, b, data)
        data["player_a"], data["player_b"] = a, b
        return data

    def _has_error_notes(self) -> bool:
        return any(note.level == "error" for note in self.notes.values())

    def _ask_the_rules(self, a: rt.Player, b: rt.Player, data: dict[str, Any]) -> None:
        """Apply the result to the current state (a value: nothing is stored)."""
        event = rt.ResultRecorded(
            round=self.round,
            player_a=a.player_id,
            player_b=b.player_id,
            score_a=data["a_score"],
            score_b=data["b_score"],
            pre_adjustment_a=data.get("a_pre"),
            pre_adjustment_b=data.get("b_pre"),
        )
        try:
            rt.apply(self.rules, event)
        except RulesError as error:
            field = RESULT_RULE_FIELDS.get(getattr(error, "field", None) or "")
            self._note(field or "__all__", "error", error.message)

    def finish(self) -> bool:
        """After `is_valid()`: turn the notes into errors; ask to confirm an unusual
        score (the same slip submitted again is the confirmation)."""
        required = {
            "a_number": "Type the player's number.",
            "a_score": "Type the player's score.",
            "b_number": "Type the opponent's number.",
            "b_score": "Type the opponent's score.",
        }
        for field, message in required.items():
            if self.cleaned_data.get(field) is None and field not in self.notes:
                self.add_error(field, message)
        for field, note in self.notes.items():
            if note.level == "error":
                self.add_error(None if field == "__all__" else field, note.text)
        if self.errors:
            return False
        token = f"{self.cleaned_data['a_score']},{self.cleaned_data['b_score']}"
        unusual = [f for f in ("a_score", "b_score") if self.notes.get(f)]
        if unusual and self.cleaned_data.get("confirmed") != token:
            self.confirm_token = token
            for field in unusual:
                self.add_error(
                    field,
                    f"{self.cleaned_data[field]} is an unusual final score: check "
                    "the slip, then press Enter again to record it as it is.",
                )
            return False
        return True

    def check(self) -> dict[str, FieldNote]:
        """The instant notes for a partly typed slip (no error for empty fields)."""
        self.is_valid()
        notes = dict(self.notes)
        for field, errors in self.errors.items():
            if field in self.fields and self.data.get(field, "") != "":
                notes.setdefault(field, FieldNote("error", " ".join(errors)))
        return notes


class AmendForm(forms.Form):
    """A corrected result for one board: new scores, or a forfeit by one player."""

    a_score = _score_field("Score")
    b_score = _score_field("Score")
    a_pre = _score_field("Before adjustments")
    b_pre = _score_field("Before adjustments")
    absentee = forms.ChoiceField(label="Or a forfeit by", required=False, choices=[])
    reason = forms.CharField(
        label="Reason", max_length=200, required=False, help_text="For the audit log."
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, first: Any, second: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first, self.second = first, second
        self.fields["a_score"].label = f"Score of {first.name}"
        self.fields["b_score"].label = f"Score of {second.name}"
        self.fields["a_pre"].label = f"{first.name} before adjustments"
        self.fields["b_pre"].label = f"{second.name} before adjustments"
        self.fields["absentee"].choices = [
            ("", "— (a played game)"),
            (first.player_id, first.name),
            (second.player_id, second.name),
        ]

    def clean(self) -> dict[str, Any]:
        """Keep only what the director confirms: an amendment replaces the whole
        result, and the scores before the end-of-game adjustments belong to a tie
        (boxes left over from an earlier tie are not sent)."""
        data = super().clean()
        absentee = data.get("absentee") or None
        data["absentee"] = absentee
        if absentee:
            data["a_score"] = data["b_score"] = None
        else:
            for field in ("a_score", "b_score"):
                if data.get(field) is None:
                    self.add_error(field, "Type the score (or choose a forfeit).")
        tied = data.get("a_score") is not None and data.get("a_score") == data.get(
            "b_score"
        )
        if not tied:
            data["a_pre"] = data["b_pre"] = None
        return data


class ForfeitForm(forms.Form):
    absentee = forms.IntegerField(
        label="Absent player's number", min_value=1, widget=_number_input()
    )

    def __init__(self, *args: Any, roster: dict[int, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.roster = roster

    def clean_absentee(self) -> Any:
        number = self.cleaned_data["absentee"]
        if number not in self.roster:
            raise forms.ValidationError(f"No player number {number} in this division.")
        return self.roster[number]


class BoardGcgForm(forms.Form):
    file = forms.FileField(label="GCG file")
    first_in_file = forms.ChoiceField(
        label="The file's first player is", choices=[], widget=forms.RadioSelect
    )

    def __init__(self, *args: Any, first: Any, second: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first_in_file"].choices = [
            ("first", f"{first.name} (went first)"),
            ("second", second.name),
        ]
        self.fields["first_in_file"].initial = "first"

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > 128 * 1024:
            raise forms.ValidationError("A GCG file may be at most 128 KB.")
        return upload
