"""The console's forms of a division's own rules: its pairing rules and prizes.

Each reads what the director typed into the document the API takes and checks it
with the API's own serializer (one validation for both doors); the rules then
refuse what makes no sense for the event, and the refusal is shown by the field
(or the line of the prize text) it names.
"""

from __future__ import annotations

from typing import Any

from django import forms

from rules.division_rules import DEFAULT_GIBSON_SPREAD, PairingOptions, PrizeTable
from tournaments import serializers as s
from tournaments.prize_text import PrizeTableError, prize_text, read_prize_text


def _number(**attrs: Any) -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric", **attrs})


class PairingRulesForm(forms.Form):
    max_repeats = forms.IntegerField(
        label="Repeats allowed",
        required=False,
        min_value=0,
        widget=_number(),
        help_text="How many times two players may have met before a round (0: never"
        " twice). Empty: the system's own rule (Swiss and Chew avoid every repeat"
        " they can; King of the Hill and COP do not limit them).",
    )
    gibson = forms.BooleanField(
        label="Gibsonize King of the Hill and Swiss rounds",
        required=False,
        help_text="A player who has clinched their place meets the highest player"
        " out of the money (or has the bye). Chew and COP always do.",
    )
    gibson_spread = forms.IntegerField(
        label="Spread per round left",
        min_value=0,
        initial=DEFAULT_GIBSON_SPREAD,
        widget=_number(),
        help_text="What a trailing player is assumed to gain per round when"
        " deciding who has clinched.",
    )
    prize_places = forms.IntegerField(
        label="Places that win money",
        required=False,
        min_value=1,
        widget=_number(),
        help_text="Empty: a quarter of the division.",
    )
    prize_bands = forms.CharField(
        label="Chew pairings' prize bands",
        required=False,
        max_length=300,
        help_text='The last place of each band: "1 2 4" pairs 1st, 2nd and 3rd-4th'
        " contenders among themselves. Empty: each paid place.",
    )
    fixed_boards = forms.CharField(
        label="Fixed boards",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        help_text='One "player-number board" a line (e.g. "12 1": player #12 always'
        " at board 1).",
    )
    init_fontes_rounds = forms.IntegerField(
        label="InitFontes rounds", min_value=1, initial=3, widget=_number()
    )

    def __init__(self, *args: Any, roster: dict[int, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.roster = roster

    @classmethod
    def showing(cls, options: PairingOptions, roster: dict[int, Any]) -> Any:
        numbers = {p.player_id: n for n, p in roster.items()}
        return cls(
            roster=roster,
            initial={
                "max_repeats": options.max_repeats,
                "gibson": options.gibson,
                "gibson_spread": options.gibson_spread,
                "prize_places": options.prize_places,
                "prize_bands": " ".join(map(str, options.prize_bands)),
                "fixed_boards": "\n".join(
                    f"{numbers.get(pin.player_id, pin.player_id)} {pin.board}"
                    for pin in options.fixed_boards
                ),
                "init_fontes_rounds": options.init_fontes_rounds,
            },
        )

    def clean_prize_bands(self) -> list[str]:
        return self.cleaned_data["prize_bands"].replace(",", " ").split()

    def clean_fixed_boards(self) -> list[dict[str, Any]]:
        pins = []
        for number, raw in enumerate(self.cleaned_data["fixed_boards"].splitlines(), 1):
            words = raw.split()
            if not words:
                continue
            if len(words) != 2 or not all(w.isdigit() for w in words):
                raise forms.ValidationError(
                    f'Line {number}: write "player-number board", e.g. "12 1".'
                )
            player = self.roster.get(int(words[0]))
            if player is None:
                raise forms.ValidationError(
                    f"Line {number}: no player number {words[0]}."
                )
            pins.append({"player_id": player.player_id, "board": int(words[1])})
        return pins

    def document(self) -> dict[str, Any] | None:
        """The API's document of the pairing rules, or None (errors added)."""
        data = dict(self.cleaned_data)
        if data.get("gibson_spread") is None:
            data["gibson_spread"] = DEFAULT_GIBSON_SPREAD
        if data.get("init_fontes_rounds") is None:
            data["init_fontes_rounds"] = 3
        checked = s.PairingRulesFields(data=data)
        if checked.is_valid():
            return dict(checked.validated_data)
        for field, problems in checked.errors.items():
            self.add_error(field if field in self.fields else None, str(problems[0]))
        return None


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
        checked = s.PrizeTableFields(data=document)
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
