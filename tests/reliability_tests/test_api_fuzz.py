"""Bad input to every command: random JSON bodies, malformed JSON, wrong types,
unknown fields and oversized uploads are answered 400 (or 403/404/409, or 201 when
the body happens to be a valid command), never a server error; and every 400 has the
API's one shape (tests/refusals.py)."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import services as game_services
from games.eventstore.models import StoredEvent
from games.models import GameProjection
from tests.refusals import refused
from tests.reliability_tests.conftest import DERANDOMIZE, record_result, start_game

# 415: a JSON body to the upload endpoint, which takes multipart forms only.
ALLOWED = {201, 400, 403, 404, 409, 415}
# A preview answers 200 with what the command would do, and stores nothing.
PREVIEW_ALLOWED = ALLOWED | {200}


def allowed(path: str) -> set[int]:
    return PREVIEW_ALLOWED if path.endswith("/preview") else ALLOWED


EXAMPLES_PER_ENDPOINT = 30


def command_paths() -> dict[str, set[str]]:
    """Every POST path of the games and tournaments API, with its body's fields."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    paths = {}
    for path, methods in schema["paths"].items():
        if "post" not in methods or not path.startswith(("/api/games", "/api/tourn")):
            continue
        content = methods["post"]["requestBody"]["content"]
        ref = next(iter(content.values()))["schema"]["$ref"].rsplit("/", 1)[1]
        paths[path] = set(components[ref]["properties"])
    return paths


PATHS = command_paths()
FIELDS = sorted(set().union(*PATHS.values()))


@pytest.fixture
def world(director, paired):
    tournament_id, players = paired
    game_id, turn = start_game(
        director, context={"tournament_id": tournament_id, "player_ids": players[:2]}
    )
    # A note of the director's, for the commands that edit or delete one.
    note = game_services.game_note(
        game_id=game_id, target_version=turn, text="first", user=director
    )
    client = APIClient()
    client.force_authenticate(director)
    ids = {
        "tournament_id": str(tournament_id),
        "game_id": str(game_id),
        "player_id": players[0],
        "round_": "1",
        "division": "A",
        "turn": turn,
        "note_version": str(note.version),
        # No such invitation: its revoke is a 404, the other paths still fuzzed.
        "invitation_id": str(uuid.uuid4()),
    }
    return client, ids, players


def _big(value: object, limit: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= limit


def url(path: str, ids: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: ids[m.group(1)], path)


def json_values(players: list[str]):
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.integers(-3, 20)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=30)
        | st.sampled_from(
            [*players, "A", "8D", "H8", "WINDY", "swiss", "manual", "classic",
             "phony", "valid", "resigned", "forfeit", "2026-11-21", "\x00", "\ud800",
             "0" * 5000]
        )
    )  # fmt: skip
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=10), children, max_size=4)
        ),
        max_leaves=12,
    )


VERSION = "<current version>"  # replaced by the game's version when sent


