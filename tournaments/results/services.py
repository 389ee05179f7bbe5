"""Services of results: a slip, an amendment, a forfeit.

Each is one validated append (``core.writes``); the rules decide the result
(``rules.tournament``), the projection stores it (``PlayerRound``). A caller that
has loaded the aggregate for its request passes it as ``loaded`` (version,
aggregate): the right is decided on it, and it is not loaded again.

Usage::

    result_record(tournament_id=tid, round_=3, player_a=ann, player_b=bob,
                  score_a=412, score_b=388, user=mara)
    result_amend(tournament_id=tid, round_=3, player_a=ann, player_b=bob,
                 score_a=402, score_b=388, reason="slip misread", user=mara)
"""

from __future__ import annotations

import uuid
from typing import Any

from games import selectors as game_selectors
from games.eventstore.store import (
    AppendResult,
    NewEvent,
)
from rules import tournament as rt
from tournaments.core.access import may_enter_results, refuse_unless
from tournaments.core.aggregate import TournamentAggregate, tournament_state
from tournaments.core.writes import append_as_director
from tournaments.results.impact import AmendmentPreview, amendment_preview

Loaded = tuple[int, TournamentAggregate]


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
    loaded: Loaded | None = None,
) -> AppendResult:
    """Record the final scores of a paired game: typed from a slip, or read from
    the recorded game ``game_id`` (scores given too must agree with it).

    Raises TournamentError (a 400 naming the field) when the game is not this
    pairing's finished game or the scores contradict it. Without an
    `expected_version` the result goes in at whatever version the tournament has
    by then (a slip's result does not depend on what its director saw; the rules
    still refuse a duplicate).
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
        tournament_id=tournament_id,
        events=[_linked_game(tournament_id, event)],
        user=user,
        expected_version=expected_version,
        loaded=loaded,
        retry=True,
        results_only=True,
    )


def _amendment(
    tournament_id: uuid.UUID,
    *,
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
) -> rt.ResultAmended:
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
    linked: rt.ResultAmended = _linked_game(tournament_id, event)
    return linked


def result_amend_preview(
    *, tournament_id: uuid.UUID, user: Any, **amendment: Any
) -> AmendmentPreview:
    """What the amendment (``result_amend``'s fields) would change, stored
    nowhere: for a user who may amend results (403 for anyone else). Raises
    TournamentError when the rules refuse it."""
    version, state = tournament_state(tournament_id)
    refuse_unless(may_enter_results, version, state, user, tournament_id)
    return amendment_preview(tournament_id, _amendment(tournament_id, **amendment))


def result_amend(
    *,
    tournament_id: uuid.UUID,
    user: Any,
    expected_version: int | None = None,
    **amendment: Any,
) -> AppendResult:
    """Replace a recorded result as a whole (new scores, or a forfeit by
    `absentee`): what the amendment does not give is not carried over.

    What it changes (``impact.amendment_preview``) is worked out on the log at
    `expected_version` (a ConcurrencyError when the log has moved since: the
    preview the director confirmed is no longer what it would do) and kept in
    the event's metadata (``impact``), which the audit shows."""
    event = _amendment(tournament_id, **amendment)
    preview = amendment_preview(tournament_id, event, expected_version)
    return append_as_director(
        tournament_id=tournament_id,
        events=[NewEvent(event, {"impact": preview.document})],
        user=user,
        expected_version=preview.version,
        results_only=True,
    )


def forfeit_record(
    *,
    tournament_id: uuid.UUID,
    round_: int,
    absentee: str,
    user: Any,
    expected_version: int | None = None,
    loaded: Loaded | None = None,
) -> AppendResult:
    event = rt.ForfeitRecorded(round=round_, absentee=absentee)
    return append_as_director(
        tournament_id=tournament_id,
        events=[event],
        user=user,
        expected_version=expected_version,
        loaded=loaded,
        retry=True,
        results_only=True,
    )
