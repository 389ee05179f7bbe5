"""A game started in another language's tile set (issue 20)."""

from __future__ import annotations

import pytest

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
