"""Reports as tsh prints them, read from the results the rules decided."""

from __future__ import annotations

import csv
import io

import pytest

from rules.prizes import Prize, PrizeKind, PrizeTable, prize_winners
from tests.tournaments_tests.ratings.test_exports import drive_open
from tournaments.core.aggregate import tournament_state
from tournaments.models import Player, Tournament
from tournaments.room import reports


@pytest.fixture
def report(director):
    riverside = drive_open(director)
    tournament = Tournament.objects.get(pk=riverside.tournament_id)
    return tournament, reports.tournament_reports(tournament)


def listed(section, key):
    ranking = next(r for r in section.lists if r.key == key)
    return [(e.value, e.side.player, e.side.round) for e in ranking.entries]


@pytest.mark.django_db
def test_each_divisions_reports(report):
    _, whole = report
    division_a = whole.sections[0]
    assert division_a.division == "A"
    assert listed(division_a, "high_game")[:3] == [
        (420, "Ann Able", 1),
        (410, "Di Dane", 2),
        (410, "Ann Able", 5),
    ]
    # Cy lost a 400-400 tie on the scores before the adjustments; the draw of
    # round 2 is no loss.
    assert listed(division_a, "high_loss")[:3] == [
        (400, "Cy Cole", 1),
        (400, "Ben Baker", 5),
        (390, "Ben Baker", 1),
    ]
    assert (360, "Ben Baker", 2) not in listed(division_a, "high_loss")
    combined = listed(division_a, "high_combined")
    assert [value for value, _, _ in combined] == [
        810,
        810,
        800,
        775,
        770,
        760,
        720,
        710,
    ]
    # Zoë is unrated: her wins are no upset. Di (1500) beat Cy (1600).
    assert listed(division_a, "biggest_upset") == [(100, "Di Dane", 1)]
    assert listed(division_a, "low_win")[:2] == [
        (390, "Zoë Zane", 3),
        (390, "Zoë Zane", 4),
    ]
    ann = next(s for s in division_a.starts if s.player == "Ann Able")
    assert (ann.firsts, ann.seconds) == (1, 1)  # rounds 3 and 4 were forfeits


@pytest.mark.django_db
def test_the_best_upset_prize_and_the_biggest_upset_report_agree(report):
    """Zoë, unrated, beat rated players: neither the prize nor the report counts
    her wins as upsets, and both name Di (1500 over Cy's 1600)."""
    tournament, whole = report
    _, aggregate = tournament_state(tournament.tournament_id)
    assert aggregate.rules is not None
    table = PrizeTable(prizes=(Prize(PrizeKind.BEST_UPSET, 1000),))
    (award,) = prize_winners(aggregate.rules, "A", table)
    winner = Player.objects.get(
        tournament_id=tournament.tournament_id, player_id=award.player_id
    )
    top = whole.sections[0].lists[3].entries[0]
    assert whole.sections[0].lists[3].key == "biggest_upset"
    assert (winner.name, award.value, award.round) == (
        top.side.player,
        top.value,
        top.side.round,
    )
    assert (winner.name, award.value) == ("Di Dane", 100)


@pytest.mark.django_db
def test_the_whole_events_reports_span_the_divisions(report):
    _, whole = report
    assert [section.division for section in whole.sections] == ["A", "B", None]
    overall = whole.sections[-1]
    assert listed(overall, "high_game")[0] == (420, "Ann Able", 1)
    assert (400, "Kay Kim", 1) in listed(overall, "high_game")
    assert {s.division for s in overall.starts} == {"A", "B"}


@pytest.mark.django_db
def test_the_reports_page_and_csv(client, report):
    tournament, _ = report
    page = client.get(f"/tournaments/{tournament.tournament_id}/reports/")
    text = page.content.decode()
    assert page.status_code == 200
    for title in (
        "High game",
        "High loss",
        "High combined score",
        "Biggest upset",
        "Lowest winning score",
        "Firsts and seconds",
    ):
        assert title in text
    response = client.get(f"/tournaments/{tournament.tournament_id}/reports.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    first = rows[0]
    assert (first["scope"], first["report"], first["place"], first["value"]) == (
        "A",
        "high_game",
        "1",
        "420",
    )
    assert first["player"] == "Ann Able"
    upset = [r for r in rows if r["report"] == "biggest_upset" and r["scope"] == "all"]
    assert [(r["player"], r["value"]) for r in upset] == [("Di Dane", "100")]
    assert any(r["report"] == "firsts_seconds" for r in rows)
