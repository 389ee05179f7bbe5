"""Limits on new tournament and game events (``admit``): divisions, players, names,
reasons and notes have a maximum, and a division's name must fit in a web address.

The limits hold for events added from now on: a replay of an older log that went
past them still works (its pages must show it).
"""

from __future__ import annotations

import pytest

from rules import events as ev
from rules import tournament as rt
from rules.errors import LimitExceededError
from rules.ruleset import ruleset


def created(**changes) -> rt.TournamentCreated:
    values = {
        "name": "Riverside",
        "start_date": "2026-11-21",
        "end_date": "2026-11-21",
        "rounds": 5,
        **changes,
    }
    return rt.TournamentCreated(**values)


def state_with(divisions: int = 1, players: dict[str, int] | None = None):
    state = rt.apply(None, created())
    for index in range(divisions):
        state = rt.apply(state, rt.DivisionAdded(name=f"D{index}"))
    for division, count in (players or {}).items():
        for number in range(count):
            state = rt.apply(
                state,
                rt.PlayerRegistered(
                    player_id=f"{division}-{number}",
                    division=division,
                    name=f"Player {number}",
                    rating=1500,
                ),
            )
    return state


def refused(state, event) -> rt.TournamentError:
    with pytest.raises(rt.TournamentError) as error:
        rt.admit(state, event)
    return error.value


@pytest.mark.parametrize(
    "name", ["A/B", "A\\B", ".", "..", " A", "A ", "A\x00B", "A\tB", "x" * 65, ""]
)
def test_a_division_name_that_cannot_be_an_address_segment_is_refused(name):
    error = refused(state_with(0), rt.DivisionAdded(name=name))
    assert error.code == "invalid_name"
    assert error.field == "name"


def test_the_slash_refusal_says_why():
    error = refused(state_with(0), rt.DivisionAdded(name="A/B"))
    assert error.message == (
        "The division name 'A/B' cannot contain / or \\: it is part of a web address."
    )


@pytest.mark.parametrize("name", ["A", "Open", "Élite 1", "A&B", "50%", "?", "x" * 64])
def test_ordinary_division_names_are_admitted(name):
    rt.admit(state_with(0), rt.DivisionAdded(name=name))


def test_at_most_max_divisions():
    full = state_with(rt.MAX_DIVISIONS)
    error = refused(full, rt.DivisionAdded(name="One more"))
    assert error.code == "too_many_divisions"
    rt.admit(state_with(rt.MAX_DIVISIONS - 1), rt.DivisionAdded(name="Last"))


def test_at_most_max_players_in_a_division_and_in_a_tournament():
    full = state_with(1, {"D0": rt.MAX_PLAYERS_PER_DIVISION})
    late = rt.PlayerRegistered(player_id="late", division="D0", name="Late", rating=0)
    assert refused(full, late).code == "division_full"
    per_division = rt.MAX_PLAYERS // 4
    assert per_division <= rt.MAX_PLAYERS_PER_DIVISION
    crowded = state_with(5, {f"D{n}": per_division for n in range(4)})
    other = rt.PlayerRegistered(player_id="x", division="D4", name="X", rating=0)
    assert refused(crowded, other).code == "tournament_full"


@pytest.mark.parametrize(
    ("event", "field"),
    [
        (created(name="x" * (rt.MAX_NAME_LENGTH + 1)), "name"),
        (created(venue="x" * (rt.MAX_NAME_LENGTH + 1)), "venue"),
        (
            rt.PlayerRegistered(player_id="p", division="D0", name="x" * 201, rating=0),
            "name",
        ),
        (
            rt.PlayerRegistered(
                player_id="p", division="D0", name="Ann", rating=0, member_id="9" * 65
            ),
            "member_id",
        ),
        (
            rt.PlayerRegistered(player_id="p/1", division="D0", name="Ann", rating=0),
            "player_id",
        ),
        (
            rt.ResultAmended(
                round=1,
                player_a="a",
                player_b="b",
                score_a=1,
                score_b=0,
                reason="x" * 501,
            ),
            "reason",
        ),
    ],
)
def test_names_ids_and_reasons_have_a_maximum(event, field):
    state = None if isinstance(event, rt.TournamentCreated) else state_with(1)
    assert refused(state, event).field == field


def test_a_replay_of_a_log_past_the_limits_still_works():
    """Events added before the limits replay as they were: the rules' apply never
    checks them."""
    events = [created(), rt.DivisionAdded(name="A/B")]
    events += [rt.DivisionAdded(name=f"D{n}") for n in range(rt.MAX_DIVISIONS + 5)]
    state = rt.replay(events)
    assert state.divisions[0] == "A/B"
    assert len(state.divisions) == rt.MAX_DIVISIONS + 6


def test_game_notes_reasons_and_names_have_a_maximum():
    def limit_of(event) -> LimitExceededError:
        with pytest.raises(LimitExceededError) as error:
            ev.admit(event)
        return error.value

    note = ev.NoteAdded(target_version=2, text="x" * (ev.MAX_NOTE_LENGTH + 1))
    assert limit_of(note).field == "text"
    ev.admit(ev.NoteAdded(target_version=2, text="x" * ev.MAX_NOTE_LENGTH))
    reason = "x" * (ev.MAX_REASON_LENGTH + 1)
    assert limit_of(ev.ScoreCorrected(player=0, amount=5, reason=reason)).field == (
        "reason"
    )
    assert limit_of(ev.EventsSuperseded(from_version=2, reason=reason)).field == (
        "reason"
    )
    started = ev.GameStarted(players=("Ann", "x" * 101), ruleset=ruleset("classic"))
    assert limit_of(started).field == "players"
