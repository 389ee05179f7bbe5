"""Every event a tournament's stream can hold has an audit summary: the audit page
never shows a raw type name."""

from __future__ import annotations

import pytest

from games.eventstore.streams import stream_type
from tests.tournaments_tests.room.test_selfentry import report
from tournaments.audit.selectors import tournament_audit
from tournaments.core.summaries import SUMMARIES
from tournaments.models import Tournament
from tournaments.room import selfentry


def registered_types(stream: str) -> set[str]:
    return set(stream_type(stream).codec.type_names())


def test_every_tournament_event_type_has_a_summary_on_the_audit_page():
    # The rules' events and the system's (team, publication, accounts, self-entry)
    # are registered with the one tournament stream type.
    types = registered_types("tournament")
    assert {"result_recorded", "score_reported", "self_entry_changed"} <= types
    missing = sorted(types - set(SUMMARIES))
    assert not missing, f"the audit page would show these raw: {missing}"


def test_the_summaries_name_no_type_the_stream_does_not_know():
    assert not set(SUMMARIES) - registered_types("tournament")


@pytest.mark.django_db
def test_self_entry_reads_in_words_on_the_audit(club_night, director):
    tid, ids = club_night
    selfentry.self_entry_set(tournament_id=tid, enabled=True, user=director)
    report(tid, ids, 1, 420, 380)
    entries = tournament_audit(Tournament.objects.get(pk=tid))
    raw = [e.summary for e in entries if e.summary == e.event_type]
    assert not raw
    summaries = [e.summary for e in entries[-2:]]
    assert summaries[0] == "Players' own results on"
    assert summaries[1].startswith("Round 2: ")
    assert summaries[1].endswith(" reported 420–380 (with the round's code)")
