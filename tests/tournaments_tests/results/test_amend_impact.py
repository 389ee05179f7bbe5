"""An amendment shows its impact before it is stored (API and console), the
confirmed amendment keeps that report in the audit, and a confirm made on a
preview of an older log is refused."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.eventstore.models import StoredEvent
from tests.tournaments_tests.results.amend_scenario import swiss_five
from tournaments.core.aggregate import tournament_state
from tournaments.results import services as results_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(director):
    return swiss_five(director)


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.fixture
def page(director):
    client = Client()
    client.force_login(director)
    return client


def _amendment(ids) -> dict:
    # Round 2 board 1 was Ann Able v Cy Cole, entered 350 – 450: in fact 450 – 350.
    return {
        "round": 2,
        "player_a": ids[1],
        "player_b": ids[3],
        "score_a": 450,
        "score_b": 350,
        "reason": "slip misread",
    }


def _meetings(games: list[str]) -> set[frozenset[str]]:
    return {frozenset(game.split("–")) for game in games}


def _events(tid) -> int:
    return StoredEvent.objects.filter(stream_id=tid).count()


def test_the_api_previews_an_amendment_and_stores_nothing(api, swiss):
    tid, ids = swiss
    before = _events(tid)
    response = api.post(
        f"/api/tournaments/{tid}/results/amend/preview", _amendment(ids), format="json"
    )
    assert response.status_code == 200, response.content
    report = response.json()
    assert _events(tid) == before
    assert report["version"] == tournament_state(tid)[0]
    by_round = {p["round"]: p for p in report["pairings"]}
    # Hand-checked (tests/rules_tests/test_impact.py): corrected, Ann and Ben are
    # 2-0 after round 2 and meet in round 3; Cy meets Ed; Di meets Flo as recorded.
    assert _meetings(by_round[3]["games_new"]) == {
        frozenset(("Ann Able", "Ben Baker")),
        frozenset(("Cy Cole", "Ed Eames")),
    }
    assert _meetings(by_round[3]["games_gone"]) == {
        frozenset(("Ben Baker", "Cy Cole")),
        frozenset(("Ed Eames", "Ann Able")),
    }
    assert all(by_round[r]["differs"] for r in (3, 4, 5))
    assert report["gibsons"] == [{"round": 5, "before": ["Ben Baker"], "after": []}]
    (prize,) = report["prizes"]
    assert prize["prize"] == "2nd place"
    # Four players at 2-2 (+0) shared 2nd place before; Ann alone at 3-1 after.
    assert {(w["name"], w["amount"]) for w in prize["before"]} == {
        (name, "12.50") for name in ("Ann Able", "Cy Cole", "Di Dane", "Ed Eames")
    }
    assert prize["after"] == [{"player": ids[1], "name": "Ann Able", "amount": "50.00"}]
    after4 = next(s for s in report["standings"] if s["round"] == 4)
    movers = {c["name"] for c in after4["changes"] if c["moved"]}
    assert movers == {"Cy Cole", "Di Dane", "Ed Eames"}
    assert "Round 5 Gibsonization: Ben Baker → nobody" in report["summary"]


def test_the_preview_refuses_what_the_rules_refuse(api, swiss):
    tid, ids = swiss
    before = _events(tid)
    body = {**_amendment(ids), "player_b": ids[2]}  # Ann did not play Ben in round 2
    response = api.post(
        f"/api/tournaments/{tid}/results/amend/preview", body, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "game_not_paired"
    assert response.json()["field"] == "player_b"
    assert _events(tid) == before


def test_the_amendment_keeps_its_report_in_the_audit(api, swiss, page):
    tid, ids = swiss
    preview = api.post(
        f"/api/tournaments/{tid}/results/amend/preview", _amendment(ids), format="json"
    ).json()
    stored = api.post(
        f"/api/tournaments/{tid}/results/amend",
        {**_amendment(ids), "expected_version": preview["version"]},
        format="json",
    )
    assert stored.status_code == 201, stored.content
    audit = api.get(f"/api/tournaments/{tid}/audit").json()
    amended = next(e for e in audit if e["event_type"] == "result_amended")
    assert amended["impact"] == preview
    html = page.get(reverse("manage-audit", args=[tid])).content.decode()
    assert "Impact as confirmed" in html
    assert "Round 5 Gibsonization: Ben Baker → nobody" in html
    assert "2nd place: Ann Able, Cy Cole, Di Dane, Ed Eames → Ann Able" in html


def test_a_stale_confirm_is_refused_by_the_api(api, swiss, director):
    tid, ids = swiss
    preview = api.post(
        f"/api/tournaments/{tid}/results/amend/preview", _amendment(ids), format="json"
    ).json()
    # Meanwhile another director corrects round 1's board 1.
    results_services.result_amend(
        tournament_id=tid,
        round_=1,
        player_a=ids[1],
        player_b=ids[4],
        score_a=460,
        score_b=350,
        user=director,
    )
    before = _events(tid)
    response = api.post(
        f"/api/tournaments/{tid}/results/amend",
        {**_amendment(ids), "expected_version": preview["version"]},
        format="json",
    )
    assert response.status_code == 409
    assert _events(tid) == before


def _amend_url(tid):
    return reverse("manage-amend", args=[tid, "A", 2, 1])


def test_the_console_shows_the_preview_then_confirms(page, swiss):
    tid, _ = swiss
    version = page.get(_amend_url(tid)).context["form"].initial["version"]
    before = _events(tid)
    shown = page.post(
        _amend_url(tid),
        {"a_score": 450, "b_score": 350, "reason": "slip misread", "version": version},
    )
    assert shown.status_code == 200
    assert _events(tid) == before  # the first step stores nothing
    body = shown.content.decode()
    assert 'id="amend-impact"' in body
    assert "Round 5 Gibsonization: Ben Baker → nobody" in body
    assert 'class="moved"' in body
    assert "Confirm the amendment" in body
    confirm = dict(shown.context["confirm_values"])
    confirmed = page.post(
        _amend_url(tid),
        {**confirm, "version": shown.context["preview_version"], "confirm": "1"},
    )
    assert confirmed.status_code == 302
    assert _events(tid) == before + 1


def test_a_stale_confirm_is_refused_by_the_console(page, swiss, director):
    tid, ids = swiss
    version = page.get(_amend_url(tid)).context["form"].initial["version"]
    shown = page.post(
        _amend_url(tid), {"a_score": 450, "b_score": 350, "version": version}
    )
    results_services.result_amend(
        tournament_id=tid,
        round_=1,
        player_a=ids[1],
        player_b=ids[4],
        score_a=460,
        score_b=350,
        user=director,
    )
    before = _events(tid)
    refused = page.post(
        _amend_url(tid),
        {
            **dict(shown.context["confirm_values"]),
            "version": shown.context["preview_version"],
            "confirm": "1",
        },
    )
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "since this preview" in body
    assert "nothing was stored" in body
    assert _events(tid) == before
    # The fresh preview comes with the new version to confirm against.
    assert refused.context["preview_version"] == tournament_state(tid)[0]
