"""The console's forms of pairing: a round's pairing, a division's pairing rules,
its round schedule."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from rules import tournament as rt
from rules.division_rules import DEFAULT_GIBSON_SPREAD, PairingOptions
from rules.numbers import is_whole_number, whole_number
from tournaments.core.forms import number_input
from tournaments.pairing import serializers
from tournaments.setup.forms import METHOD_CHOICES


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
            if len(words) != 2 or not all(is_whole_number(w) for w in words):
                raise forms.ValidationError(
                    f'Line {number}: write "player-number board", e.g. "12 1".'
                )
            player = self.roster.get(whole_number(words[0]))
            if player is None:
                raise forms.ValidationError(
                    f"Line {number}: no player number {words[0]}."
                )
            pins.append(
                {"player_id": player.player_id, "board": whole_number(words[1])}
            )
        return pins

    def document(self) -> dict[str, Any] | None:
        """The API's document of the pairing rules, or None (errors added)."""
        data = dict(self.cleaned_data)
        if data.get("gibson_spread") is None:
            data["gibson_spread"] = DEFAULT_GIBSON_SPREAD
        if data.get("init_fontes_rounds") is None:
            data["init_fontes_rounds"] = 3
        checked = serializers.PairingRulesFields(data=data)
        if checked.is_valid():
            return dict(checked.validated_data)
        for field, problems in checked.errors.items():
            self.add_error(field if field in self.fields else None, str(problems[0]))
        return None


# --- pairing ---------------------------------------------------------------------


class PairForm(forms.Form):
    round = forms.IntegerField(label="Round", min_value=1, widget=number_input())
    method = forms.ChoiceField(label="Pair by", choices=METHOD_CHOICES)
    based_on_round = forms.IntegerField(
        label="On the standings after round",
        required=False,
        min_value=0,
        help_text="Empty: the round before.",
        widget=number_input(),
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
            if (
                parts[0].lower() == "bye"
                and len(parts) == 2
                and is_whole_number(parts[1])
            ):
                player = self.roster.get(whole_number(parts[1]))
                if player is None:
                    problems.append(f"Line {number}: no player number {parts[1]}.")
                else:
                    byes.append(player.player_id)
                continue
            if len(parts) != 3 or not all(is_whole_number(part) for part in parts):
                problems.append(
                    f"Line {number} ({raw.strip()!r}): write "
                    '"board first second" or "bye N".'
                )
                continue
            board, first, second = (whole_number(part) for part in parts)
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


# One schedule line as the console writes it: "10: swiss on 9" (round 10 paired
# Swiss on round 9's results), or "10 swiss 9".
_SCHEDULE_LINE = re.compile(
    r"(?P<round>\d+)\s*:?\s*(?P<method>[a-z_ ]+?)\s+(?:on\s+)?(?P<based>\d+)"
    r"(?:'s results)?",
    re.IGNORECASE,
)


class RoundScheduleForm(forms.Form):
    schedule = forms.CharField(
        label="Round schedule",
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        help_text="One round a line, as “10: swiss on 9”: round 10 is paired Swiss"
        " on round 9's results, by itself, once they are all in (0: before any"
        " result). Methods: " + ", ".join(serializers.SCHEDULED_METHODS) + "."
        " Empty: no schedule (every round paired by hand).",
    )

    @classmethod
    def showing(cls, schedule: tuple[rt.ScheduledRound, ...]) -> RoundScheduleForm:
        text = "\n".join(
            f"{line.round}: {line.method.value} on {line.based_on_round}"
            for line in schedule
        )
        return cls(initial={"schedule": text})

    def clean_schedule(self) -> list[tuple[int, str, int]]:
        lines = []
        for number, raw in enumerate(self.cleaned_data["schedule"].splitlines(), 1):
            text = raw.strip()
            if not text:
                continue
            found = _SCHEDULE_LINE.fullmatch(text)
            if found is None:
                raise forms.ValidationError(
                    f"Line {number}: write it as “10: swiss on 9” ({text!r})."
                )
            method = found["method"].strip().lower().replace(" ", "_")
            lines.append((int(found["round"]), method, int(found["based"])))
        return lines
