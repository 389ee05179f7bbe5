"""Issue 34, must-have 4, the server's side: what a slip kept in the browser while
the server could not be reached is told when it arrives (site.js posts it with
``X-Slip-Queue: 1`` and the version it was typed against), the conflict a slip
for a board with another result is shown as, the worker script's answer, and the
per-user key the offline copy of the console is kept under."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse

from games.eventstore.models import StoredEvent
from tests.web_tests.conftest import ids_by_number
from tests.web_tests.test_results_entry import slip, url
from tournaments.core import pages
from tournaments.results import services as results_services
from tournaments.results import views as results_views

pytestmark = pytest.mark.django_db

QUEUED = {"HTTP_X_SLIP_QUEUE": "1"}


def results_events() -> int:
    return StoredEvent.objects.filter(event_type="result_recorded").count()


def version_now(client, tournament_id) -> int:
    body = client.get(url(tournament_id)).content.decode()
    start = body.index('name="typed_at" value="') + len('name="typed_at" value="')
    return int(body[start : body.index('"', start)])


def test_a_queued_slip_is_recorded_and_told_so(director_client, paired):
    typed_at = version_now(director_client, paired)
    response = director_client.post(
        url(paired), slip(1, 412, 2, 388, typed_at=typed_at), **QUEUED
    )
    assert response.status_code == 200
    assert response.json() == {
        "outcome": "recorded",
        "message": "Recorded: #1 Ann Able 412 – 388 #2 Ben Baker.",
    }
    assert results_events() == 1


def test_a_queued_slip_sent_twice_is_already_recorded_once(director_client, paired):
    director_client.post(url(paired), slip(1, 412, 2, 388), **QUEUED)
    again = director_client.post(url(paired), slip(2, 388, 1, 412), **QUEUED)
    assert again.status_code == 200
    assert again.json() == {
        "outcome": "already",
        "message": "Already recorded: #2 Ben Baker 388 – 412 #1 Ann Able.",
    }
    assert results_events() == 1


def test_a_queued_slip_for_a_board_with_another_result_is_a_conflict(
    director_client, paired
):
    typed_at = version_now(director_client, paired)
    director_client.post(url(paired), slip(1, 412, 2, 388))  # another laptop's
    response = director_client.post(
        url(paired), slip(2, 390, 1, 400, typed_at=typed_at), **QUEUED
    )
    assert response.status_code == 409
    body = response.json()
    assert body["outcome"] == "conflict"
    assert body["code"] == "result_conflict"
    assert body["field"] == "a_score"
    assert body["board"] == 1
    assert body["typed"] == "390 – 400"
    assert body["recorded"] == "#2 Ben Baker 388 – 412 #1 Ann Able"
    assert body["typed_at"] == typed_at
    assert body["recorded_at"] == typed_at + 1
    assert body["since_typed"] is True
    assert body["amend_url"] == reverse("manage-amend", args=[paired, "A", 1, 1])
    assert "recorded after this slip was typed" in body["message"]
    assert "This slip says 390 – 400" in body["message"]
    assert results_events() == 1


def test_a_conflict_with_a_result_the_slip_was_typed_after_is_not_called_new(
    director_client, paired
):
    director_client.post(url(paired), slip(1, 412, 2, 388))
    typed_at = version_now(director_client, paired)
    body = director_client.post(
        url(paired), slip(1, 400, 2, 390, typed_at=typed_at), **QUEUED
    ).json()
    assert body["since_typed"] is False
    assert "recorded after" not in body["message"]


def test_a_refused_queued_slip_has_the_one_error_shape(director_client, paired):
    response = director_client.post(url(paired), slip(12, 400, 2, 300), **QUEUED)
    assert response.status_code == 400
    assert response.json() == {
        "outcome": "refused",
        "code": "slip_refused",
        "message": "No player number 12 in division A.",
        "field": "a_number",
        "errors": {"a_number": ["No player number 12 in division A."]},
    }
    assert results_events() == 0


def test_typed_on_the_console_a_conflict_shows_both_scores_and_the_amend_link(
    director_client, paired
):
    director_client.post(url(paired), slip(1, 412, 2, 388))
    response = director_client.post(
        url(paired), slip(1, 400, 2, 390), HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert response.status_code == 200
    # The rules' refusal stays the slip's message; the conflict box adds the rest.
    assert "already has a result; amend it instead." in body
    box = body[body.index("data-conflict") :]
    box = box[: box.index("</p>")]
    assert "#1 Ann Able 412 – 388 #2 Ben Baker" in box
    assert "400 – 390" in box
    assert reverse("manage-amend", args=[paired, "A", 1, 1]) in box
    assert results_events() == 1


def test_two_consoles_at_once_the_second_same_slip_is_already_recorded(
    director_client, paired, director, monkeypatch
):
    """The second console's request loaded the tournament before the first one's
    slip was stored: the rules refuse its append as a duplicate, and the slip is
    then settled against the record as it is ("Already recorded"; a different
    score would be the conflict)."""
    stale = pages.team_aggregate
    loaded = {}

    def loaded_before_the_other_slip(request, tournament_id):
        if "team" not in loaded:
            loaded["team"] = stale(request, tournament_id)
            ids = ids_by_number(paired)
            results_services.result_record(
                tournament_id=paired,
                round_=1,
                player_a=ids[1],
                player_b=ids[2],
                score_a=412,
                score_b=388,
                user=director,
            )
        return loaded["team"]

    monkeypatch.setattr(results_views, "team_aggregate", loaded_before_the_other_slip)
    response = director_client.post(url(paired), slip(2, 388, 1, 412), **QUEUED)
    assert response.json()["outcome"] == "already"
    assert results_events() == 1


def test_the_console_worker_is_served_from_the_root_never_kept_stale(client):
    response = client.get("/console-sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert "console-shell-" in body
    # Served from our origin under the site's policy: the worker needs no exception.
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_each_user_has_a_key_of_their_own_for_the_offline_console(
    director_client, paired, director, other_user
):
    first = director_client.get(url(paired))[pages.CONSOLE_USER_HEADER]
    assert first == director_client.get(url(paired))[pages.CONSOLE_USER_HEADER]
    assert str(director.pk) != first
    assert len(first) == 24
    body = director_client.get(url(paired)).content.decode()
    assert f'data-user-key="{first}"' in body
    # Another user's key differs (their own team's page would carry it).
    request = RequestFactory().get("/")
    request.user = other_user
    assert pages.console_user_key(request) != first
