"""Services that record games: each command is one validated, atomic append.

Draws are recorded, never computed on replay: when a turn is recorded, the service
first refills every rack that is short (the player who just placed draws once the
challenge window has closed, which is when the next turn begins), drawing at random
from the bag as the state knows it — or, when the director read the tiles off a
scoresheet, recording exactly those. With a seed (kept in the game's start metadata)
the draws are reproducible: the random generator is seeded per version.

Usage::

    result = game_start(user=mara, players=["Ann", "Ben"], ruleset_name="classic")
    game_place(game_id=result.stream.id, position="8D", word="WINDY", user=mara,
               expected_version=result.version)
"""

from __future__ import annotations

import hashlib
import random
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404

from games.context import tournament_link
from games.eventstore.store import AppendResult, append, load_state
from games.eventstore.streams import NewEvent, StreamKey
from games.notes import note_stamps
from games.quotas import charge_upload, check_note_quota
from games.streams import GameAggregate
from rules import events as ev
from rules import gcg
from rules.errors import InvalidEventError, NoteTargetError
from rules.lexicon import Lexicon, adjudicate, load_lexicon
from rules.ruleset import Ruleset
from rules.ruleset import ruleset as make_ruleset
from rules.state import GameState
from rules.state import apply as rules_apply
from rules.tiles import TileSet
from rules.tilesets import tile_set
from rules.tournament import TournamentError

STREAM_TYPE = "game"
RACK_SIZE = 7


class GamePermissionError(PermissionDenied):
    """Raised when a user may not record in a game (HTTP 403)."""


class GameNotFoundError(Http404):
    """Raised when no game stream has the given id (HTTP 404)."""


def game_stream(game_id: uuid.UUID) -> StreamKey:
    return StreamKey(STREAM_TYPE, game_id)


def game_load(
    game_id: uuid.UUID, *, version: int | None = None, keep: bool = True
) -> tuple[int, GameAggregate]:
    """The game's (version, aggregate): at its current version, or at `version`
    (a version the caller read, such as its projection row's). `keep=False` for
    readers: see eventstore.load_state."""
    version, aggregate = load_state(game_stream(game_id), version=version, keep=keep)
    if version == 0:
        raise GameNotFoundError(f"No game {game_id}.")
    return version, aggregate


# --- rights ----------------------------------------------------------------------


def can_record(aggregate: GameAggregate, user: Any) -> bool:
    """Directors of the game's tournament; for a casual game, whoever started it."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    tournament_id = aggregate.context.get("tournament_id")
    if tournament_id:
        return tournament_link().directs(tournament_id, user)
    return aggregate.context.get("owner_id") == user.pk


def can_annotate(aggregate: GameAggregate, user: Any) -> bool:
    """Whoever may record, and the game's own players (linked accounts)."""
    if can_record(aggregate, user):
        return True
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    tournament_id = aggregate.context.get("tournament_id")
    if not tournament_id:
        return False
    ids = set(aggregate.context.get("player_ids") or ())
    return bool(ids & tournament_link().linked_player_ids(tournament_id, user))


def _require(allowed: bool, message: str) -> None:
    if not allowed:
        raise GamePermissionError(message)


# --- draws -----------------------------------------------------------------------


def _rng(aggregate: GameAggregate, version: int) -> random.Random:
    seed = aggregate.context.get("seed")
    if seed is None:
        return random.SystemRandom()
    return random.Random(f"{seed}:{version}")