def templates(players: list[str], turn: int) -> dict[str, dict]:
    """A valid (or nearly valid) body per command, for the fuzzer to mutate: the
    deeper paths (rules, services, projections) are reached only by bodies that
    pass validation."""
    a, b, c = players[:3]
    return {
        "/api/games/": {"players": ["Ann", "Ben"], "racks": ["DINNVWY", "ADEEGIL"]},
        "/api/games/import": {"rules": "classic"},
        "/api/games/{game_id}/place": {
            "expected_version": VERSION, "position": "7C", "word": "GALE"},
        "/api/games/{game_id}/exchange": {"expected_version": VERSION, "count": 2},
        "/api/games/{game_id}/pass": {"expected_version": VERSION},
        "/api/games/{game_id}/challenge": {
            "expected_version": VERSION, "outcome": "valid", "words": ["GALE"]},
        "/api/games/{game_id}/notes": {
            "expected_version": VERSION, "target_version": turn, "text": "hm"},
        "/api/games/{game_id}/notes/{note_version}/edit": {
            "expected_version": VERSION, "text": "better"},
        "/api/games/{game_id}/notes/{note_version}/delete": {
            "expected_version": VERSION},
        "/api/games/{game_id}/visibility": {
            "expected_version": VERSION, "visibility": "public"},
        "/api/games/{game_id}/correction": {
            "expected_version": VERSION, "from_version": turn, "reason": "slip"},
        "/api/games/{game_id}/score-correction": {
            "expected_version": VERSION, "player": 0, "amount": 5, "reason": "add"},
        "/api/games/{game_id}/time-penalty": {
            "expected_version": VERSION, "player": 0, "minutes": 1},
        "/api/games/{game_id}/end": {
            "expected_version": VERSION, "reason": "resigned", "player": 1},
        "/api/tournaments/": {
            "name": "Fuzz Open", "start_date": "2026-11-21", "rounds": 3},
        "/api/tournaments/import/tsh": {
            "name": "Fuzz Open", "start_date": "2026-11-21"},
        "/api/tournaments/import/tourney-js": {"name": "Fuzz Open"},
        "/api/tournaments/{tournament_id}/forfeits": {"round": 1, "absentee": c},
        "/api/tournaments/{tournament_id}/players/late": {
            "division": "A", "name": "Late Comer", "rating": 1400},
        "/api/tournaments/{tournament_id}/players/{player_id}/miss-round": {
            "round": 2},
        "/api/tournaments/{tournament_id}/team": {
            "username": "fuzz-friend", "role": "scorekeeper"},
        "/api/tournaments/{tournament_id}/team/remove": {"username": "fuzz-friend"},
        "/api/tournaments/{tournament_id}/import/tsh": {"division": "A"},
        "/api/tournaments/{tournament_id}/import/tou": {},
        "/api/tournaments/{tournament_id}/import/ratings-list": {"division": "A"},
        "/api/tournaments/{tournament_id}/players/": {
            "division": "A", "players": [{"name": "Zed", "rating": 1400}]},
        "/api/tournaments/{tournament_id}/players/{player_id}/reactivate": {
            "from_round": 2},
        "/api/tournaments/{tournament_id}/players/{player_id}/withdraw": {
            "from_round": 2},
        "/api/tournaments/{tournament_id}/results": {
            "round": 1, "player_a": a, "player_b": b, "score_a": 400, "score_b": 300},
        "/api/tournaments/{tournament_id}/results/amend": {
            "round": 1, "player_a": a, "player_b": b, "score_a": 300, "score_b": 400},
        "/api/tournaments/{tournament_id}/results/amend/preview": {
            "round": 1, "player_a": a, "player_b": b, "score_a": 300, "score_b": 400},
        "/api/tournaments/{tournament_id}/rounds/{round_}/pair": {
            "division": "A", "method": "swiss"},
        "/api/tournaments/{tournament_id}/divisions/{division}/no-shows": {},
        "/api/tournaments/{tournament_id}/divisions/{division}/rounds": {"rounds": 2},
        "/api/tournaments/{tournament_id}/divisions/{division}/round-schedule": {
            "rounds": [{"round": 2, "method": "swiss", "based_on_round": 1}]},
        "/api/tournaments/{tournament_id}/invitations": {
            "role": "scorekeeper", "days": 7},
        "/api/tournaments/{tournament_id}/invitations/{invitation_id}/revoke": {},
        "/api/tournaments/{tournament_id}/players/{player_id}/check-in": {
            "present": True},
        "/api/tournaments/{tournament_id}/players/{player_id}/move": {
            "division": "A"},
        "/api/tournaments/{tournament_id}/divisions/{division}/prizes": {
            "classes": [{"name": "B", "highest": 1499}],
            "prizes": [{"kind": "place", "amount": "100"},
                       {"kind": "high_game", "amount": "20", "rating_class": "B"}]},
    }  # fmt: skip


def typed_values(players: list[str]):
    """Values shaped like the fields' own types (so that a body gets past type
    checks into the rules and services), plus any JSON value."""
    words = st.sampled_from(
        [*players, "A", "AE", "?", "Q", "ZZZZZZZ", "8D", "H8", "7C", "GALE", "x", ""]
    )
    keys = st.sampled_from(["0", "1", "7", "-1", "x", "Ann", "", " 1"])
    return (
        json_values(players)
        | words
        | st.integers(-5, 30)
        | st.lists(words | st.integers(-1, 5), max_size=3)
        | st.dictionaries(keys, words, max_size=2)
    )


