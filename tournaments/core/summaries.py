"""One line in words for every event a tournament's stream holds: the audit's summaries.

One function per event type, in one table (``SUMMARIES``), for the rules' events
and the system's alike; ``tests/tournaments_tests/audit/test_summaries.py`` walks
every type the tournament stream registers and fails on one without a summary, so
the audit page never shows a raw type name.

Usage::

    summary("result_recorded", payload, names)   # "Result round 3: Ann 412–388 Bob"
    summary("player_edited", payload, names, changed="rating 1500 → 1620")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Payload = dict[str, Any]
Names = dict[str, str]
Summary = Callable[[Payload, Names, str], str]


def summary(type_name: str, payload: Payload, names: Names, changed: str = "") -> str:
    """The event in words; ``changed`` says what a correction changed (old → new)."""
    describe = SUMMARIES.get(type_name)
    if describe is None:
        # Only a type registered after this table was written gets here; the test
        # of this module fails on it first.
        return type_name
    return describe(payload, names, changed)


def _name(names: Names, player_id: str | None) -> str:
    return names.get(player_id or "", player_id or "?")


def _created(p: Payload, names: Names, changed: str) -> str:
    return f"Created {p['name']} ({p['rounds']} rounds)"


def _registered(p: Payload, names: Names, changed: str) -> str:
    return f"Registered {p['name']} ({p['rating']}) in {p['division']}"


def _withdrawn(p: Payload, names: Names, changed: str) -> str:
    who = _name(names, p["player_id"])
    return f"{who} withdrew from round {p['from_round']} ({p['policy']})"


def _reactivated(p: Payload, names: Names, changed: str) -> str:
    return f"{_name(names, p['player_id'])} re-activated from round {p['from_round']}"


def _paired(p: Payload, names: Names, changed: str) -> str:
    by = " by the round schedule" if p.get("scheduled") else ""
    gibsons = p.get("gibsons") or ()
    marked = (
        f"; Gibsonized: {', '.join(_name(names, g) for g in gibsons)}"
        if gibsons
        else ""
    )
    return (
        f"Paired round {p['round']} of {p['division']}{by} "
        f"({p['method']}, {len(p['games'])} games{marked})"
    )


def _schedule(p: Payload, names: Names, changed: str) -> str:
    lines = p["rounds"]
    if not lines:
        return f"Round schedule of {p['division']} cleared"
    said = "; ".join(
        f"round {line['round']}: {line['method']} on round"
        f" {line['based_on_round']}'s results"
        for line in lines
    )
    return f"Round schedule of {p['division']}: {said}"


def _result(verb: str) -> Summary:
    def describe(p: Payload, names: Names, changed: str) -> str:
        if p.get("absentee"):
            return f"{verb} round {p['round']}: {_name(names, p['absentee'])} forfeits"
        return (
            f"{verb} round {p['round']}: {_name(names, p['player_a'])} "
            f"{p['score_a']}–{p['score_b']} {_name(names, p['player_b'])}"
        )

    return describe


def _forfeit(p: Payload, names: Names, changed: str) -> str:
    return f"Round {p['round']}: {_name(names, p['absentee'])} forfeits"


def _unpaired(p: Payload, names: Names, changed: str) -> str:
    who = _name(names, p["player_id"])
    return f"Round {p['round']}: {who} credited {p['spread']:+d}"


def _awarded(p: Payload, names: Names, changed: str) -> str:
    who = _name(names, p["player_id"])
    result = {"win": "a win", "draw": "a half (half-bye)", "loss": "a loss"}.get(
        p["outcome"], p["outcome"]
    )
    return f"Round {p['round']}: {who} awarded {result}, spread {p['spread']:+d}"


def _tie_win(p: Payload, names: Names, changed: str) -> str:
    winner, loser = _name(names, p["winner"]), _name(names, p["loser"])
    return (
        f"Round {p['round']}: {winner} beat {loser} on a tie, {p['score']}"
        f"–{p['score']} (recorded as won; the scores before the end-of-game"
        " adjustments are not known)"
    )


def _fixed(text: str) -> Summary:
    return lambda p, names, changed: text


def _team(role: str) -> Summary:
    return lambda p, names, changed: f"{role} added: {p['username']}"


def _published(p: Payload, names: Names, changed: str) -> str:
    return "Published" if p["published"] else "Unpublished"


def _linked(p: Payload, names: Names, changed: str) -> str:
    return f"{_name(names, p['player_id'])} linked to a user account (confirmed)"


def _rejected(p: Payload, names: Names, changed: str) -> str:
    return f"A user account's claim to be {_name(names, p['player_id'])} refused"


def _edited(p: Payload, names: Names, changed: str) -> str:
    return f"Corrected {_name(names, p['player_id'])}: {changed}"


def _settings(p: Payload, names: Names, changed: str) -> str:
    return f"Settings corrected: {changed}"


def _renamed(p: Payload, names: Names, changed: str) -> str:
    return f"Division {p['name']} renamed {p['new_name']}"


def _pairing_rules(p: Payload, names: Names, changed: str) -> str:
    return f"Pairing rules of {p['division']}: {changed or 'unchanged'}"


def _prize_table(p: Payload, names: Names, changed: str) -> str:
    table = p["table"]
    return (
        f"Prize table of {p['division']}: {len(table['prizes'])} prizes,"
        f" {len(table['classes'])} rating classes"
    )


def _lexicon(p: Payload, names: Names, changed: str) -> str:
    return f"Word list: {p['lexicon'] or 'none'}"


def _game_setup(p: Payload, names: Names, changed: str) -> str:
    own = p["setup"]
    tiles = own["tile_set"] or "the tournament's"
    words = {None: "the tournament's", "": "none"}.get(own["lexicon"], own["lexicon"])
    return f"Games of {p['division']}: tile set {tiles}, lexicon {words}"


def _self_entry(p: Payload, names: Names, changed: str) -> str:
    state = "on" if p["enabled"] else "off"
    return f"Players' own results {state}"


def _rack_delay(p: Payload, names: Names, changed: str) -> str:
    minutes = p["minutes"]
    if minutes is None:
        return "Racks of a game being recorded: shown once it has ended"
    if minutes == 0:
        return "Racks of a game being recorded: shown at once"
    return f"Racks of a game being recorded: shown {minutes} min after each move"


def _score_reported(p: Payload, names: Names, changed: str) -> str:
    how = "with the round's code" if p.get("by_code") else "signed in"
    return (
        f"Round {p['round']}: {_name(names, p['player_id'])} reported "
        f"{p['own_score']}–{p['opponent_score']} ({how})"
    )


# --- The registration day ----------------------------------------------------------


def _checked_in(p: Payload, names: Names, changed: str) -> str:
    who = _name(names, p["player_id"])
    return f"{who} checked in" if p.get("present", True) else f"{who}'s check-in undone"


def _moved(p: Payload, names: Names, changed: str) -> str:
    return f"{_name(names, p['player_id'])} moved to division {p['division']}"


def _division_rounds(p: Payload, names: Names, changed: str) -> str:
    if p["rounds"] is None:
        return f"Division {p['division']} plays the tournament's rounds"
    return f"Division {p['division']} plays {p['rounds']} rounds"


# --- Invitations to the team ---------------------------------------------------------


def _invited(p: Payload, names: Names, changed: str) -> str:
    role = "co-director" if p["role"] == "director" else p["role"]
    return f"Invitation to join as {role} created (until {p['expires_at'][:16]} UTC)"


def _invitation_used(p: Payload, names: Names, changed: str) -> str:
    return f"Invitation accepted by {p['username']}"


SUMMARIES: dict[str, Summary] = {
    "tournament_created": _created,
    "division_added": lambda p, names, changed: f"Added division {p['name']}",
    "division_renamed": _renamed,
    "player_registered": _registered,
    "player_edited": _edited,
    "settings_changed": _settings,
    "lexicon_chosen": _lexicon,
    "game_setup_set": _game_setup,
    "pairing_rules_set": _pairing_rules,
    "prize_table_set": _prize_table,
    "round_schedule_set": _schedule,
    "player_withdrawn": _withdrawn,
    "player_reactivated": _reactivated,
    "round_paired": _paired,
    "result_recorded": _result("Result"),
    "result_amended": _result("Amended"),
    "forfeit_recorded": _forfeit,
    "unpaired_round_recorded": _unpaired,
    "round_awarded": _awarded,
    "tie_win_recorded": _tie_win,
    "director_added": _team("Director"),
    "director_removed": _fixed("Director removed"),
    "scorekeeper_added": _team("Scorekeeper"),
    "scorekeeper_removed": _fixed("Scorekeeper removed"),
    "publication_changed": _published,
    "player_account_linked": _linked,
    "player_account_rejected": _rejected,
    "self_entry_changed": _self_entry,
    "score_reported": _score_reported,
    "rack_delay_set": _rack_delay,
    "invitation_created": _invited,
    "invitation_accepted": _invitation_used,
    "invitation_revoked": _fixed("Invitation revoked"),
    "player_checked_in": _checked_in,
    "player_moved": _moved,
    "division_rounds_set": _division_rounds,
}
