"""Write and read tsh's ``tourney.js``: the live "newt" object of a whole event.

tsh writes the file after every change, for its live coverage pages and the
programs that poll it (Woogles' broadcasts read it as ``tsh_newt_json``)::

    newt={"config":{...},"divisions":[{...}],"esb":{...},"profile":undefined};

tsh serialises its objects itself (its ``JavaScript::Serializable``): keys sorted
and quoted, no spaces, a missing value written ``undefined``, and a value that reads
as a number (``-?(\\d+|\\d*\\.\\d+)``) written as a number, any other as a string.
The top level holds ``config`` (tsh's exported configuration keys, ``CONFIG_KEYS``:
``event_name``, ``event_date``, ``max_rounds``, ``rating_system``, ``spread_cap``,
``track_firsts``... each ``undefined`` when not set; this system adds
``bye_spread``, which tsh's readers ignore and ours reads back), ``divisions``,
``esb`` (the electronic scoreboard's message) and ``profile``. A division holds
``name``, ``maxr`` (the last round configured, 0-based), ``maxrp`` (the last round
with a result, 0-based), ``rating_list``, ``rating_system``, ``classes``, ``seeds``
(each player's seed by pre-event rating, ties sharing one, in player order),
``first_out_of_the_money`` (per round) and ``players``: indexed by player number,
entry 0 ``undefined``. A player holds ``id`` (the number), ``name``, ``rating``,
``pairings`` (the opponent's number each round, 0 for none: a bye, a forfeit, a
round not paired), ``scores`` (the player's own score each round; for opponent 0
the spread credited) and ``etc``: every field of the player's ``.t`` line as a list
of values (``p12`` 1 first, 2 second, 0 no game; ``board``; ``rrank``, the rank
before round 1 then after each round; ``newr``, the rating estimate after each
round; ``off``, ``lifeg``, ``naspa``...), plus ``newr``, ``photo`` and ``photomood``.

The columns are those of the ``.t`` file (``rules.tsh.columns``): one decision for
both files. A game without a result yet ends the scores (a later round's result
before it is written ``undefined`` in its place, as tsh writes a hole).

Reading (``read_newt``) takes the object a JSON or JavaScript reader made of the
file and gives each division as a ``rules.tsh.TFile`` (player number, name,
rating, opponents, scores and the ``etc`` fields as the ``.t`` fields), so that an
event from ``tourney.js`` is imported by the same path as from ``.t`` files, and
lists what the file holds that is worth a director's look (byes, forfeits, late
entries, withdrawn players, configuration this system has no setting for, player
fields it does not keep) as notes, never as a reason to refuse. What cannot be
read is a ``TshError`` naming where (``divisions[0].players[3].scores``).

Usage::

    text = write_tourney_js(record, new_ratings={"A": {1: [1512, 1520]}})
    newt = read_newt(obj)          # obj: the parsed object of the file
    newt.divisions[0].tfile, newt.notes, newt.settings
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.records import DivisionRecord, PlayerRecord, TournamentRecord
from rules.tournament import MAX_ROUNDS, Extension
from rules.tsh import (
    MAX_PLAYERS,
    Columns,
    TFile,
    TPlayer,
    TshError,
    columns,
    computed_fields,
)

__all__ = [
    "CONFIG_KEYS",
    "DivisionNewt",
    "Newt",
    "NewtNote",
    "event_dates",
    "newt_object",
    "read_newt",
    "to_javascript",
    "write_tourney_js",
]

# The configuration keys tsh exports into tourney.js (its TSH::Config), each
# written whether set or not.
CONFIG_KEYS = (
    "_termdict",
    "assign_firsts",
    "check_by_winner",
    "currency_symbol",
    "division_label",
    "division_rating_list",
    "division_rating_system",
    "entry",
    "esb_lite",
    "event_date",
    "event_name",
    "max_rounds",
    "no_boards",
    "no_scores",
    "notes",
    "photo_database",
    "player_moods",
    "player_photos",
    "prize_bands",
    "rating_system",
    "scoreboard_team_colors",
    "scoreboard_team_colours",
    "scoreboard_teams",
    "show_teams",
    "spread_bad",
    "spread_cap",
    "standings_spread_cap",
    "suppress_results_in_pairings",
    "tables",
    "thai_points",
    "track_firsts",
)

# The config keys this system has a setting for (the rest are listed as not taken).
TAKEN_CONFIG = (
    "event_name",
    "event_date",
    "max_rounds",
    "rating_system",
    "spread_cap",
    "bye_spread",
)

# tsh's rating list of each rating system (its division's ``rating_list``).
RATING_LISTS = {"nsa2008": "nsa", "naspa-csw": "naspa-csw", "wespa": "wespa"}

# A player's keys that the file carries and this system keeps elsewhere or derives.
PLAYER_KEYS = ("etc", "id", "name", "newr", "pairings", "rating", "scores")

# A value tsh writes as a number (its JavaScript::Serializable's test).
_NUMBER = re.compile(r"-?(?:[0-9]+|[0-9]*\.[0-9]+)")
# What a .t field's value cannot hold.
_UNWRITABLE = re.compile(r"[\s;]")


class Undefined:
    """JavaScript's ``undefined``, as tsh writes a value it does not have."""

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED = Undefined()


