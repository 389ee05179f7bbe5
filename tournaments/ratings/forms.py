"""The console's forms of ratings files: tsh's ``.t`` and ``config.tsh``, a
``.TOU``, a ratings body's list.
"""

from __future__ import annotations

from typing import Any

from django import forms

from tournaments.core.uploads import (
    MAX_CONFIG_BYTES,
    MAX_T_FILE_BYTES,
    MAX_TOURNEY_JS_BYTES,
)
from tournaments.players.forms import text_of_upload


class TshImportForm(forms.Form):
    file = forms.FileField(label="tsh .t file")

    def clean_file(self) -> str:
        return text_of_upload(self.cleaned_data["file"], MAX_T_FILE_BYTES, "A .t file")


class TouImportForm(forms.Form):
    file = forms.FileField(label="AUPAIR .TOU file")
    ratings_list = forms.FileField(
        label="Ratings list (CSV, optional)",
        required=False,
        help_text="Membership id, name, rating, career games: the players are "
        "registered with them (a .TOU has no ratings).",
    )

    def clean_file(self) -> str:
        return text_of_upload(
            self.cleaned_data["file"], MAX_T_FILE_BYTES, "A .TOU file"
        )

    def clean_ratings_list(self) -> str | None:
        upload = self.cleaned_data.get("ratings_list")
        if upload is None:
            return None
        return text_of_upload(upload, MAX_T_FILE_BYTES, "A ratings list")


class RatingsListForm(forms.Form):
    file = forms.FileField(
        label="Ratings list (CSV)",
        help_text="Membership id, name, rating, career games; one player a line.",
    )

    def clean_file(self) -> str:
        return text_of_upload(
            self.cleaned_data["file"], MAX_T_FILE_BYTES, "A ratings list"
        )


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

    name = forms.CharField(
        label="Name",
        max_length=200,
        required=False,
        help_text="By default config.tsh's event_name.",
    )
    start_date = forms.DateField(
        label="First day",
        required=False,
        help_text="By default config.tsh's event_date.",
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    end_date = forms.DateField(
        label="Last day", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    config = forms.FileField(label="config.tsh")
    files = MultipleFileField(label="The divisions' .t files")

    def clean_config(self) -> str:
        return text_of_upload(
            self.cleaned_data["config"], MAX_CONFIG_BYTES, "config.tsh"
        )

    def clean_files(self) -> dict[str, str]:
        return {
            upload.name: text_of_upload(upload, MAX_T_FILE_BYTES, f"{upload.name}")
            for upload in self.cleaned_data["files"]
        }


class TourneyJsImportForm(forms.Form):
    """A whole tsh event from its tourney.js (name and dates from the file unless
    given)."""

    file = forms.FileField(label="tourney.js")
    name = forms.CharField(
        label="Name", max_length=200, required=False, help_text="Default: the file's."
    )
    start_date = forms.DateField(
        label="First day",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Default: the file's event date.",
    )
    end_date = forms.DateField(
        label="Last day", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean_file(self) -> str:
        return text_of_upload(
            self.cleaned_data["file"], MAX_TOURNEY_JS_BYTES, "A tourney.js"
        )
