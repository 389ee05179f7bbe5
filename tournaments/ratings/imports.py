"""Import tsh's files (a division's ``.t``, or a whole event from ``config.tsh``), an
AUPAIR ``.TOU`` file, and a ratings body's list.

Each import is one validated append: the rules refuse what is inconsistent and
nothing is stored. A tournament set up from ``config.tsh`` ranks as tsh does.

Usage::

    tsh_import(tournament_id=tid, division="A", text=t_text, user=mara)
    imported = tsh_event_import(user=mara, name="Nationals", start_date="2026-07-01",
                                config=config_text, files={"a.t": a_text})
    imported.not_taken   # config.tsh lines this system has no setting for
    tou_import(tournament_id=tid, text=tou_text, ratings_list=csv_text, user=mara)
    result, updates = ratings_list_import(tournament_id=tid, text=csv_text, user=mara)
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from anyascii import anyascii

from games.eventstore.errors import EventRejectedError
from games.eventstore.store import AppendResult, append
from games.eventstore.streams import NewEvent
from rules import tou, tsh
from rules import tournament as rt
from rules.ratings_list import (
    RatingUpdates,
    match_names,
    rating_updates,
    read_ratings_list,
)
from tournaments.core import events as core_events
from tournaments.core.access import is_director, require_may_create_tournament
from tournaments.core.aggregate import tournament_state, tournament_stream
from tournaments.core.errors import PermissionDeniedError
from tournaments.core.writes import append_as_director
from tournaments.pairing import services as pairing_services
from tournaments.players.accounts import link_events
from tournaments.players.services import new_player_id


def tsh_import(
    *,
    tournament_id: uuid.UUID,
    division: str,
    text: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Register, pair and score a division from a tsh ``.t`` file, in one append.

    Raises TshError (a line named) for a file that cannot be read, and
    EventRejectedError, its message naming the file's line, when the rules refuse
    what a line says.
    """
    _, state = tournament_state(tournament_id)
    assert state.rules is not None
    events = _division_events(state.rules, division, text)
    return _append_naming_lines(tournament_id, events, user, expected_version)


def _append_naming_lines(
    tournament_id: uuid.UUID,
    events: list[object],
    user: Any,
    expected_version: int | None,
) -> AppendResult:
    """Append as a director; a refusal names the file line its event came from."""
    try:
        return append_as_director(
            tournament_id=tournament_id,
            events=events,
            user=user,
            expected_version=expected_version,
        )
    except EventRejectedError as error:
        raise _with_line(error, events) from None


def _division_events(
    rules: rt.TournamentState, division: str, text: str
) -> list[object]:
    """A division's events, each player's registration naming its line."""
    tfile = tsh.read_t(text)
    ids = [new_player_id() for _ in tfile.players]
    events = tsh.t_to_events(
        tfile,
        division,
        player_ids=ids,
        bye_spread=rules.settings.bye_spread,
        rounds=rules.settings.rounds,
    )
    lines = {ids[index]: player.line for index, player in enumerate(tfile.players)}
    wrapped: list[object] = [
        NewEvent(event, {"source": "tsh", "line": lines[event.player_id]})
        if isinstance(event, rt.PlayerRegistered)
        else event
        for event in events
    ]
    # A player whose member id an account claims is that account's (the import
    # confirms the link: tournaments.players.accounts).
    return [*wrapped, *link_events(events)]


def _with_line(error: EventRejectedError, events: list[object]) -> EventRejectedError:
    event = events[error.index] if 0 <= error.index < len(events) else None
    line = event.metadata.get("line") if isinstance(event, NewEvent) else None
    if line is None:
        return error
    return EventRejectedError(
        error.code, f"line {line}: {error.message}", error.index, error.field
    )


@dataclass(frozen=True, slots=True)
class EventImport:
    """A tournament set up from ``config.tsh`` and its ``.t`` files."""

    result: AppendResult
    divisions: tuple[str, ...]
    not_taken: tuple[tuple[int, str], ...]  # config.tsh lines taken: number, text


def tsh_event_import(
    *,
    user: Any,
    name: str,
    start_date: str,
    end_date: str | None = None,
    config: str,
    files: Mapping[str, str],
    published: bool = True,
) -> EventImport:
    """Create a tournament from ``config.tsh`` and its divisions' ``.t`` files.

    The tournament ranks as tsh does; ``max_rounds`` (else the most rounds of any
    file), ``spread_cap``, ``bye_spread`` and ``rating_system`` come from the config.
    Raises TshError for a file or config line that cannot be read, naming it.
    """
    require_may_create_tournament(user)
    parsed = tsh.read_config(config)
    texts = _division_files(parsed, files)
    rounds = parsed.settings.get("max_rounds") or max(
        (tsh.read_t(text).rounds for text in texts.values()), default=1
    )
    created = _created(parsed, name, start_date, end_date or start_date, rounds)
    head: list[object] = [
        created,
        *(rt.DivisionAdded(name=division) for division in texts),
        core_events.DirectorAdded(user_id=user.pk, username=user.get_username()),
    ]
    if published:
        head.append(core_events.PublicationChanged(published=True))
    state = rt.replay([event for event in head if isinstance(event, rt.Event)])
    events = list(head)
    for division, text in texts.items():
        events.extend(_division_events(state, division, text))
    schedules, taken = _autopair_events(config, events)
    events.extend(schedules)
    tournament_id = uuid.uuid4()
    try:
        result = append(
            tournament_stream(tournament_id),
            events,
            expected_version=0,
            recorded_by=user,
        )
    except EventRejectedError as error:
        raise _with_line(error, events) from None
    # A round the schedule says is due already (round 1 on round 0's results):
    # paired now, as the write path pairs it after a result.
    pairing_services.pair_due_rounds(tournament_id)
    not_taken = tuple(line for line in parsed.not_taken if line[0] not in taken)
    return EventImport(result, tuple(texts), not_taken)


