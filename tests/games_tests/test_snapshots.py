"""The game page starts from the state snapshot the event store keeps for the game
at its version (games.eventstore.kept), and only from one this code can vouch for
(games.snapshots)."""

from __future__ import annotations

import dataclasses
import importlib.machinery
import pickle
import shutil
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

import rules
from games import selectors, services, snapshots
from games.eventstore.cache import state_cache
from games.eventstore.rebuild import rebuild_projections
from games.models import GameProjection
from rules import state as rs


def stored_snapshot(game_id):
    """(version, sealed state) the store keeps for the game."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT version, state FROM event_kept_state"
            " WHERE stream_id = %s AND stream_type = 'game'",
            [game_id],
        )
        return cursor.fetchone()


def set_snapshot(game_id, blob):
    """Replace (None: delete) the kept state, as someone who can write the table
    could: a cache of the log, not the log."""
    with connection.cursor() as cursor:
        if blob is None:
            cursor.execute(
                "DELETE FROM event_kept_state WHERE stream_id = %s", [game_id]
            )
        else:
            cursor.execute(
                "UPDATE event_kept_state SET state = %s WHERE stream_id = %s",
                [blob, game_id],
            )


def replayed(game_id):
    events = [recorded.event for recorded in selectors.game_events(game_id)]
    return rs.replay(tuple(events))


def has_notes(game_id) -> bool:
    return any(turn.notes for turn in replayed(game_id).turns)


def page(client, game_id, turn=None):
    """The page built afresh (no page cache, no kept state), and its query count."""
    cache.clear()
    state_cache.clear()
    url = f"/games/{game_id}/" if turn is None else f"/games/{game_id}/turn/{turn}/"
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode(), len(captured.captured_queries)


def import_all(user, shared_gcg_dir):
    return [
        services.game_import_gcg(
            text=path.read_bytes(), user=user, visibility="public"
        )[0].stream.id
        for path in sorted(shared_gcg_dir.glob("*.gcg"))
    ]


@pytest.mark.django_db
def test_every_append_leaves_the_replayed_state_as_the_snapshot(
    recorder, shared_gcg_dir
):
    game_ids = import_all(recorder, shared_gcg_dir)
    assert len(game_ids) == 6
    for game_id in game_ids:
        version, blob = stored_snapshot(game_id)
        state, context = snapshots.load(game_id, version, blob)
        assert state == replayed(game_id)
        assert context["owner_id"] == recorder.pk
    # Move by move: each append rewrites it at the new version.
    started = services.game_start(
        user=recorder,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "ADEEGIL"],
        visibility="public",
    )
    gid = started.stream.id
    services.game_place(game_id=gid, position="8D", word="WINDY", user=recorder)
    version, blob = stored_snapshot(gid)
    state, _ = snapshots.load(gid, version, blob)
    assert state.scores[0] > 0
    assert state == replayed(gid)
    services.game_challenge(game_id=gid, outcome="phony", user=recorder)
    newer, blob = stored_snapshot(gid)
    assert newer > version
    state, _ = snapshots.load(gid, newer, blob)
    assert state.scores[0] == 0  # the phony came off
    assert state == replayed(gid)


@pytest.mark.django_db
def test_the_game_page_from_its_snapshot_is_the_page_replayed(
    client, recorder, shared_gcg_dir
):
    for game_id in import_all(recorder, shared_gcg_dir):
        from_snapshot, statements = page(client, game_id)
        # The header, the store's kept state (and who wrote its notes and when,
        # from the log, for a game with notes).
        assert statements == 2 + has_notes(game_id)
        set_snapshot(game_id, None)
        from_events, statements = page(client, game_id)
        # The header, the store's answer (none), then the events.
        assert statements == 3 + has_notes(game_id)
        assert from_snapshot == from_events


@pytest.mark.django_db
def test_an_earlier_turn_replays_and_the_last_turn_uses_the_snapshot(
    client, recorder, shared_gcg_dir
):
    game_id = import_all(recorder, shared_gcg_dir)[0]
    count = GameProjection.objects.get(game_id=game_id).turn_count
    _, statements = page(client, game_id, turn=1)
    assert statements == 2  # the header, then the events: the store is not asked
    last, statements = page(client, game_id, turn=count)
    assert statements == 2  # the header, then the kept state
    set_snapshot(game_id, None)
    assert page(client, game_id, turn=count)[0] == last


def forged(blob: bytes, game_id, version) -> bytes:
    """The snapshot with other scores pickled in and the MAC kept: what someone who
    can write the table but does not hold SECRET_KEY could make."""
    state, context = snapshots.load(game_id, version, blob)
    fake = dataclasses.replace(state, scores=(999, 998))
    return blob[:32] + pickle.dumps((fake, context))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(forged, id="forged"),
        pytest.param(
            lambda blob, game_id, version: blob[:-1] + bytes([blob[-1] ^ 1]),
            id="one-byte-changed",
        ),
        pytest.param(lambda blob, game_id, version: b"\x00" * 40, id="garbage"),
    ],
)
def test_a_snapshot_the_code_cannot_vouch_for_is_not_used(
    client, recorder, shared_gcg_dir, spoil
):
    game_id = import_all(recorder, shared_gcg_dir)[0]
    good, _ = page(client, game_id)
    version, blob = stored_snapshot(game_id)
    set_snapshot(game_id, spoil(bytes(blob), game_id, version))
    shown, statements = page(client, game_id)
    assert statements == 3  # replayed from the events instead
    assert shown == good
    assert ' has 999"' not in shown  # the forged score on the scoreboard


@pytest.mark.django_db
def test_another_games_snapshot_is_not_used(client, recorder, shared_gcg_dir):
    first, second = import_all(recorder, shared_gcg_dir)[:2]
    good, _ = page(client, first)
    _, other = stored_snapshot(second)
    set_snapshot(first, bytes(other))
    shown, statements = page(client, first)
    assert statements == 3
    assert shown == good


@pytest.mark.django_db
def test_a_snapshot_of_an_earlier_version_is_not_used(recorder):
    started = services.game_start(
        user=recorder,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "ADEEGIL"],
        visibility="public",
    )
    gid = started.stream.id
    version, old = stored_snapshot(gid)
    services.game_place(game_id=gid, position="8D", word="WINDY", user=recorder)
    newer, _ = stored_snapshot(gid)
    assert snapshots.load(gid, version, old) is not None
    assert snapshots.load(gid, newer, old) is None


@pytest.mark.django_db
def test_other_rules_code_or_another_secret_key_invalidates_snapshots(
    recorder, settings, monkeypatch
):
    started = services.game_start(
        user=recorder,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "ADEEGIL"],
        visibility="public",
    )
    gid = started.stream.id
    version, blob = stored_snapshot(gid)
    assert snapshots.load(gid, version, blob) is not None
    monkeypatch.setattr(snapshots, "rules_fingerprint", lambda: b"other rules")
    assert snapshots.load(gid, version, blob) is None
    monkeypatch.undo()
    settings.SECRET_KEY = "another-secret-key-" + "x" * 40
    assert snapshots.load(gid, version, blob) is None


def test_the_fingerprint_covers_the_rules_source(tmp_path):
    rules_dir = Path(rules.__file__).parent
    copy = tmp_path / "rules"
    shutil.copytree(rules_dir, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert snapshots.source_fingerprint(copy) == snapshots.rules_fingerprint()
    scoring = copy / "scoring.py"
    scoring.write_text(scoring.read_text() + "\n# a change\n")
    assert snapshots.source_fingerprint(copy) != snapshots.rules_fingerprint()


def test_the_fingerprint_skips_the_compiled_modules(tmp_path):
    """The compiled build (rules/compiled.py) is made from the sources: the
    fingerprint does not read its megabytes in every new worker."""
    copy = tmp_path / "rules"
    shutil.copytree(
        Path(rules.__file__).parent,
        copy,
        ignore=shutil.ignore_patterns("__pycache__", "__compiled__", "*.so"),
    )
    sources_only = snapshots.source_fingerprint(copy)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (copy / f"board{suffix}").write_bytes(b"compiled")
    (copy / "__compiled__").mkdir()
    (copy / "__compiled__" / f"rules__mypyc{suffix}").write_bytes(b"library")
    (copy / "__compiled__" / "stamp.json").write_text("{}")
    assert snapshots.source_fingerprint(copy) == sources_only


def test_the_fingerprint_names_the_rules_build(tmp_path, monkeypatch):
    """A compiled class's default pickle is not the Python class's: a state kept by
    one build is not loaded by the other."""
    monkeypatch.setattr(rules, "COMPILED", False)
    python = snapshots.source_fingerprint(Path(rules.__file__).parent)
    monkeypatch.setattr(rules, "COMPILED", True)
    assert snapshots.source_fingerprint(Path(rules.__file__).parent) != python


def test_the_fingerprint_covers_the_rules_sub_packages(tmp_path):
    """A change in a sub-package's module (rules/tournament/) changes it too."""
    copy = tmp_path / "rules"
    shutil.copytree(
        Path(rules.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__")
    )
    module = copy / "tournament" / "replay.py"
    module.write_text(module.read_text() + "\n# a change\n")
    assert snapshots.source_fingerprint(copy) != snapshots.rules_fingerprint()


def test_sub_packages_classes_pickle_as_calls():
    """The pickling table walks the sub-packages: a tournament class is in it."""
    from rules.tournament.events import ResultRecorded

    assert ResultRecorded in snapshots._dispatch_table()


@pytest.mark.django_db
def test_a_rebuild_rewrites_the_snapshots(client, recorder, shared_gcg_dir):
    game_ids = import_all(recorder, shared_gcg_dir)
    pages = {game_id: page(client, game_id)[0] for game_id in game_ids}
    rebuild_projections(["game"])
    for game_id in game_ids:
        version, blob = stored_snapshot(game_id)
        state, _ = snapshots.load(game_id, version, blob)
        assert state == replayed(game_id)
        shown, statements = page(client, game_id)
        assert statements == 2 + has_notes(game_id)
        assert shown == pages[game_id]


@pytest.mark.django_db
def test_the_games_row_holds_no_state(recorder, shared_gcg_dir):
    """The store keeps the states: a list of games fetches no pickle."""
    game_ids = import_all(recorder, shared_gcg_dir)
    with CaptureQueriesContext(connection) as captured:
        list(GameProjection.objects.all())
    assert "snapshot" not in captured.captured_queries[0]["sql"]
    assert "state" not in {field.name for field in GameProjection._meta.fields}
    assert all(stored_snapshot(game_id) is not None for game_id in game_ids)


BEFORE_THE_STORE = [
    ("games", "0007_event_log_notes_index"),
    ("eventstore", "0004_event_feed"),
    ("tournaments", "0011_tournament_snapshot"),
]


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_the_snapshots_to_the_store_as_they_are(recorder):
    """Snapshots on the game's row (and tournaments' kept states) before the
    store kept them move to it unchanged: the seal covers the stream, the version
    and the pickle, not the table, so the pages keep starting from them."""
    started = services.game_start(
        user=recorder,
        players=["Ann", "Ben"],
        racks=["DINNVWY", "ADEEGIL"],
        visibility="public",
    )
    gid = started.stream.id
    version, blob = stored_snapshot(gid)
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE_THE_STORE)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_game SET snapshot = %s WHERE game_id = %s", [blob, gid]
        )
    executor = MigrationExecutor(connection)
    executor.migrate(latest)
    assert stored_snapshot(gid) == (version, blob)
    assert snapshots.load(gid, version, blob)[0] == replayed(gid)
