"""CSV exports write a text cell that a spreadsheet would run as a formula (``=``,
``+``, ``-``, ``@`` first) with a leading ``'``, as OWASP recommends; numbers stay
numbers."""

from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from tests.reliability_tests.conftest import make_tournament, record_result

pytestmark = pytest.mark.django_db

NAMES = ["=cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "+1+1", "-2+3"]


@pytest.fixture
def formula_tournament(director):
    tournament_id, ids = make_tournament(
        director, name='=HYPERLINK("http://evil.example","Click")', names=NAMES
    )
    for first, second in ((ids[0], ids[1]), (ids[2], ids[3])):
        record_result(director, tournament_id, first, second, scores=(300, 400))
    return tournament_id


def cells(body: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(body.decode())))


def formula_cells(rows: list[list[str]]) -> list[str]:
    starts = ("=", "+", "-", "@", "\t", "\r")
    return [
        cell
        for row in rows
        for cell in row
        if cell.startswith(starts) and not cell.lstrip("+-").isdigit()
    ]


def test_the_ratings_csv_neutralises_formula_cells(formula_tournament):
    client = APIClient()
    for path in ("/api/ratings/games", "/api/ratings/players"):
        response = client.get(
            path, {"tournament": str(formula_tournament), "format": "csv"}
        )
        assert response.status_code == 200
        rows = cells(b"".join(response.streaming_content))
        assert len(rows) > 1
        assert formula_cells(rows) == []
        text = {cell for row in rows for cell in row}
        assert "'=cmd|' /C calc'!A0" in text
        assert '\'=HYPERLINK("http://evil.example","Click")' in text
    games = cells(
        b"".join(
            client.get(
                "/api/ratings/games",
                {"tournament": str(formula_tournament), "format": "csv"},
            ).streaming_content
        )
    )
    spreads = games[0].index("player1_spread")
    assert {row[spreads] for row in games[1:]} == {"-100"}  # a number, untouched


def test_the_absp_csv_neutralises_formula_cells(formula_tournament):
    response = APIClient().get(f"/api/tournaments/{formula_tournament}/export/absp.csv")
    assert response.status_code == 200
    rows = cells(response.content)
    assert formula_cells(rows) == []
    # No header: the first game is the first row.
    assert rows[0][2] == "'=cmd|' /C calc'!A0"
    assert rows[1][2:5] == ["'+1+1", "300", "'-2+3"]