def _autopair_events(
    config: str, events: Sequence[object]
) -> tuple[list[rt.RoundScheduleSet], set[int]]:
    """config.tsh's ``autopair`` lines as each division's round schedule, and the
    numbers of the lines taken."""
    lines = tsh.read_autopair(config)
    if not lines:
        return [], set()
    state = rt.replay(
        [
            event
            for event in (e.event if isinstance(e, NewEvent) else e for e in events)
            if isinstance(event, rt.Event)
        ]
    )
    schedules = []
    for division in state.divisions:
        schedule = tsh.autopair_rounds(
            lines,
            division,
            len(state.division_players[division]),
            state.settings.rounds,
        )
        if schedule:
            schedules.append(
                rt.RoundScheduleSet(
                    division=division,
                    rounds=tuple(
                        rt.ScheduledRound(round_, method, based)
                        for round_, method, based in schedule
                    ),
                )
            )
    return schedules, {line.line for line in lines}


def _division_files(parsed: tsh.TshConfig, files: Mapping[str, str]) -> dict[str, str]:
    if not parsed.divisions:
        raise tsh.TshError(
            "tsh_config_no_division", "config.tsh names no division ('division a a.t')."
        )
    by_name = {name.rsplit("/", 1)[-1].lower(): text for name, text in files.items()}
    texts = {}
    for division, filename in parsed.divisions:
        text = by_name.get(filename.rsplit("/", 1)[-1].lower())
        if text is None:
            raise tsh.TshError(
                "tsh_config_missing_file",
                f"config.tsh names {filename} for division {division}: upload it too.",
            )
        texts[division] = text
    return texts


def _created(
    parsed: tsh.TshConfig, name: str, start: str, end: str, rounds: object
) -> rt.TournamentCreated:
    """The tournament's settings as config.tsh gives them; the rules check them."""
    settings: dict[str, Any] = dict(parsed.settings)
    cap = settings.get("spread_cap")
    system = settings.get("rating_system", rt.RatingSystem.NSA2008)
    if system not in {choice.value for choice in rt.RatingSystem}:
        raise tsh.TshError(
            "tsh_config_value",
            f"rating_system {system!r} is not one of "
            + ", ".join(choice.value for choice in rt.RatingSystem)
            + ".",
        )
    return rt.TournamentCreated(
        name=name,
        start_date=start,
        end_date=end,
        rounds=rounds,  # type: ignore[arg-type]
        bye_spread=settings.get("bye_spread", 50),
        spread_cap=None if isinstance(cap, list) else cap,
        spread_caps=tuple(cap) if isinstance(cap, list) else (),
        ranking=rt.Ranking.TSH,
        rating_system=rt.RatingSystem(system),
    )


def tou_import(
    *,
    tournament_id: uuid.UUID,
    text: str,
    user: Any,
    ratings_list: str | None = None,
    expected_version: int | None = None,
) -> AppendResult:
    """Register, pair and score every division of a ``.TOU`` file, in one append
    (a division the tournament lacks is added). A ``.TOU`` has no ratings: with
    ``ratings_list`` (a ratings body's list) the players are registered with its
    membership ids, ratings and career games, matched by name (transliterated).

    Raises TouError or RatingsListError (a line named) for a file that cannot be
    read, and EventRejectedError, naming the line, when the rules refuse it.
    """
    _, state = tournament_state(tournament_id)
    assert state.rules is not None
    tou_file = tou.read_tou(text)
    players = [player for division in tou_file.divisions for player in division.players]
    ids = [new_player_id() for _ in players]
    listed = (
        match_names(
            [player.name for player in players],
            read_ratings_list(ratings_list),
            anyascii,
        )
        if ratings_list
        else []
    )
    lines = {pid: player.line for pid, player in zip(ids, players, strict=True)}
    events: list[object] = [
        NewEvent(event, {"source": "tou", "line": lines[event.player_id]})
        if isinstance(event, rt.PlayerRegistered)
        else event
        for event in tou.tou_to_events(
            tou_file,
            existing_divisions=state.rules.divisions,
            player_ids=ids,
            forfeit_spread=state.rules.settings.forfeit_spread,
            listed=listed,
        )
    ]
    return _append_naming_lines(tournament_id, events, user, expected_version)


def ratings_list_import(
    *,
    tournament_id: uuid.UUID,
    text: str,
    user: Any,
    division: str | None = None,
    expected_version: int | None = None,
) -> tuple[AppendResult | None, RatingUpdates]:
    """Update the players' pre-event ratings and career games from a ratings list
    (of ``division``'s players, or all), in one append; None when nothing changes.

    Raises RatingsListError for a list that cannot be read, the rules' refusal once
    a division has a result, and PermissionDeniedError for a user who does not
    direct the tournament.
    """
    version, state = tournament_state(tournament_id)
    assert state.rules is not None
    if not is_director(state, user):
        raise PermissionDeniedError("Only this tournament's directors may change it.")
    updates = rating_updates(
        state.rules,
        read_ratings_list(text),
        division=division,
        transliterate=anyascii,
    )
    if not updates.events:
        return None, updates
    result = append_as_director(
        tournament_id=tournament_id,
        events=list(updates.events),
        user=user,
        expected_version=version if expected_version is None else expected_version,
    )
    return result, updates
