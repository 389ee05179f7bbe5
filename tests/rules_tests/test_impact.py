"""An amendment's impact, before it is stored (rules.impact): a 5-round Swiss of
six players, Gibsonization on, a prize for 1st and 2nd; round 2's board 1 was
entered as P3 beating P1 and is amended to P1 450 – 350 P3."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.division_rules import PairingOptions, Prize, PrizeKind, PrizeTable
from rules.impact import amendment_impact
from rules.pairing import pair_next_round
from rules.tournament import (
    DivisionAdded,
    PairingMethod,
    PairingRulesSet,
    PlayerRegistered,
    PrizeTableSet,
    ResultAmended,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentError,
    apply,
    replay,
)

# Each round's winners as entered (every game 450 – 350): by the players' ratings
# (P1 1800 … P6 1300) but for round 2's P3 over P1 (the slip amended), round 3's
# P5 over P1 and round 4's P4 over P3.
WINNERS = {
    1: {"p1", "p2", "p3"},
    2: {"p3", "p2", "p5"},
    3: {"p2", "p5", "p4"},
    4: {"p2", "p4", "p1"},
}
AMENDMENT = ResultAmended(2, "p1", "p3", 450, 350, reason="slip misread")


def _log() -> list:
    """The log as the system pairs it: each round Swiss by the service's call
    (``pair_next_round`` with its coin flips), results as WINNERS says."""
    events: list = [
        TournamentCreated("Swiss", "2025-01-01", "2025-01-01", 5),
        DivisionAdded("A"),
        *[PlayerRegistered(f"p{i}", "A", f"P{i}", 1900 - 100 * i) for i in range(1, 7)],
        PairingRulesSet("A", PairingOptions(gibson=True, prize_places=1)),
        PrizeTableSet(
            "A",
            PrizeTable(
                (Prize(PrizeKind.PLACE, 10000, 1), Prize(PrizeKind.PLACE, 5000, 2))
            ),
        ),
    ]
    state = replay(events)
    for round_ in range(1, 6):
        paired = pair_next_round(
            state,
            "A",
            round_,
            PairingMethod.SWISS,
            (True, False) * 6,
            options=state.options_of("A"),
        )
        events.append(paired)
        state = apply(state, paired)
        for game in paired.games if round_ < 5 else ():
            won = game.first in WINNERS[round_]
            result = ResultRecorded(
                round_, game.first, game.second, *((450, 350) if won else (350, 450))
            )
            events.append(result)
            state = apply(state, result)
    return events


def _pairs(games) -> set[frozenset[str]]:
    return {frozenset((g.first, g.second)) for g in games}


def test_the_log_is_as_the_test_says():
    """The pairings the tests below start from (as the Swiss paired them)."""
    rounds = {e.round: e for e in _log() if isinstance(e, RoundPaired)}
    assert _pairs(rounds[2].games) == {
        frozenset(p) for p in (("p1", "p3"), ("p4", "p2"), ("p6", "p5"))
    }
    assert _pairs(rounds[3].games) == {
        frozenset(p) for p in (("p2", "p3"), ("p5", "p1"), ("p4", "p6"))
    }
    # P2 4-0, everyone else 2-2 at best with one round left: P2 is Gibsonized.
    assert rounds[5].gibsons == ("p2",)


def test_later_pairings_that_would_differ():
    impact = amendment_impact(_log(), AMENDMENT)
    assert [p.round for p in impact.pairings] == [3, 4, 5]
    assert [p.round for p in impact.pairings_changed] == [3, 4, 5]
    round3, round4, _ = impact.pairings
    # Hand-checked: after the corrected round 2, P1 and P2 are 2-0 and have not met
    # (P1 ranks first on rating), P3 and P5 are 1-1 and have not met, P4 and P6
    # 0-2 and have not met: the Swiss pairs the groups in order.
    assert round3.based_on_round == 2
    assert _pairs(round3.corrected_games) == {
        frozenset(p) for p in (("p1", "p2"), ("p3", "p5"), ("p4", "p6"))
    }
    assert _pairs(round3.games_gone) == {
        frozenset(("p2", "p3")),
        frozenset(("p5", "p1")),
    }
    # P2 goes first against P1: P1 went first in rounds 1 and 2, P2 second.
    assert {(g.first, g.second) for g in round3.corrected_games} >= {("p2", "p1")}
    # P3–P5 and P4–P6 each need a coin flip; the round recorded one.
    assert round3.flips_short
    # Round 4 (played as recorded: P2 3-0; P1 and P5 2-1): P2 meets P1, whom
    # alone of the top three it has not met.
    assert frozenset(("p1", "p2")) in _pairs(round4.corrected_games)
    assert frozenset(("p2", "p5")) in _pairs(round4.games_gone)


def test_gibson_decision_that_changes():
    """Corrected, P1 is 3-1 after round 4: P2 (4-0) can be caught, so the round-5
    pairing Gibsonizes nobody."""
    impact = amendment_impact(_log(), AMENDMENT)
    (changed,) = impact.gibsons_changed
    assert changed.round == 5
    assert changed.recorded_gibsons == ("p2",)
    assert changed.corrected_gibsons == ()


def test_standings_after_every_later_round():
    impact = amendment_impact(_log(), AMENDMENT)
    assert [s.round for s in impact.standings] == [2, 3, 4, 5]
    after2 = {row.player_id: row for row in impact.standings[0].rows}
    assert (after2["p1"].record_before, after2["p1"].record_after) == ("1-1", "2-0")
    assert (after2["p3"].rank_before, after2["p3"].rank_after) == (1, 3)
    after4 = impact.standings[2]
    assert {row.player_id for row in after4.movers} == {"p4", "p5", "p3"}
    row = {r.player_id: r for r in after4.rows}["p1"]
    assert (row.record_after, row.spread_before, row.spread_after) == ("3-1", 0, 200)
    assert not row.moved  # 2nd either way (shared before)
    assert row.changed


def test_prize_winners_that_change():
    """2nd place: shared four ways at 2-2 (+0) before; P1's alone at 3-1 after."""
    impact = amendment_impact(_log(), AMENDMENT)
    (prize,) = impact.prizes
    assert prize.prize_index == 1
    assert prize.before == tuple((p, Fraction(1250)) for p in ("p1", "p3", "p4", "p5"))
    assert prize.after == (("p1", Fraction(5000)),)


