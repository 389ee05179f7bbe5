"""The bulk path of import_gcg: a directory of files validated in worker processes
and written a batch a transaction. A broken file is reported with its line and
skipped; the stored games are the ones the single-game path stores; an
interrupted import keeps its committed batches and resumes where it says."""

from __future__ import annotations

import io
import os
import signal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError

from games import services
from games.eventstore import bulk
from games.eventstore.models import StoredEvent
from games.eventstore.verify import head_problems, verify_log
from games.imports import gcg_files, import_gcg_files
from games.models import GameProjection, GameTurn
from games.streams import kept_game

BROKEN = "#player1 a A\n#player2 b B\n>a: ABC 8A CAB +7 7\n"

# Every projection column but the game's id and the times it was written.
GAME_COLUMNS = [
    field.attname
    for field in GameProjection._meta.concrete_fields
    if field.attname not in {"game_id", "updated_at", "started_at"}
]
TURN_COLUMNS = [
    field.attname
    for field in GameTurn._meta.concrete_fields
    if field.attname not in {"id", "game_id"}
]


@pytest.fixture
def games_dir(tmp_path, shared_gcg_dir) -> Path:
    """The six real games (linked, not copied) in a folder, with a sub-folder."""
    folder = tmp_path / "games"
    (folder / "more").mkdir(parents=True)
    for index, path in enumerate(sorted(shared_gcg_dir.glob("*.gcg"))):
        target = folder / ("more" if index % 2 else "") / path.name
        target.symlink_to(path)
    return folder


def stored_game(game_id) -> dict:
    """A game as stored: its events (without what names the stream or the time)
    and its projection rows."""
    events = list(
        StoredEvent.objects.filter(stream_id=game_id)
        .order_by("version")
        .values_list(
            "version",
            "event_type",
            "schema_version",
            "payload",
            "metadata",
            "recorded_by_id",
        )
    )
    game = GameProjection.objects.filter(game_id=game_id).values(*GAME_COLUMNS).get()
    turns = list(
        GameTurn.objects.filter(game_id=game_id)
        .order_by("index")
        .values_list(*TURN_COLUMNS)
    )
    row = GameProjection.objects.get(game_id=game_id)
    state, context = kept_game(game_id, row.version)
    return {
        "events": events,
        "game": game,
        "turns": turns,
        "state": state,
        "context": context,
    }


@pytest.mark.django_db
def test_a_directory_with_a_broken_file_stores_the_others(recorder, games_dir, capsys):
    (games_dir / "more" / "broken.gcg").write_text(BROKEN)
    with pytest.raises(CommandError, match="1 of 7 file"):
        call_command("import_gcg", str(games_dir), user="rita", batch_size=2, jobs=2)
    captured = capsys.readouterr()
    assert "broken.gcg: not imported" in captured.err
    assert "line 3:" in captured.err
    assert "[first_play_center]" in captured.err
    assert captured.out.count("imported as game") == 6
    assert "451 – 345" in captured.out  # doug_v_emely
    assert GameProjection.objects.count() == 6
    assert StoredEvent.objects.values("stream_id").distinct().count() == 6
    # Nothing of the broken file: every stored game's first event is a real file's.
    titles = {
        meta["gcg"]["players"][0][0]
        for meta in StoredEvent.objects.filter(version=1).values_list(
            "metadata", flat=True
        )
    }
    assert "a" not in titles


@pytest.mark.django_db
def test_bulk_stores_what_the_single_game_path_stores(recorder, games_dir):
    files = gcg_files([games_dir])
    single = {}
    for path in files:
        result, _ = services.game_import_gcg(text=path.read_bytes(), user=recorder)
        single[str(path)] = result.stream.id
    bulked = {}

    def keep(outcome: bulk.Outcome) -> None:
        assert isinstance(outcome, bulk.Prepared)
        bulked[outcome.unit] = outcome.stream.id

    summary = import_gcg_files(
        files, user=recorder, batch_size=4, jobs=2, on_outcome=keep
    )
    assert summary.streams == len(files) == 6
    assert summary.events == StoredEvent.objects.count() // 2
    for path in single:
        assert stored_game(bulked[path]) == stored_game(single[path])
    # The bulk-written rows carry intact hash chains, replayed through the rules.
    events, streams, problems = verify_log(replay=True)
    assert (events, streams, problems) == (StoredEvent.objects.count(), 12, [])
    assert head_problems() == []
    # verify_events also compares every projection with a replay of its log.
    out, err = io.StringIO(), io.StringIO()
    call_command("verify_events", "--replay", stdout=out, stderr=err)
    assert "every chain is intact" in out.getvalue()
    assert err.getvalue() == ""


