"""Logs written before the tile set and lexicon were settings still replay: a
creation without them plays English with no lexicon, and the console's old
``lexicon_chosen`` event names the lexicon (issue 20)."""

from __future__ import annotations

import pytest

from games.eventstore.cache import state_cache
from games.eventstore.models import StoredEvent
from games.eventstore.rebuild import rebuild_projections
from games.eventstore.store import append
from rules import tournament as rt
from tournaments.audit import selectors
from tournaments.core import aggregate
from tournaments.core.stream import TournamentStream
from tournaments.models import Tournament
from tournaments.setup import services

pytestmark = pytest.mark.django_db


def test_an_old_creation_payload_decodes_as_english_with_no_lexicon():
    payload = {
        "name": "Riverside",
        "start_date": "2025-03-01",
        "end_date": "2025-03-01",
        "rounds": 7,
    }
    event = TournamentStream().codec.decode("tournament_created", 1, payload)
    assert (event.tile_set, event.lexicon) == ("english", "")


def test_an_old_lexicon_chosen_event_replays_as_the_lexicon(director):
    created = services.tournament_create(
        user=director,
        name="Riverside",
        start_date="2025-03-01",
        end_date="2025-03-01",
        rounds=3,
    )
    tid = created.stream.id
    # Appended exactly as the console stored it before: the same type and payload.
    append(
        aggregate.tournament_stream(tid),
        [rt.LexiconChosen(lexicon="WEB2")],
        expected_version=created.version,
        recorded_by=director,
    )
    stored = StoredEvent.objects.get(stream_id=tid, event_type="lexicon_chosen")
    assert stored.payload == {"lexicon": "WEB2"}
    state_cache.clear()
    rebuild_projections(["tournament"])
    _, state = aggregate.tournament_state(tid)
    assert state.rules.game_setup("A") == rt.GameSetup("english", "WEB2")
    tournament = Tournament.objects.get()
    assert (tournament.tile_set, tournament.lexicon) == ("english", "WEB2")
    audit = [entry.summary for entry in selectors.tournament_audit(tournament)]
    assert "Word list: WEB2" in audit
