"""Facts real files hold that a paired result cannot say: a round awarded as a
win, a half or a loss against no one (a .TOU's half-bye 1350, a win of no spread),
a tie recorded as won without the pre-adjustment scores, and a game whose file
does not say who went first."""

from __future__ import annotations

import pytest

from rules.records import EntryKind
from rules.tournament import (
    Board,
    DivisionAdded,
    Outcome,
    PlayerRegistered,
    ResultAmended,
    RoundAwarded,
    RoundPaired,
    TieWinRecorded,
    TournamentCreated,
    TournamentError,
    apply,
    derive_cards,
    replay,
    tournament_to_records,
)
from rules.tournament.standings import standings


def _three(**created: object) -> list[object]:
    return [
        TournamentCreated(
            name="T",
            start_date="2026-01-01",
            end_date="2026-01-01",
            rounds=2,
            **created,  # type: ignore[arg-type]
        ),
        DivisionAdded("A"),
        *(PlayerRegistered(f"p{i}", "A", f"P{i}", 1500) for i in (1, 2, 3)),
        RoundPaired("A", 1, (Board(1, "p1", "p2"),), ("p3",)),
    ]


def test_a_half_bye_counts_a_half_and_no_spread() -> None:
    state = replay(
        [
            *_three(),
            RoundPaired("A", 2, (Board(1, "p1", "p3"),)),
            RoundAwarded(2, "p2", Outcome.DRAW),
        ]
    )
    entry = state.cards["p2"].entries[1]
    assert entry is not None
    assert (entry.kind, entry.outcome, entry.counted_spread) == (
        EntryKind.CREDIT,
        Outcome.DRAW,
        0,
    )
    row = next(r for r in standings(state, "A") if r.player_id == "p2")
    assert (row.draws, row.spread) == (1, 0)
    assert derive_cards(state) == dict(state.cards)
    record = tournament_to_records(state).divisions[0].players[1]
    assert record.rounds[1].result == 0.5


def test_a_win_of_no_spread_is_a_win() -> None:
    state = replay(
        [
            *_three()[:-1],
            RoundPaired("A", 1, (Board(1, "p1", "p2"),)),
            RoundAwarded(1, "p3", Outcome.WIN, 0),
        ]
    )
    entry = state.cards["p3"].entries[0]
    assert entry is not None
    assert entry.outcome is Outcome.WIN


@pytest.mark.parametrize(
    ("event", "code"),
    [
        (RoundAwarded(1, "p1", Outcome.DRAW), "player_already_paired"),
        (RoundAwarded(1, "p3", Outcome.WIN, -5), "invalid_spread"),
        (RoundAwarded(1, "p3", "half"), "invalid_setting"),  # type: ignore[arg-type]
        (TieWinRecorded(1, "p1", "p3", 400), "game_not_paired"),
    ],
)
def test_what_cannot_be_awarded_is_refused(event: object, code: str) -> None:
    state = replay(_three())
    with pytest.raises(TournamentError) as caught:
        apply(state, event)  # type: ignore[arg-type]
    assert caught.value.code == code


def test_a_tie_recorded_as_won_is_a_tie_break_win() -> None:
    """Whatever the tie rule (NASPA: ties are draws), the file's fact stands."""
    state = replay([*_three(preset="naspa"), TieWinRecorded(1, "p2", "p1", 400)])
    won, lost = state.cards["p2"].entries[0], state.cards["p1"].entries[0]
    assert won is not None
    assert lost is not None
    assert (won.outcome, won.tie_break, won.own_score, won.round_spread) == (
        Outcome.WIN,
        True,
        400,
        0,
    )
    assert lost.outcome is Outcome.LOSS
    amended = apply(state, ResultAmended(1, "p1", "p2", score_a=401, score_b=400))
    assert amended.cards["p1"].entries[0].outcome is Outcome.WIN  # type: ignore[union-attr]


def test_a_game_without_a_known_first_player_says_neither() -> None:
    events = _three()
    events[-1] = RoundPaired("A", 1, (Board(1, "p1", "p2", first_known=False),))
    state = replay(events)
    assert state.cards["p1"].totals.firsts == state.cards["p2"].totals.seconds == 0
    rounds = [p.rounds[0] for p in tournament_to_records(state).divisions[0].players]
    assert [r.went_first for r in rounds[:2]] == [None, None]
