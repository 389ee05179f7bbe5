"""GCG files become game streams: every event stored, every discrepancy kept."""

from __future__ import annotations

import pytest

from games import services
from games.eventstore.cache import state_cache
from games.eventstore.models import StoredEvent
from games.models import GameProjection, GameTurn
from rules import gcg

GAMES = [
    "doug_v_emely.gcg",
    "fivepoint.gcg",
    "issue_476.gcg",
    "josh2.gcg",
    "noah_vs_peter.gcg",
    "success_six_pass.gcg",
]


@pytest.mark.django_db
@pytest.mark.parametrize("name", GAMES)
def test_each_real_game_imports_with_its_scores(name, shared_gcg_dir, recorder):
    data = (shared_gcg_dir / name).read_bytes()
    expected = gcg.read(data)
    result, _ = services.game_import_gcg(text=data, user=recorder)
    game = GameProjection.objects.get(pk=result.stream.id)
    assert game.scores == list(expected.state.scores)
    assert game.version == len(expected.events)
    assert StoredEvent.objects.filter(stream_id=result.stream.id).count() == len(
        expected.events
    )
    assert game.is_over == expected.state.game_over
    # The score sheet's cumulative scores are the file's.
    last_by_player = {}
    for turn in GameTurn.objects.filter(game=game).order_by("index"):
        if turn.player is not None:
            last_by_player[turn.player] = turn.cumulative
    assert [last_by_player[p] for p in sorted(last_by_player)] == game.scores
    # The stored events replay to the same state the reader built.
    state_cache.clear()
    _, aggregate = services.game_load(result.stream.id)
    assert aggregate.state.scores == expected.state.scores


@pytest.mark.django_db
def test_exported_gcg_reads_back_to_the_same_events(shared_gcg_dir, recorder):
    data = (shared_gcg_dir / "josh2.gcg").read_bytes()
    result, record = services.game_import_gcg(text=data, user=recorder)
    text = services.game_export_gcg(result.stream.id)
    again = gcg.read(text)
    assert again.events == record.events
    assert "#player1 jvc" in text


@pytest.mark.django_db
def test_a_score_mistake_is_kept_as_recorded_and_flagged(recorder):
    text = "#player1 ann Ann\n#player2 bob Bob\n>ann: DINNVWY 8D WINDY +30 30\n"
    result, record = services.game_import_gcg(text=text, user=recorder)
    game = GameProjection.objects.get(pk=result.stream.id)
    assert game.scores[0] == 30
    assert game.discrepancies == [
        {"version": 4, "player": 0, "kind": "score", "recorded": 30, "computed": 32}
    ]
    assert record.discrepancies[0].line == 3


@pytest.mark.django_db
def test_a_file_that_cannot_be_right_is_refused_and_nothing_stored(recorder):
    before = StoredEvent.objects.count()
    text = "#player1 ann Ann\n#player2 bob Bob\n>ann: DINNVWY 8A WINDY +30 30\n"
    with pytest.raises(gcg.GcgError) as raised:
        services.game_import_gcg(text=text, user=recorder)
    assert raised.value.problems[0][0] == 3
    assert StoredEvent.objects.count() == before
