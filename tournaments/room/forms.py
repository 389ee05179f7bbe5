"""Forms of the room's pages: a player's own score report, self-entry's switch."""

from __future__ import annotations

from django import forms

from rules import tournament as rt
from tournaments.room import selfentry


def _score(label: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=rt.MIN_SCORE,
        max_value=rt.MAX_SCORE,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class ScoreReportForm(forms.Form):
    round = forms.IntegerField(
        label="Round", min_value=1, max_value=rt.MAX_ROUNDS, widget=forms.HiddenInput
    )
    own_score = _score("Your score")
    opponent_score = _score("Your opponent's score")
    code = forms.CharField(
        label="Code on your scorecard for this round",
        max_length=32,
        required=False,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters"}
        ),
    )

    def clean_code(self) -> str:
        """The code as printed, or "" (signed in): its letters checked here, so
        a typo is a message on the field and never reaches the comparison."""
        typed = self.cleaned_data["code"]
        if not typed:
            return ""
        try:
            return selfentry.normalized_code(typed)
        except rt.TournamentError as error:
            raise forms.ValidationError(error.message, code=error.code) from None

    # The rules' fields (rules.selfentry, a result's checks) by form field.
    RULE_FIELDS = {
        "round": "round",
        "score_a": "own_score",
        "score_b": "opponent_score",
        "code": "code",
    }


class SelfEntrySwitchForm(forms.Form):
    enabled = forms.BooleanField(
        label="Players may report their own scores", required=False
    )