def refill_events(
    state: GameState, rng: random.Random, *, only: int | None = None
) -> list[ev.TilesDrawn]:
    """Draw events that bring every short rack back to 7 while the bag has tiles."""
    events: list[ev.TilesDrawn] = []
    bag_count = state.bag.count
    pool = list(state.bag.candidates) if state.bag.exact else None
    size = state.ruleset.rack_size
    for player, rack in enumerate(state.racks):
        if only is not None and player != only:
            continue
        need = min(size - rack.count, bag_count)
        if need <= 0:
            continue
        if pool is not None:
            drawn = rng.sample(pool, need)
            for tile in drawn:
                pool.remove(tile)
            events.append(ev.TilesDrawn(player=player, tiles="".join(sorted(drawn))))
        else:
            # Some rack is unknown, so the bag's contents are not: record a count.
            events.append(ev.TilesDrawn(player=player, unknown=need))
        bag_count -= need
    return events


def _turn_append(
    game_id: uuid.UUID,
    make: Any,
    *,
    user: Any,
    expected_version: int | None,
    refill: bool = True,
    draws: Mapping[int, str] | None = None,
    after: str | None = None,
) -> AppendResult:
    """Refill short racks (recorded or random draws), then append the turn."""
    version, aggregate = game_load(game_id)
    _require(can_record(aggregate, user), "Only the game's directors may record it.")
    state = aggregate.state
    assert state is not None
    events: list[object] = []
    if (refill and state.last_play is None) or (refill and state.last_play is not None):
        events.extend(_draws(aggregate, state, version, draws))
    if events:
        for event in events:
            state = rules_apply(state, event)
    turn = make(state)
    turn_events = turn if isinstance(turn, list) else [turn]
    events.extend(turn_events)
    if after == "refill":
        for event in turn_events:
            state = rules_apply(state, event)
        player = turn_events[-1].player
        events.extend(refill_events(state, _rng(aggregate, version + 1), only=player))
    return append(
        game_stream(game_id),
        events,
        expected_version=version if expected_version is None else expected_version,
        recorded_by=user,
    )


def _as_tiles(tiles: TileSet, text: str) -> str:
    """Text as printed on the tiles (Spanish [CH], Catalan L·L, a blank in lower
    case) as the engine's tiles; text that is not made of them goes on as it is,
    for the rules to refuse."""
    return tiles.read_tiles(text) or text


def _draws(
    aggregate: GameAggregate,
    state: GameState,
    version: int,
    draws: Mapping[int, str] | None,
) -> list[ev.TilesDrawn]:
    if draws:
        return [
            ev.TilesDrawn(player=player, tiles=_as_tiles(state.tile_set, tiles.upper()))
            for player, tiles in sorted(draws.items())
            if tiles
        ]
    return refill_events(state, _rng(aggregate, version))


# --- commands --------------------------------------------------------------------


def game_start(
    *,
    user: Any,
    players: Sequence[str],
    ruleset_name: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    lexicon: str | None = None,
    tile_set_name: str | None = None,
    seed: int | str | None = None,
    context: Mapping[str, Any] | None = None,
    racks: Sequence[str] | None = None,
    game_id: uuid.UUID | None = None,
    visibility: ev.Visibility = ev.Visibility.PRIVATE,
) -> AppendResult:
    """Start a game and draw the opening racks (recorded `racks`, or at random).

    `tile_set_name` is one of rules.tilesets.TILE_SETS (English by default; the
    game's start records the whole set); `lexicon` is the word list's name.
    `context` may link the game to a tournament: tournament_id, division, round,
    board, player_ids (the tournament's ids, in turn order). A tournament's game
    plays under the tournament's rules, with its division's tile set and lexicon
    (see game_setup), and the context must name a real pairing of it
    (TournamentError naming the field); otherwise the game plays under
    `ruleset_name` (classic by default) with `overrides`, and is readable as
    `visibility` says (its owner's only, by default: see game_set_visibility).

    Raises UnknownTileSetError (a RulesError: 400 at the API) for an unknown set.
    """
    _require(
        user is not None and getattr(user, "is_authenticated", False),
        "Sign in to record a game.",
    )
    context = _game_context(context, user, visibility)
    context["player_names"] = list(players)
    if seed is not None:
        context["seed"] = seed
    rules = _game_rules(
        context, ruleset_name, overrides, field="ruleset", default="classic"
    )
    assert rules is not None
    tiles, lexicon = game_setup(context, tile_set_name, lexicon)
    start = ev.GameStarted(
        players=tuple(players), ruleset=rules, tile_set=tiles, lexicon=lexicon
    )
    aggregate = GameAggregate(context=context)
    state = rules_apply(None, start, version=1)
    if racks:
        draws: list[ev.TilesDrawn] = [
            # Racks as printed on the tiles (Spanish [CH]) become the set's tiles.
            ev.TilesDrawn(player=index, tiles=_as_tiles(tiles, rack.upper()))
            for index, rack in enumerate(racks)
            if rack
        ]
    else:
        draws = refill_events(state, _rng(aggregate, 1))
    return append(
        game_stream(game_id or uuid.uuid4()),
        [NewEvent(start, context), *draws],
        expected_version=0,
        recorded_by=user,
    )