# --- Writing --------------------------------------------------------------------


def to_javascript(value: object) -> str:
    """A value as tsh's serialiser writes it: keys sorted and quoted, no spaces,
    None and ``UNDEFINED`` as ``undefined``. Strings are JSON strings (tsh escapes
    only quotes, backslashes and newlines; JSON's escapes read the same)."""
    if value is None or isinstance(value, Undefined):
        return "undefined"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return (
            "{"
            + ",".join(
                f"{json.dumps(str(key), ensure_ascii=False)}:{to_javascript(item)}"
                for key, item in sorted(value.items())
            )
            + "}"
        )
    if isinstance(value, Sequence):
        return "[" + ",".join(to_javascript(item) for item in value) + "]"
    raise TypeError(f"tourney.js cannot hold {value!r}")


def write_tourney_js(
    record: TournamentRecord,
    *,
    new_ratings: Mapping[str, Mapping[int, Sequence[int]]] | None = None,
    config: Mapping[str, object] | None = None,
) -> str:
    """The file tsh writes: ``newt=`` the object, ``;`` and a newline."""
    obj = newt_object(record, new_ratings=new_ratings, config=config)
    return f"newt={to_javascript(obj)};\n"


def newt_object(
    record: TournamentRecord,
    *,
    new_ratings: Mapping[str, Mapping[int, Sequence[int]]] | None = None,
    config: Mapping[str, object] | None = None,
) -> dict[str, object]:
    """The newt object of the event: ``new_ratings`` gives, by division and player
    number, the rating estimate after each round (tsh's ``newr``), where known;
    ``config`` adds configuration values the record does not hold (``spread_cap``)."""
    settings: dict[str, object] = dict.fromkeys(CONFIG_KEYS, UNDEFINED)
    settings.update(
        event_name=record.name,
        event_date=record.date,
        max_rounds=record.rounds or UNDEFINED,
        rating_system=record.rating_system,
        # The system records who went first in every game (p12).
        track_firsts=1,
    )
    settings.update(config or {})
    ratings = new_ratings or {}
    return {
        "config": settings,
        "divisions": [
            _division(record, division, ratings.get(division.name, {}))
            for division in record.divisions
        ],
        # tsh's electronic scoreboard message, as tsh starts it.
        "esb": {"message": {"mode": "reveal", "text": ""}},
        "profile": UNDEFINED,
    }