@st.composite
def mutations(draw, template: dict, fields: set[str], values) -> dict:
    """The template with a field or a few set to other values, removed or added."""
    body = dict(template)
    own = st.sampled_from(sorted(fields))
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        operation = draw(st.sampled_from(["set"] * 6 + ["delete", "add"]))
        if operation == "set":
            field = draw(own | own | own | st.sampled_from(FIELDS))
            body[field] = draw(values)
        elif operation == "delete" and body:
            del body[draw(st.sampled_from(sorted(body)))]
        else:
            body[draw(st.text(max_size=12))] = draw(values)
    return body


def bodies(path: str, players: list[str], turn: int):
    """Mostly mutations of the endpoint's template; also objects of random fields,
    and any JSON value at all."""
    values = typed_values(players)
    template = templates(players, turn)[path]
    mutated = mutations(template, PATHS[path] or {"x"}, values)
    anywhere = st.dictionaries(st.sampled_from(FIELDS), values, max_size=6)
    return st.one_of(mutated, mutated, mutated, mutated, anywhere, values)


@pytest.mark.django_db
@pytest.mark.parametrize("path", sorted(PATHS))
def test_random_json_bodies_never_cause_a_server_error(world, path):
    client, ids, players = world
    target = url(path, ids)
    sent = 0

    @settings(
        max_examples=EXAMPLES_PER_ENDPOINT,
        deadline=None,
        derandomize=DERANDOMIZE,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
        ],
        database=None,
    )
    @given(bodies(path, players, ids["turn"]))
    def post(body):
        nonlocal sent
        if isinstance(body, dict):
            version = GameProjection.objects.get(pk=ids["game_id"]).version
            body = {k: version if v == VERSION else v for k, v in body.items()}
        response = client.post(
            target, json.dumps(body), content_type="application/json"
        )
        assert response.status_code in allowed(path), (body, response.content[:500])
        if response.status_code == 400:
            refused(response)
        sent += 1

    post()
    # Hypothesis may skip a body it drew before, not half of them: fewer means the
    # endpoint was hardly fuzzed (a strategy that stopped drawing, a broken URL).
    assert sent >= EXAMPLES_PER_ENDPOINT // 2, f"{path}: only {sent} bodies sent"


NASTY = [None, True, -1, 0, 2**31, -(2**31) - 1, 2**63, 1.5, "", "A" * 5000,
         "\x00", "8D", [], ["A"], {}, {"0": "AE"}, {"x": "AE"},
         {"0": {"a": 1}}]  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("path", sorted(PATHS))
def test_every_field_with_every_nasty_value(world, path):
    """Systematically: the endpoint's valid template with one field at a time set
    to each of NASTY, then removed."""
    client, ids, players = world
    target = url(path, ids)
    template = templates(players, ids["turn"])[path]
    for field in sorted(PATHS[path]):
        for value in [*NASTY, "<removed>"]:
            body = {**template, field: value}
            if value == "<removed>":
                del body[field]
            version = GameProjection.objects.get(pk=ids["game_id"]).version
            body = {k: version if v == VERSION else v for k, v in body.items()}
            # Each body meets the template's state: what it appends is undone.
            with transaction.atomic():
                response = client.post(
                    target, json.dumps(body), content_type="application/json"
                )
                transaction.set_rollback(True)
            assert response.status_code in allowed(path), (body, response.content[:500])
            if response.status_code == 400:
                refused(response)


@pytest.mark.django_db
@pytest.mark.parametrize("path", sorted(PATHS))
def test_malformed_json_and_non_objects_are_400(world, path):
    client, ids, _ = world
    target = url(path, ids)
    before = StoredEvent.objects.count()
    for raw in [
        '{"expected_version": 1',
        "[1, 2]",
        '"text"',
        "null",
        "{'a': 1}",
        "\xff",
    ]:
        response = client.post(target, raw, content_type="application/json")
        assert response.status_code in {400, 415}, (raw, response.content[:300])
        if response.status_code == 400:
            refused(response)
    assert StoredEvent.objects.count() == before


