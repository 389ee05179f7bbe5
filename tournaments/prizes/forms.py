"""The console's form of a division's prize table (typed as lines, ``prizes.text``)."""

from __future__ import annotations

from typing import Any

from django import forms

from rules.division_rules import PrizeTable
from tournaments.prizes import serializers
from tournaments.prizes.text import PrizeTableError, prize_text, read_prize_text


class PrizeTableForm(forms.Form):
    text = forms.CharField(
        label="Classes and prizes",
        required=False,
        max_length=30_000,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
        help_text='One line each: "class NAME LOW-HIGH", then "kind [place] amount'
        ' [options]" in the order the prizes are given out.',
    )

    @classmethod
    def showing(cls, table: PrizeTable | None) -> Any:
        return cls(initial={"text": prize_text(table)})

    def document(self) -> tuple[dict[str, Any], dict[str, int]] | None:
        """The API's document of the table and where each entry's line is, or
        None (errors added)."""
        try:
            document, lines = read_prize_text(self.cleaned_data["text"])
        except PrizeTableError as error:
            self.add_error("text", str(error))
            return None
        checked = serializers.PrizeTableFields(data=document)
        if checked.is_valid():
            return dict(checked.validated_data), lines
        for problem in _line_problems(checked.errors, lines):
            self.add_error("text", problem)
        return None


def _line_problems(errors: dict[str, Any], lines: dict[str, int]) -> list[str]:
    problems = []
    for group in ("classes", "prizes"):
        found = errors.get(group)
        if isinstance(found, list):
            for index, entry in enumerate(found):
                for field, messages in (entry or {}).items():
                    line = lines.get(f"{group}[{index}]")
                    problems.append(f"Line {line}: {field}: {messages[0]}")
        elif found:
            problems.append(str(found[0] if isinstance(found, list) else found))
    return problems or ["The prize table cannot be read."]
