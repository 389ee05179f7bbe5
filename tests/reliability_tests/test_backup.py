"""Backup and restore: an export imported into an empty database gives the same
standings, game states and export; a tampered file is refused at the line that
fails, having written nothing; tampering in the database is found by verify_events."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import uuid

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from rest_framework.authtoken.models import Token

from games import selectors
from games import services as game_services
from games.eventstore import bulk as bulk_writer
from games.eventstore.backup import BackupError, export_events, import_events
from games.eventstore.cache import state_cache
from games.eventstore.chain import chain_hash_of_line, log_key
from games.eventstore.models import StoredEvent
from games.eventstore.restore import import_events_bulk
from games.eventstore.streams import StreamKey
from games.models import GameProjection, GameTurn
from tests.boards import round_games
from tests.reliability_tests.conftest import (
    PROJECT_DIR,
    make_tournament,
    manage,
    subprocess_env,
)
from tournaments.models import Director, Player, PlayerRound, Tournament
from tournaments.pairing import services as pairing_services
from tournaments.players import accounts
from tournaments.results import services as results_services


@pytest.fixture
def history(director, other_user, shared_gcg_dir):
    """A tournament with two rounds of results (one amended), a linked player who
    annotated their game, two games recorded for it (one from a GCG file), and a
    casual game that belongs to no tournament. WESPA rules: the GCG file is a
    five-point challenge game, and a tournament's games play under its rules."""
    tournament_id, ids = make_tournament(director, preset="wespa")
    for board in range(4):
        results_services.result_record(
            tournament_id=tournament_id,
            round_=1,
            player_a=ids[2 * board],
            player_b=ids[2 * board + 1],
            score_a=400 + 10 * board,
            score_b=380 - 5 * board,
            user=director,
        )
    pairing_services.round_pair(
        tournament_id=tournament_id,
        division="A",
        round_=2,
        method="king_of_the_hill",
        user=director,
    )
    first = round_games(tournament_id, 2)[0]
    results_services.result_record(
        tournament_id=tournament_id,
        round_=2,
        player_a=first.first.player_id,
        player_b=first.second.player_id,
        score_a=333,
        score_b=444,
        user=director,
    )
    results_services.result_amend(
        tournament_id=tournament_id,
        round_=1,
        player_a=ids[0],
        player_b=ids[1],
        score_a=390,
        score_b=401,
        reason="scoresheet misread",
        user=director,
    )
    accounts.player_link_account(
        tournament_id=tournament_id, player_id=ids[0], account=other_user, user=director
    )
    context = {
        "tournament_id": tournament_id,
        "division": "A",
        "round": 1,
        "board": 1,
        "player_ids": [ids[0], ids[1]],
    }
    result = game_services.game_start(
        user=director,
        players=["Player 1", "Player 2"],
        racks=["DINNVWY", "ADEEGIL"],
        context=context,
        seed=11,
    )
    game_id = result.stream.id
    placed = game_services.game_place(
        game_id=game_id, position="8D", word="WINDY", user=director
    )
    game_services.game_place(game_id=game_id, position="7C", word="GALE", user=director)
    game_services.game_note(
        game_id=game_id,
        target_version=placed.version,
        text="should have kept the Y",
        user=other_user,
    )
    imported, _ = game_services.game_import_gcg(
        text=(shared_gcg_dir / "josh2.gcg").read_bytes(),
        user=director,
        context={**context, "board": 2, "player_ids": [ids[2], ids[3]]},
    )
    casual = game_services.game_start(
        user=other_user, players=["Kim", "Lee"], racks=["AEINRST", "EEIOUAA"]
    )
    return {
        "tournament": tournament_id,
        "games": [game_id, imported.stream.id],
        "casual": casual.stream.id,
    }


