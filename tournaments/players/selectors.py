"""Reads of the field: players by id, a division's roster by number."""

from __future__ import annotations

from tournaments.models import Player, Tournament

# --- Players -----------------------------------------------------------------------


def players_by_id(tournament: Tournament) -> dict[str, Player]:
    return {p.player_id: p for p in Player.objects.filter(tournament=tournament)}


def division_roster(tournament: Tournament, division: str) -> dict[int, Player]:
    """The division's players by number."""
    return {
        player.number: player
        for player in Player.objects.filter(tournament=tournament, division=division)
    }
