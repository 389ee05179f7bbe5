"""The console's forms of results: the fast slip entry, amendments, forfeits and
a board's GCG.

A slip form only reads the slip (numbers to players, scores to whole numbers);
whether its result may be recorded is the rules' decision, made once: by the
append (their refusal is shown on the field it names, ``ResultEntryForm.refuse``),
or, for the instant check of a partly typed slip, by applying it to the state
without writing (``ResultEntryForm.check``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms

from games.refusals import show_refusal
from rules import tournament as rt
from rules.errors import RulesError
from tournaments.core.forms import PLAUSIBLE_MAX, PLAUSIBLE_MIN, number_input

# --- results ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FieldNote:
    """What the instant check says about one field: an error, a warning or a hint."""

    level: str  # "error", "warn", "hint"
    text: str


RESULT_FIELDS = ("a_number", "a_score", "b_number", "b_score", "a_pre", "b_pre")
# The boxes of every slip: while they are empty the slip is still being typed.
SLIP_FIELDS = RESULT_FIELDS[:4]


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
        widget=number_input(autocomplete="off", **attrs),
    )


class ResultEntryForm(forms.Form):
    """One score slip: player number, score, player number, score (and, for a tie,
    the scores before the end-of-game adjustments).

    Built on the tournament's rules state (the one the request loaded): it gives
    the division's players by number and each one's seat. `is_valid()` and
    `finish()` read a slip to store (`event()`); `check()` gives the instant
    per-field notes of a partly typed one.
    """

    a_number = forms.IntegerField(
        label="Player", required=False, widget=number_input(autocomplete="off")
    )
    a_score = _score_field("Score")
    b_number = forms.IntegerField(
        label="Opponent", required=False, widget=number_input(autocomplete="off")
    )
    b_score = _score_field("Score")
    a_pre = _score_field("Before adjustments")
    b_pre = _score_field("Before adjustments")
    confirmed = forms.CharField(required=False, widget=forms.HiddenInput)
    # The tournament's version the slip was typed against (the page's): a slip kept
    # in the browser while the server could not be reached arrives later, and a
    # result recorded for its board since then was entered elsewhere meanwhile.
    typed_at = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)

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
        self.confirm_token = ""
        self.notes: dict[str, FieldNote] = {}
        self.tied = False

    # -- reading the slip ----------------------------------------------------------

    def _player(self, field: str) -> rt.Player | None:
        """The player of the number typed in `field` (a number is not a rule: the
        rules know players by id)."""
        number = self.cleaned_data.get(field)
        if number is None:
            return None
        player = self.roster.get(number)
        if player is None:
            self.add_error(
                field, f"No player number {number} in division {self.division}."
            )
        return player

    def _note(self, field: str, level: str, text: str) -> None:
        if field not in self.notes or self.notes[field].level != "error":
            self.notes[field] = FieldNote(level, text)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.notes = {}
        a = self._player("a_number")
        b = self._player("b_number")
        score_a, score_b = data.get("a_score"), data.get("b_score")
        for field, score in (("a_score", score_a), ("b_score", score_b)):
            if score is not None and not PLAUSIBLE_MIN <= score <= PLAUSIBLE_MAX:
                # A likely typing slip, not a rule: the director confirms it.
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
        data["player_a"], data["player_b"] = a, b
        return data

    def finish(self) -> bool:
        """After `is_valid()`: a whole slip, or the boxes still to fill; ask to
        confirm an unusual score (the same slip submitted again is the
        confirmation)."""
        required = {
            "a_number": "Type the player's number.",
            "a_score": "Type the player's score.",
            "b_number": "Type the opponent's number.",
            "b_score": "Type the opponent's score.",
        }
        for field, message in required.items():
            if self.cleaned_data.get(field) is None and field not in self.errors:
                self.add_error(field, message)
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

    def event(self) -> rt.ResultRecorded:
        """The slip as the rules' event (after `finish()`)."""
        data = self.cleaned_data
        return rt.ResultRecorded(
            round=self.round,
            player_a=data["player_a"].player_id,
            player_b=data["player_b"].player_id,
            score_a=data["a_score"],
            score_b=data["b_score"],
            pre_adjustment_a=data.get("a_pre"),
            pre_adjustment_b=data.get("b_pre"),
        )

    def refuse(self, error: Any) -> None:
        """Show the rules' refusal of the slip on the field it names."""
        show_refusal(self, error, RESULT_RULE_FIELDS)

    # -- the instant check -----------------------------------------------------------

    def _seat(self, player: rt.Player) -> rt.Player | None:
        """Whom `player` plays this round (None: a bye, or not paired)."""
        round_state = self.rules.round_state(self.division, self.round)
        seat = round_state.seats.get(player.player_id) if round_state else None
        if seat is None or seat.opponent is None:
            return None
        return self.rules.players[seat.opponent]

    def _seat_note(self, field: str, player: rt.Player) -> rt.Player | None:
        """Say where `player` sits this round; their opponent (None if none).

        A slip naming one player is not yet a result the rules can judge: what the
        lookup of their seat finds is said at once (a player without a game can be
        on no slip)."""
        round_state = self.rules.round_state(self.division, self.round)
        seat = round_state.seats.get(player.player_id) if round_state else None
        opponent = self._seat(player)
        if round_state is None:
            self._note(field, "error", f"Round {self.round} is not paired yet.")
        elif seat is None:
            self._note(
                field, "error", f"{player.name} is not paired in round {self.round}."
            )
        elif opponent is None:
            self._note(
                field, "error", f"{player.name} has a bye in round {self.round}."
            )
        else:
            first = "goes first" if seat.went_first else "goes second"
            self._note(
                field,
                "hint",
                f"{player.name}: board {seat.board}, {first}, v #{opponent.number} "
                f"{opponent.name}",
            )
        return opponent

    def _ask_the_rules(self, a: rt.Player, b: rt.Player) -> None:
        """Apply the slip as typed so far to the state (a value: nothing is stored);
        their refusal is noted on the field it names, unless that box is still
        empty or already refused as typed (the slip is being typed)."""
        data = self.cleaned_data
        event = rt.ResultRecorded(
            round=self.round,
            player_a=a.player_id,
            player_b=b.player_id,
            score_a=data.get("a_score"),
            score_b=data.get("b_score"),
            pre_adjustment_a=data.get("a_pre"),
            pre_adjustment_b=data.get("b_pre"),
        )
        try:
            rt.apply(self.rules, event)
        except RulesError as error:
            field = RESULT_RULE_FIELDS.get(getattr(error, "field", None) or "")
            if field in self.errors or (
                field in SLIP_FIELDS and self.data.get(field, "") == ""
            ):
                return
            self._note(field or "__all__", "error", error.message)

    def check(self) -> dict[str, FieldNote]:
        """The instant notes for a partly typed slip (no error for empty fields).

        Both numbers typed: the rules judge the slip as typed. One number typed: its
        seat is looked up, and the rules judge it against that player's paired
        opponent (a result already recorded)."""
        self.is_valid()
        a = self.cleaned_data.get("player_a")
        b = self.cleaned_data.get("player_b")
        if a is not None and b is not None:
            if self._seat(a) is not None:
                self._seat_note("a_number", a)
            self._note("b_number", "hint", b.name)
            self._ask_the_rules(a, b)
        elif a is not None:
            opponent = self._seat_note("a_number", a)
            if opponent is not None:
                self._ask_the_rules(a, opponent)
        elif b is not None:
            opponent = self._seat_note("b_number", b)
            if opponent is not None:
                self._ask_the_rules(opponent, b)
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
        label="Absent player's number", min_value=1, widget=number_input()
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