def _division(
    record: TournamentRecord,
    division: DivisionRecord,
    new_ratings: Mapping[int, Sequence[int]],
) -> dict[str, object]:
    scored = _last_scored_round(division)
    configured = record.rounds or max(
        (len(columns(player).opponents) for player in division.players), default=0
    )
    return {
        "classes": UNDEFINED,
        "first_out_of_the_money": [
            _ranked_count(division, round_) for round_ in range(1, scored + 1)
        ],
        "maxr": configured - 1,
        "maxrp": scored - 1,
        "name": division.name,
        "players": [
            UNDEFINED,
            *(
                _player(player, scored, new_ratings.get(player.number, ()))
                for player in division.players
            ),
        ],
        "rating_list": RATING_LISTS.get(record.rating_system, record.rating_system),
        "rating_system": record.rating_system,
        "seeds": _seeds(division.players),
    }


def _last_scored_round(division: DivisionRecord) -> int:
    return max(
        (
            entry.round
            for player in division.players
            for entry in player.rounds
            if entry.own_score is not None
        ),
        default=0,
    )


def _ranked_count(division: DivisionRecord, round_: int) -> int:
    """tsh's first player out of the money after a round, without prize bands:
    one past the last ranked player (everyone is in the money)."""
    return sum(
        1
        for player in division.players
        if len(player.ranks) > round_ and player.ranks[round_] is not None
    )


def _seeds(players: Sequence[PlayerRecord]) -> list[int]:
    """Each player's seed by pre-event rating (highest first, ties sharing the
    better seed), in player order, as tsh's ComputeSeeds."""
    ratings = sorted((player.rating for player in players), reverse=True)
    first: dict[int, int] = {}
    for index, rating in enumerate(ratings, start=1):
        first.setdefault(rating, index)
    return [first[player.rating] for player in players]


def _player(
    player: PlayerRecord, scored: int, new_ratings: Sequence[int]
) -> dict[str, object]:
    line = columns(player)
    scores: list[object] = list(line.scores)
    while scores and scores[-1] is None:
        scores.pop()
    return {
        "etc": _etc(player, line, scored, new_ratings),
        "id": player.number,
        "name": player.name,
        "newr": UNDEFINED,
        "pairings": list(line.opponents),
        "photo": UNDEFINED,
        "photomood": UNDEFINED,
        "rating": player.rating,
        "scores": [UNDEFINED if score is None else score for score in scores],
    }


def _etc(
    player: PlayerRecord, line: Columns, scored: int, new_ratings: Sequence[int]
) -> dict[str, object]:
    """The player's ``.t`` fields as lists of values: the source's, those the
    system computes from its data, p12 and board always (Woogles reads both),
    the ranks and the estimates where known."""
    fields = dict(player.extensions)
    fields.update(computed_fields(player, line))
    values: dict[str, object] = {key: _values(text) for key, text in fields.items()}
    values["p12"] = list(line.p12)
    values["board"] = list(line.boards)
    if player.ranks:
        values["rrank"] = [rank or 0 for rank in player.ranks[: scored + 1]]
    if new_ratings:
        values["newr"] = list(new_ratings)
    return values


def _values(text: str) -> list[object]:
    return [_value(word) for word in text.split()]


def _value(word: str) -> object:
    """A field's word as tsh writes it: a number when it reads as one."""
    if _NUMBER.fullmatch(word):
        number = float(word)
        return int(number) if number.is_integer() and "." not in word else number
    return word


# --- Reading --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewtNote:
    """Something the file holds that the director should see: where and what."""

    code: str
    message: str
    division: str = ""
    player: int | None = None
    round: int | None = None


@dataclass(frozen=True, slots=True)
class DivisionNewt:
    """One division of the file, as a ``.t`` file's players."""

    name: str
    tfile: TFile
    rounds: int  # maxr + 1: the rounds tsh was configured for (0: not said)


@dataclass(frozen=True, slots=True)
class Newt:
    """What a tourney.js sets up: the event's settings as config.tsh names them
    (``max_rounds``, ``spread_cap``, ``rating_system``), its name and date as
    written, its divisions, and the notes for the import's report."""

    event_name: str
    event_date: str
    settings: dict[str, object]
    divisions: tuple[DivisionNewt, ...]
    not_taken: tuple[tuple[str, str], ...]  # config keys with a value: key, value
    notes: tuple[NewtNote, ...] = field(default=())