@pytest.mark.django_db
def test_ctrl_c_between_batches_keeps_them_and_says_where_to_resume(
    recorder, games_dir
):
    files = gcg_files([games_dir])

    def ctrl_c(batch: int) -> None:
        if batch == 1:
            os.kill(os.getpid(), signal.SIGINT)

    summary = import_gcg_files(
        files, user=recorder, batch_size=2, jobs=2, after_batch=ctrl_c
    )
    assert summary.interrupted
    assert (summary.batches, summary.streams) == (1, 2)
    assert summary.resume_from == str(files[2])
    assert GameProjection.objects.count() == 2
    # Resumed from there, every file is stored once.
    call_command(
        "import_gcg", str(games_dir), "--from", summary.resume_from, user="rita"
    )
    assert GameProjection.objects.count() == 6
    titles = GameProjection.objects.values_list("players", flat=True)
    assert len({str(players) for players in titles}) == 6


@pytest.mark.django_db
def test_an_interrupted_import_prints_where_to_resume(
    recorder, games_dir, monkeypatch, capsys
):
    files = gcg_files([games_dir])
    written = bulk.write_prepared
    calls = []

    def interrupted_before_the_second(prepared):
        calls.append(len(prepared))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return written(prepared)

    monkeypatch.setattr(bulk, "write_prepared", interrupted_before_the_second)
    with pytest.raises(CommandError) as stopped:
        call_command("import_gcg", str(games_dir), user="rita", batch_size=2)
    assert f"resume with --from {files[2]}" in str(stopped.value)
    assert "2 game(s) of" in capsys.readouterr().out
    assert GameProjection.objects.count() == 2


@pytest.mark.django_db
def test_a_keyboard_interrupt_inside_a_batch_writes_nothing_of_it(
    recorder, games_dir, monkeypatch
):
    files = gcg_files([games_dir])
    project = bulk._project
    calls = []

    def interrupted(prepared, to_project):
        calls.append(1)
        project(prepared, to_project)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(bulk, "_project", interrupted)
    summary = import_gcg_files(files, user=recorder, batch_size=2, jobs=2)
    assert summary.interrupted
    assert summary.resume_from == str(files[2])
    assert GameProjection.objects.count() == 2
    assert StoredEvent.objects.values("stream_id").distinct().count() == 2


# --- issue 30, item 10: a re-run imports nothing twice, a stop says where it is ----


@pytest.mark.django_db
def test_a_second_run_recognises_every_file_and_imports_none_again(
    recorder, games_dir, capsys
):
    """Before: each run stored every file again (12 games after two runs)."""
    first = sorted(games_dir.glob("*.gcg"))[0]
    (games_dir / "zz-copy.gcg").symlink_to(first.resolve())
    call_command("import_gcg", str(games_dir), user="rita", batch_size=2)
    out = capsys.readouterr().out
    assert f"zz-copy.gcg: the same file as {first} (skipped)" in out
    assert GameProjection.objects.count() == 6

    call_command("import_gcg", str(games_dir), user="rita", batch_size=2)
    call_command("import_gcg", str(first), user="rita")

    out = capsys.readouterr().out
    assert GameProjection.objects.count() == 6
    assert out.count("already imported as game") == 7 + 1
    assert "every file was imported already: nothing to do" in out


@pytest.mark.django_db
def test_a_run_stopped_by_a_failure_says_where_and_a_second_run_finishes_it(
    recorder, games_dir, monkeypatch
):
    """Before: a failure other than Ctrl-C (the database lost in the second batch)
    ended with its traceback and no resume point, and running the command again
    stored the first batch's games a second time."""
    files = gcg_files([games_dir])
    written = bulk.write_prepared
    calls = []

    def lost_in_the_second_batch(prepared):
        calls.append(1)
        if len(calls) == 2:
            raise OperationalError("server closed the connection unexpectedly")
        return written(prepared)

    monkeypatch.setattr(bulk, "write_prepared", lost_in_the_second_batch)
    with pytest.raises(CommandError) as stopped:
        call_command("import_gcg", str(games_dir), user="rita", batch_size=2)
    message = str(stopped.value)
    assert "stopped by OperationalError after 2 of 6 file(s)" in message
    assert f"resume with --from {files[2]}" in message
    assert GameProjection.objects.count() == 2

    monkeypatch.setattr(bulk, "write_prepared", written)
    out = io.StringIO()
    call_command("import_gcg", str(games_dir), user="rita", batch_size=2, stdout=out)
    assert out.getvalue().count("already imported as game") == 2
    assert GameProjection.objects.count() == 6