def test_a_hand_paired_round_is_not_paired_again():
    events = _log()
    index = next(
        i for i, e in enumerate(events) if isinstance(e, RoundPaired) and e.round == 4
    )
    hand = events[index]
    events[index] = RoundPaired("A", 4, hand.games, hand.byes, PairingMethod.MANUAL)
    impact = amendment_impact(events, AMENDMENT)
    assert [p.round for p in impact.pairings] == [3, 5]


def test_a_round_the_log_does_not_reproduce_is_not_compared():
    """A Swiss round whose recorded pairing is not the system's on the log (here:
    round 4's boards swapped) is reported, not compared."""
    events = _log()
    index = next(
        i for i, e in enumerate(events) if isinstance(e, RoundPaired) and e.round == 4
    )
    old = events[index]
    swapped = tuple(type(g)(g.board, g.second, g.first) for g in old.games)
    events[index] = RoundPaired("A", 4, swapped, old.byes, old.method, old.coin_flips)
    impact = amendment_impact(events, AMENDMENT)
    round4 = next(p for p in impact.pairings if p.round == 4)
    assert not round4.reproducible
    assert not round4.differs
    assert round4.note


def test_an_amendment_the_rules_refuse_is_refused():
    with pytest.raises(TournamentError):
        amendment_impact(_log(), ResultAmended(2, "p1", "p2", 400, 300))
