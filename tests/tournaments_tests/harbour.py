"""The Harbour Cup: a golden .TOU file, its ratings list, and an empty tournament
named and dated as the file (shared by the API and console import tests)."""

from __future__ import annotations

from pathlib import Path

from tournaments.setup import services

GOLDEN = Path(__file__).parent / "golden"
HARBOUR = (GOLDEN / "harbour_cup.TOU").read_bytes()
RATINGS = (GOLDEN / "harbour_cup_ratings.csv").read_bytes()


def create_harbour(director, divisions=("Open",)):
    """An empty 3-round tournament named and dated as the golden .TOU file."""
    return services.tournament_create(
        user=director,
        name="Harbour Cup",
        start_date="2027-02-14",
        end_date="2027-02-14",
        rounds=3,
        divisions=divisions,
    ).stream.id
