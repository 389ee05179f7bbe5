"""Reads on a real streaming replica, writes and a director's next reads on the
primary (config/replicas.py).

The replica is a second PostgreSQL cluster started here from the test run's own
server with ``pg_basebackup -R`` (the binaries the embedded PostgreSQL uses), so it
streams the test database's WAL like a production standby. Pausing its replay
(``pg_wal_replay_pause()``) makes it lag for as long as the test wants.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from config import embedded_pg, replicas
from config.replicas import COOKIE, primary_position
from games import services as game_services
from tests.reliability_tests.conftest import make_tournament, subprocess_env
from tournaments.players import services as players_services
from tournaments.setup import services as setup_services

RIGHT = {"username": "mara", "password": "pw-mara-123"}

ALIAS = "replica_1"
CATCH_UP_SECONDS = 30


class StreamingReplica:
    """A hot standby of the embedded server, in a directory of its own."""

    def __init__(self) -> None:
        server = embedded_pg._server
        self.bin = Path(server.bin_path)
        self.user = server.system_user  # PostgreSQL will not run as root
        self.folder = Path(tempfile.mkdtemp(prefix="replica-"))
        self.pgdata = self.folder / "data"
        if self.user is not None:
            shutil.chown(self.folder, self.user, self.user)

    def _run(self, command: str, *args: str) -> None:
        done = subprocess.run(
            [str(self.bin / command), *args],
            capture_output=True,
            text=True,
            user=self.user,
            timeout=120,
        )
        log = self.folder / "log"
        assert done.returncode == 0, f"{command} failed: {done.stderr}{done.stdout}" + (
            log.read_text() if log.exists() else ""
        )

    def start(self, primary_socket: str) -> None:
        # -R writes standby.signal and primary_conninfo: a streaming standby.
        self._run(
            "pg_basebackup",
            *("-D", str(self.pgdata), "-h", primary_socket, "-U", "postgres"),
            *("-R", "-X", "stream", "-c", "fast"),
        )
        # The embedded server keeps its socket in its data directory, and the copy
        # took the socket's lock file along: the standby's own would clash.
        for lock in self.pgdata.glob(".s.PGSQL.*"):
            lock.unlink()
        self._run(
            "pg_ctl",
            *("-D", str(self.pgdata), "-l", str(self.folder / "log"), "-w"),
            *("-o", f'-h "" -k {self.pgdata}', "start"),
        )

    def stop(self) -> None:
        try:
            if (self.pgdata / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.pgdata), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def settings(self) -> dict[str, object]:
        """The replica's DATABASES entry: the test database, on the replica."""
        return {**connection.settings_dict, "HOST": str(self.pgdata)}

    def query(self, sql: str) -> object:
        with connections[ALIAS].cursor() as cursor:
            cursor.execute(sql)
            return cursor.fetchone()[0]

    def wait_for(self, position: str) -> None:
        deadline = time.monotonic() + CATCH_UP_SECONDS
        while not self.query(
            f"SELECT pg_last_wal_replay_lsn() >= '{position}'::pg_lsn"
        ):
            assert time.monotonic() < deadline, f"replica never replayed {position}"
            time.sleep(0.05)


@pytest.fixture(scope="module")
def standby(django_db_setup, django_db_blocker) -> Iterator[StreamingReplica]:
    """A replica of the test database's server, known to Django as ALIAS."""
    if embedded_pg._server is None:
        pytest.skip("needs the embedded PostgreSQL's binaries (DATABASE_URL is set)")
    replica = StreamingReplica()
    try:
        with django_db_blocker.unblock():
            replica.start(connection.settings_dict["HOST"])
        # A mirror of the test database for Django's test machinery: a transactional
        # test empties the primary's tables, and the replica follows.
        connections.settings[ALIAS] = {
            **replica.settings(),
            "TEST": {**connection.settings_dict["TEST"], "MIRROR": "default"},
        }
        yield replica
    finally:
        if ALIAS in connections.settings:
            connections[ALIAS].close()
            del connections[ALIAS]
            del connections.settings[ALIAS]
        replica.stop()


@pytest.fixture
def replica(standby, settings) -> Iterator[StreamingReplica]:
    settings.DATABASE_REPLICAS = [ALIAS]
    replicas._complete_before.clear()  # no measurement from another test
    yield standby
    # Never leave the next test a paused replica.
    standby.query("SELECT pg_wal_replay_resume()")
    replicas._complete_before.clear()


