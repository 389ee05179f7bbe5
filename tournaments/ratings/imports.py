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

import datetime
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from anyascii import anyascii

from games.eventstore.errors import EventRejectedError
from games.eventstore.store import AppendResult, append
from games.eventstore.streams import NewEvent
from rules import tou, tsh
from rules import tournament as rt
from rules.division_rules import PairingOptions, PrizeTable
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
from tournaments.players.accounts import link_events
from tournaments.players.services import new_player_id


@dataclass(frozen=True, slots=True)
class FileImport:
    """An import's append and its report: what was odd in the file and how it is
    kept (each a line to show the director)."""

    result: AppendResult
    notes: tuple[str, ...]


def tsh_import(
    *,
    tournament_id: uuid.UUID,
    division: str,
    text: str,
    user: Any,
    expected_version: int | None = None,
) -> FileImport:
    """Register, pair and score a division from a tsh ``.t`` file, in one append.

    Raises TshError (a line named) for a file that cannot be read, and
    EventRejectedError, its message naming the file's line, when the rules refuse
    what a line says. The report's notes say what was kept that a director should
    know (``rules.tsh.import_notes``: an off player's rounds, ties as draws).
    """
    _, state = tournament_state(tournament_id)
    assert state.rules is not None
    events = _division_events(state.rules, division, text)
    notes = tsh.import_notes(tsh.read_t(text), state.rules.settings.rounds)
    _with_notes(events, "tsh", notes)
    result = _append_naming_lines(tournament_id, events, user, expected_version)
    return FileImport(result, notes)


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


def _with_notes(events: list[object], source: str, notes: tuple[str, ...]) -> None:
    """Keep the import's notes in its first event's metadata: the audit shows
    them beside that event (what was odd in the file and how it is kept)."""
    if not notes or not events:
        return
    first = events[0]
    if isinstance(first, NewEvent):
        events[0] = NewEvent(
            first.event, {**first.metadata, "source": source, "notes": list(notes)}
        )
    else:
        events[0] = NewEvent(first, {"source": source, "notes": list(notes)})


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
    not_taken: tuple[tuple[int, str], ...]  # config.tsh lines not taken: number, text
    notes: tuple[str, ...] = ()  # how config.tsh lines were mapped, where it matters


def tsh_event_import(
    *,
    user: Any,
    name: str | None,
    start_date: str | None,
    end_date: str | None = None,
    config: str,
    files: Mapping[str, str],
    published: bool = True,
) -> EventImport:
    """Create a tournament from ``config.tsh`` and its divisions' ``.t`` files.

    The tournament ranks as tsh does. From the config: the name and first day
    (``event_name``, ``event_date``) when not given, the rounds (``max_rounds``,
    else the most of ``max_div_rounds``, else the most rounds of any file),
    ``spread_cap`` (one or one per round), ``bye_spread``, ``rating_system`` (one
    this system does not compute is kept as none, estimates switched off, and
    said in the notes), each division's pairing rules (``gibson``,
    ``prize_bands``) and prize table (``prize`` lines). Raises TshError for a
    file or config line that cannot be read, naming it.
    """
    require_may_create_tournament(user)
    parsed = tsh.read_config(config)
    texts = _division_files(parsed, files)
    notes: list[str] = []
    settings = parsed.settings
    rounds = settings.get("max_rounds") or _div_rounds(parsed, texts, notes)
    name = name or _text_setting(settings, "event_name")
    start_date = start_date or _event_date(settings)
    if not name or not start_date:
        raise tsh.TshError(
            "tsh_config_missing_event",
            "Give the event's name and first day (config.tsh has no event_name"
            " or no event_date this system can read as a date).",
        )
    created = _created(parsed, name, start_date, end_date or start_date, rounds, notes)
    head: list[object] = [
        created,
        *(rt.DivisionAdded(name=division) for division in texts),
        *_division_rules(parsed, texts),
        core_events.DirectorAdded(user_id=user.pk, username=user.get_username()),
    ]
    if published:
        head.append(core_events.PublicationChanged(published=True))
    state = rt.replay([event for event in head if isinstance(event, rt.Event)])
    events = list(head)
    _with_notes(events, "config.tsh", tuple(notes))
    for division, text in texts.items():
        events.extend(_division_events(state, division, text))
    try:
        result = append(
            tournament_stream(uuid.uuid4()),
            events,
            expected_version=0,
            recorded_by=user,
        )
    except EventRejectedError as error:
        raise _with_line(error, events) from None
    return EventImport(result, tuple(texts), parsed.not_taken, tuple(notes))