def snapshot(history, *, casual: bool = True) -> dict:
    """Every read model the restore must reproduce, without row ids and the
    projection's own write times."""
    tournament_id = history["tournament"]
    games = [*history["games"], *([history["casual"]] if casual else [])]
    return {
        "tournament": list(
            Tournament.objects.filter(pk=tournament_id).values(
                "version", "name", "divisions", "published", "created_at"
            )
        ),
        "directors": sorted(
            Director.objects.filter(tournament_id=tournament_id).values_list(
                "user_id", flat=True
            )
        ),
        "players": list(
            Player.objects.filter(tournament_id=tournament_id)
            .order_by("number")
            .values("player_id", "number", "name", "rating", "withdrawn", "user_id")
        ),
        "results": list(
            PlayerRound.objects.filter(tournament_id=tournament_id)
            .order_by("round", "position")
            .values(
                "round",
                "rank",
                "player_id",
                "wins",
                "losses",
                "running_spread",
                "games",
                "kind",
                "opponent_id",
                "board",
                "own_score",
                "opponent_score",
                "outcome",
                "amended",
                "changed_version",
                "changed_at",
            )
        ),
        "games": list(
            GameProjection.objects.filter(pk__in=games)
            .order_by("game_id")
            .values(
                "game_id",
                "version",
                "tournament_id",
                "players",
                "scores",
                "board",
                "is_over",
                "created_by_id",
                "started_at",
            )
        ),
        "turns": list(
            GameTurn.objects.filter(game_id__in=games)
            .order_by("game_id", "index")
            .values("game_id", "index", "word", "score", "cumulative", "notes")
        ),
        "states": [selectors.game_state_at(game_id, None) for game_id in games],
    }


def wipe_database() -> None:
    """Make this test's database empty: no event, projection or user account.

    Replica mode (the test database's superuser only, inside the test's transaction,
    rolled back after it) skips the append-only trigger and the foreign-key checks.
    """
    tables = [
        model._meta.db_table
        for label in ("eventstore", "games", "tournaments")
        for model in apps.get_app_config(label).get_models()
    ]
    tables += [Token._meta.db_table, "django_admin_log", "auth_user_groups"]
    tables += ["auth_user_user_permissions", get_user_model()._meta.db_table]
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET LOCAL session_replication_role = replica")
        for table in tables:
            cursor.execute(f'DELETE FROM "{table}"')
        cursor.execute("SET LOCAL session_replication_role = origin")
    state_cache.clear()


def tournament_text(history) -> str:
    """The backup of the history's tournament (with its games)."""
    return export_text(scope=StreamKey("tournament", history["tournament"]))


def export_text(**options) -> str:
    out = io.StringIO()
    export_events(out, **options)
    return out.getvalue()


def lines_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "bulk",
    [
        [],
        # Whole streams in worker processes, a few events a transaction: the
        # tournament alone, its games and the casual game in batches of their own.
        ["--bulk", "--batch-events", "5", "--jobs", "2"],
    ],
    ids=["verified-first", "bulk"],
)
def test_export_then_import_into_an_empty_database_reproduces_everything(
    history, tmp_path, bulk
):
    before = snapshot(history)
    path = tmp_path / "backup.jsonl"
    call_command("export_events", "--output", str(path), stderr=io.StringIO())
    exported = path.read_text()
    wipe_database()
    assert StoredEvent.objects.count() == 0
    assert get_user_model().objects.count() == 0

    out = io.StringIO()
    call_command("import_events", str(path), *bulk, stdout=out)

    assert "user accounts created" in out.getvalue()
    assert snapshot(history) == before
    assert export_text() == exported
    out = io.StringIO()
    call_command("verify_events", "--replay", stdout=out)
    assert "every chain is intact" in out.getvalue()
    events = len(exported.splitlines()) - 2
    print(f"\nFIGURES restore: {events} events exported, imported, re-exported")


