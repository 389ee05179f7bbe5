"""Services: every director action on a tournament, each one validated append.

Each service checks the user's rights against the replayed stream, builds the events
and appends them with the expected version: the rules refuse what is illegal
(nothing is stored), a stale version raises ``ConcurrencyError``. ``expected_version``
may be omitted by callers that re-read just before (the web forms); the rules still
refuse a duplicate result, so two directors entering the same slip cannot both land.

Usage::

    result = tournament_create(user=mara, name="Riverside", start_date=..., ...)
    players_register(tournament_id=tid, division="A", entries=[("Ann", 1500, "")],
                     user=mara)
    round_pair(tournament_id=tid, division="A", round_=1, method="swiss", user=mara)
"""

from __future__ import annotations

import random
import secrets
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.http import Http404

from games import selectors as game_selectors
from games.eventstore.errors import ConcurrencyError
from games.eventstore.store import (
    AppendResult,
    append,
    append_queued,
    load_state,
    lock_stream,
)
from games.eventstore.streams import StreamKey
from rules import pairing as rp
from rules import tournament as rt
from tournaments import events as te
from tournaments.streams import TournamentAggregate

STREAM_TYPE = "tournament"


class PermissionDeniedError(PermissionDenied):
    """Raised when a user may not write to a tournament (HTTP 403)."""


class TournamentNotFoundError(Http404):
    """Raised when no tournament stream has the given id (HTTP 404)."""


def tournament_stream(tournament_id: uuid.UUID) -> StreamKey:
    return StreamKey(STREAM_TYPE, tournament_id)


def tournament_state(tournament_id: uuid.UUID) -> tuple[int, TournamentAggregate]:
    """Return (version, state) of a tournament; raise TournamentNotFoundError."""
    version, state = load_state(tournament_stream(tournament_id))
    if version == 0:
        raise TournamentNotFoundError(f"No tournament {tournament_id}.")
    return version, state


def is_director(state: TournamentAggregate, user: Any) -> bool:
    return bool(
        user is not None
        and getattr(user, "is_authenticated", False)
        and user.pk in state.directors
    )


def may_enter_results(state: TournamentAggregate, user: Any) -> bool:
    """Directors and scorekeepers enter and amend results."""
    return is_director(state, user) or bool(
        user is not None
        and getattr(user, "is_authenticated", False)
        and user.pk in state.scorekeepers
    )


# Attempts for an append that gave no expected version and lost a race (see
# append_as_director). Such appends queue on the stream's lock, so only a writer
# that skips the lock (one sending its expected version) can still win a race
# against them; before the lock, five directors typing slips into one tournament
# collided often (12 of 208 results lost five attempts at national scale).
RETRIES = 25


def append_as_director(
    tournament_id: uuid.UUID,
    events: Sequence[object],
    *,
    user: Any,
    expected_version: int | None,
    correlation_id: uuid.UUID | None = None,
    retry: bool = False,
    results_only: bool = False,
) -> AppendResult:
    """Append as a director (or, for ``results_only`` events, a scorekeeper).

    With `retry` and no `expected_version`, an append that lost a race to another
    director is validated again on the new state and retried: right for facts that
    do not depend on what the caller saw (a result from a score slip: the rules
    still refuse a duplicate), wrong for anything else. Outside a transaction such
    appends are queued and written together with the others this process's
    threads queued meanwhile (``eventstore.append_queued``). Raises
    PermissionDeniedError (403) for anyone else."""
    queue = retry and expected_version is None
    attempts = RETRIES if queue else 1
    stream = tournament_stream(tournament_id)
    allowed = may_enter_results if results_only else is_director
    for attempt in range(attempts):
        try:
            if queue and not connection.in_atomic_block:
                # Written together with the other directors' results queued in
                # this process meanwhile (one lock, projection and commit).
                return append_queued(
                    stream,
                    events,
                    recorded_by=user,
                    correlation_id=correlation_id,
                    check=lambda version, state: _refuse_unless(
                        allowed, version, state, user, tournament_id
                    ),
                )
            with transaction.atomic():
                if queue:
                    # Wait for the other directors' appends instead of racing them.
                    lock_stream(stream)
                version, state = tournament_state(tournament_id)
                _refuse_unless(allowed, version, state, user, tournament_id)
                return append(
                    stream,
                    events,
                    expected_version=(
                        version if expected_version is None else expected_version
                    ),
                    recorded_by=user,
                    correlation_id=correlation_id,
                )
        except ConcurrencyError:
            if attempt == attempts - 1:
                raise
            # A little jitter, so that the same appenders do not collide again.
            time.sleep(random.uniform(0, 0.01 * (attempt + 1)))
    raise AssertionError("unreachable")


