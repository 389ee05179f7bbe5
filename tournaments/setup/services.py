"""Services of the tournament itself: create, publish, settings, divisions.

Each is one validated append (``core.writes``).

Usage::

    result = tournament_create(user=mara, name="Riverside", start_date=..., ...)
    settings_change(tournament_id=tid, changes={"rounds": 8}, user=mara)
    division_rename(tournament_id=tid, name="A", new_name="Open", user=mara)
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from games.eventstore.store import (
    AppendResult,
    append,
)
from rules import tournament as rt
from tournaments.core import events as core_events
from tournaments.core.access import require_may_create_tournament
from tournaments.core.aggregate import (
    tournament_state,
    tournament_stream,
)
from tournaments.core.writes import append_as_director


def tournament_create(
    *,
    user: Any,
    name: str,
    start_date: str,
    end_date: str,
    rounds: int,
    venue: str = "",
    preset: str = "classic",
    challenge_rule: str | None = None,
    ties_are_draws: bool | None = None,
    bye_spread: int = 50,
    forfeit_spread: int = 50,
    spread_cap: int | None = None,
    spread_caps: Sequence[int] = (),
    ranking: str = "extended",
    rating_system: str = "nsa2008",
    club_event: bool = False,
    tile_set: str = "english",
    lexicon: str = "",
    divisions: Iterable[str] = ("A",),
    published: bool = True,
    tournament_id: uuid.UUID | None = None,
) -> AppendResult:
    """Create a tournament directed by `user`, with its divisions.

    Raises PermissionDeniedError unless `user` may create tournaments here.
    """
    require_may_create_tournament(user)
    events: list[object] = [
        rt.TournamentCreated(
            name=name,
            start_date=start_date,
            end_date=end_date,
            rounds=rounds,
            venue=venue,
            preset=rt.Preset(preset),
            challenge_rule=(
                rt.ChallengeRule(challenge_rule) if challenge_rule else None
            ),
            ties_are_draws=ties_are_draws,
            bye_spread=bye_spread,
            forfeit_spread=forfeit_spread,
            spread_cap=spread_cap,
            spread_caps=tuple(spread_caps),
            ranking=rt.Ranking(ranking),
            rating_system=rt.RatingSystem(rating_system),
            club_event=club_event,
            tile_set=tile_set,
            lexicon=lexicon,
        ),
        *(rt.DivisionAdded(name=division) for division in divisions),
        core_events.DirectorAdded(user_id=user.pk, username=user.get_username()),
    ]
    if published:
        events.append(core_events.PublicationChanged(published=True))
    return append(
        tournament_stream(tournament_id or uuid.uuid4()),
        events,
        expected_version=0,
        recorded_by=user,
    )


def tournament_publish(
    *,
    tournament_id: uuid.UUID,
    published: bool,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    return append_as_director(
        tournament_id=tournament_id,
        events=[core_events.PublicationChanged(published=published)],
        user=user,
        expected_version=expected_version,
    )


def division_rename(
    *,
    tournament_id: uuid.UUID,
    name: str,
    new_name: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    return append_as_director(
        tournament_id=tournament_id,
        events=[rt.DivisionRenamed(name=name, new_name=new_name)],
        user=user,
        expected_version=expected_version,
    )


# The settings a director may correct after set-up, and their event fields.
SETTINGS = (
    "rounds",
    "bye_spread",
    "forfeit_spread",
    "spread_cap",
    "spread_caps",
    "rating_system",
    "club_event",
    "tile_set",
    "lexicon",
)


def settings_change(
    *,
    tournament_id: uuid.UUID,
    changes: Mapping[str, Any],
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Correct settings: ``changes`` maps names of ``SETTINGS`` to new values
    (``spread_cap`` None removes the cap), and ``rack_delay_minutes`` to the
    minutes before everyone sees a live game's racks (None: once it has ended)."""
    fields = dict(changes)
    events: list[object] = []
    if "rack_delay_minutes" in fields:
        events.append(core_events.RackDelaySet(fields.pop("rack_delay_minutes")))
    if "spread_cap" in fields and fields["spread_cap"] is None:
        fields.pop("spread_cap")
        fields["clear_spread_cap"] = True
    if "spread_caps" in fields:
        fields["spread_caps"] = tuple(fields["spread_caps"])
    if "rating_system" in fields:
        fields["rating_system"] = rt.RatingSystem(fields["rating_system"])
    if fields or not events:
        events.insert(0, rt.SettingsChanged(**fields))
    return append_as_director(
        tournament_id=tournament_id,
        events=events,
        user=user,
        expected_version=expected_version,
    )


def game_setup_set(
    *,
    tournament_id: uuid.UUID,
    division: str,
    setup: rt.GameSetup,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Set the tile set and lexicon the division's games are played with (None
    fields: the tournament's); games already started keep theirs."""
    return append_as_director(
        tournament_id=tournament_id,
        events=[rt.GameSetupSet(division=division, setup=setup)],
        user=user,
        expected_version=expected_version,
    )


def division_change(
    *,
    tournament_id: uuid.UUID,
    division: str,
    user: Any,
    new_name: str | None = None,
    setup: Mapping[str, str | None] | None = None,
    expected_version: int | None = None,
) -> AppendResult:
    """Rename the division and/or change the fields of its own tile set and
    lexicon that ``setup`` gives (None: the tournament's), in one append."""
    events: list[object] = []
    if new_name is not None:
        events.append(rt.DivisionRenamed(name=division, new_name=new_name))
    if setup:
        _, state = tournament_state(tournament_id)
        assert state.rules is not None
        own = replace(state.rules.setup_of(division), **setup)
        events.append(
            rt.GameSetupSet(
                division=division if new_name is None else new_name, setup=own
            )
        )
    return append_as_director(
        tournament_id=tournament_id,
        events=events,
        user=user,
        expected_version=expected_version,
    )