def _game_context(
    context: Mapping[str, Any] | None, user: Any, visibility: ev.Visibility
) -> dict[str, Any]:
    """A new game's context, its recorder as owner; a tournament's game only by
    one of its directors (and readable as its tournament is), a casual game
    readable as `visibility` says."""
    context = dict(context or {})
    if context.get("tournament_id"):
        context["tournament_id"] = str(context["tournament_id"])
        _require(
            tournament_link().directs(context["tournament_id"], user),
            "Only the tournament's directors may record its games.",
        )
    else:
        context["visibility"] = ev.Visibility(visibility).value
    context["owner_id"] = user.pk
    return context


def _game_rules(
    context: Mapping[str, Any],
    requested: str | Ruleset | None,
    overrides: Mapping[str, Any] | None,
    *,
    field: str,
    default: str | None,
) -> Ruleset | None:
    """The rules a new game plays under: its tournament's (asked of the registered
    tournament link, which checks the pairing), else the requested preset (or
    `default`) with its overrides; None leaves a GCG record's own, read from it.

    A tournament's game may name its rules only as the tournament's: another preset
    or an override is refused, naming `field`.
    """
    if not context.get("tournament_id"):
        chosen = requested or default
        if chosen is None or isinstance(chosen, Ruleset):
            return chosen
        return make_ruleset(chosen, **dict(overrides or {}))
    rules = tournament_link().game_ruleset(context)
    if overrides or requested not in (None, rules, rules.name):
        raise TournamentError(
            "tournament_rules",
            f"A game of this tournament plays under its rules ({rules.name}, "
            f"{rules.challenge.value} challenges): leave the {field} out.",
            field,
        )
    return rules


def game_setup(
    context: Mapping[str, Any], tile_set_name: str | None, lexicon: str | None
) -> tuple[TileSet, str | None]:
    """The tile set and lexicon a new game is played with: for a tournament's
    game, its division's (asked of the tournament link); otherwise those asked
    for (English and no lexicon by default).

    A tournament's game may name them only as its division's: another tile set
    is refused naming ``tile_set``, another lexicon (where the division names
    one) naming ``lexicon``. Raises UnknownTileSetError for an unknown set.
    """
    if not context.get("tournament_id"):
        return tile_set(tile_set_name or "english"), lexicon
    setup = tournament_link().game_setup(context)
    assert setup.tile_set is not None  # the link resolves both
    where = f"division {context['division']}" if context.get("division") else ""
    where = f"A game of {where or 'this tournament'}"
    if tile_set_name not in (None, setup.tile_set):
        raise TournamentError(
            "tournament_tile_set",
            f"{where} is played with the {setup.tile_set} tile set: leave the"
            " tile_set out.",
            "tile_set",
        )
    if lexicon and setup.lexicon and lexicon != setup.lexicon:
        raise TournamentError(
            "tournament_lexicon",
            f"{where} is played with the lexicon {setup.lexicon}: leave the lexicon"
            " out.",
            "lexicon",
        )
    return tile_set(setup.tile_set), lexicon or setup.lexicon or None