@pytest.mark.django_db
def test_a_tournament_export_holds_it_and_its_games_only(history, tmp_path):
    text = tournament_text(history)
    lines = lines_of(text)
    streams = {line["stream_id"] for line in lines if line["kind"] == "event"}
    assert streams == {str(history["tournament"]), *map(str, history["games"])}
    assert lines[0]["scope"] == {"tournament_id": str(history["tournament"])}
    assert lines[-1]["events"] == len(lines) - 2
    before = snapshot(history, casual=False)
    path = tmp_path / "tournament.jsonl"
    path.write_text(text)
    wipe_database()
    import_events(path)
    assert snapshot(history, casual=False) == before
    assert not StoredEvent.objects.filter(stream_id=history["casual"]).exists()
    assert tournament_text(history) == text


@pytest.mark.django_db
def test_an_unknown_tournament_cannot_be_exported(history):
    with pytest.raises(CommandError, match="no tournament"):
        call_command("export_events", "--tournament", str(uuid.uuid4()))


def _tamper(lines: list[str], number: int, change) -> list[str]:
    value = json.loads(lines[number - 1])
    change(value)
    lines = list(lines)
    lines[number - 1] = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return lines


def _line_of(lines: list[str], stream_type: str, version: int) -> int:
    for number, line in enumerate(lines, start=1):
        value = json.loads(line)
        if value.get("stream_type") == stream_type and value.get("version") == version:
            return number
    raise AssertionError("no such event")


@pytest.fixture
def exported(history, tmp_path):
    text = export_text()
    wipe_database()
    return text.splitlines(), history, tmp_path


def _refused(lines, tmp_path, match):
    path = tmp_path / "tampered.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    with pytest.raises(CommandError, match=match) as refused:
        call_command("import_events", str(path))
    assert "nothing was imported" in str(refused.value)
    assert StoredEvent.objects.count() == 0
    assert get_user_model().objects.count() == 0
    return str(refused.value)


def test_a_changed_payload_is_refused_with_its_line(exported, db):
    lines, history, tmp_path = exported
    number = _line_of(lines, "tournament", 5)
    tampered = _tamper(lines, number, lambda v: v["payload"].update(rating=2400))
    message = _refused(tampered, tmp_path, "chain hash mismatch")
    assert (
        f"line {number}: tournament/{history['tournament']}@5: chain hash mismatch"
        in message
    )


@pytest.mark.parametrize(
    ("tamper", "expected"),
    [
        ("delete", "version 6 follows 4: version 5 is missing"),
        ("swap", "version 6 follows 4: version 5 is missing or out of order"),
        ("recorded_by", "chain hash mismatch"),
        ("recorded_at", "chain hash mismatch"),
        ("rehash", "chain hash mismatch"),
        ("truncate", "without its end line: it is truncated"),
        ("cut", "the line is cut short"),
        ("not_json", "not a JSON line"),
        ("header_user", "the header does not match its authentication code"),
        ("end_count", "events were added or removed"),
        ("trailing", "a line after the end line"),
    ],
)
def test_a_tampered_file_is_refused_and_nothing_is_written(
    exported, db, tamper, expected
):
    lines, _, tmp_path = exported
    number = _line_of(lines, "tournament", 5)
    if tamper == "delete":
        lines = lines[: number - 1] + lines[number:]
    elif tamper == "swap":
        lines[number - 1], lines[number] = lines[number], lines[number - 1]
    elif tamper == "recorded_by":
        lines = _tamper(lines, number, lambda v: v.update(recorded_by=None))
    elif tamper == "recorded_at":
        lines = _tamper(
            lines, number, lambda v: v.update(recorded_at="2020-01-01T00:00:00+00:00")
        )
    elif tamper == "rehash":
        # A forger who recomputes this event's hash breaks the next one's link.
        lines = _tamper(lines, number, lambda v: v.update(chain_hash="0" * 64))
    elif tamper == "truncate":
        lines = lines[:-1]
    elif tamper == "not_json":
        lines[number - 1] = lines[number - 1][:-5]
    elif tamper == "header_user":
        lines = _tamper(lines, 1, lambda v: v["users"][0].__setitem__(1, "mallory"))
    elif tamper == "end_count":
        lines = _tamper(lines, len(lines), lambda v: v.update(events=v["events"] + 1))
    elif tamper == "trailing":
        lines = [*lines, lines[1]]
    if tamper == "cut":
        path = tmp_path / "tampered.jsonl"
        path.write_text("".join(line + "\n" for line in lines)[:-10])
        with pytest.raises(CommandError, match=expected):
            call_command("import_events", str(path))
        assert StoredEvent.objects.count() == 0
        return
    message = _refused(lines, tmp_path, expected)
    assert message.split(": ", 2)[1].startswith("line ")


