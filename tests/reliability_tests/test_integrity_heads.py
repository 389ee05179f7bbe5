"""Issue 30, items 4 and 5, and a change of key with servers up.

Item 4: one event inserted by someone with database access (or any stream that no
longer replays, after a rules change) must not stop a server from starting: the
warm-up and the start-up repair flag the stream and go on, and its readers are
told the record is under review (503), not a 500.

Item 5: a stream's head and the commit-ordered feed are authenticated under the
log's key, so a head rewound with the last events and the projection rows, or a
deleted feed entry, is reported by ``verify_events`` as tampering and never
re-projected.
"""

from __future__ import annotations

import io
import runpy
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from games.eventstore import seal
from games.eventstore.cache import state_cache
from games.eventstore.chain import chain_hash_of_line, head_mac, log_key
from games.eventstore.errors import LogKeyChangedError
from games.eventstore.models import (
    FeedEntry,
    FeedSeal,
    FlaggedStream,
    StoredEvent,
    StreamHead,
)
from games.eventstore.repair import repair_projections
from games.eventstore.seal import seal_feed
from games.management.commands import serve
from rules import tournament as rt
from tests.reliability_tests.conftest import (
    PROJECT_DIR,
    free_port,
    http,
    make_tournament,
    record_result,
    start_game,
    subprocess_env,
)
from tests.reliability_tests.test_tampering import (
    insert_forged,
    open_board,
    trigger_disabled,
    verify,
)
from tournaments.core import aggregate
from tournaments.models import Tournament

GUNICORN_CONF = PROJECT_DIR / "config" / "gunicorn.conf.py"


@pytest.fixture
def club(director, paired):
    tournament_id, ids = paired
    record_result(director, tournament_id, ids[0], ids[1], (410, 390))
    return tournament_id, ids


def forge_a_refused_result(tournament_id, ids, director, hash_with) -> int:
    """Round 1's first result again, 500-300: a duplicate the rules refuse on any
    replay. Its version."""
    return insert_forged(
        aggregate.tournament_stream(tournament_id),
        rt.ResultRecorded(
            round=1, player_a=ids[0], player_b=ids[1], score_a=500, score_b=300
        ),
        director,
        hash_with,
    )


def plain_hash(previous, line):
    from games.eventstore.chain import legacy_chain_hash

    return legacy_chain_hash(previous, line)


def keyed_hash(previous, line):
    """What someone holding the key (or an older version of the rules that
    accepted the event) leaves: a chain that verifies."""
    return chain_hash_of_line(previous, line, log_key())


def move_head_to_the_log(stream_id) -> None:
    """The head recorded where the log now ends, with a code under the key."""
    last = StoredEvent.objects.filter(stream_id=stream_id).order_by("-version")[0]
    StreamHead.objects.filter(stream_id=stream_id).update(
        version=last.version,
        chain_hash=last.chain_hash,
        mac=head_mac(
            log_key(), last.stream_type, stream_id, last.version, last.chain_hash
        ),
    )


# --- item 4: a stream that cannot be replayed never stops a server -----------------


@pytest.mark.django_db(transaction=True)
def test_a_gunicorn_worker_boots_with_a_forged_event_present(director):
    """Before: the worker's warm-up let the rules' refusal escape and gunicorn
    exited with "Worker failed to boot"."""
    tournament_id, ids = make_tournament(director, players=4)
    record_result(director, tournament_id, ids[0], ids[1])
    forge_a_refused_result(tournament_id, ids, director, plain_hash)
    other_id, _ = make_tournament(director, players=4, name="Other Open")
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            str(GUNICORN_CONF),
            "--workers=1",
            f"--bind=127.0.0.1:{port}",
        ],
        cwd=PROJECT_DIR,
        env=subprocess_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_it_answers(process, url)
        status, _, _ = http(f"{url}{_prizes(other_id)}")
        assert status == 200
        status, _, body = http(f"{url}{_prizes(tournament_id)}")
        assert status == 503
        assert b"under review" in body
        status, _, body = http(
            f"{url}/api/tournaments/{tournament_id}/divisions/A/prizes"
        )
        assert status == 503
        assert b'"code":"under_review"' in body.replace(b" ", b"")
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=30)
    assert FlaggedStream.objects.filter(stream_id=tournament_id).exists()
    assert b"TAMPERING or a rules change" in errors
    assert b"Worker failed to boot" not in errors


def _prizes(tournament_id) -> str:
    return reverse("prizes", args=[tournament_id, "A"])


def _wait_until_it_answers(process: subprocess.Popen, url: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/health", timeout=5)
            return
        except urllib.error.HTTPError:
            return
        # TimeoutError: the worker accepted but is still warming up (busy host).
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            assert process.poll() is None, process.stderr.read().decode()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)