def _refuse_unless(
    allowed: Callable[[TournamentAggregate, Any], bool],
    version: int,
    state: TournamentAggregate,
    user: Any,
    tournament_id: uuid.UUID,
) -> None:
    """TournamentNotFoundError (404) or PermissionDeniedError (403) unless `user`
    is `allowed` to write to the tournament."""
    if version == 0:
        raise TournamentNotFoundError(f"No tournament {tournament_id}.")
    if not allowed(state, user):
        raise PermissionDeniedError(
            "Only this tournament's directors may do that"
            + (" (or its scorekeepers)." if allowed is may_enter_results else ".")
        )


def may_create_tournament(user: Any) -> bool:
    """Whether `user` may create a tournament: a staff account, or any signed-in
    user where the site allows it (``settings.TOURNAMENT_CREATORS``)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff) or settings.TOURNAMENT_CREATORS == "users"


def require_may_create_tournament(user: Any) -> None:
    """Raise PermissionDeniedError (403) unless `user` may create a tournament:
    every way of creating one (the form, the API, a tsh event's import) asks."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise PermissionDeniedError("Sign in to create a tournament.")
    if not may_create_tournament(user):
        raise PermissionDeniedError(
            "On this site only staff accounts may create tournaments."
        )


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
        te.DirectorAdded(user_id=user.pk, username=user.get_username()),
    ]
    if published:
        events.append(te.PublicationChanged(published=True))
    return append(
        tournament_stream(tournament_id or uuid.uuid4()),
        events,
        expected_version=0,
        recorded_by=user,
    )