def read_newt(obj: object) -> Newt:
    """Read the newt object; raise TshError (``tourney_js_shape``) naming the path
    of what cannot be read. The score of opponent 0 that is a bye is the config's
    ``bye_spread`` (this system writes it; tsh's own files leave it out: 50)."""
    root = _mapping(obj, "newt")
    config = (
        _mapping(root["config"], "config") if root.get("config") is not None else {}
    )
    spread = config.get("bye_spread")
    bye_spread = 50
    if isinstance(spread, int) and not isinstance(spread, bool):
        bye_spread = spread
    divisions_value = root.get("divisions")
    if not isinstance(divisions_value, list) or not divisions_value:
        raise _shape("divisions", "a list of divisions, at least one")
    notes: list[NewtNote] = []
    divisions = tuple(
        _read_division(raw, index, bye_spread, notes)
        for index, raw in enumerate(divisions_value)
    )
    system = config.get("rating_system")
    for raw in divisions_value:
        own = raw.get("rating_system") if isinstance(raw, Mapping) else None
        if isinstance(own, str) and system and own != system:
            notes.append(
                NewtNote(
                    "rating_system",
                    f"division {_text(raw.get('name'))} is rated {own!r}, the event"
                    f" {system!r}: this system rates every division alike.",
                    division=_text(raw.get("name")),
                )
            )
    names = [division.name for division in divisions]
    if len(set(names)) != len(names):
        raise _shape("divisions", f"division names repeat: {', '.join(names)}")
    settings, not_taken = _settings(config, divisions, notes, bye_spread)
    return Newt(
        event_name=_text(config.get("event_name")),
        event_date=_text(config.get("event_date")),
        settings=settings,
        divisions=divisions,
        not_taken=not_taken,
        notes=tuple(notes),
    )


def _shape(path: str, expected: str) -> TshError:
    return TshError("tourney_js_shape", f"{path}: expected {expected}.")


