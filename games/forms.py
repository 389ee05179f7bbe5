"""Forms of the game pages: notes, the move-by-move recorder, GCG upload.

The forms check only the shape of the input (a number is a number, a position reads
as a GCG position); every rule of the game is the rules engine's, reported by the
services as ``EventRejectedError`` and shown next to the field it names.
"""

from __future__ import annotations

from typing import Any

from django import forms

from rules.board import Position
from rules.errors import RulesError
from rules.events import ChallengeOutcome, EndReason, Visibility

MAX_NOTE_CHARS = 2000
MAX_GCG_BYTES = 128 * 1024

RULES_CHOICES = [
    ("", "Work it out from the file"),
    ("classic", "Classic (the seeds' rules)"),
    ("naspa", "NASPA"),
    ("wespa", "WESPA"),
]

END_CHOICES = [
    (EndReason.WENT_OUT.value, "A player went out"),
    (EndReason.SCORELESS_TURNS.value, "Scoreless turns"),
    (EndReason.RESIGNED.value, "Resigned"),
    (EndReason.FORFEIT.value, "Forfeit"),
    (EndReason.TIMED_OUT.value, "Timed out"),
    (EndReason.ADJUDICATED.value, "Adjudicated (give the final scores)"),
    (EndReason.DIRECTOR_DECISION.value, "Director's decision (give the final scores)"),
]


class NoteEditForm(forms.Form):
    """A note's text (its author's new text, when editing one)."""

    text = forms.CharField(
        label="Your note",
        max_length=MAX_NOTE_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def clean_text(self) -> str:
        text = self.cleaned_data["text"].strip()
        if not text:
            raise forms.ValidationError("Write something first.")
        return text


class NoteForm(NoteEditForm):
    """A note on one line of the score sheet (``turn`` is the 1-based line)."""

    turn = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    field_order = ("turn", "text")


VISIBILITY_CHOICES = [
    (Visibility.PRIVATE.value, "Private: only me"),
    (Visibility.LINK.value, "Anyone with the secret link"),
    (Visibility.PUBLIC.value, "Public: anyone"),
]


class VisibilityForm(forms.Form):
    """Who may read a casual game (its owner chooses)."""

    visibility = forms.ChoiceField(
        label="Who may read this game", choices=VISIBILITY_CHOICES
    )


class _VersionedForm(forms.Form):
    """A recorder command, made against the game as it was shown (`version`)."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class PlaceForm(_VersionedForm):
    position = forms.CharField(
        label="Position",
        max_length=4,
        help_text="8D reads across from D8; D8 reads down.",
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "size": 4,
                "autofocus": True,
            }
        ),
    )
    word = forms.CharField(
        label="Word",
        max_length=15,
        help_text="Lower case for a blank; . for a tile already on the board.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "size": 12}),
    )
    score = forms.IntegerField(
        label="Score on the slip",
        required=False,
        help_text="Optional: a score that differs from the rules' is flagged.",
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 4}),
    )
    rack = forms.CharField(
        label="Rack held",
        max_length=7,
        required=False,
        help_text="Optional: the player's rack, ? for a blank.",
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "size": 8}
        ),
    )

    def clean_position(self) -> str:
        text = self.cleaned_data["position"].strip()
        try:
            Position.from_gcg(text)
        except RulesError as error:
            raise forms.ValidationError(error.message) from None
        return text.upper()

    def clean_word(self) -> str:
        return self.cleaned_data["word"].strip()

    def clean_rack(self) -> str | None:
        rack = self.cleaned_data.get("rack", "").strip().upper()
        return rack or None


class ExchangeForm(_VersionedForm):
    tiles = forms.CharField(
        label="Tiles exchanged",
        max_length=7,
        required=False,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "size": 8}
        ),
    )
    count = forms.IntegerField(
        label="or how many",
        min_value=1,
        max_value=7,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 2}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        tiles = (data.get("tiles") or "").strip().upper()
        data["tiles"] = tiles
        if not tiles and not data.get("count"):
            raise forms.ValidationError("Give the tiles exchanged or how many.")
        if tiles:
            data["count"] = 0
        return data


class PassForm(_VersionedForm):
    pass


class ChallengeForm(_VersionedForm):
    outcome = forms.ChoiceField(
        label="Ruling",
        choices=[
            (ChallengeOutcome.PHONY.value, "Phony: the play comes off"),
            (ChallengeOutcome.VALID.value, "Valid: the play stands"),
        ],
        widget=forms.RadioSelect,
    )


class EndForm(_VersionedForm):
    reason = forms.ChoiceField(label="Why the game ended", choices=END_CHOICES)
    player = forms.TypedChoiceField(
        label="Player (who went out, resigned, forfeited…)",
        coerce=int,
        required=False,
        empty_value=None,
        choices=[],
    )
    score_0 = forms.IntegerField(label="Final score", required=False)
    score_1 = forms.IntegerField(label="Final score", required=False)

    def __init__(self, *args: Any, players: list[str] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        names = players or []
        self.fields["player"].choices = [("", "—")] + [
            (str(index), name) for index, name in enumerate(names)
        ]
        for index, name in enumerate(names[:2]):
            self.fields[f"score_{index}"].label = f"Final score of {name}"

    def final_scores(self) -> list[int]:
        scores = [self.cleaned_data.get("score_0"), self.cleaned_data.get("score_1")]
        return [] if any(score is None for score in scores) else scores  # type: ignore[misc]


class UndoForm(_VersionedForm):
    reason = forms.CharField(
        label="Why",
        max_length=200,
        initial="entered by mistake",
        widget=forms.TextInput(attrs={"size": 24}),
    )


class GcgUploadForm(forms.Form):
    file = forms.FileField(label="GCG file")
    rules = forms.ChoiceField(label="Rules", choices=RULES_CHOICES, required=False)
    visibility = forms.ChoiceField(
        label="Who may read it",
        choices=VISIBILITY_CHOICES,
        initial=Visibility.PRIVATE.value,
        required=False,
        help_text="You can publish or share it later from the game's page.",
    )

    def clean_visibility(self) -> str:
        # Left out, an upload is its owner's only.
        return self.cleaned_data["visibility"] or Visibility.PRIVATE.value

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_GCG_BYTES:
            raise forms.ValidationError("A GCG file may be at most 128 KB.")
        return upload