def forge(values: list[dict], key=None) -> list[str]:
    """The file's lines with every chain hash and the checksum recomputed: under
    `key` (an insider who holds the log's key, who can also sign the header and
    the end) or, without one, as plain sha256 hashes (what anyone can compute)."""
    from games.eventstore.chain import legacy_chain_hash

    previous: dict[str, str] = {}
    digest = hashlib.sha256()
    out = []
    for value in values:
        if key is not None:
            value = {name: item for name, item in value.items() if name != "mac"}
        if value["kind"] == "event":
            value["chain_hash"] = (
                chain_hash_of_line(previous.get(value["stream_id"], ""), value, key)
                if key
                else legacy_chain_hash(previous.get(value["stream_id"], ""), value)
            )
            previous[value["stream_id"]] = value["chain_hash"]
        if value["kind"] == "end":
            value["sha256"] = digest.hexdigest()
        if key is not None and value["kind"] != "event":
            value["mac"] = key.mac(
                json.dumps(
                    value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
                ).encode()
            )
        line = json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        if value["kind"] != "end":
            digest.update((line + "\n").encode())
        out.append(line)
    return out


def test_a_forged_chain_is_still_checked_by_the_rules(exported, db):
    """Even someone who holds the log's key, and recomputes every hash, the
    checksum and the authentication codes, cannot restore an event the rules
    refuse: every stream is replayed before anything is written."""
    lines, _, tmp_path = exported
    values = [json.loads(line) for line in lines]
    number = _line_of(lines, "tournament", 5)
    values[number - 1]["payload"]["division"] = "Z"  # no such division
    message = _refused(forge(values, log_key()), tmp_path, "refused by the rules")
    assert f"line {number}: tournament/" in message
    assert "@5: refused by the rules: There is no division 'Z'" in message


@pytest.mark.parametrize(
    ("tamper", "expected"),
    [
        ("recorded_by", "file checksum mismatch"),
        ("swap", "lines are out of order"),
        ("truncate", "without its end line: it is truncated"),
        ("end_count", "events were added or removed"),
        ("trailing", "a line after the end line"),
    ],
)
def test_bulk_refuses_a_tampered_file_before_writing_anything(
    exported, db, tamper, expected
):
    lines, _, tmp_path = exported
    number = _line_of(lines, "tournament", 5)
    if tamper == "recorded_by":
        lines = _tamper(lines, number, lambda v: v.update(recorded_by=None))
    elif tamper == "swap":
        lines[number - 1], lines[number] = lines[number], lines[number - 1]
    elif tamper == "truncate":
        lines = lines[:-1]
    elif tamper == "end_count":
        lines = _tamper(lines, len(lines), lambda v: v.update(events=v["events"] + 1))
    elif tamper == "trailing":
        lines = [*lines, lines[1]]
    path = tmp_path / "tampered.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    with pytest.raises(CommandError, match=expected) as refused:
        call_command("import_events", str(path), "--bulk")
    assert "nothing was imported" in str(refused.value)
    assert StoredEvent.objects.count() == 0
    assert get_user_model().objects.count() == 0