def _mapping(value: object, path: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise _shape(path, "an object")
    return value


def _text(value: object) -> str:
    if value is None or isinstance(value, Undefined):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _whole(value: object, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _shape(path, "a whole number")
    if isinstance(value, float) and not value.is_integer():
        raise _shape(path, "a whole number")
    return int(value)


def _settings(
    config: Mapping[str, object],
    divisions: Sequence[DivisionNewt],
    notes: list[NewtNote],
    bye_spread: int,
) -> tuple[dict[str, object], tuple[tuple[str, str], ...]]:
    settings: dict[str, object] = {}
    rounds = config.get("max_rounds")
    held = max(
        (max(division.rounds, division.tfile.rounds) for division in divisions),
        default=0,
    )
    if isinstance(rounds, int | float) and not isinstance(rounds, bool) and rounds > 0:
        settings["max_rounds"] = max(int(rounds), held)
        if held > rounds:
            notes.append(
                NewtNote(
                    "max_rounds",
                    f"config max_rounds = {int(rounds)}, but a division has"
                    f" {held} rounds: the event has {held}.",
                )
            )
    else:
        settings["max_rounds"] = max(held, 1)
    if bye_spread != 50:
        settings["bye_spread"] = bye_spread
    cap = config.get("spread_cap")
    if isinstance(cap, int) and not isinstance(cap, bool):
        settings["spread_cap"] = cap
    elif isinstance(cap, list) and all(isinstance(c, int) for c in cap):
        settings["spread_cap"] = list(cap)
    system = config.get("rating_system")
    if isinstance(system, str) and system:
        settings["rating_system"] = system
    not_taken = tuple(
        (key, _short(value))
        for key, value in config.items()
        if key not in TAKEN_CONFIG
        and value is not None
        and not isinstance(value, Undefined)
        and value not in ({}, [], "")
    )
    for key, value in not_taken:
        notes.append(
            NewtNote(
                "config_not_taken",
                f"config {key} = {value}: this system has no setting for it.",
            )
        )
    return settings, not_taken


def _short(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=repr)
    return text if len(text) <= 80 else text[:77] + "..."


def _read_division(
    raw: object, index: int, bye_spread: int, notes: list[NewtNote]
) -> DivisionNewt:
    path = f"divisions[{index}]"
    division = _mapping(raw, path)
    name = _text(division.get("name")).strip()
    if not name:
        raise _shape(f"{path}.name", "the division's name")
    players_value = division.get("players")
    if not isinstance(players_value, list):
        raise _shape(f"{path}.players", "a list of players")
    if len(players_value) > MAX_PLAYERS + 1:
        raise _shape(f"{path}.players", f"at most {MAX_PLAYERS} players")
    entries = [
        (position, item)
        for position, item in enumerate(players_value)
        if item is not None and not isinstance(item, Undefined)
    ]
    dropped: set[str] = set()
    players = tuple(
        _read_player(item, f"{path}.players[{position}]", position, dropped)
        for position, item in entries
    )
    numbers = [player.number for player in players]
    if numbers != list(range(1, len(players) + 1)):
        raise _shape(
            f"{path}.players",
            "players numbered 1, 2, 3... by their id, each once, in order",
        )
    maxr = division.get("maxr")
    rounds = (
        int(maxr) + 1
        if isinstance(maxr, int | float) and not isinstance(maxr, bool) and maxr >= 0
        else 0
    )
    for player in players:
        notes.extend(_player_notes(name, player, bye_spread))
    for key in sorted(dropped):
        notes.append(
            NewtNote(
                "player_field_not_kept",
                f"the players' etc.{key} is not kept: a .t field holds words only.",
                division=name,
            )
        )
    for key in sorted(
        {
            key
            for _, item in entries
            for key, value in _mapping(item, path).items()
            if key not in PLAYER_KEYS
            and value is not None
            and not isinstance(value, Undefined)
        }
    ):
        notes.append(
            NewtNote(
                "player_field_not_kept",
                f"the players' {key} is not kept by this system.",
                division=name,
            )
        )
    # tsh's canonical division name: letters and digits, upper case.
    canonical = re.sub(r"\W", "", name).upper() or name.upper()
    return DivisionNewt(name=canonical, tfile=TFile(players), rounds=rounds)


def _read_player(raw: object, path: str, position: int, dropped: set[str]) -> TPlayer:
    player = _mapping(raw, path)
    number = (
        _whole(player["id"], f"{path}.id") if player.get("id") is not None else position
    )
    name = _text(player.get("name")).strip()
    if not name:
        raise _shape(f"{path}.name", "the player's name")
    rating_text = _text(player.get("rating")) or "0"
    if not re.fullmatch(r"\d+(?:[.+]\d+)*", rating_text):
        raise _shape(f"{path}.rating", "a rating (1500, 1500.5 or 0+0+0)")
    opponents = _column(player.get("pairings"), f"{path}.pairings")
    scores = _column(player.get("scores"), f"{path}.scores")
    fields = _fields(player.get("etc"), f"{path}.etc", dropped)
    return TPlayer(
        number=number,
        # tsh's files have no lines here: messages name the player by number.
        line=number,
        name=name,
        rating=int(re.split(r"[.+]", rating_text)[0]),
        rating_text=rating_text,
        opponents=opponents,
        scores=scores,
        fields=fields,
    )


def _column(value: object, path: str) -> tuple[int, ...]:
    """A list of whole numbers, one per round; trailing ``undefined`` dropped (tsh
    writes a missing value so), one before a number refused: a round cannot be
    left out in the middle."""
    if value is None or isinstance(value, Undefined):
        return ()
    if not isinstance(value, list):
        raise _shape(path, "a list of numbers, one per round")
    items = list(value)
    while items and (items[-1] is None or isinstance(items[-1], Undefined)):
        items.pop()
    if len(items) > MAX_ROUNDS:
        raise _shape(path, f"at most {MAX_ROUNDS} rounds")
    return tuple(
        _whole(item, f"{path}[{index}] (round {index + 1})")
        for index, item in enumerate(items)
    )


def _fields(value: object, path: str, dropped: set[str]) -> tuple[Extension, ...]:
    """The ``etc`` object as the ``.t`` line's fields: key and its values; a key
    whose values a ``.t`` field cannot hold (spaces, ';', an object) is added to
    ``dropped``."""
    if value is None or isinstance(value, Undefined):
        return ()
    etc = _mapping(value, path)
    fields = []
    for key, item in etc.items():
        if item is None or isinstance(item, Undefined):
            continue
        items = item if isinstance(item, list) else [item]
        words = [_text(word) for word in items]
        if any(isinstance(word, Mapping | list) for word in items) or any(
            not word or _UNWRITABLE.search(word) for word in words
        ):
            dropped.add(str(key))
            continue
        fields.append(Extension(str(key), " ".join(words)))
    return tuple(fields)


def _player_notes(division: str, player: TPlayer, bye_spread: int) -> list[NewtNote]:
    """A division's byes, forfeits, credits, late entries and withdrawals."""
    notes = []
    first_game = next(
        (index for index, opponent in enumerate(player.opponents) if opponent), None
    )
    for index, opponent in enumerate(player.opponents):
        if opponent:
            continue
        score = player.scores[index] if len(player.scores) > index else None
        if score is None or score == bye_spread:
            code, what = "bye", "a bye"
        elif score < 0:
            code, what = "forfeit", f"a forfeit loss ({score})"
        elif score > 0:
            code, what = "credit", f"a win credited ({score})"
        elif first_game is None or index < first_game:
            code, what = "late_entry", "not yet entered (0)"
        else:
            code, what = "unpaired", "not paired (0)"
        notes.append(
            NewtNote(
                code,
                f"{player.name} (#{player.number}), round {index + 1}: {what}.",
                division=division,
                player=player.number,
                round=index + 1,
            )
        )
    if player.field("off") is not None:
        notes.append(
            NewtNote(
                "withdrawn",
                f"{player.name} (#{player.number}) is withdrawn (tsh's off).",
                division=division,
                player=player.number,
            )
        )
    return notes


# --- Dates ------------------------------------------------------------------------

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_ISO = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:\s*(?:-|to|–)\s*(\d{4})-(\d{2})-(\d{2}))?",
    re.ASCII,
)
# "July 4, 2024", "July 4-7, 2024", "July 30 - August 2, 2024"
_MONTH_FIRST = re.compile(
    r"([A-Za-z]+)\.?\s+(\d{1,2})(?:\s*[-–]\s*(?:([A-Za-z]+)\.?\s+)?(\d{1,2}))?,?\s+(\d{4})",
    re.ASCII,
)
# "4 July 2024", "4-7 July 2024"
_DAY_FIRST = re.compile(
    r"(\d{1,2})(?:\s*[-–]\s*(\d{1,2}))?\s+([A-Za-z]+)\.?,?\s+(\d{4})",
    re.ASCII,
)


def event_dates(text: str) -> tuple[str, str] | None:
    """The first and last day (ISO) of tsh's free-text ``event_date`` in the forms
    directors write (``2024-07-04``, ``July 4, 2024``, ``July 4-7, 2024``, ``4 July
    2024``), or None when it reads as none of them."""
    text = text.strip()
    try:
        if match := _ISO.fullmatch(text):
            y, m, d, y2, m2, d2 = match.groups()
            start = datetime.date(int(y), int(m), int(d))
            end = datetime.date(int(y2), int(m2), int(d2)) if y2 else start
        elif match := _MONTH_FIRST.fullmatch(text):
            month, day, month2, day2, year = match.groups()
            start = datetime.date(int(year), _MONTHS[month.lower()], int(day))
            end_month = _MONTHS[month2.lower()] if month2 else start.month
            end = datetime.date(int(year), end_month, int(day2)) if day2 else start
        elif match := _DAY_FIRST.fullmatch(text):
            day, day2, month, year = match.groups()
            start = datetime.date(int(year), _MONTHS[month.lower()], int(day))
            end = start.replace(day=int(day2)) if day2 else start
        else:
            return None
    except (KeyError, ValueError):
        return None
    if end < start:
        return None
    return start.isoformat(), end.isoformat()