def standing(client: Client, tournament_id, player_id: str) -> dict:
    response = client.get(
        f"/api/tournaments/{tournament_id}/standings", {"division": "A"}
    )
    assert response.status_code == 200, response.content
    return next(r for r in response.json()["standings"] if r["player"] == player_id)


def reads_on_replica(capture: CaptureQueriesContext) -> list[str]:
    """The statements a request ran on the replica, apart from the position check."""
    return [q["sql"] for q in capture.captured_queries if "wal_replay" not in q["sql"]]


@pytest.mark.django_db(transaction=True, databases=["default", ALIAS])
def test_a_director_reads_their_result_while_the_replica_lags(
    director, replica, settings
):
    # The read-after-write mark alone: a bound so wide that the paused replica
    # stays within it (the bound's own tests are below).
    settings.REPLICA_MAX_LAG = 3600
    tournament_id, ids = make_tournament(director)
    director_client = Client()
    director_client.force_login(director)
    reader = Client()
    replica.wait_for(primary_position())
    assert replica.query("SELECT pg_is_in_recovery()") is True
    assert standing(reader, tournament_id, ids[0])["games"] == 0

    replica.query("SELECT pg_wal_replay_pause()")
    # Written on the primary: the replica is read-only and would refuse it.
    entered = director_client.post(
        f"/api/tournaments/{tournament_id}/results",
        {"round": 1, "player_a": ids[0], "player_b": ids[1]}
        | {"score_a": 410, "score_b": 380},
        content_type="application/json",
    )
    assert entered.status_code == 201, entered.content
    assert COOKIE in entered.cookies

    # The director's next read goes to the primary: the replica has not replayed
    # the result (it was asked, once), so nothing else is read there.
    with CaptureQueriesContext(connections[ALIAS]) as on_replica:
        mine = standing(director_client, tournament_id, ids[0])
    assert (mine["wins"], mine["spread"]) == (1, 30)
    assert len(on_replica.captured_queries) == 1
    assert reads_on_replica(on_replica) == []

    # A signed-out reader reads the lagging replica: the standings before it.
    with CaptureQueriesContext(connections[ALIAS]) as on_replica:
        theirs = standing(reader, tournament_id, ids[0])
    assert theirs["games"] == 0
    assert reads_on_replica(on_replica)

    replica.query("SELECT pg_wal_replay_resume()")
    replica.wait_for(entered.cookies[COOKIE].value.split(":")[0])
    assert standing(reader, tournament_id, ids[0])["wins"] == 1
    # Caught up: the director is back on the replica too.
    with CaptureQueriesContext(connections[ALIAS]) as on_replica:
        assert standing(director_client, tournament_id, ids[0])["wins"] == 1
    assert reads_on_replica(on_replica)


@pytest.mark.django_db(transaction=True, databases=["default", ALIAS])
def test_a_signed_in_page_after_a_write_is_read_on_the_primary(
    director, replica, settings
):
    """The director's HTML standings page too, with the replica paused."""
    settings.REPLICA_MAX_LAG = 3600  # as above: the mark alone
    tournament_id, ids = make_tournament(director)
    director_client = Client()
    director_client.force_login(director)
    replica.wait_for(primary_position())
    replica.query("SELECT pg_wal_replay_pause()")
    entered = director_client.post(
        f"/api/tournaments/{tournament_id}/results",
        {"round": 1, "player_a": ids[0], "player_b": ids[1]}
        | {"score_a": 399, "score_b": 401},
        content_type="application/json",
    )
    assert entered.status_code == 201, entered.content
    page = director_client.get(f"/tournaments/{tournament_id}/divisions/A/standings/")
    assert page.status_code == 200
    # The winner's total score, in the director's page only.
    assert b">401<" in page.content
    signed_out = Client().get(f"/tournaments/{tournament_id}/divisions/A/standings/")
    assert signed_out.status_code == 200
    assert b">401<" not in signed_out.content


# --- Revocations while the replica lags --------------------------------------------
#
# Each test reads once through the replica, then pauses its replay and lets the
# bound (REPLICA_MAX_LAG, 1 s by default) pass, revokes on the primary, and reads
# again: refused at once, though the replica still holds the old state. Before the
# bound existed, that read was answered from the replica.