def _text_setting(settings: Mapping[str, object], key: str) -> str | None:
    value = settings.get(key)
    return (value.strip() or None) if isinstance(value, str) else None


# tsh's event_date is free text: an ISO date, or a date as people write one
# ("July 1, 2026", "1 July 2026"); a range ("July 1-5, 2026") starts on its first.
_DATE_FORMATS = ("%Y-%m-%d", "%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y")


def _event_date(settings: Mapping[str, object]) -> str | None:
    text = _text_setting(settings, "event_date")
    if text is None:
        return None
    first_day = re.sub(r"(\d+)\s*[-–]\s*\d+", r"\1", text)
    for pattern in _DATE_FORMATS:
        try:
            return datetime.datetime.strptime(first_day, pattern).date().isoformat()
        except ValueError:
            continue
    return None


def _div_rounds(
    parsed: tsh.TshConfig, texts: Mapping[str, str], notes: list[str]
) -> int:
    """The event's rounds without ``max_rounds``: the most of ``max_div_rounds``
    (this system has one number of rounds for every division), else the most
    rounds of any file."""
    by_division = parsed.settings.get("max_div_rounds")
    if isinstance(by_division, dict) and by_division:
        values = {str(k).upper(): v for k, v in by_division.items()}
        rounds = max(v for v in values.values() if isinstance(v, int))
        if len(set(values.values())) > 1:
            listed = ", ".join(f"{k} {v}" for k, v in sorted(values.items()))
            notes.append(
                f"max_div_rounds gives the divisions different rounds ({listed}):"
                f" the event has {rounds}, the most of them"
            )
        return rounds
    if isinstance(by_division, int):
        return by_division
    return max((tsh.read_t(text).rounds for text in texts.values()), default=1)


def _division_rules(parsed: tsh.TshConfig, texts: Mapping[str, str]) -> list[object]:
    """Each division's pairing rules (``gibson``, ``prize_bands``) and prize table
    (``prize`` lines), as config.tsh gives them."""
    events: list[object] = []
    settings = parsed.settings
    for division in texts:
        gibson = tsh.by_division(settings.get("gibson"), division)
        bands = tsh.by_division(settings.get("prize_bands"), division)
        if gibson or bands:
            events.append(
                rt.PairingRulesSet(
                    division=division,
                    options=PairingOptions(
                        gibson=bool(gibson),
                        prize_bands=tuple(bands) if isinstance(bands, list) else (),
                    ),
                )
            )
        prizes = parsed.prizes.get(division)
        if prizes:
            events.append(
                rt.PrizeTableSet(division=division, table=PrizeTable(prizes=prizes))
            )
    return events


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
    parsed: tsh.TshConfig,
    name: str,
    start: str,
    end: str,
    rounds: object,
    notes: list[str],
) -> rt.TournamentCreated:
    """The tournament's settings as config.tsh gives them; the rules check them.
    A rating system this project does not compute is kept as none (estimates
    switched off) and said in ``notes``, never a reason to refuse the event."""
    settings: dict[str, Any] = dict(parsed.settings)
    cap = settings.get("spread_cap")
    system = settings.get("rating_system", rt.RatingSystem.NSA2008)
    computed = [c.value for c in rt.RatingSystem if c is not rt.RatingSystem.NONE]
    if system not in computed:
        notes.append(
            f"rating_system {system!r} is not one this system computes"
            f" ({', '.join(computed)}): the event is kept with its rating estimates"
            " switched off"
        )
        system = rt.RatingSystem.NONE
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
) -> FileImport:
    """Register, pair and score every division of a ``.TOU`` file, in one append
    (a division the tournament lacks is added). A ``.TOU`` has no ratings: with
    ``ratings_list`` (a ratings body's list) the players are registered with its
    membership ids, ratings and career games, matched by name (transliterated).

    Raises TouError or RatingsListError (a line named) for a file that cannot be
    read, and EventRejectedError, naming the line, when the rules refuse it. The
    report's notes list what is odd in the file (``rules.tou.TouNote``): read as
    the WESPA programs read it and kept, never refused for it.
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
            bye_spread=state.rules.settings.bye_spread,
            listed=listed,
        )
    ]
    notes = tuple(
        f"line {note.line}: {note.message}" if note.line else note.message
        for note in tou_file.notes
    )
    _with_notes(events, "tou", notes)
    result = _append_naming_lines(tournament_id, events, user, expected_version)
    return FileImport(result, notes)


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
