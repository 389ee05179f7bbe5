"""Standings order, shared ranks, tie rules, spread cap, each round's entry."""

from __future__ import annotations

import pytest

from rules.records import EntryKind
from rules.tournament import (
    Board,
    DivisionAdded,
    ForfeitRecorded,
    Outcome,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentError,
    TournamentState,
    apply,
    replay,
)
from rules.tournament.standings import StandingRow, format_record, standings


def created(ratings: list[int], **settings: object) -> TournamentState:
    fields: dict[str, object] = {
        "name": "Standings",
        "start_date": "2025-03-01",
        "end_date": "2025-03-01",
        "rounds": 5,
    }
    fields.update(settings)
    return replay(
        [
            TournamentCreated(**fields),  # type: ignore[arg-type]
            DivisionAdded("A"),
            *[
                PlayerRegistered(f"p{i}", "A", f"Player {i}", rating)
                for i, rating in enumerate(ratings, start=1)
            ],
        ]
    )


def pair(state: TournamentState, round_: int, *games: tuple[str, str], byes=()):
    boards = tuple(Board(i, a, b) for i, (a, b) in enumerate(games, start=1))
    return apply(state, RoundPaired("A", round_, boards, tuple(byes)))


def order(state: TournamentState, after_round: int | None = None) -> list[str]:
    return [row.player_id for row in standings(state, "A", after_round)]


def test_wins_first_then_spread():
    """More wins first; among equal records, higher spread first."""
    state = created([1500, 1500, 1500, 1500])
    state = pair(state, 1, ("p1", "p2"), ("p3", "p4"))
    state = apply(state, ResultRecorded(1, "p1", "p2", 300, 400))
    state = apply(state, ResultRecorded(1, "p3", "p4", 450, 400))
    assert order(state) == ["p2", "p3", "p4", "p1"]
    rows = standings(state, "A")
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert (rows[0].wins, rows[0].losses, rows[0].spread) == (1, 0, 100)


def test_fewer_losses_rank_ahead_on_equal_wins():
    """Equal wins: fewer losses first, even with a worse spread (a late entry)."""
    state = created([1500] * 4)
    state = pair(state, 1, ("p1", "p2"), ("p3", "p4"))
    state = apply(state, ResultRecorded(1, "p1", "p2", 500, 300))
    state = apply(state, ResultRecorded(1, "p3", "p4", 500, 300))
    state = apply(state, PlayerRegistered("late", "A", "Late", 1000))
    state = pair(state, 2, ("p1", "p3"), ("late", "p2"), byes=("p4",))
    state = apply(state, ResultRecorded(2, "p1", "p3", 300, 301))
    state = apply(state, ResultRecorded(2, "late", "p2", 301, 300))
    rows = {r.player_id: r for r in standings(state, "A")}
    assert rows["late"].record == "1-0"
    assert rows["late"].spread == 1
    assert rows["p1"].record == "1-1"
    assert rows["p1"].spread == 199
    assert order(state).index("late") < order(state).index("p1")


def test_total_score_before_adjustments_breaks_equal_spread():
    """Equal record and spread: the higher total before end-of-game adjustments
    ranks first, even when the final scores were equal."""
    state = created([1500] * 4)
    state = pair(state, 1, ("p1", "p2"), ("p3", "p4"))
    # p1 went out: 390-360 before the rack adjustments, 400-350 after (read from
    # the recorded game: a slip gives those scores only for a tie).
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 350, 390, 360, "g1"))
    state = apply(state, ResultRecorded(1, "p3", "p4", 400, 350))
    rows = standings(state, "A")
    assert [r.player_id for r in rows[:2]] == ["p3", "p1"]
    assert (rows[0].total_score, rows[1].total_score) == (400, 390)
    assert rows[0].rank == 1
    assert rows[1].rank == 2


def test_exact_ties_share_a_rank_ordered_by_rating_then_number():
    """Identical records share a rank; rating and then number order the page."""
    state = created([1400, 1600, 1600, 1500])
    state = pair(state, 1, ("p1", "p2"), ("p3", "p4"))
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 300))
    state = apply(state, ResultRecorded(1, "p3", "p4", 400, 300))
    rows = standings(state, "A")
    assert [r.player_id for r in rows] == ["p3", "p1", "p2", "p4"]
    assert [r.rank for r in rows] == [1, 1, 3, 3]
    before = standings(state, "A", after_round=0)
    assert [r.player_id for r in before] == ["p2", "p3", "p4", "p1"]
    # The pre-event order ranks by rating, equal ratings sharing a rank (tsh's).
    assert [r.rank for r in before] == [1, 1, 3, 4]


def test_draws_count_half_a_win_and_half_a_loss():
    """A draw is half a win: 1.5-0.5 ranks above 1-1 and below 2-0."""
    state = created([1500] * 6, ties_are_draws=True)
    state = pair(state, 1, ("p1", "p2"), ("p3", "p4"), ("p5", "p6"))
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 400))
    state = apply(state, ResultRecorded(1, "p3", "p4", 401, 300))
    state = apply(state, ResultRecorded(1, "p5", "p6", 401, 300))
    state = pair(state, 2, ("p1", "p6"), ("p3", "p5"), ("p2", "p4"))
    state = apply(state, ResultRecorded(2, "p1", "p6", 350, 300))
    state = apply(state, ResultRecorded(2, "p3", "p5", 350, 300))
    state = apply(state, ResultRecorded(2, "p2", "p4", 300, 500))
    rows = {r.player_id: r for r in standings(state, "A")}
    assert rows["p1"].record == "1.5-0.5"
    assert rows["p1"].points == 1.5
    assert rows["p3"].record == "2-0"
    assert rows["p5"].record == "1-1"
    assert order(state)[:3] == ["p3", "p1", "p4"]