@pytest.mark.django_db(transaction=True)
def test_the_worker_warm_up_flags_what_it_cannot_replay_and_goes_on(
    director, monkeypatch
):
    # Every commit seals (no interval between seals), so the count below is exact.
    monkeypatch.setattr(seal, "SEAL_INTERVAL_SECONDS", 0)
    tournament_id, ids = make_tournament(director, players=4)
    record_result(director, tournament_id, ids[0], ids[1])
    version = forge_a_refused_result(tournament_id, ids, director, plain_hash)
    sound_id, _ = make_tournament(director, players=4, name="Sound Open")
    # Each append's commit sealed the feed as far as it could: up to the forged
    # event, whose entry is sealed too (it is there), and on.
    assert FeedSeal.objects.count() == FeedEntry.objects.count()
    state_cache.clear()
    try:
        hook = runpy.run_path(str(GUNICORN_CONF))["post_worker_init"]
        hook(None)
        assert state_cache.entry(aggregate.tournament_stream(sound_id)) is not None
        assert state_cache.entry(aggregate.tournament_stream(tournament_id)) is None
    finally:
        state_cache.clear()
    flag = FlaggedStream.objects.get(stream_id=tournament_id)
    assert flag.problem.startswith(f"version {version} cannot be replayed: ")
    code, _, err = verify("--skip-contents")
    assert code == 1
    assert f"FLAGGED tournament/{tournament_id}: version {version}" in err


@pytest.mark.django_db
def test_the_start_up_repair_flags_a_stream_it_cannot_replay_and_serves(
    club, director, monkeypatch
):
    """A refused event with a chain and head that verify (made with the key, or
    accepted by an older version of the rules) and a projection behind it: the
    repair's re-projection raised, and `manage.py serve` stopped."""
    tournament_id, ids = club
    version = forge_a_refused_result(tournament_id, ids, director, keyed_hash)
    move_head_to_the_log(tournament_id)
    monkeypatch.setattr(serve, "call_command", lambda *args, **kwargs: None)
    monkeypatch.setattr(serve, "run_server", lambda host, port: None)
    said, out = io.StringIO(), io.StringIO()

    serve.Command(stdout=out, stderr=said).handle(addrport="127.0.0.1:0", no_demo=True)

    assert "Serving on" in out.getvalue()
    assert f"TAMPERING: tournament/{tournament_id}: its log cannot be replayed" in (
        said.getvalue()
    )
    assert Tournament.objects.get(pk=tournament_id).version == version - 1
    assert FlaggedStream.objects.filter(stream_id=tournament_id).exists()


@pytest.mark.django_db
def test_readers_of_a_stream_that_cannot_be_replayed_are_told_it_is_under_review(
    club, director, client
):
    tournament_id, ids = club
    forge_a_refused_result(tournament_id, ids, director, plain_hash)
    page = client.get(_prizes(tournament_id))
    assert page.status_code == 503
    assert b"This record is under review" in page.content
    api = client.get(f"/api/tournaments/{tournament_id}/divisions/A/prizes")
    assert api.status_code == 503
    assert api.json()["code"] == "under_review"


# --- item 5: heads and the feed under the key -------------------------------------


def _last_two(stream_id):
    events = StoredEvent.objects.filter(stream_id=stream_id).order_by("-version")[:2]
    return events[0], events[1]


def test_a_rewound_head_is_tampering_not_staleness(feed_at_once, club):
    """The issue's deletion: the last event deleted, the head set back to the
    event before, the projection rows dropped. Before: verify_events said STALE
    and the repair (every start) rebuilt the stream without the deleted result."""
    tournament_id, _ = club
    stream = aggregate.tournament_stream(tournament_id)
    last, before = _last_two(tournament_id)
    with trigger_disabled() as cursor:
        cursor.execute("DELETE FROM event_log WHERE position = %s", [last.position])
        cursor.execute(
            "UPDATE event_stream_head SET version = %s, chain_hash = %s"
            " WHERE stream_id = %s",
            [before.version, before.chain_hash, tournament_id],
        )
    Tournament.objects.filter(pk=tournament_id).delete()
    state_cache.clear()

    code, _, err = verify()

    assert code == 1
    assert (
        f"TAMPERED {stream}: its head (version {before.version}) does not carry a "
        "code made with this log's key"
    ) in err
    assert f"({stream}): the event it numbers (log position {last.position})" in err
    assert (
        f"TAMPERED {stream}: no projection, but its head says it was projected"
    ) in err
    assert "STALE" not in err
    report = repair_projections()
    assert report.repaired == []
    assert stream in [refusal.stream for refusal in report.refused]
    assert not Tournament.objects.filter(pk=tournament_id).exists()
    assert FlaggedStream.objects.filter(stream_id=tournament_id).exists()