def deep(depth: int, kind: str) -> str:
    if kind == "array":
        return "[" * depth + "]" * depth
    return '{"a": ' * depth + "1" + "}" * depth


@pytest.mark.django_db
@pytest.mark.parametrize("path", sorted(PATHS))
def test_json_nested_thousands_deep_is_a_400(world, path):
    """A RecursionError in the JSON decoder was a 500 on every JSON endpoint."""
    client, ids, _ = world
    before = StoredEvent.objects.count()
    for depth, kind in [(2_000, "array"), (2_000, "object"), (100_000, "array")]:
        response = client.post(
            url(path, ids), deep(depth, kind), content_type="application/json"
        )
        assert response.status_code in {400, 415}, (depth, response.content[:300])
        if response.status_code == 400:
            refused(response, field=None, code="parse_error")
    assert StoredEvent.objects.count() == before


@pytest.mark.django_db
def test_anonymous_sign_in_with_deep_json_is_a_400_that_says_why():
    client = APIClient()
    for depth, kind in [(2_000, "array"), (2_000, "object"), (33, "object")]:
        response = client.post(
            "/api/auth/token", deep(depth, kind), content_type="application/json"
        )
        body = refused(response, field=None, code="parse_error")
        assert "nested more than 32 levels deep" in body["message"]
    # Within the bound, the body reaches the serializer, which names the field.
    response = client.post(
        "/api/auth/token", deep(32, "object"), content_type="application/json"
    )
    assert "a" in refused(response)["errors"]


@pytest.mark.django_db
def test_unknown_fields_are_a_400_naming_them(world):
    client, ids, _ = world
    response = client.post(
        url("/api/games/{game_id}/pass", ids),
        {"expected_version": 3, "expected_verison": 3, "colour": "red"},
        format="json",
    )
    body = refused(response, field="colour", code="invalid")
    assert set(body["errors"]) == {"expected_verison", "colour"}
    assert body["message"] == "Unknown field. Known fields: expected_version."
    nested = client.post(
        url("/api/tournaments/{tournament_id}/players/", ids),
        {"division": "A", "players": [{"name": "Zed", "ratng": 1500}]},
        format="json",
    )
    assert refused(nested, field="players.0.ratng")["message"].startswith(
        "Unknown field."
    )


@pytest.mark.django_db
def test_wrong_types_are_a_400_naming_the_field(world):
    client, ids, players = world
    response = client.post(
        url("/api/tournaments/{tournament_id}/results", ids),
        {"round": "first", "player_a": players[0], "player_b": [players[1]],
         "score_a": "400", "score_b": 12.5},
        format="json",
    )  # fmt: skip
    body = refused(response, field="round", code="invalid")
    assert set(body["errors"]) == {"round", "player_b", "score_b"}


