"""Import tsh's files (a division's ``.t``, or a whole event from ``config.tsh`` or
from a ``tourney.js``), an AUPAIR ``.TOU`` file, and a ratings body's list.

Each import is one validated append: the rules refuse what is inconsistent and
nothing is stored. A tournament set up from ``config.tsh`` ranks as tsh does.

Usage::

    tsh_import(tournament_id=tid, division="A", text=t_text, user=mara)
    imported = tsh_event_import(user=mara, name="Nationals", start_date="2026-07-01",
                                config=config_text, files={"a.t": a_text})
    imported.not_taken   # config.tsh lines this system has no setting for
    imported = tourney_js_import(user=mara, text=tourney_js_text)   # a whole event
    imported.notes       # its byes, forfeits, late entries, withdrawals...
    tou_import(tournament_id=tid, text=tou_text, ratings_list=csv_text, user=mara)
    result, updates = ratings_list_import(tournament_id=tid, text=csv_text, user=mara)
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from anyascii import anyascii

from games.eventstore.errors import EventRejectedError
from games.eventstore.store import AppendResult, append
from games.eventstore.streams import NewEvent
from rules import tou, tourneyjs, tsh
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
from tournaments.pairing import services as pairing_services
from tournaments.players.services import new_player_id
from tournaments.ratings import tourneyjs as tourney_js_text


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
    return _tfile_events(rules, division, tsh.read_t(text), "tsh")


def _tfile_events(
    rules: rt.TournamentState, division: str, tfile: tsh.TFile, source: str
) -> list[object]:
    """A division's events from its players (a ``.t`` file's, or a tourney.js
    division's), each registration naming where the player came from."""
    ids = [new_player_id() for _ in tfile.players]
    try:
        events = tsh.t_to_events(
            tfile,
            division,
            player_ids=ids,
            bye_spread=rules.settings.bye_spread,
            rounds=rules.settings.rounds,
        )
    except tsh.TshError as error:
        if source == "tsh":
            raise
        # A tourney.js player's "line" is their number in the division.
        raise _named(error, division) from None
    lines = {ids[index]: player.line for index, player in enumerate(tfile.players)}
    # A tourney.js has no lines: its players are named by division and number.
    place = "line" if source == "tsh" else "player"
    extra = {} if source == "tsh" else {"division": division}
    wrapped: list[object] = [
        NewEvent(event, {"source": source, place: lines[event.player_id], **extra})
        if isinstance(event, rt.PlayerRegistered)
        else event
        for event in events
    ]
    # A member id an account claims links nothing: the claim waits for a
    # director (tournaments.players.accounts).
    return wrapped


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
    metadata = event.metadata if isinstance(event, NewEvent) else {}
    if metadata.get("line") is not None:
        where = f"line {metadata['line']}"
    elif metadata.get("player") is not None:
        where = f"division {metadata['division']}, player #{metadata['player']}"
    else:
        return error
    return EventRejectedError(
        error.code, f"{where}: {error.message}", error.index, error.field
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
    else the most of ``max_div_rounds``, else the most rounds of any file) and
    each division's own fewer rounds (``max_div_rounds``: DivisionRoundsSet),
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
    rounds = settings.get("max_rounds") or _div_rounds(parsed, texts)
    name = name or _text_setting(settings, "event_name")
    start_date = start_date or _event_date(settings)
    if not name or not start_date:
        raise tsh.TshError(
            "tsh_config_missing_event",
            "Give the event's name and first day (config.tsh has no event_name"
            " or no event_date this system can read as a date).",
        )
    created = _created(parsed, name, start_date, end_date or start_date, rounds, notes)
    tfiles = {division: tsh.read_t(text) for division, text in texts.items()}
    schedules, taken = _autopair_events(config, tfiles, created.rounds)
    result = _create_event(
        user,
        created,
        tfiles,
        published,
        "tsh",
        rules=[
            *_division_rounds(parsed, texts, created.rounds),
            *_division_rules(parsed, texts),
        ],
        tail=schedules,
        notes=tuple(notes),
    )
    # A round the schedule says is due already (round 1 on round 0's results):
    # paired now, as the write path pairs it after a result.
    pairing_services.pair_due_rounds(result.stream.id)
    not_taken = tuple(line for line in parsed.not_taken if line[0] not in taken)
    return EventImport(result, tuple(texts), not_taken, tuple(notes))


def _create_event(
    user: Any,
    created: rt.TournamentCreated | NewEvent,
    divisions: Mapping[str, tsh.TFile],
    published: bool,
    source: str,
    *,
    rules: Sequence[object] = (),
    tail: Sequence[object] = (),
    notes: tuple[str, ...] = (),
) -> AppendResult:
    """One append: the tournament, its divisions (with the `rules`: pairing rules
    and prize tables), the user as its director, and every division's players,
    pairings and results (one path for an imported event, whatever file it came
    from), then the `tail` (round schedules); the import's `notes` kept with its
    first event, for the audit."""
    head: list[object] = [
        created,
        *(rt.DivisionAdded(name=division) for division in divisions),
        *rules,
        core_events.DirectorAdded(user_id=user.pk, username=user.get_username()),
    ]
    if published:
        head.append(core_events.PublicationChanged(published=True))
    plain = [event.event if isinstance(event, NewEvent) else event for event in head]
    state = rt.replay([event for event in plain if isinstance(event, rt.Event)])
    events = list(head)
    for division, tfile in divisions.items():
        events.extend(_tfile_events(state, division, tfile, source))
    events.extend(tail)
    _with_notes(events, source, notes)
    try:
        return append(
            tournament_stream(uuid.uuid4()),
            events,
            expected_version=0,
            recorded_by=user,
        )
    except EventRejectedError as error:
        raise _with_line(error, events) from None