def tournament_append(
    *,
    tournament_id: uuid.UUID,
    events: Sequence[object],
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Append director events as they are (the API's generic path)."""
    return append_as_director(
        tournament_id, events, user=user, expected_version=expected_version
    )


def new_player_id() -> str:
    """A stable internal player id (never a line number)."""
    return f"p{uuid.uuid4().hex[:12]}"


def players_register(
    *,
    tournament_id: uuid.UUID,
    division: str,
    entries: Iterable[tuple[str, int, str] | tuple[str, int, str, int | None]],
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Register players (name, rating, member id[, career games]) in a division,
    in that order."""
    events = [
        rt.PlayerRegistered(
            player_id=new_player_id(),
            division=division,
            name=entry[0],
            rating=entry[1],
            member_id=entry[2],
            career_games=entry[3] if len(entry) > 3 else None,
        )
        for entry in entries
    ]
    if not events:
        raise ValueError("no players to register")
    from tournaments.accounts import link_events  # it builds on these services

    return append_as_director(
        tournament_id,
        [*events, *link_events(events)],
        user=user,
        expected_version=expected_version,
    )


def player_withdraw(
    *,
    tournament_id: uuid.UUID,
    player_id: str,
    from_round: int,
    policy: str = "forfeit",
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    event = rt.PlayerWithdrawn(
        player_id=player_id,
        from_round=from_round,
        policy=rt.WithdrawalPolicy(policy),
    )
    return append_as_director(
        tournament_id, [event], user=user, expected_version=expected_version
    )


def player_reactivate(
    *,
    tournament_id: uuid.UUID,
    player_id: str,
    from_round: int,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    event = rt.PlayerReactivated(player_id=player_id, from_round=from_round)
    return append_as_director(
        tournament_id, [event], user=user, expected_version=expected_version
    )


def _coin_flips(count: int) -> tuple[bool, ...]:
    # The only randomness of pairing: drawn here, recorded in the event (the ones
    # used), so the pairing replays identically from the log.
    bits = secrets.randbits(count)
    return tuple(bool(bits >> i & 1) for i in range(count))


def round_pair(
    *,
    tournament_id: uuid.UUID,
    division: str,
    round_: int,
    method: str,
    user: Any,
    games: Sequence[tuple[int, str, str]] | None = None,
    byes: Sequence[str] = (),
    based_on_round: int | None = None,
    allow_repeats: bool = True,
    expected_version: int | None = None,
) -> AppendResult:
    """Pair a round by system (under the division's pairing rules) or by hand.

    A manual pairing gives `games` as (board, first, second) and `byes`. Without
    `allow_repeats`, one that pairs players who met before is refused
    (``repeat_pairing``, naming them and the rounds): the API and the console pass
    False until the director confirms, so the repeats are shown before the
    pairing is stored; code that stores a known pairing (the demo, imports) keeps
    the default.
    """
    pairing_method = rt.PairingMethod(method)
    _, state = tournament_state(tournament_id)
    assert state.rules is not None
    if not is_director(state, user):
        # Before the pairing is worked out: a refusal of the rights, not of the
        # round, is the answer for someone who may not pair.
        raise PermissionDeniedError("Only this tournament's directors may pair.")
    if pairing_method is rt.PairingMethod.MANUAL:
        event = rt.RoundPaired(
            division=division,
            round=round_,
            games=tuple(
                rt.Board(board=board, first=first, second=second)
                for board, first, second in games or ()
            ),
            byes=tuple(byes),
            method=pairing_method,
        )
        if not allow_repeats:
            _refuse_repeats(state.rules, event)
    else:
        event = rp.pair_next_round(
            state.rules,
            division,
            round_,
            pairing_method,
            _coin_flips(rp.coin_flips_needed(state.rules, division)),
            based_on_round=based_on_round,
            options=state.rules.options_of(division),
        )
    return append_as_director(
        tournament_id, [event], user=user, expected_version=expected_version
    )


def _refuse_repeats(rules: rt.TournamentState, event: rt.RoundPaired) -> None:
    if event.division not in rules.division_players:
        return  # the rules name the unknown division when the event is applied
    repeats = rp.round_repeats(rules, event.division, event.round, event.games)
    if not repeats:
        return

    def name(player_id: str) -> str:
        found = rules.players.get(player_id)
        return found.name if found else player_id

    said = "; ".join(
        f"{name(a)} and {name(b)} (round{'s' if r.times > 1 else ''} "
        f"{', '.join(map(str, r.rounds))})"
        for r in repeats
        for a, b in [r.players]
    )
    count = f"{len(repeats)} game{'s' if len(repeats) > 1 else ''}"
    raise rt.TournamentError(
        "repeat_pairing",
        f"{count} of this pairing repeat{'s' if len(repeats) == 1 else ''} an"
        f" earlier round: {said}. Store it anyway to keep the repeats.",
        "games",
    )


def _linked_game(
    tournament_id: uuid.UUID, event: rt.ResultRecorded | rt.ResultAmended
) -> Any:
    """The event with its scores read from the recorded game it links, if any."""
    if event.game_id is None:
        return event
    try:
        game = game_selectors.recorded_game(uuid.UUID(event.game_id))
    except ValueError:
        game = None
    return rt.result_from_game(event, game, str(tournament_id))


def result_record(
    *,
    tournament_id: uuid.UUID,
    round_: int,
    player_a: str,
    player_b: str,
    score_a: int | None = None,
    score_b: int | None = None,
    pre_adjustment_a: int | None = None,
    pre_adjustment_b: int | None = None,
    game_id: str | None = None,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Record the final scores of a paired game: typed from a slip, or read from
    the recorded game ``game_id`` (scores given too must agree with it).

    Raises TournamentError (a 400 naming the field) when the game is not this
    pairing's finished game or the scores contradict it.
    """
    event = rt.ResultRecorded(
        round=round_,
        player_a=player_a,
        player_b=player_b,
        score_a=score_a,
        score_b=score_b,
        pre_adjustment_a=pre_adjustment_a,
        pre_adjustment_b=pre_adjustment_b,
        game_id=game_id,
    )
    return append_as_director(
        tournament_id,
        [_linked_game(tournament_id, event)],
        user=user,
        expected_version=expected_version,
        retry=True,
        results_only=True,
    )


def result_amend(
    *,
    tournament_id: uuid.UUID,
    round_: int,
    player_a: str,
    player_b: str,
    score_a: int | None = None,
    score_b: int | None = None,
    pre_adjustment_a: int | None = None,
    pre_adjustment_b: int | None = None,
    absentee: str | None = None,
    game_id: str | None = None,
    reason: str = "",
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    """Replace a recorded result as a whole (new scores, or a forfeit by
    `absentee`): what the amendment does not give is not carried over."""
    event = rt.ResultAmended(
        round=round_,
        player_a=player_a,
        player_b=player_b,
        score_a=score_a,
        score_b=score_b,
        pre_adjustment_a=pre_adjustment_a,
        pre_adjustment_b=pre_adjustment_b,
        game_id=game_id,
        absentee=absentee,
        reason=reason,
    )
    return append_as_director(
        tournament_id,
        [_linked_game(tournament_id, event)],
        user=user,
        expected_version=expected_version,
        results_only=True,
    )


def forfeit_record(
    *,
    tournament_id: uuid.UUID,
    round_: int,
    absentee: str,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    event = rt.ForfeitRecorded(round=round_, absentee=absentee)
    return append_as_director(
        tournament_id,
        [event],
        user=user,
        expected_version=expected_version,
        retry=True,
        results_only=True,
    )


def director_add(
    *,
    tournament_id: uuid.UUID,
    new_director: Any,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    event = te.DirectorAdded(
        user_id=new_director.pk, username=new_director.get_username()
    )
    return append_as_director(
        tournament_id, [event], user=user, expected_version=expected_version
    )


def tournament_publish(
    *,
    tournament_id: uuid.UUID,
    published: bool,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    return append_as_director(
        tournament_id,
        [te.PublicationChanged(published=published)],
        user=user,
        expected_version=expected_version,
    )


def player_link_account(
    *,
    tournament_id: uuid.UUID,
    player_id: str,
    account: Any,
    user: Any,
    expected_version: int | None = None,
) -> AppendResult:
    event = te.PlayerAccountLinked(player_id=player_id, user_id=account.pk)
    return append_as_director(
        tournament_id, [event], user=user, expected_version=expected_version
    )
