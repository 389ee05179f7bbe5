"""Atomicity under faults: a worker killed mid-append or mid-projection leaves no
partial event and no projection out of step with the log; projections that are out
of step (detected by their stored version) are repaired on start."""

from __future__ import annotations

import io
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest
from django.core.management import call_command
from django.db import connection

from games import services as game_services
from games.eventstore import repair
from games.eventstore.models import FlaggedStream, StoredEvent
from games.eventstore.store import current_version
from games.eventstore.streams import stream_type
from games.eventstore.verify import verify_log
from games.management.commands import serve
from games.models import GameProjection, GameTurn
from tests.reliability_tests.conftest import PROJECT_DIR, start_game, subprocess_env
from tournaments.core import aggregate
from tournaments.models import PlayerRound, Tournament
from tournaments.results import services

RANDOM_KILLS = 6
PROJECTION_KILLS = 2


class Worker:
    """tests/reliability_tests/worker.py in a child process, its output collected."""

    def __init__(self, *args: str) -> None:
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability_tests.worker", *args],
            cwd=PROJECT_DIR,
            # Notes as fast as it can: no quota.
            env=subprocess_env(NOTES_PER_MINUTE="0"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.strip())

    def wait_for(self, prefix: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if line.startswith(prefix):
                    return line
            if self.process.poll() is not None:
                raise AssertionError(
                    f"worker exited: {self.process.stderr.read()}"  # type: ignore[union-attr]
                )
            time.sleep(0.01)
        raise AssertionError(f"worker never printed {prefix!r}: {self.lines}")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self._reader.join(timeout=30)
        assert self.process.returncode == -signal.SIGKILL

    def committed(self) -> dict[str, int]:
        """The last version of each stream the worker saw committed."""
        last: dict[str, int] = {}
        for line in self.lines:
            if line.startswith("committed "):
                _, stream_id, version = line.split()
                last[stream_id] = max(last.get(stream_id, 0), int(version))
        return last


def other_sessions() -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, state FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
        return cursor.fetchall()


def wait_until_killed_sessions_end(timeout: float = 30) -> None:
    """The server rolls back a dead client's transaction when it notices the closed
    socket; wait for that before looking at the log."""
    deadline = time.monotonic() + timeout
    while other_sessions():
        assert time.monotonic() < deadline, other_sessions()
        time.sleep(0.05)


def streams_with_gaps() -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id, min(version), max(version), count(*) FROM event_log"
            " GROUP BY stream_id"
            " HAVING min(version) <> 1 OR max(version) <> count(*)"
        )
        return cursor.fetchall()


def standings_snapshot(tournament_id) -> list[tuple]:
    return list(
        PlayerRound.objects.filter(tournament_id=tournament_id)
        .order_by("round", "position")
        .values_list("round", "rank", "player_id", "wins", "losses", "running_spread")
    )