@dataclass(frozen=True, slots=True)
class TourneyJsImport:
    """A tournament set up from a tourney.js: what was made, the config keys not
    taken, and the notes of the import's report (byes, forfeits, late entries,
    withdrawals, what this system does not keep)."""

    result: AppendResult
    divisions: tuple[str, ...]
    not_taken: tuple[tuple[str, str], ...]
    notes: tuple[tourneyjs.NewtNote, ...]


def tourney_js_import(
    *,
    user: Any,
    text: str,
    name: str | None = None,
    start_date: str | None = None,
    end_date: str | None = None,
    published: bool = True,
) -> TourneyJsImport:
    """Create a tournament from a ``tourney.js`` (every division and round), by the
    same path as from ``config.tsh`` and ``.t`` files.

    The name and dates are the file's ``event_name`` and ``event_date`` unless
    given. Raises TshError naming the line and column (or the path) of what cannot
    be read, ``tourney_js_date`` when no date is given and ``event_date`` reads as
    none, and EventRejectedError naming the division and player the rules refuse.
    """
    require_may_create_tournament(user)
    newt = tourney_js_text.read_text(text)
    notes = list(newt.notes)
    start, end = _event_days(newt, start_date, end_date)
    settings = dict(newt.settings)
    config = tsh.TshConfig(
        tuple((division.name, division.name) for division in newt.divisions),
        settings,
        (),
    )
    mapped: list[str] = []
    created = _created(
        config,
        (name or newt.event_name or "Imported tsh event").strip()[:200],
        start,
        end,
        settings["max_rounds"],
        mapped,
    )
    notes += [tourneyjs.NewtNote("rating_system", note) for note in mapped]
    report = [dataclasses.asdict(note) for note in notes]
    result = _create_event(
        user,
        NewEvent(created, {"source": "tourney.js", "report": report}),
        {division.name: division.tfile for division in newt.divisions},
        published,
        "tourney.js",
    )
    return TourneyJsImport(
        result,
        tuple(division.name for division in newt.divisions),
        newt.not_taken,
        tuple(notes),
    )


def _named(error: tsh.TshError, division: str) -> tsh.TshError:
    message = error.message
    if error.line is not None:
        message = message.removeprefix(f"line {error.line}: ")
        message = f"division {division}, player #{error.line}: {message}"
    return tsh.TshError(error.code, message)


def _event_days(
    newt: tourneyjs.Newt, start_date: str | None, end_date: str | None
) -> tuple[str, str]:
    if start_date:
        return start_date, end_date or start_date
    days = tourneyjs.event_dates(newt.event_date)
    if days is None:
        error = tsh.TshError(
            "tourney_js_date",
            f"event_date {newt.event_date!r} is not a date this system reads"
            " (2026-07-04, July 4, 2026): give the first day.",
        )
        error.field = "start_date"
        raise error
    return days[0], end_date or days[1]


def _text_setting(settings: Mapping[str, object], key: str) -> str | None:
    value = settings.get(key)
    return (value.strip() or None) if isinstance(value, str) else None


def _event_date(settings: Mapping[str, object]) -> str | None:
    """The first day of config.tsh's free-text ``event_date``, read as a
    tourney.js's is (``rules.tourneyjs.event_dates``: one reader of tsh's dates)."""
    text = _text_setting(settings, "event_date")
    days = tourneyjs.event_dates(text) if text is not None else None
    return days[0] if days else None


def _div_rounds(parsed: tsh.TshConfig, texts: Mapping[str, str]) -> int:
    """The event's rounds without ``max_rounds``: the most of ``max_div_rounds``
    (each division with fewer gets its own number: ``_division_rounds``), else
    the most rounds of any file."""
    by_division = _max_div_rounds(parsed)
    if by_division:
        return max(by_division.values())
    single = parsed.settings.get("max_div_rounds")
    if isinstance(single, int):
        return single
    return max((tsh.read_t(text).rounds for text in texts.values()), default=1)


def _max_div_rounds(parsed: tsh.TshConfig) -> dict[str, int]:
    """``max_div_rounds`` as a hash (``{ 'A' => 7, 'B' => 5 }``): each division's
    rounds by its name as config.tsh's ``division`` lines spell it."""
    by_division = parsed.settings.get("max_div_rounds")
    if not isinstance(by_division, dict):
        return {}
    return {
        str(k).upper(): v
        for k, v in by_division.items()
        if isinstance(v, int) and not isinstance(v, bool)
    }


def _division_rounds(
    parsed: tsh.TshConfig, texts: Mapping[str, str], rounds: int
) -> list[object]:
    """A ``DivisionRoundsSet`` for each division ``max_div_rounds`` gives fewer
    rounds than the event's ``rounds``."""
    by_division = _max_div_rounds(parsed)
    return [
        rt.DivisionRoundsSet(division=division, rounds=by_division[division.upper()])
        for division in texts
        if by_division.get(division.upper(), rounds) < rounds
    ]


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


def _autopair_events(
    config: str, divisions: Mapping[str, tsh.TFile], rounds: int
) -> tuple[list[rt.RoundScheduleSet], set[int]]:
    """config.tsh's ``autopair`` lines as each division's round schedule, and the
    numbers of the lines taken."""
    lines = tsh.read_autopair(config)
    if not lines:
        return [], set()
    schedules = []
    for division, tfile in divisions.items():
        schedule = tsh.autopair_rounds(lines, division, len(tfile.players), rounds)
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