@pytest.mark.parametrize(
    "also_deleted", ["nothing else", "its feed entry", "its feed entry and seal"]
)
def test_a_head_set_back_to_a_kept_copy_is_still_found(
    feed_at_once, club, director, also_deleted
):
    """Someone who kept a copy of the head row from before the last append (its
    code verifies) deletes that append's event, the projection rows, and perhaps
    its feed entry and seal: the feed's chain, sealed after each commit, says so."""
    tournament_id, _ = club
    stream = aggregate.tournament_stream(tournament_id)
    kept = StreamHead.objects.get(stream_id=tournament_id)
    board = open_board(tournament_id)
    record_result(
        director, tournament_id, board.first.player_id, board.second.player_id
    )
    start_game(director)  # later writes, to another stream
    seal_feed()  # as every append's commit does
    last, _ = _last_two(tournament_id)
    entry = FeedEntry.objects.get(position=last.position)
    with trigger_disabled() as cursor:
        cursor.execute("DELETE FROM event_log WHERE position = %s", [last.position])
        cursor.execute(
            "UPDATE event_stream_head SET version = %s, chain_hash = %s, mac = %s"
            " WHERE stream_id = %s",
            [kept.version, kept.chain_hash, kept.mac, tournament_id],
        )
        if also_deleted != "nothing else":
            _delete_from(cursor, "event_feed", entry.feed_position)
        if also_deleted == "its feed entry and seal":
            _delete_from(cursor, "event_feed_seal", entry.feed_position)
    Tournament.objects.filter(pk=tournament_id).delete()
    state_cache.clear()

    code, _, err = verify()

    assert code == 1
    expected = {
        "nothing else": f"feed@{entry.feed_position} ({stream}): the event it numbers",
        "its feed entry": f"feed@{entry.feed_position} ({stream}): this entry was "
        "sealed but is gone",
        "its feed entry and seal": f"feed@{entry.feed_position + 1} (stream unknown)"
        ": its seal does not follow the one before",
    }[also_deleted]
    assert f"TAMPERED {expected}" in err
    assert "STALE" not in err
    report = repair_projections()
    assert report.repaired == []
    assert not Tournament.objects.filter(pk=tournament_id).exists()
    assert FlaggedStream.objects.filter(stream_id=tournament_id).exists()


def _delete_from(cursor, table: str, feed_position: int) -> None:
    trigger = f"{table}_no_update_delete"
    cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {trigger}")
    cursor.execute(f"DELETE FROM {table} WHERE feed_position = %s", [feed_position])
    cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER {trigger}")


def test_a_deleted_feed_entry_is_a_break(feed_at_once, club, director):
    """A feed entry deleted (its event kept): a follower of the feed never sees
    that result. Before: nothing noticed."""
    tournament_id, _ = club
    stream = aggregate.tournament_stream(tournament_id)
    start_game(director)
    seal_feed()
    entry = FeedEntry.objects.filter(stream_id=tournament_id).order_by(
        "-feed_position"
    )[0]
    version = StoredEvent.objects.get(position=entry.position).version
    with connection.cursor() as cursor:
        _delete_from(cursor, "event_feed", entry.feed_position)

    code, _, err = verify()

    assert code == 1
    assert (
        f"TAMPERED feed@{entry.feed_position} ({stream}): this entry was sealed but "
        "is gone: deleted"
    ) in err
    assert (
        f"TAMPERED feed ({stream}): version {version} (log position "
        f"{entry.position}) has no feed entry"
    ) in err


def test_a_sound_log_verifies_with_its_feed_sealed(feed_at_once, club, director):
    start_game(director)
    assert seal_feed() > 0
    assert seal_feed() == 0
    code, out, err = verify()
    assert code == 0, err
    assert "feed sealed up to" in out


# --- item 10: rekey_events with servers up ------------------------------------------


NEW_KEY = "the new key of the log, 32 characters or more"


def test_a_server_left_with_the_old_key_writes_nothing_after_a_rekey(
    club, director, settings, monkeypatch
):
    """A server that has appended (its cache holds the stream's last chain hash)
    while `rekey_events` runs elsewhere. Before: its next write was stored under
    the old key, chained to a hash the log no longer had, and verify_events called
    it TAMPERED. Now the append is refused (nothing written) and the server is
    told to restart with the new key; once it has, it writes again."""
    tournament_id, _ = club
    old = settings.EVENT_LOG_KEY
    aggregate.tournament_state(tournament_id)  # the server's warm cache
    count = StoredEvent.objects.filter(stream_id=tournament_id).count()
    # rekey_events, run as the operator would (its own process, the new key).
    settings.EVENT_LOG_KEY = NEW_KEY
    monkeypatch.setenv("EVENT_LOG_OLD_KEY", old)
    call_command("rekey_events", stdout=io.StringIO())
    settings.EVENT_LOG_KEY = old  # the server still runs with the old key

    board = open_board(tournament_id)
    with pytest.raises(LogKeyChangedError):
        record_result(
            director, tournament_id, board.first.player_id, board.second.player_id
        )

    assert StoredEvent.objects.filter(stream_id=tournament_id).count() == count
    settings.EVENT_LOG_KEY = NEW_KEY  # restarted with the new key
    state_cache.clear()
    assert verify()[0] == 0
    record_result(
        director, tournament_id, board.first.player_id, board.second.player_id
    )
    assert verify()[0] == 0


@pytest.mark.django_db
def test_the_console_tells_the_team_its_record_is_under_review(club, director, client):
    tournament_id, ids = club
    forge_a_refused_result(tournament_id, ids, director, plain_hash)
    repair_projections()  # the start-up repair flags it
    client.force_login(director)
    page = client.get(reverse("manage", args=[tournament_id]))
    assert page.status_code == 200
    assert b"This record is under review" in page.content
    assert b"failed an integrity check" in page.content