def lagging(replica: StreamingReplica) -> None:
    """Replay paused, and the bound passed since the last transaction it replayed:
    from the next commit on the primary, the replica lags by more than the bound."""
    replica.wait_for(primary_position())
    replica.query("SELECT pg_wal_replay_pause()")
    deadline = time.monotonic() + CATCH_UP_SECONDS
    while replica.query("SELECT pg_get_wal_replay_pause_state()") != "paused":
        assert time.monotonic() < deadline, "replay never paused"
        time.sleep(0.05)
    # Waiting longer only makes the replica lag more: the test cannot race.
    time.sleep(float(django_settings.REPLICA_MAX_LAG) + 0.1)


def on_replica_and_primary(sql: str, params: list) -> tuple[object, object]:
    """One value as the replica and as the primary have it."""
    values = []
    for alias in (ALIAS, "default"):
        with connections[alias].cursor() as cursor:
            cursor.execute(sql, params)
            values.append(cursor.fetchone()[0])
    return values[0], values[1]


def read_on_primary(client: Client, url: str, **extra) -> int:
    """The status of a GET, asserting that nothing but the lag check ran on the
    replica."""
    with CaptureQueriesContext(connections[ALIAS]) as on_replica:
        status = client.get(url, **extra).status_code
    assert reads_on_replica(on_replica) == []
    return status


def unpublished_tournament(director) -> str:
    tournament_id, _ = make_tournament(director)
    setup_services.tournament_publish(
        tournament_id=tournament_id, published=False, user=director
    )
    return f"/api/tournaments/{tournament_id}/"


@pytest.mark.django_db(transaction=True, databases=["default", ALIAS])
def test_unpublishing_is_refused_at_once_while_the_replica_lags(director, replica):
    tournament_id, _ = make_tournament(director)
    url = f"/api/tournaments/{tournament_id}/"
    # Also a page and a body the read cache keeps by version.
    pages = [
        f"/api/tournaments/{tournament_id}/standings?division=A",
        f"/tournaments/{tournament_id}/divisions/A/standings/",
    ]
    replica.wait_for(primary_position())
    with CaptureQueriesContext(connections[ALIAS]) as on_replica:
        assert Client().get(url).status_code == 200
    assert reads_on_replica(on_replica)  # within the bound: the replica serves
    assert [Client().get(page).status_code for page in pages] == [200, 200]

    lagging(replica)
    setup_services.tournament_publish(
        tournament_id=tournament_id, published=False, user=director
    )
    assert read_on_primary(Client(), url) == 404
    assert [read_on_primary(Client(), page) for page in pages] == [404, 404]
    assert on_replica_and_primary(
        "SELECT published FROM tournaments_tournament WHERE tournament_id = %s",
        [tournament_id],
    ) == (True, False)


@pytest.mark.django_db(transaction=True, databases=["default", ALIAS])
def test_a_revoked_share_link_is_refused_at_once_while_the_replica_lags(
    director, replica, shared_gcg_dir
):
    owner = Client()
    owner.force_login(director)
    uploaded = owner.post(
        "/api/games/import",
        {
            "file": SimpleUploadedFile(
                "g.gcg", (shared_gcg_dir / "doug_v_emely.gcg").read_bytes()
            )
        },
    )
    assert uploaded.status_code == 201, uploaded.content
    game_id = uuid.UUID(uploaded.json()["id"])
    game_services.game_set_visibility(game_id=game_id, visibility="link", user=director)
    version = owner.get(f"/api/games/{game_id}/visibility").json()["share_url"]
    token = version.rstrip("/").rsplit("/", 1)[1]
    url = f"/api/games/{game_id}/?share={token}"
    replica.wait_for(primary_position())
    assert Client().get(url).status_code == 200

    lagging(replica)
    game_services.game_set_visibility(
        game_id=game_id, visibility="private", user=director
    )
    assert read_on_primary(Client(), url) == 404
    assert on_replica_and_primary(
        "SELECT visibility FROM games_game WHERE game_id = %s", [game_id]
    ) == ("link", "private")


