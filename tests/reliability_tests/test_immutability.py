"""Immutability: no API, admin page or ORM path changes or deletes a stored event.

The database trigger refusing raw UPDATE, DELETE and TRUNCATE is tested in
tests/games_tests/test_eventstore.py; here are the angles above it.
"""

from __future__ import annotations

import re

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from games import services as game_services
from games.eventstore.models import StoredEvent
from tests.reliability_tests.conftest import start_game
from tournaments.core import aggregate
from tournaments.results import services


def log_rows() -> list[tuple]:
    """Every stored event, every column."""
    return list(StoredEvent.objects.order_by("position").values_list())


def api_operations() -> dict[str, set[str]]:
    """Every path of the OpenAPI schema and its methods."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {path: set(methods) for path, methods in schema["paths"].items()}


def fill(path: str, ids: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: ids[m.group(1)], path)


@pytest.fixture
def record(director, paired):
    tournament_id, players = paired
    services.result_record(
        tournament_id=tournament_id,
        round_=1,
        player_a=players[0],
        player_b=players[1],
        score_a=400,
        score_b=350,
        user=director,
    )
    game_id, _ = start_game(
        director,
        context={"tournament_id": tournament_id, "player_ids": players[:2]},
    )
    return {
        "tournament_id": str(tournament_id),
        "game_id": str(game_id),
        "player_id": players[0],
        "round_": "1",
        "division": "A",
        "note_version": "1",
        "turn": "1",
        "invitation_id": "00000000-0000-0000-0000-000000000000",
        "sha256": "0" * 64,
    }


@pytest.mark.django_db
def test_the_api_offers_no_way_to_change_or_delete(record, director):
    """The schema has GET, POST and PATCH only; PUT and DELETE on every path are
    refused. A POST or a PATCH (a correction: a player's details, a division's
    name, the settings) appends a command's events, so the stored rows never
    change: an empty PATCH changes nothing and stores nothing."""
    operations = api_operations()
    assert operations
    methods = set().union(*operations.values())
    assert methods <= {"get", "post", "patch"}, methods
    client = APIClient()
    client.force_authenticate(director)
    before = log_rows()
    tried = 0
    for path, offered in operations.items():
        url = fill(path, record)
        for method in ("put", "patch", "delete"):
            response = getattr(client, method)(url, {}, format="json")
            refused = {400, 403, 404} if method in offered else {403, 404, 405}
            assert response.status_code in refused, (method, url)
            tried += 1
    assert log_rows() == before
    print(f"\nFIGURES api-immutability: {len(operations)} paths, {tried} refused")


@pytest.mark.django_db
def test_corrections_are_appended_and_leave_the_corrected_events_as_they_were(
    record, director
):
    """Amending a result and superseding game events add events; the rows they
    correct stay byte for byte."""
    before = log_rows()
    client = APIClient()
    client.force_authenticate(director)
    tournament_id, game_id = record["tournament_id"], record["game_id"]
    _, state = aggregate.tournament_state(tournament_id)
    response = client.post(
        f"/api/tournaments/{tournament_id}/results/amend",
        {
            "round": 1,
            "player_a": record["player_id"],
            "player_b": sorted(
                state.rules.players, key=lambda p: state.rules.players[p].number
            )[1],
            "score_a": 350,
            "score_b": 400,
            "reason": "scores swapped on the slip",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    version, _ = game_services.game_load(game_id)
    response = client.post(
        f"/api/games/{game_id}/correction",
        {"from_version": version, "reason": "wrong word", "expected_version": version},
        format="json",
    )
    assert response.status_code == 201, response.json()
    after = log_rows()
    assert after[: len(before)] == before
    assert len(after) == len(before) + 2


@pytest.mark.django_db
def test_the_admin_shows_events_but_cannot_add_change_or_delete_them(
    admin_client, record
):
    row = StoredEvent.objects.order_by("position").first()
    before = log_rows()
    change = reverse("admin:eventstore_storedevent_change", args=[row.pk])
    page = admin_client.get(change)
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    posted = admin_client.post(change, {"payload": '{"rating": 9}', "version": 99})
    assert posted.status_code == 403
    delete = reverse("admin:eventstore_storedevent_delete", args=[row.pk])
    assert admin_client.get(delete).status_code == 403
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert (
        admin_client.get(reverse("admin:eventstore_storedevent_add")).status_code == 403
    )
    changelist = reverse("admin:eventstore_storedevent_changelist")
    admin_client.post(
        changelist,
        {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"},
    )
    assert log_rows() == before


@pytest.mark.django_db
def test_no_orm_path_changes_or_deletes_an_event(record):
    row = StoredEvent.objects.order_by("position").first()
    before = log_rows()
    attempts = [
        lambda: StoredEvent.objects.filter(pk=row.pk).update(payload={"x": 1}),
        lambda: StoredEvent.objects.bulk_update(
            [StoredEvent(pk=row.pk, payload={"x": 1})], ["payload"]
        ),
        lambda: StoredEvent.objects.filter(pk=row.pk).delete(),
        lambda: StoredEvent.objects.all().delete(),
        lambda: StoredEvent(**{**_fields(row), "payload": {"x": 1}}).save(),
        lambda: StoredEvent.objects.update_or_create(
            pk=row.pk, defaults={"chain_hash": "0" * 64}
        ),
    ]
    for attempt in attempts:
        with pytest.raises(DatabaseError), transaction.atomic():
            attempt()
    # Writing another row at a stored version is refused by the unique key, and an
    # upsert over it by the trigger.
    with pytest.raises(IntegrityError), transaction.atomic():
        StoredEvent.objects.create(**{**_fields(row), "position": None})
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            "INSERT INTO event_log SELECT * FROM event_log WHERE position = %s"
            " ON CONFLICT (position) DO UPDATE SET payload = '{}'",
            [row.pk],
        )
    assert log_rows() == before


def _fields(row: StoredEvent) -> dict:
    return {
        field.attname: getattr(row, field.attname) for field in StoredEvent._meta.fields
    }