@pytest.fixture
def fault_streams(director, paired):
    tournament_id, ids = paired
    services.result_record(
        tournament_id=tournament_id,
        round_=1,
        player_a=ids[0],
        player_b=ids[1],
        score_a=410,
        score_b=390,
        user=director,
    )
    game_id, turn_version = start_game(director)
    return game_id, tournament_id, turn_version


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_append_leaves_nothing_half_written(
    director, fault_streams, settings
):
    """SIGKILL a worker that appends in a loop, at random moments, several times;
    then also exactly inside a projection update. Afterwards every stream's versions
    run 1..n, every chain verifies, no session is left in a transaction, every append
    the worker saw committed is in the log, and every projection is at its log's
    version without any repair."""
    settings.NOTES_PER_MINUTE = 0  # the worker's notes count for this process too
    game_id, tournament_id, turn_version = fault_streams
    args = [str(game_id), str(tournament_id), str(director.pk), str(turn_version)]
    seed = int(os.environ.get("FAULT_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    acknowledged: dict[str, int] = {}
    mid_append = 0
    for _ in range(RANDOM_KILLS):
        worker = Worker(*args, "loop")
        worker.wait_for("ready")
        time.sleep(rng.uniform(0.05, 0.5))
        worker.kill()
        # Killed between "appending" and "committed": inside an append.
        mid_append += worker.lines[-1] == "appending"
        for stream_id, version in worker.committed().items():
            acknowledged[stream_id] = max(acknowledged.get(stream_id, 0), version)
    for _ in range(PROJECTION_KILLS):
        worker = Worker(*args, "in-projection")
        worker.wait_for("ready")
        line = worker.wait_for("projecting ")
        killed_version = int(line.split()[1])
        before = standings_snapshot(tournament_id)
        worker.kill()
        wait_until_killed_sessions_end()
        # The event inserted before the projection started is gone with it, and
        # the half-rewritten projection is as it was.
        stream = aggregate.tournament_stream(tournament_id)
        assert current_version(stream) == killed_version - 1
        assert Tournament.objects.get(pk=tournament_id).version == killed_version - 1
        assert standings_snapshot(tournament_id) == before
    wait_until_killed_sessions_end()

    assert streams_with_gaps() == []
    events, streams, problems = verify_log(replay=True)
    assert problems == []
    assert other_sessions() == []
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_xacts")
        assert cursor.fetchone()[0] == 0
    for stream_id, version in acknowledged.items():
        logged = StoredEvent.objects.filter(stream_id=stream_id).count()
        assert logged >= version, f"{stream_id}: acknowledged {version}, log {logged}"
    assert acknowledged, "the worker never committed anything before being killed"
    # Appends are atomic with their projections: nothing to repair.
    assert repair.find_stale() == []
    # And the incremental projections equal a rebuild from the log.
    expected_standings = standings_snapshot(tournament_id)
    game = GameProjection.objects.get(pk=game_id)
    repair.reproject(aggregate.tournament_stream(tournament_id))
    repair.reproject(game_services.game_stream(game_id))
    assert standings_snapshot(tournament_id) == expected_standings
    rebuilt = GameProjection.objects.get(pk=game_id)
    assert (rebuilt.version, rebuilt.scores) == (game.version, game.scores)
    # The killed sessions left no lock behind: the next append goes through.
    game_services.game_note(
        game_id=game_id, target_version=turn_version, text="after", user=director
    )
    print(
        f"\nFIGURES kills: seed {seed}, {RANDOM_KILLS} random SIGKILLs "
        f"({mid_append} inside an append) + "
        f"{PROJECTION_KILLS} inside a projection update, {events} events in "
        f"{streams} streams verified; last acknowledged versions "
        f"game {acknowledged.get(str(game_id), 0)}, "
        f"tournament {acknowledged.get(str(tournament_id), 0)}, all in the log"
    )


# --- projections out of step, made deterministically ----------------------------------


def _without_projection(monkeypatch, name):
    handler = stream_type(name)
    monkeypatch.setattr(handler, "project", lambda *args, **kwargs: None)
    return handler


@pytest.mark.django_db
def test_a_projection_behind_the_log_is_found_and_repaired(
    director, fault_streams, monkeypatch
):
    """Append with the projectors switched off (what a crash between two separate
    transactions would leave): the stale streams are found by their version and
    re-projected to what the incremental path gives."""
    game_id, tournament_id, turn_version = fault_streams
    _, state = aggregate.tournament_state(tournament_id)
    first, second = sorted(
        state.rules.players, key=lambda pid: state.rules.players[pid].number
    )[2:4]
    _without_projection(monkeypatch, "tournament")
    _without_projection(monkeypatch, "game")
    services.result_record(
        tournament_id=tournament_id,
        round_=1,
        player_a=first,
        player_b=second,
        score_a=450,
        score_b=300,
        user=director,
    )
    game_services.game_note(
        game_id=game_id, target_version=turn_version, text="late note", user=director
    )
    monkeypatch.undo()
    stale = {str(item.stream): item for item in repair.find_stale()}
    tournament_key = str(aggregate.tournament_stream(tournament_id))
    game_key = str(game_services.game_stream(game_id))
    assert set(stale) == {tournament_key, game_key}
    assert (
        stale[tournament_key].log_version == stale[tournament_key].projected_version + 1
    )
    assert "log at" in str(stale[game_key])
    assert not PlayerRound.objects.filter(
        tournament_id=tournament_id, round=1, player_id=first, has_result=True
    ).exists()

    report = repair.repair_projections()

    assert {str(item.stream) for item in report.repaired} == {tournament_key, game_key}
    assert report.refused == []
    assert repair.find_stale() == []
    standing = PlayerRound.objects.get(
        tournament_id=tournament_id, round=1, player_id=first
    )
    assert standing.own_score == 450
    assert (standing.wins, standing.running_spread) == (1, 150)
    turn = GameTurn.objects.get(game_id=game_id, version=turn_version)
    assert "late note" in [note["text"] for note in turn.notes]


@pytest.mark.django_db
def test_a_projection_missing_or_ahead_of_its_log_is_tampering(director, fault_streams):
    """A projection ahead of its log, or a projection of a stream with no events,
    means the log lost events; a projection missing although its stream's head says
    an append projected it means its rows were deleted (issue 30, item 5: it was
    re-projected as mere staleness). Each is reported as tampering and flagged,
    never re-projected (which would accept a deletion)."""
    game_id, tournament_id, _ = fault_streams
    tournament = Tournament.objects.get(pk=tournament_id)
    log_version = tournament.version
    # Ahead of the log (a projection restored from a later backup than the log).
    Tournament.objects.filter(pk=tournament_id).update(version=log_version + 3)
    PlayerRound.objects.filter(tournament_id=tournament_id).update(wins=9)
    # Missing (its rows deleted by hand).
    game_version = StoredEvent.objects.filter(stream_id=game_id).count()
    GameProjection.objects.filter(pk=game_id).delete()
    # Orphaned: a projection row of a game that has no events.
    orphan = GameProjection.objects.create(
        game_id="00000000-0000-4000-8000-000000000001",
        version=4,
        ruleset="classic",
        started_at=tournament.created_at,
        updated_at=tournament.created_at,
    )
    found = {str(item) for item in repair.find_stale()}
    assert found == {
        f"tournament/{tournament_id}: log at {log_version}, "
        f"projection at {log_version + 3}",
        f"game/{game_id}: log at {game_version}, no projection",
        f"game/{orphan.game_id}: projection at 4, no events",
    }
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit):
        call_command("verify_events", "--repair", stdout=out, stderr=err)
    assert out.getvalue().count("repaired ") == 0
    assert (
        f"TAMPERED game/{game_id}: no projection, but its head says it was "
        f"projected at version {game_version}" in err.getvalue()
    )
    assert (
        f"TAMPERED tournament/{tournament_id}: the log ends at version "
        f"{log_version} but its projection is at {log_version + 3}" in err.getvalue()
    )
    assert f"TAMPERED game/{orphan.game_id}: the log ends at version 0" in (
        err.getvalue()
    )
    # Left as they were, and flagged.
    assert not GameProjection.objects.filter(pk=game_id).exists()
    assert Tournament.objects.get(pk=tournament_id).version == log_version + 3
    assert GameProjection.objects.filter(pk=orphan.game_id).exists()
    flagged = FlaggedStream.objects.values_list("stream_id", flat=True)
    assert {str(stream_id) for stream_id in flagged} == {
        str(tournament_id),
        str(game_id),
        str(orphan.game_id),
    }


@pytest.mark.django_db
def test_serve_repairs_projections_before_serving(director, fault_streams, monkeypatch):
    """The start-up path: `manage.py serve` re-projects stale streams before it
    starts the web server."""
    game_id, _, _ = fault_streams
    GameProjection.objects.filter(pk=game_id).update(version=1)
    calls = []

    def fake_call_command(name, *args, **kwargs):
        calls.append((name, repair.find_stale()))

    def fake_run_server(host, port):
        calls.append(("uvicorn", repair.find_stale()))

    monkeypatch.setattr(serve, "call_command", fake_call_command)
    monkeypatch.setattr(serve, "run_server", fake_run_server)
    out = []
    command = serve.Command()
    command.stdout.write = out.append  # type: ignore[method-assign]
    command.handle(addrport="127.0.0.1:0", no_demo=True)
    assert [name for name, _ in calls] == ["migrate", "uvicorn"]
    migrate_stale, runserver_stale = calls[0][1], calls[1][1]
    assert [str(item.stream) for item in migrate_stale] == [f"game/{game_id}"]
    assert runserver_stale == []
    assert any("Repaired the projection of game/" in line for line in out)
