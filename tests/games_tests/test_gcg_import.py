"""GCG files become game streams: every event stored, every discrepancy kept."""

from __future__ import annotations

import pytest

from games import services
from games.eventstore.cache import state_cache
from games.eventstore.errors import EventRejectedError
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


# --- issue 33: a GCG file is applied by the rules once ------------------------------


@pytest.fixture
def rules_applied_by_store(monkeypatch):
    """The events the store applies through the rules (its game stream calls
    ``rules.state.apply``; the GCG reader holds its own reference, so its
    applications are not counted)."""
    from rules import state as rs

    applied = []
    original = rs.apply

    def counting(state, event, **options):
        applied.append(event)
        return original(state, event, **options)

    monkeypatch.setattr(rs, "apply", counting)
    return applied


@pytest.mark.django_db
@pytest.mark.parametrize("name", GAMES)
def test_an_uploaded_gcg_file_is_applied_by_the_rules_once(
    name, shared_gcg_dir, recorder, rules_applied_by_store
):
    """Before: the reader applied every event, then the store's append applied
    them all again."""
    data = (shared_gcg_dir / name).read_bytes()
    result, record = services.game_import_gcg(text=data, user=recorder)
    assert rules_applied_by_store == []
    # The state the store kept is the reader's, and the log replays to it.
    assert result.state.state is record.state
    state_cache.clear()
    _, aggregate = services.game_load(result.stream.id)
    assert aggregate.state == record.state
    assert aggregate.events == tuple(record.events)


@pytest.mark.django_db
def test_the_bulk_path_applies_a_gcg_file_once(
    shared_gcg_dir, recorder, rules_applied_by_store
):
    from games.eventstore.bulk import Prepared
    from games.imports import prepare_file

    plan = services.gcg_import_plan(user=recorder)
    outcome = prepare_file(str(shared_gcg_dir / "josh2.gcg"), plan, recorder.pk)
    assert isinstance(outcome, Prepared)
    assert rules_applied_by_store == []


@pytest.mark.django_db
def test_a_file_over_the_notes_limit_is_still_refused_whole(
    monkeypatch, recorder, rules_applied_by_store
):
    """The limits are checked on the adopted state too: nothing is stored."""
    from rules import events as ev

    monkeypatch.setattr(ev, "MAX_NOTES_PER_GAME", 1)
    text = (
        "#player1 ann Ann\n#player2 bob Bob\n"
        ">ann: DINNVWY 8D WINDY +30 30\n#note first\n#note second\n"
    )
    before = StoredEvent.objects.count()
    with pytest.raises(EventRejectedError) as refused:
        services.game_import_gcg(text=text, user=recorder)
    assert refused.value.code == "too_many_notes"
    assert StoredEvent.objects.count() == before
    # Refused by the limits on the reader's state, not by a second application.
    assert rules_applied_by_store == []
