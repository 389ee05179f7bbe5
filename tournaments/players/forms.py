"""The console's forms of the field: a pasted player list, roster actions
(withdraw, reactivate, link, edit), late entries and missed rounds.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms

from rules import tournament as rt
from rules.numbers import is_whole_number, whole_number
from tournaments.core.uploads import (
    MAX_LIST_BYTES,
    UploadTooLargeError,
    read_upload,
)
from tournaments.setup.forms import POLICY_CHOICES

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
                if index > 0 and is_whole_number(part.group(), signed=True)
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
        if len(rest) > 2 or (len(rest) == 2 and not is_whole_number(rest[1])):
            problems.append(
                f"Line {number} ({line!r}): after the rating only a member id and "
                "the career games (a whole number) may follow."
            )
            continue
        name = line[: parts[rating_at].start()].rstrip(" \t,")
        member = rest[0] if rest and rest[0] != "-" else ""
        career = whole_number(rest[1]) if len(rest) == 2 else None
        entries.append((name, whole_number(parts[rating_at].group()), member, career))
    if not entries and not problems:
        problems.append("The list is empty: one player per line.")
    return entries, problems


def text_of_upload(upload: Any, limit: int, what: str) -> str:
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
            text = text_of_upload(upload, MAX_LIST_BYTES, "A player list")
        if not text.strip():
            raise forms.ValidationError("Paste the players or choose a file.")
        entries, problems = parse_player_list(text)
        for problem in problems:
            self.add_error("players", problem)
        data["entries"] = entries
        return data


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


# --- The registration day ----------------------------------------------------------


class CheckInForm(RosterForm):
    player = forms.IntegerField(label="Player number", min_value=1)
    present = forms.TypedChoiceField(
        choices=[("1", "present"), ("0", "not checked in")],
        coerce=lambda value: value == "1",
        initial="1",
    )


class NoShowsForm(forms.Form):
    """Withdraw the players who did not check in: nothing to fill in."""


class MoveForm(RosterForm):
    player = forms.IntegerField(label="Player number", min_value=1)
    division = forms.CharField(
        label="To division", max_length=rt.MAX_DIVISION_NAME_LENGTH
    )


class DivisionRoundsForm(forms.Form):
    rounds = forms.IntegerField(
        label="Rounds this division plays",
        min_value=1,
        max_value=rt.MAX_ROUNDS,
        required=False,
        help_text="Empty: the tournament's number.",
    )
