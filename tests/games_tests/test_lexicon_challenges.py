"""With a configured word list, the system rules a challenge and records the verdict."""

from __future__ import annotations

import pytest

from games import services
from games.models import GameTurn
from games.services import _LEXICONS
from rules.errors import RulesError


@pytest.fixture
def tiny_lexicon(tmp_path, settings):
    path = tmp_path / "tiny.txt"
    path.write_text("WINDY\nGALE\nWIND\n")
    settings.LEXICONS = {"TINY": str(path)}
    _LEXICONS.clear()
    yield
    _LEXICONS.clear()


def start(user, lexicon):
    return services.game_start(
        user=user,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "ADEEGIL"],
        lexicon=lexicon,
    ).stream.id


@pytest.mark.django_db
def test_a_listed_word_is_ruled_valid(tiny_lexicon, recorder):
    gid = start(recorder, "TINY")
    services.game_place(game_id=gid, position="8D", word="WINDY", user=recorder)
    result = services.game_challenge(game_id=gid, user=recorder)
    assert result.recorded[0].event.outcome.value == "valid"
    # Double challenge: Ben, the challenger, loses his turn.
    assert result.state.state.turn == 0


@pytest.mark.django_db
def test_an_unlisted_word_is_ruled_a_phony_and_withdrawn(tiny_lexicon, recorder):
    gid = start(recorder, "TINY")
    services.game_place(game_id=gid, position="8E", word="VINY", user=recorder)
    result = services.game_challenge(game_id=gid, user=recorder)
    assert result.recorded[0].event.outcome.value == "phony"
    assert result.state.state.scores == (0, 0)
    assert GameTurn.objects.get(game_id=gid, index=1).withdrawn


@pytest.mark.django_db
def test_without_a_word_list_the_director_must_rule(tiny_lexicon, recorder):
    gid = start(recorder, None)
    services.game_place(game_id=gid, position="8D", word="WINDY", user=recorder)
    with pytest.raises(RulesError, match="give the ruling"):
        services.game_challenge(game_id=gid, user=recorder)
    ruled = services.game_challenge(game_id=gid, outcome="phony", user=recorder)
    assert ruled.state.state.scores == (0, 0)
