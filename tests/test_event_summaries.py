"""Every event type of both stream types (games and tournaments) is said in words:
neither the audit page nor the admin's list of events shows a raw type name."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.test import RequestFactory

from games.eventstore.models import StoredEvent
from games.eventstore.streams import stream_types
from tests.reliability_tests.conftest import make_tournament, start_game


def test_there_are_two_stream_types():
    assert {kind.name for kind in stream_types()} == {"game", "tournament"}


@pytest.mark.parametrize("name", ["game", "tournament"])
def test_every_event_type_has_a_summary(name):
    (kind,) = [kind for kind in stream_types() if kind.name == name]
    types = kind.codec.type_names()
    assert len(types) > 10
    missing = sorted(types - kind.summarized_types())
    assert not missing, f"{name} events shown raw: {missing}"
    assert not kind.summarized_types() - types, "a summary of no registered type"


@pytest.mark.django_db
def test_the_admin_lists_real_events_in_words(admin_user):
    """A tournament's and a game's events, as stored, each read in words."""
    make_tournament(admin_user, players=4)
    start_game(admin_user)
    admin = site._registry[StoredEvent]
    request = RequestFactory().get("/admin/eventstore/storedevent/")
    request.user = admin_user
    events = list(StoredEvent.objects.all())
    assert {event.stream_type for event in events} == {"game", "tournament"}
    for event in events:
        said = admin.summary(event)
        assert said
        assert said != event.event_type, (event.event_type, said)