def test_default_tie_rule_makes_a_tie_a_win_for_the_pre_adjustment_leader():
    """Without ties_are_draws, a final-score tie has a winner."""
    state = created([1500] * 2)
    state = pair(state, 1, ("p1", "p2"))
    state = apply(state, ResultRecorded(1, "p1", "p2", 380, 380, 372, 386))
    rows = {r.player_id: r for r in standings(state, "A")}
    assert rows["p2"].record == "1-0"
    assert rows["p2"].spread == 0
    assert rows["p1"].record == "0-1"
    assert order(state) == ["p2", "p1"]


def test_spread_cap_limits_what_one_game_contributes():
    """With a cap of 100, a 300-point win adds 100 (and a 300-point loss -100)."""
    state = created([1500] * 4, spread_cap=100)
    state = pair(state, 1, ("p1", "p2"), ("p3", "p4"))
    state = apply(state, ResultRecorded(1, "p1", "p2", 550, 250))
    state = apply(state, ResultRecorded(1, "p3", "p4", 420, 380))
    rows = {r.player_id: r for r in standings(state, "A")}
    assert rows["p1"].spread == 100
    assert rows["p2"].spread == -100
    assert rows["p3"].spread == 40
    assert state.cards["p1"].entries[0].round_spread == 300
    assert line(state, "p1", 1).entry.counted_spread == 100


def test_round_by_round_standings():
    """Standings after round 1 ignore round 2."""
    state = created([1500] * 2)
    state = pair(state, 1, ("p1", "p2"))
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 300))
    state = pair(state, 2, ("p2", "p1"))
    state = apply(state, ResultRecorded(2, "p2", "p1", 500, 300))
    assert order(state, 1) == ["p1", "p2"]
    assert order(state, 2) == ["p2", "p1"]
    assert order(state) == ["p2", "p1"]
    assert standings(state, "A", 1)[0].spread == 100


def line(state: TournamentState, player_id: str, round_: int) -> StandingRow:
    """The player's line of the standings after ``round_``."""
    rows = standings(state, "A", after_round=round_)
    return next(row for row in rows if row.player_id == player_id)


def test_each_round_line_has_its_entry_and_running_record():
    """After round k, a line holds round k's entry (opponent, first or second,
    scores, result) and the running totals: a scorecard is the player's lines."""
    state = created([1500] * 3)
    state = pair(state, 1, ("p1", "p2"), byes=("p3",))
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 350))
    state = pair(state, 2, ("p3", "p1"), byes=("p2",))
    state = apply(state, ForfeitRecorded(2, "p3"))
    state = pair(state, 3, ("p2", "p1"), byes=("p3",))
    state = apply(state, ResultRecorded(3, "p2", "p1", 420, 380))
    state = pair(state, 4, ("p1", "p3"), byes=("p2",))
    card = [line(state, "p1", r) for r in range(1, 5)]
    first = card[0]
    assert (first.entry.opponent, first.entry.went_first, first.entry.own_score) == (
        "p2",
        True,
        400,
    )
    assert (first.entry.outcome, first.record, first.spread) == (
        Outcome.WIN,
        "1-0",
        50,
    )
    assert card[1].entry.kind is EntryKind.FORFEIT_WIN
    assert card[1].entry.went_first is False
    assert (card[1].record, card[1].spread) == ("2-0", 100)
    assert (card[2].entry.went_first, card[2].entry.outcome, card[2].record) == (
        False,
        Outcome.LOSS,
        "2-1",
    )
    assert card[2].spread == 60
    assert card[3].entry.outcome is None
    assert card[3].record == "2-1"
    assert [line(state, "p3", r).entry.kind for r in range(1, 4)] == [
        EntryKind.BYE,
        EntryKind.FORFEIT_LOSS,
        EntryKind.BYE,
    ]
    assert line(state, "p3", 0).entry.kind is EntryKind.UNPLAYED


def test_standings_errors():
    """An unknown division and an out-of-range round are refused."""
    state = created([1500] * 2)
    with pytest.raises(TournamentError) as caught:
        standings(state, "Z")
    assert caught.value.code == "unknown_division"
    with pytest.raises(TournamentError) as caught:
        standings(state, "A", after_round=6)
    assert caught.value.code == "invalid_round"


@pytest.mark.parametrize(
    ("wins", "losses", "draws", "text"),
    [(5, 2, 0, "5-2"), (4, 2, 1, "4.5-2.5"), (0, 0, 1, "0.5-0.5"), (0, 0, 0, "0-0")],
)
def test_format_record(wins, losses, draws, text):
    """Records print draws as halves."""
    assert format_record(wins, losses, draws) == text