def test_bulk_skips_a_stream_the_rules_refuse_and_restores_the_others(
    exported, db, capsys
):
    """A forger with the key gets past the file's checks, not the rules: the
    refused stream is reported with its line, the other streams are restored."""
    lines, history, tmp_path = exported
    values = [json.loads(line) for line in lines]
    number = _line_of(lines, "tournament", 5)
    values[number - 1]["payload"]["division"] = "Z"  # no such division
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(line + "\n" for line in forge(values, log_key())))
    with pytest.raises(CommandError, match="1 stream\\(s\\) not imported"):
        call_command("import_events", str(path), "--bulk", "--batch-events", "5")
    err = capsys.readouterr().err
    assert f"line {number}: tournament/{history['tournament']}@5: refused" in err
    assert not StoredEvent.objects.filter(stream_id=history["tournament"]).exists()
    games = [*history["games"], history["casual"]]
    assert GameProjection.objects.filter(pk__in=games).count() == 3
    events = [line for line in lines_of("\n".join(lines)) if line["kind"] == "event"]
    others = [e for e in events if e["stream_id"] != str(history["tournament"])]
    assert StoredEvent.objects.count() == len(others)


@pytest.mark.django_db
def test_an_interrupted_bulk_restore_resumes_from_the_stream_it_prints(
    history, tmp_path, monkeypatch
):
    before = snapshot(history)
    path = tmp_path / "backup.jsonl"
    path.write_text(export_text())
    exported = path.read_text()
    wipe_database()
    written = bulk_writer.write_prepared
    calls = []

    def interrupted_before_the_second(prepared):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return written(prepared)

    monkeypatch.setattr(bulk_writer, "write_prepared", interrupted_before_the_second)
    options = ["--bulk", "--batch-events", "5", "--jobs", "2"]
    with pytest.raises(CommandError, match="--from-stream 1") as stopped:
        call_command("import_events", str(path), *options, stdout=io.StringIO())
    assert "interrupted: the batches written are kept" in str(stopped.value)
    # The first batch is the tournament alone (its events fill a batch).
    assert set(StoredEvent.objects.values_list("stream_id", flat=True)) == {
        history["tournament"]
    }
    monkeypatch.setattr(bulk_writer, "write_prepared", written)
    call_command(
        "import_events", str(path), *options, "--from-stream", "1", stdout=io.StringIO()
    )
    assert snapshot(history) == before
    assert export_text() == exported
    out = io.StringIO()
    call_command("verify_events", "--replay", stdout=out)
    assert "every chain is intact" in out.getvalue()


def _with_checksum(values: list[dict]) -> list[str]:
    """The lines with the end's sha256 recomputed (what anyone can do)."""
    lines = [
        json.dumps(value, sort_keys=True, separators=(",", ":")) for value in values
    ]
    digest = hashlib.sha256("".join(line + "\n" for line in lines[:-1]).encode())
    end = {**values[-1], "sha256": digest.hexdigest()}
    return [*lines[:-1], json.dumps(end, sort_keys=True, separators=(",", ":"))]


def test_a_forger_without_the_key_is_refused_at_the_first_line_changed(exported, db):
    """The issue's forgery: a rating changed, every chain hash and the checksum
    recomputed as the code before the key did (plain sha256). No line verifies
    without the log's key: the first event line is refused."""
    lines, _, tmp_path = exported
    values = [json.loads(line) for line in lines]
    values[_line_of(lines, "tournament", 5) - 1]["payload"]["rating"] = 2400
    message = _refused(forge(values), tmp_path, "chain hash mismatch")
    assert "line 2: " in message
    assert "a plain sha256, not made with this log's key" in message


def test_swapped_header_users_are_refused_at_line_1(exported, db):
    """The header's users swapped (the events would name someone else) and the
    checksum recomputed: the header's authentication code no longer matches."""
    lines, _, tmp_path = exported
    values = [json.loads(line) for line in lines]
    users = values[0]["users"]
    assert len(users) >= 2
    (first_id, first), (second_id, second) = users[0], users[1]
    values[0]["users"][0], values[0]["users"][1] = (
        [first_id, second],
        [second_id, first],
    )
    forged = [
        json.dumps(value, sort_keys=True, separators=(",", ":")) for value in values
    ]
    digest = hashlib.sha256("".join(line + "\n" for line in forged[:-1]).encode())
    end = {**values[-1], "sha256": digest.hexdigest()}
    forged[-1] = json.dumps(end, sort_keys=True, separators=(",", ":"))
    message = _refused(forged, tmp_path, "authentication code")
    assert "line 1: the header does not match its authentication code" in message