@pytest.mark.django_db(transaction=True, databases=["default", ALIAS])
def test_a_signed_out_session_is_refused_at_once_while_the_replica_lags(
    director, replica
):
    """Someone who copied the director's session cookie loses it when the director
    signs out, even on a lagging replica."""
    url = unpublished_tournament(director)
    signed_in = Client()
    assert signed_in.post("/accounts/login/", RIGHT).status_code == 302
    session_key = signed_in.cookies[django_settings.SESSION_COOKIE_NAME].value
    thief = Client()
    thief.cookies[django_settings.SESSION_COOKIE_NAME] = session_key
    replica.wait_for(primary_position())
    with CaptureQueriesContext(connections[ALIAS]) as on_replica:
        assert thief.get(url).status_code == 200
    assert reads_on_replica(on_replica)

    lagging(replica)
    assert signed_in.post("/accounts/logout/").status_code == 302
    assert read_on_primary(thief, url) == 404
    assert on_replica_and_primary(
        "SELECT count(*) FROM django_session WHERE session_key = %s", [session_key]
    ) == (1, 0)


@pytest.mark.django_db(transaction=True, databases=["default", ALIAS])
def test_a_revoked_api_token_is_refused_at_once_while_the_replica_lags(
    director, replica
):
    url = unpublished_tournament(director)
    issued = Client().post("/api/auth/token", RIGHT, content_type="application/json")
    key = issued.json()["token"]
    header = {"HTTP_AUTHORIZATION": f"Token {key}"}
    replica.wait_for(primary_position())
    assert Client().get(url, **header).status_code == 200

    lagging(replica)
    Token.objects.filter(key=key).delete()
    # DRF's answer to an unknown token (403: the session scheme is listed first).
    assert read_on_primary(Client(), url, **header) == 403
    assert on_replica_and_primary(
        "SELECT count(*) FROM authtoken_token WHERE key = %s", [key]
    ) == (1, 0)


@pytest.mark.django_db(transaction=True, databases=["default", ALIAS])
def test_a_removed_scorekeeper_is_refused_at_once_while_the_replica_lags(
    director, other_user, replica
):
    url = unpublished_tournament(director)
    tournament_id = uuid.UUID(url.split("/")[3])
    players_services.team_add(
        tournament_id=tournament_id, username="oscar", role="scorekeeper", user=director
    )
    scorekeeper = Client()
    scorekeeper.force_login(other_user)
    replica.wait_for(primary_position())
    assert scorekeeper.get(url).status_code == 200

    lagging(replica)
    players_services.team_remove(
        tournament_id=tournament_id, username="oscar", user=director
    )
    assert read_on_primary(scorekeeper, url) == 404
    assert on_replica_and_primary(
        "SELECT count(*) FROM tournaments_director d JOIN auth_user u"
        " ON u.id = d.user_id WHERE d.tournament_id = %s AND u.username = 'oscar'",
        [tournament_id],
    ) == (1, 0)


@pytest.mark.django_db(transaction=True, databases=["default", ALIAS])
def test_a_replica_within_the_bound_serves_and_one_beyond_it_does_not(
    director, replica
):
    """The bound measured: a caught-up replica is fresh, a paused one that missed
    a commit is not once the bound has passed, and is fresh again when resumed."""
    tournament_id, ids = make_tournament(director)
    replica.wait_for(primary_position())
    assert replicas.fresh_enough(ALIAS)
    # Figures: one measurement (a query on each server) against the anchor of a
    # standings read, the median of 20 each.
    measures, reads = [], []
    for _ in range(20):
        started = time.perf_counter()
        assert replicas._measure(ALIAS) is not None
        measures.append(time.perf_counter() - started)
        started = time.perf_counter()
        standing(Client(), tournament_id, ids[0])
        reads.append(time.perf_counter() - started)
    print(
        "FIGURES replica lag measurement: "
        f"{sorted(measures)[10] * 1000:.1f} ms a measurement (at most one a second "
        f"a process), anchor: standings API read {sorted(reads)[10] * 1000:.1f} ms"
    )
    lagging(replica)
    make_tournament(director, name="Second Open")
    assert not replicas.fresh_enough(ALIAS)
    replica.query("SELECT pg_wal_replay_resume()")
    replica.wait_for(primary_position())
    assert replicas.fresh_enough(ALIAS)


def test_a_replica_url_that_is_not_postgresql_stops_start_up_naming_it():
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env=subprocess_env(DATABASE_REPLICA_URLS="mysql://db.example/records"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "DATABASE_REPLICA_URLS must be a postgresql:// URL" in done.stderr