def game_place(
    *,
    game_id: uuid.UUID,
    position: str,
    word: str,
    score: int | None = None,
    rack: str | None = None,
    draws: Mapping[int, str] | None = None,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Record a placement by the player to move (racks refilled first)."""
    return _turn_append(
        game_id,
        lambda state: ev.TilesPlaced(
            player=state.turn,
            position=position,
            word=_as_tiles(state.tile_set, word),
            score=score,
            rack=None if rack is None else _as_tiles(state.tile_set, rack),
        ),
        user=user,
        expected_version=expected_version,
        draws=draws,
    )


def game_exchange(
    *,
    game_id: uuid.UUID,
    tiles: str = "",
    count: int = 0,
    draws: Mapping[int, str] | None = None,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Record an exchange (tiles, or only how many) and the replacement draw."""
    return _turn_append(
        game_id,
        lambda state: ev.TilesExchanged(
            player=state.turn,
            tiles=_as_tiles(state.tile_set, tiles.upper()),
            unknown=count,
        ),
        user=user,
        expected_version=expected_version,
        draws=draws,
        after="refill",
    )


def game_pass(
    *,
    game_id: uuid.UUID,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    return _turn_append(
        game_id,
        lambda state: ev.TurnPassed(player=state.turn),
        user=user,
        expected_version=expected_version,
    )


def configured_lexicon(name: str | None) -> Lexicon | None:
    """The word list configured for `name` (settings.LEXICONS: name -> a path, or
    ``english-words:LIST`` for a list the english-words package ships)."""
    paths: Mapping[str, str] = getattr(settings, "LEXICONS", {})
    if not name or name not in paths:
        return None
    return _lexicon_cache(paths[name], name)


_LEXICONS: dict[str, Lexicon] = {}
PACKAGED = "english-words:"


def _lexicon_cache(path: str, name: str) -> Lexicon:
    if path not in _LEXICONS:
        if path.startswith(PACKAGED):
            # Public-domain lists (web2: Webster's Second) that the demo is played
            # with, shipped by a dependency: nothing to download.
            from english_words import get_english_words_set

            words = get_english_words_set([path[len(PACKAGED) :]], alpha=True)
            _LEXICONS[path] = Lexicon.from_lines(sorted(words), name=name)
        else:
            _LEXICONS[path] = load_lexicon(path, name=name)
    return _LEXICONS[path]


def game_challenge(
    *,
    game_id: uuid.UUID,
    outcome: str | None = None,
    words: Sequence[str] = (),
    challenger: int | None = None,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Record a challenge of the last play: the ruling given, or the lexicon's."""
    version, aggregate = game_load(game_id)
    _require(can_record(aggregate, user), "Only the game's directors may record it.")
    state = aggregate.state
    assert state is not None
    last = state.last_play
    if challenger is None:
        # Tournament games have two players: the challenger is the other one.
        challenger = (last.player + 1) % len(state.players) if last else state.turn
    lexicon = configured_lexicon(state.lexicon)
    if outcome is None and lexicon is not None:
        event = adjudicate(state, lexicon, challenger, words)
    else:
        if outcome is None:
            raise InvalidEventError(
                "No word list is configured for this game: give the ruling "
                "(phony or valid)"
            )
        event = ev.PlayChallenged(
            challenger=challenger,
            outcome=ev.ChallengeOutcome(outcome),
            words=tuple(w.upper() for w in words),
        )
    return append(
        game_stream(game_id),
        [event],
        expected_version=version if expected_version is None else expected_version,
        recorded_by=user,
    )


def game_time_penalty(
    *,
    game_id: uuid.UUID,
    player: int,
    minutes: int,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    return _simple(
        game_id,
        ev.TimePenalty(player=player, minutes=minutes),
        user=user,
        expected_version=expected_version,
    )


def game_end(
    *,
    game_id: uuid.UUID,
    reason: str,
    player: int | None = None,
    final_scores: Sequence[int] = (),
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Record the end: went out / scoreless turns (rules count the racks), or a
    director's ending (resigned, forfeit, timed out, adjudicated, decision)."""
    return _simple(
        game_id,
        ev.GameEnded(
            reason=ev.EndReason(reason), player=player, final_scores=tuple(final_scores)
        ),
        user=user,
        expected_version=expected_version,
    )


def game_score_correct(
    *,
    game_id: uuid.UUID,
    player: int,
    amount: int,
    reason: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    return _simple(
        game_id,
        ev.ScoreCorrected(player=player, amount=amount, reason=reason),
        user=user,
        expected_version=expected_version,
    )


def game_supersede(
    *,
    game_id: uuid.UUID,
    from_version: int,
    reason: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """A correction: void every event from `from_version` on (they stay in the log)."""
    return _simple(
        game_id,
        ev.EventsSuperseded(from_version=from_version, reason=reason),
        user=user,
        expected_version=expected_version,
    )


def game_note(
    *,
    game_id: uuid.UUID,
    target_version: int,
    text: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Annotate a turn; the game's directors and its own players may, up to
    NOTES_PER_MINUTE note writes a minute each (QuotaExceededError: a 429)."""
    return _note_write(
        game_id,
        ev.NoteAdded(target_version=target_version, text=text),
        lambda aggregate: can_annotate(aggregate, user),
        "Only the game's players and directors may annotate it.",
        user=user,
        expected_version=expected_version,
    )


def game_note_edit(
    *,
    game_id: uuid.UUID,
    note_version: int,
    text: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Change the text of a note (its author only): a new event supersedes it."""
    return _note_change(
        game_id,
        note_version,
        ev.NoteEdited(note_version=note_version, text=text),
        user=user,
        expected_version=expected_version,
    )


def game_note_delete(
    *,
    game_id: uuid.UUID,
    note_version: int,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Withdraw a note (its author only); it stays in the log."""
    return _note_change(
        game_id,
        note_version,
        ev.NoteDeleted(note_version=note_version),
        user=user,
        expected_version=expected_version,
    )


def note_author_id(aggregate: GameAggregate, game_id: uuid.UUID, version: int) -> Any:
    """The user who wrote the note added at `version`, None for a note imported
    without one; NoteTargetError (400) when no note on the sheet has that id."""
    state = aggregate.state
    notes = (note for turn in (state.turns if state else ()) for note in turn.notes)
    if not any(note.version == version for note in notes):
        raise NoteTargetError(
            f"There is no note {version} on this game's score sheet", version=version
        )
    stamp = note_stamps(game_id, [version]).get(version)
    return stamp.author_id if stamp else None


def _note_change(
    game_id: uuid.UUID,
    note_version: int,
    event: ev.Event,
    *,
    user: Any,
    expected_version: int | None,
) -> AppendResult:
    def is_author(aggregate: GameAggregate) -> bool:
        author = note_author_id(aggregate, game_id, note_version)
        return bool(getattr(user, "is_authenticated", False) and author == user.pk)

    return _note_write(
        game_id,
        event,
        is_author,
        "Only the note's author may change it.",
        user=user,
        expected_version=expected_version,
    )


def _note_write(
    game_id: uuid.UUID,
    event: ev.Event,
    allowed: Callable[[GameAggregate], bool],
    refusal: str,
    *,
    user: Any,
    expected_version: int | None,
) -> AppendResult:
    """A note added, edited or deleted, within the writer's quota (checked in the
    append's transaction, so two notes sent at once count one after the other)."""
    with transaction.atomic():
        if getattr(user, "is_authenticated", False):
            check_note_quota(user)
        return _checked_append(
            game_id,
            event,
            allowed,
            refusal,
            user=user,
            expected_version=expected_version,
        )


def game_set_visibility(
    *,
    game_id: uuid.UUID,
    visibility: ev.Visibility | str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Publish a casual game, share it by a secret link, or make it private again
    (its owner only). A tournament's games are readable as the tournament is:
    refused with a TournamentError naming the field."""

    def is_owner(aggregate: GameAggregate) -> bool:
        if aggregate.context.get("tournament_id"):
            raise TournamentError(
                "tournament_game",
                "A tournament's games are readable as the tournament is: its "
                "directors publish it.",
                "visibility",
            )
        return bool(
            getattr(user, "is_authenticated", False)
            and aggregate.context.get("owner_id") == user.pk
        )

    return _checked_append(
        game_id,
        ev.VisibilityChanged(visibility=ev.Visibility(visibility)),
        is_owner,
        "Only the game's owner may publish or share it.",
        user=user,
        expected_version=expected_version,
    )


def _simple(
    game_id: uuid.UUID, event: object, *, user: Any, expected_version: int | None
) -> AppendResult:
    return _checked_append(
        game_id,
        event,
        lambda aggregate: can_record(aggregate, user),
        "Only the game's directors may record it.",
        user=user,
        expected_version=expected_version,
    )


def _checked_append(
    game_id: uuid.UUID,
    event: object,
    allowed: Callable[[GameAggregate], bool],
    refusal: str,
    *,
    user: Any,
    expected_version: int | None,
) -> AppendResult:
    """Append one event if `allowed` says the user may (else GamePermissionError
    with `refusal`), at the version read unless the caller expects one."""
    version, aggregate = game_load(game_id)
    _require(allowed(aggregate), refusal)
    return append(
        game_stream(game_id),
        [event],
        expected_version=version if expected_version is None else expected_version,
        recorded_by=user,
    )


# --- GCG -------------------------------------------------------------------------


def game_import_gcg(
    *,
    text: str | bytes,
    user: Any,
    rules_name: str | Ruleset | None = None,
    context: Mapping[str, Any] | None = None,
    game_id: uuid.UUID | None = None,
    visibility: ev.Visibility = ev.Visibility.PRIVATE,
    counted: bool = True,
) -> tuple[AppendResult, gcg.GcgRecord]:
    """Store a GCG record as a game stream: every event, every discrepancy kept.

    The record plays under `rules_name` (by default the rules its file implies), or
    for a tournament's game under the tournament's (see game_start); a casual
    game is its owner's only unless `visibility` says otherwise. Raises GcgError
    (with every problem and its line) when the file cannot be right, and
    QuotaExceededError when the user's day of uploads is spent (not `counted`: the
    operator's ``import_gcg``, as its bulk path, counts against no one's day).
    """
    plan = gcg_import_plan(
        user=user, rules_name=rules_name, context=context, visibility=visibility
    )
    record, wrapped = gcg_new_events(text, plan)
    with transaction.atomic():
        # Counted in the append's transaction: a refused file counts nothing.
        if counted:
            charge_upload(
                user,
                events=len(wrapped),
                notes=sum(isinstance(new.event, ev.NoteAdded) for new in wrapped),
                raised=user.is_staff or bool(plan.context.get("tournament_id")),
            )
        result = append(
            game_stream(game_id or uuid.uuid4()),
            wrapped,
            expected_version=0,
            recorded_by=user,
            applied=gcg_applied_state(record, wrapped),
        )
    return result, record


@dataclass(frozen=True, slots=True)
class GcgImportPlan:
    """What every file of an import shares: the games' context and rules (decided
    once, with the database; reading the files needs none, so a bulk import reads
    them in worker processes)."""

    context: Mapping[str, Any]
    rules: Ruleset | None
    # A tournament game's tile set and lexicon (its division's), else None.
    tiles: TileSet | None = None
    lexicon: str | None = None


def gcg_import_plan(
    *,
    user: Any,
    rules_name: str | Ruleset | None = None,
    context: Mapping[str, Any] | None = None,
    visibility: ev.Visibility = ev.Visibility.PRIVATE,
) -> GcgImportPlan:
    """Who may import, and under which context and rules (see game_import_gcg)."""
    _require(
        user is not None and getattr(user, "is_authenticated", False),
        "Sign in to upload a game.",
    )
    game_context = _game_context(context, user, visibility)
    rules = _game_rules(game_context, rules_name, None, field="rules", default=None)
    tiles: TileSet | None = None
    lexicon = None
    if game_context.get("tournament_id"):
        tiles, lexicon = game_setup(game_context, None, None)
    return GcgImportPlan(game_context, rules, tiles, lexicon)


def gcg_digest(text: str | bytes) -> str:
    """The sha256 of a GCG file's bytes: kept with its game's first event."""
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def gcg_new_events(
    text: str | bytes, plan: GcgImportPlan
) -> tuple[gcg.GcgRecord, list[NewEvent]]:
    """A GCG file's record and its events to append, the first carrying the game's
    context and each its line. Raises GcgError when the file cannot be right."""
    record = gcg.read(text, rules=plan.rules, tile_set=plan.tiles)
    events = list(record.events)
    start = events[0]
    if plan.lexicon and isinstance(start, ev.GameStarted) and start.lexicon is None:
        # A record that names no lexicon was played with its division's.
        events[0] = replace(start, lexicon=plan.lexicon)
    meta = record.metadata
    context = dict(plan.context)
    context.update(
        source="gcg",
        # Which file this was, so a re-run of import_gcg recognises it.
        gcg_sha256=gcg_digest(text),
        player_names=[player.name or player.nick for player in meta.players],
        title=meta.title or "",
        gcg={
            "players": [[p.nick, p.name] for p in meta.players],
            "title": meta.title,
            "description": meta.description,
            "id": meta.id,
            "lexicon": meta.lexicon,
            "pragmas": [list(pair) for pair in meta.pragmas],
        },
    )
    wrapped = [
        NewEvent(event, {**context, "line": line} if index == 0 else {"line": line})
        for index, (event, line) in enumerate(
            zip(events, record.event_lines, strict=True)
        )
    ]
    return record, wrapped


def gcg_applied_state(record: gcg.GcgRecord, wrapped: Sequence[NewEvent]) -> Any:
    """The rules' state the reader reached applying exactly the events to append
    (the store adopts it instead of applying the rules again), or None when an
    event was changed since (a division's lexicon named in the start)."""
    same = len(wrapped) == len(record.events) and all(
        new.event is event for new, event in zip(wrapped, record.events, strict=True)
    )
    return record.state if same else None


def gcg_metadata(context: Mapping[str, Any]) -> gcg.GcgMetadata | None:
    """The GCG metadata kept from an import (or None for a recorded game)."""
    kept = context.get("gcg")
    if not kept:
        names = context.get("player_names")
        if not names:
            return None
        return gcg.GcgMetadata(
            players=tuple(gcg.GcgPlayer(gcg.nick(name), name) for name in names),
            title=context.get("title") or None,
        )
    return gcg.GcgMetadata(
        players=tuple(gcg.GcgPlayer(nick, name) for nick, name in kept["players"]),
        title=kept.get("title"),
        description=kept.get("description"),
        id=kept.get("id"),
        lexicon=kept.get("lexicon"),
        pragmas=tuple(tuple(pair) for pair in kept.get("pragmas", ())),
    )


def game_export_gcg(game_id: uuid.UUID, *, racks_through: int | None = None) -> str:
    """The game as GCG text; with `racks_through`, the racks of later versions
    left out (the rack rule: ``selectors.rack_view``)."""
    _, aggregate = game_load(game_id)
    return gcg.write(
        list(aggregate.events),
        gcg_metadata(aggregate.context),
        racks_through=racks_through,
    )
