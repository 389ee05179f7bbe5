"""tsh's ``tourney.js`` in and out: the text of the live file a tournament serves,
and the newt object of a file a director uploads (``rules.tourneyjs`` reads and
writes the object; here are the database and the text).

The uploaded text is JSON or the JavaScript object literal tools write (``newt =
{name: 'A', players: [undefined, ...],};``: unquoted keys, single quotes, trailing
commas, comments, tsh's ``undefined``), read by a JSON5 reader (pyjson5), never
evaluated; what cannot be read is a 400 naming its line and column.

Usage::

    text = served_text(tournament)             # newt={...};
    newt = read_text(uploaded_text)            # rules.tourneyjs.Newt
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence

import pyjson5
from django.core.cache import cache

from rules.ratings import AbspEvent, RatingsError
from rules.records import DivisionRecord, TournamentRecord
from rules.tourneyjs import Newt, read_newt, write_tourney_js
from rules.tsh import TshError
from tournaments.models import Tournament
from tournaments.ratings import estimates

# Everything before the object: comments and the assignment, in any of the forms
# tools write (``newt=``, ``var newt =``, ``window.newt =``), or nothing (JSON).
_HEAD = re.compile(
    r"(?:\s+|//[^\n]*|/\*.*?(?:\*/|\Z))*"
    r"(?:(?:(?:var|let|const)\s+)?(?:window\.)?newt\s*=)?",
    re.DOTALL,
)
# A string, a comment, or tsh's undefined (only the last is replaced). A string or
# comment left open runs to its line's end or the file's (never a failed match to
# retry at the next character: one pass, whatever the file).
_TOKENS = re.compile(
    r""""(?:[^"\\\n]|\\.)*(?:"|$)|'(?:[^'\\\n]|\\.)*(?:'|$)"""
    r"""|//[^\n]*|/\*.*?(?:\*/|\Z)|\bundefined\b""",
    re.DOTALL | re.MULTILINE,
)
_NEAR = re.compile(r"near ([0-9]+)")


def read_text(text: str) -> Newt:
    """The event a tourney.js holds; TshError (``tourney_js_syntax`` naming the
    line and column, or ``tourney_js_shape`` naming the path) when it cannot be
    read."""
    return read_newt(parse(text))


def parse(text: str) -> object:
    """The object of ``newt=...;`` (or of a bare JSON object), without eval."""
    body = _blank(text, 0, _HEAD.match(text).end())  # type: ignore[union-attr]
    tail = len(body.rstrip().rstrip(";").rstrip())
    body = _blank(body, tail, len(body))
    # Same length: a position in the body is the same in the file.
    body = _TOKENS.sub(
        lambda m: "null     " if m.group() == "undefined" else m.group(), body
    )
    try:
        return pyjson5.loads(body)
    except pyjson5.Json5Exception as error:
        raise _syntax_error(text, str(error.args[0] if error.args else error)) from None


def _blank(text: str, start: int, end: int) -> str:
    """``text`` with [start, end) turned to spaces, its line ends kept."""
    middle = re.sub(r"[^\n]", " ", text[start:end])
    return text[:start] + middle + text[end:]


def _syntax_error(text: str, reason: str) -> TshError:
    near = _NEAR.search(reason)
    if near is None:
        return TshError("tourney_js_syntax", f"the file cannot be read: {reason}.")
    # pyjson5 counts characters from 1.
    position = max(0, min(len(text), int(near.group(1)) - 1))
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    reason = _NEAR.sub("", reason).replace("  ", " ").strip().rstrip(",")
    return TshError(
        "tourney_js_syntax",
        f"column {column}: not JSON or a JavaScript object here ({reason}).",
        line,
    )


def served_text(tournament: Tournament) -> str:
    """The live ``tourney.js`` of the tournament, as tsh writes it."""
    record = estimates.tournament_record(tournament.tournament_id)
    caps = list(tournament.spread_caps)
    # Not one of tsh's keys: a bye's spread, so that the file read back (here)
    # takes opponent 0 with that score as a bye, as the event had it.
    config: dict[str, object] = {"bye_spread": tournament.bye_spread}
    if caps or tournament.spread_cap is not None:
        config["spread_cap"] = caps or tournament.spread_cap
    return write_tourney_js(
        record, new_ratings=_new_ratings(tournament, record), config=config
    )


def _new_ratings(
    tournament: Tournament, record: TournamentRecord
) -> dict[str, dict[int, Sequence[int]]]:
    """tsh's ``newr``: each player's rating estimate after each round with a
    result, in the tournament's rating system; none for a division whose results
    the ratings cannot read."""
    found: dict[str, dict[int, Sequence[int]]] = {}
    for division in record.divisions:
        history = (
            estimates.absp_histories(tournament, division)
            if record.rating_system == "absp"
            else None
        )
        try:
            last = _last_result(division)
            digests = _round_digests(record, division, last, history)
            by_round = [
                _round_ratings(record, division, round_, digest, history)
                for round_, digest in enumerate(digests, start=1)
            ]
        except RatingsError:
            continue
        players: dict[int, list[int]] = {}
        for ratings in by_round:
            for number, rating in ratings.items():
                players.setdefault(number, []).append(rating or 0)
        found[division.name] = dict(players)
    return found


def _last_result(division: DivisionRecord) -> int:
    return max(
        (
            entry.round
            for player in division.players
            for entry in player.rounds
            if entry.result is not None
        ),
        default=0,
    )


def _round_digests(
    record: TournamentRecord,
    division: DivisionRecord,
    last: int,
    history: Mapping[int, Sequence[AbspEvent]] | None,
) -> list[str]:
    """For each round 1..last, a digest of everything its estimates read: the
    rating system, the players, the ABSP history and every round up to it (each
    round's digest chains the one before, so all of them cost one pass)."""
    chain = hashlib.sha256(
        repr(
            (
                record.rating_system,
                record.club_event,
                record.rounds,
                [(p.number, p.rating, p.career_games) for p in division.players],
                sorted((history or {}).items()),
            )
        ).encode()
    ).hexdigest()
    digests = []
    for round_ in range(1, last + 1):
        entries = [
            [entry for entry in p.rounds if entry.round == round_]
            for p in division.players
        ]
        chain = hashlib.sha256(f"{chain}{entries!r}".encode()).hexdigest()
        digests.append(chain)
    return digests


def _round_ratings(
    record: TournamentRecord,
    division: DivisionRecord,
    round_: int,
    digest: str,
    history: Mapping[int, Sequence[AbspEvent]] | None,
) -> dict[int, int | None]:
    """The estimates after one round, kept by the digest of what they read: a new
    result of the last round computes that round again, not the earlier ones (as
    tsh keeps each round's newr)."""
    key = f"newr:{digest}"
    ratings = cache.get(key)
    if ratings is None:
        ratings = estimates.new_ratings(record, division, round_, history)
        cache.set(key, ratings, estimates.ESTIMATES_TIMEOUT)
    return ratings
