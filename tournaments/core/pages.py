"""What every tournament page shares: access, paging, and showing a refusal.

``readable``/``directed``/``team_member`` give the tournament or answer 404/403,
as ``core.access`` decides (``team_aggregate`` the same with the aggregate, loaded
once for a request that writes from it); ``submit`` runs a form's command and
shows the rules' refusal next to the field it names
(``games.refusals.show_refusal``), a stale version as "reload" — the one way a page
shows a refusal.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, NamedTuple

from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.crypto import salted_hmac

from games.eventstore.errors import ConcurrencyError, EventRejectedError
from games.models import GameProjection
from games.refusals import show_refusal
from rules import tournament as rt
from rules.errors import RulesError
from rules.numbers import NumberError, whole_number
from tournaments.core import access
from tournaments.core import aggregate as core_aggregate
from tournaments.models import Tournament

STALE = "Someone else changed this tournament since you loaded the page: reload."


# --- access ------------------------------------------------------------------------


def readable(request: HttpRequest, tournament_id: uuid.UUID) -> Tournament:
    """The tournament if the user may read it; 404 otherwise (no existence leak)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not access.tournament_can_read(tournament, request.user):
        raise Http404("No such tournament.")
    return tournament


def directed(request: HttpRequest, tournament_id: uuid.UUID) -> Tournament:
    tournament = readable(request, tournament_id)
    if not access.tournament_is_director(tournament, request.user):
        raise PermissionDenied("Only this tournament's directors may do that.")
    return tournament


def team_member(request: HttpRequest, tournament_id: uuid.UUID) -> Tournament:
    """The tournament if the user is of its team: a director or a scorekeeper (who
    may enter and amend results)."""
    tournament = readable(request, tournament_id)
    if access.tournament_role(tournament, request.user) is None:
        raise PermissionDenied("Only this tournament's team may do that.")
    return tournament


class TeamRequest(NamedTuple):
    """What a team's request works from: the tournament's row (its name and
    settings for the page) and its aggregate with the version it was loaded at."""

    tournament: Tournament
    version: int
    aggregate: core_aggregate.TournamentAggregate

    @property
    def rules(self) -> rt.TournamentState:
        assert self.aggregate.rules is not None
        return self.aggregate.rules

    @property
    def loaded(self) -> tuple[int, core_aggregate.TournamentAggregate]:
        """(version, aggregate), as the services take it."""
        return self.version, self.aggregate


def team_aggregate(request: HttpRequest, tournament_id: uuid.UUID) -> TeamRequest:
    """The tournament and its aggregate, loaded once for the request, if the user
    is of its team (``access.require_team``: 404 or 403 otherwise). The right is
    decided on the aggregate the request then writes from, as the write path
    decides it."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    version, aggregate = core_aggregate.tournament_state(tournament_id)
    access.require_team(
        core_aggregate.rights_state(tournament_id, (version, aggregate)), request.user
    )
    return TeamRequest(tournament, version, aggregate)


# The header naming whose console page a response is: the service worker keeps the
# console's offline copy per user under it (games/static/scrabble/console-sw.js).
CONSOLE_USER_HEADER = "X-Console-User"


def console_user_key(request: HttpRequest) -> str:
    """An opaque, stable key of the signed-in user for the browser's offline copy
    of the console and its queue of slips: a page kept for one user is never shown
    to another, and a slip is sent only under the session of whoever typed it. A
    keyed digest, not the id: it says nothing to whoever reads the browser's
    storage."""
    return salted_hmac(
        "tournaments.console-user", str(request.user.pk), algorithm="sha256"
    ).hexdigest()[:24]


def division_or_404(tournament: Tournament, division: str) -> str:
    if division not in tournament.divisions:
        raise Http404(f"No division {division!r}.")
    return division


def tournament_rules(tournament: Tournament) -> rt.TournamentState:
    _, aggregate = core_aggregate.tournament_state(tournament.tournament_id)
    assert aggregate.rules is not None
    return aggregate.rules


def board_games(
    tournament: Tournament, division: str, round_: int | None = None
) -> dict[tuple[int | None, int | None], GameProjection]:
    """Recorded games of a division by (round, board): the latest of each."""
    games = GameProjection.objects.filter(
        tournament_id=tournament.tournament_id, division=division
    )
    if round_ is not None:
        games = games.filter(round=round_)
    found: dict[tuple[int | None, int | None], GameProjection] = {}
    for game in games.order_by("started_at"):
        found[(game.round, game.board_number)] = game
    return found


def submit(
    form: Any,
    command: Callable[[], object],
    fields: dict[str, str],
    prefix: Callable[[Any], str] | None = None,
) -> bool:
    """Run a form's command; a refusal goes next to the field it names.

    The one error path of the console: a rule's refusal (nothing stored) is shown
    by the field it names (``prefix`` may say which line of the input it was), a
    stale version asks the director to reload. Returns True when it was stored.
    """
    try:
        command()
    except ConcurrencyError:
        form.add_error(None, STALE)
    except (EventRejectedError, RulesError) as error:
        show_refusal(form, error, fields, prefix(error) if prefix else "")
    else:
        return True
    return False


# A division's lists, a page at a time: bounded whatever an old log holds.
PLAYERS_PER_PAGE = 250


GAMES_PER_PAGE = 200


def page_number(request: HttpRequest) -> int:
    """The ?page= asked for; 1 when absent or not a page number."""
    try:
        return whole_number(request.GET.get("page", ""), low=1, max_digits=6)
    except NumberError:
        return 1


def page_of(items: Any, per_page: int, number: int) -> Any:
    """Page `number` of `items`; 404 past the last (never a page kept for it)."""
    pages = Paginator(items, per_page)
    if number > pages.num_pages:
        raise Http404("No such page.")
    return pages.page(number)