@pytest.mark.django_db
def test_an_oversized_body_is_refused(world):
    client, ids, _ = world
    big = {"expected_version": 3, "text": "x" * (3 * 1024 * 1024)}
    response = client.post(
        url("/api/games/{game_id}/notes", ids), json.dumps(big),
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code in {400, 413}


@pytest.mark.django_db
def test_a_gcg_file_over_128_kb_is_refused_with_a_clear_message(world, shared_gcg_dir):
    client, _, _ = world
    text = (shared_gcg_dir / "josh2.gcg").read_bytes()
    padding = b"#note " + b"x" * 200 + b"\n"
    big = text + padding * (128 * 1024 // len(padding) + 1)
    assert len(big) > 128 * 1024
    before = StoredEvent.objects.count()
    response = client.post(
        "/api/games/import",
        {"file": SimpleUploadedFile("big.gcg", big, content_type="text/plain")},
        format="multipart",
    )
    assert refused(response) == {
        "code": "invalid",
        "message": "A GCG file may be at most 128 KB.",
        "field": "file",
        "errors": {"file": ["A GCG file may be at most 128 KB."]},
    }
    assert StoredEvent.objects.count() == before
    small = client.post(
        "/api/games/import",
        {"file": SimpleUploadedFile("ok.gcg", text, content_type="text/plain")},
        format="multipart",
    )
    assert small.status_code == 201


@pytest.mark.django_db
def test_a_t_file_over_1_mb_is_refused_with_a_clear_message(world):
    client, ids, _ = world
    line = b"Zed Zulu 1500 1 2; 400 350\n"
    big = line * (1024 * 1024 // len(line) + 1)
    assert len(big) > 1024 * 1024
    before = StoredEvent.objects.count()
    response = client.post(
        url("/api/tournaments/{tournament_id}/import/tsh", ids),
        {"division": "A", "file": SimpleUploadedFile("a.t", big)},
        format="multipart",
    )
    assert refused(response) == {
        "code": "invalid",
        "message": "A .t file may be at most 1 MB.",
        "field": "file",
        "errors": {"file": ["A .t file may be at most 1 MB."]},
    }
    assert StoredEvent.objects.count() == before


# --- defects the fuzzing found (now fixed): each stays as a regression test ----------


@pytest.mark.django_db
def test_draws_keyed_by_a_name_are_a_400(world):
    client, ids, _ = world
    response = client.post(
        url("/api/games/{game_id}/place", ids),
        {"expected_version": ids["turn"], "position": "7C", "word": "GALE",
         "draws": {"Ann": "AB"}},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["round", "board"])
def test_a_huge_round_or_board_is_a_400(world, field):
    client, _, _ = world
    response = client.post(
        "/api/games/", {"players": ["Ann", "Ben"], field: 2**31}, format="json"
    )
    assert response.status_code == 400


@pytest.mark.django_db
def test_a_huge_spread_cap_is_a_400(world):
    client, _, _ = world
    response = client.post(
        "/api/tournaments/",
        {"name": "X", "start_date": "2026-11-21", "rounds": 3, "spread_cap": 2**63},
        format="json",
    )
    assert response.status_code == 400


@pytest.mark.django_db
def test_a_huge_recorded_score_is_a_400(world):
    client, ids, _ = world
    response = client.post(
        url("/api/games/{game_id}/place", ids),
        {
            "expected_version": ids["turn"],
            "position": "7C",
            "word": "GALE",
            "score": 2**31,
        },
        format="json",
    )
    assert response.status_code == 400


@pytest.mark.django_db
def test_a_spread_cap_past_32_bits_is_refused_not_wrapped(world):
    client, _, _ = world
    response = client.post(
        "/api/tournaments/",
        {"name": "X", "start_date": "2026-11-21", "rounds": 3,
         "spread_cap": 2**31 + 10},
        format="json",
    )  # fmt: skip
    refused(response, field="spread_cap", code="max_value")


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/ratings/games", "/api/ratings/players"])
def test_updated_since_with_any_offset_is_answered_not_a_500(director, paired, path):
    """PostgreSQL refuses offsets beyond ±15:59: the value reaches it in UTC."""
    tournament_id, players = paired
    record_result(director, tournament_id, players[0], players[1])
    client = APIClient()
    for since in [
        "2026-01-01T00:00:00+16:00",
        "2026-01-01T00:00:00-23:59",
        "2026-01-01T00:00:00+15:59",
        "9999-12-31T23:00:00+16:00",
    ]:
        response = client.get(path, {"updated_since": since})
        assert response.status_code == 200, (since, response.content[:300])
    # The same instant, written with any offset, selects the same rows.
    late = client.get(path, {"updated_since": "2000-01-02T16:00:00+16:00"})
    utc = client.get(path, {"updated_since": "2000-01-02T00:00:00Z"})
    assert late.json() == utc.json()
    assert utc.json()["results"]
    for since in [
        "0001-01-01T00:00:00+16:00",  # no UTC form after year 1
        "9999-12-31T23:00:00-16:00",  # nor before year 10000
        "2026-01-01T00:00:00+24:00",  # not a time-zone offset at all
    ]:
        response = client.get(path, {"updated_since": since})
        refused(response, field="updated_since", code="invalid")
