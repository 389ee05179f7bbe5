"""The ratings officers' verification form."""

from __future__ import annotations

from django import forms


class VerifyForm(forms.Form):
    file = forms.FileField(label="File as downloaded (.t, .TOU, CSV, tourney.js, PDF)")
    signature = forms.FileField(label="Its .sig (optional)", required=False)