def test_a_stream_cut_short_with_the_end_recomputed_is_refused_at_the_end(exported, db):
    """A stream's last event removed (no gap) and the end's counts and checksum
    recomputed: every remaining line verifies, the end's code does not."""
    lines, history, tmp_path = exported
    values = [json.loads(line) for line in lines]
    casual = str(history["casual"])
    last = max(
        number
        for number, value in enumerate(values)
        if value.get("stream_id") == casual
    )
    del values[last]
    kept = [
        json.dumps(value, sort_keys=True, separators=(",", ":")) for value in values
    ]
    digest = hashlib.sha256("".join(line + "\n" for line in kept[:-1]).encode())
    end = {
        **values[-1],
        "sha256": digest.hexdigest(),
        "events": values[-1]["events"] - 1,
    }
    kept[-1] = json.dumps(end, sort_keys=True, separators=(",", ":"))
    message = _refused(kept, tmp_path, "authentication code")
    assert f"line {len(kept)}: the end line does not match" in message


def test_a_backup_made_under_another_key_is_refused(exported, db, settings):
    lines, _, tmp_path = exported
    settings.EVENT_LOG_KEY = "another site's key, at least thirty-two characters"
    message = _refused(lines, tmp_path, "authentication code")
    assert "line 1: the header does not match" in message


def test_a_backup_of_the_first_format_needs_to_be_accepted_explicitly(exported, db):
    """A file made before the key (plain hashes, no codes): refused unless the
    operator accepts it; then its plain chains are checked and the events chained
    under the key."""
    lines, _, tmp_path = exported
    values = [json.loads(line) for line in lines]
    values[0]["format_version"] = 1
    path = tmp_path / "old.jsonl"
    path.write_text("".join(line + "\n" for line in forge(values)))
    with pytest.raises(CommandError, match="line 1: format version 1"):
        call_command("import_events", str(path))
    assert StoredEvent.objects.count() == 0

    out = io.StringIO()
    call_command("import_events", str(path), "--legacy-unkeyed", stdout=out)

    assert f"{len(values) - 2} events" in out.getvalue()
    out = io.StringIO()
    call_command("verify_events", stdout=out)
    assert "every chain is intact" in out.getvalue()


@pytest.mark.django_db
def test_import_refuses_streams_that_are_already_in_the_log(history, tmp_path):
    path = tmp_path / "backup.jsonl"
    path.write_text(export_text())
    count = StoredEvent.objects.count()
    with pytest.raises(BackupError, match="already in the log"):
        import_events(path)
    assert StoredEvent.objects.count() == count


@pytest.mark.django_db
@pytest.mark.parametrize("bulk", [False, True], ids=["verified-first", "bulk"])
def test_import_into_a_log_without_those_streams_appends_them(
    history, director, tmp_path, bulk
):
    """A non-empty log accepts a backup whose streams it lacks (positions are then
    assigned after its own)."""
    path = tmp_path / "tournament.jsonl"
    text = tournament_text(history)
    path.write_text(text)
    before = snapshot(history)
    streams = [history["tournament"], *history["games"]]
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "DELETE FROM event_log WHERE stream_id = ANY(%s)", [list(streams)]
        )
        # A log without those streams has no feed entries for them either.
        cursor.execute(
            "DELETE FROM event_feed WHERE stream_id = ANY(%s)", [list(streams)]
        )
        cursor.execute("SET LOCAL session_replication_role = origin")
    state_cache.clear()
    Tournament.objects.filter(pk=history["tournament"]).delete()
    GameProjection.objects.filter(pk__in=history["games"]).delete()
    make_tournament(director, name="Another Open")  # the log grows meanwhile

    summary = import_events_bulk(path, jobs=2) if bulk else import_events(path)

    assert not summary.positions_kept
    after = snapshot(history)
    for rows in (before["results"], after["results"]):
        for row in rows:
            row.pop("changed_at")
    assert after == before
    # The events moved, and the chain covers positions: they were chained again
    # under the key, and the log verifies.
    moved = [line for line in lines_of(tournament_text(history))]
    assert {line["chain_hash"] for line in moved if line["kind"] == "event"}.isdisjoint(
        line["chain_hash"] for line in lines_of(text) if line["kind"] == "event"
    )
    out = io.StringIO()
    call_command("verify_events", stdout=out)
    assert "every chain is intact" in out.getvalue()


