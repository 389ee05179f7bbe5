"""?at=: the record as it stood at a past point (tournaments/core/past.py).

Each test compares the past answer with a replay of the log's prefix made here
(the rules' standings over the aggregate folded up to that version), and with the
present, which must differ: on code without ``at`` the parameter was ignored and
the present came back.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.eventstore.models import StoredEvent
from games.eventstore.store import read_stream
from games.eventstore.streams import stream_type
from rules.tournament.standings import standings as rules_standings
from tournaments.core.aggregate import tournament_stream
from tournaments.results import services as results_services

pytestmark = pytest.mark.django_db


def _prefix_standings(tid, version):
    """The standings after a replay of the log's first `version` events, made here
    from the log and the rules alone (not through core.past)."""
    recorded = read_stream(tournament_stream(tid), to_version=version)
    state = stream_type("tournament").replay(tournament_stream(tid), recorded)
    rules = state.rules
    rows = rules_standings(rules, "A", after_round=rules.paired_rounds("A"))
    return [(row.player_id, row.wins, row.spread) for row in rows]


def _api_standings(client, tid, at=None):
    query = {} if at is None else {"at": at}
    response = client.get(reverse("api-standings", args=[tid]), query)
    assert response.status_code == 200, response.content
    return response.json()


def _rows(body):
    return [(row["player"], row["wins"], row["spread"]) for row in body["standings"]]


def _version_after_round_one(tid):
    """The event that recorded round 1's last result."""
    return (
        StoredEvent.objects.filter(stream_id=tid, event_type="result_recorded")
        .order_by("version")
        .values_list("version", flat=True)[1]
    )


def _amend_round_one(tid, ids, director):
    results_services.result_amend(
        tournament_id=tid,
        round_=1,
        player_a=ids[1],
        player_b=ids[2],
        score_a=300,
        score_b=450,
        user=director,
    )


def test_standings_at_a_past_position_are_the_prefix_replayed(
    client, club_night, director
):
    tid, ids = club_night
    version = _version_after_round_one(tid)
    _amend_round_one(tid, ids, director)
    present = _api_standings(client, tid)
    past = _api_standings(client, tid, str(version))
    assert _rows(past) != _rows(present)
    assert _rows(past) == _prefix_standings(tid, version)
