"""A game started in another language's tile set (issue 20)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services
from rules.errors import UnknownTileSetError
from rules.tilesets import SPANISH


@pytest.mark.django_db
def test_a_game_starts_with_the_tile_set_named(recorder):
    """The start records the whole set; racks are read as printed on the tiles."""
    result = services.game_start(
        user=recorder,
        players=["Ana", "Bea"],
        tile_set_name="spanish",
        lexicon="FILE2017",
        racks=["[CH]AEIORS", "[LL][RR]AEINO"],
    )
    _, aggregate = services.game_load(result.stream.id)
    state = aggregate.state
    assert state.tile_set == SPANISH
    assert state.lexicon == "FILE2017"
    assert SPANISH.write_tiles(state.racks[0].known) == "AEIORS[CH]"
    assert state.bag.count == SPANISH.total - 14


@pytest.mark.django_db
def test_an_unknown_tile_set_is_refused(recorder):
    with pytest.raises(UnknownTileSetError):
        services.game_start(user=recorder, players=["A", "B"], tile_set_name="elvish")


@pytest.mark.django_db
def test_a_spanish_game_is_recorded_through_the_api_as_printed(recorder):
    """Racks, words and exchanges are typed as printed on the tiles ([CH] is one
    tile worth 5): 8E [CH]ICO on the centre is (5 + 1 + 3 + 1) x 2."""
    api = APIClient()
    api.force_authenticate(recorder)
    started = api.post(
        "/api/games/",
        {
            "players": ["Ana", "Bea"],
            "tile_set": "spanish",
            "racks": ["[CH]ICOAER", "[LL][RR]AEINO"],
        },
        format="json",
    )
    assert started.status_code == 201, started.json()
    assert started.json()["state"]["tile_set"] == "spanish"
    gid = started.json()["id"]
    placed = api.post(
        f"/api/games/{gid}/place",
        {
            "position": "8E",
            "word": "[CH]ICO",
            "expected_version": started.json()["version"],
        },
        format="json",
    )
    assert placed.status_code == 201, placed.json()
    assert placed.json()["state"]["scores"] == [20, 0]
    exchanged = api.post(
        f"/api/games/{gid}/exchange",
        {"tiles": "[LL][RR]", "expected_version": placed.json()["version"]},
        format="json",
    )
    assert exchanged.status_code == 201, exchanged.json()
    _, aggregate = services.game_load(gid)
    assert aggregate.events[-2].tiles == SPANISH.read_tiles("[LL][RR]")