@pytest.mark.django_db
def test_verify_events_reports_tampering_done_in_the_database(history):
    tournament_id = history["tournament"]
    game_id = history["games"][0]
    call_command("verify_events", stdout=io.StringIO())
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        # Only the test database's superuser can do this, inside the test's
        # transaction (rolled back after it): what a rogue administrator could do.
        cursor.execute(
            "ALTER TABLE event_log DISABLE TRIGGER event_log_no_update_delete"
        )
        cursor.execute(
            "UPDATE event_log SET payload = jsonb_set(payload, '{rating}', '2400')"
            " WHERE stream_id = %s AND version = 5",
            [tournament_id],
        )
        cursor.execute(
            "DELETE FROM event_log WHERE stream_id = %s AND version = 4", [game_id]
        )
    err = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("verify_events", stdout=io.StringIO(), stderr=err)
    assert exited.value.code == 1
    report = err.getvalue()
    assert f"TAMPERED tournament/{tournament_id}@5: chain hash mismatch" in report
    assert (
        f"TAMPERED game/{game_id}@5: version 5 follows 3: version 4 is missing"
        in report
    )
    # Its feed entry stays: the commit-ordered feed says an event was there.
    assert f"(game/{game_id}): the event it numbers (log position" in report
    assert "3 problem(s)" in report


def _psql(sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql)


@pytest.mark.django_db(transaction=True)
def test_the_commands_restore_a_backup_into_a_new_database(history, tmp_path):
    """End to end with the commands a person would run: export, create and migrate
    an empty database, import, export again: the same bytes and the same standings."""
    backup = tmp_path / "backup.jsonl"
    subprocess.run(
        manage("export_events", "--output", str(backup)),
        cwd=PROJECT_DIR,
        env=subprocess_env(),
        check=True,
        capture_output=True,
    )
    name = f"restore_{uuid.uuid4().hex[:8]}"
    _psql(f'CREATE DATABASE "{name}"')
    try:
        url = subprocess_env()["DATABASE_URL"].replace(
            f"/{connection.settings_dict['NAME']}", f"/{name}", 1
        )
        env = subprocess_env(DATABASE_URL=url)

        def run(*args: str) -> str:
            done = subprocess.run(
                manage(*args), cwd=PROJECT_DIR, env=env, capture_output=True, text=True
            )
            assert done.returncode == 0, done.stderr
            return done.stdout

        run("migrate", "--verbosity", "0")
        run("import_events", str(backup))
        again = tmp_path / "again.jsonl"
        run("export_events", "--output", str(again))
        assert again.read_bytes() == backup.read_bytes()
        assert "every chain is intact" in run("verify_events")
        standings = run(
            "shell",
            "-c",
            "import json; from tournaments.models import PlayerRound; "
            "print(json.dumps(list(PlayerRound.objects.order_by('round', 'position')"
            ".values_list('player_id', 'wins', 'running_spread'))))",
        )
        expected = list(
            PlayerRound.objects.order_by("round", "position").values_list(
                "player_id", "wins", "running_spread"
            )
        )
        assert json.loads(standings.splitlines()[-1]) == [list(row) for row in expected]
    finally:
        _psql(f'DROP DATABASE "{name}" WITH (FORCE)')
