"""The record as it stood at any moment: ``?at=`` on every tournament read.

``?at=<log position or ISO time>`` asks for a tournament's pages, API answers and
files as they were at that point of its log. Everything about it is decided here,
once:

- **What "log position" means**: the tournament stream's version, the event number
  the audit log shows beside each event ("event 312"): the number a director can
  see. ``at=312`` is the record after event 312 of this tournament's stream.
- **How a time maps**: ``at=2026-11-27T14:05`` (ISO 8601) is the record after the
  last event recorded at or before that instant. A time without a zone is read in
  the site's zone (``settings.TIME_ZONE``; tournaments keep no zone of their own).
- **Bounds**: a position past the end, or a time after the last event, is the
  present (no banner); a position below 1 or a time before the tournament's first
  event is the tournament as first recorded (its creation: no players yet, no
  results), so "a time before the event shows no results".
- **Bad values** (not a whole number nor an ISO time): the API answers 400 with the
  one error shape naming ``at``; a page shows the present with the message.

One parser (``parse_at``), one resolver (``resolve_at``), one fold
(``fold_tournament_log``: the aggregate replayed through ``rules/`` over the
events up to a version, from a kept state when one lies before it), and one way
every view reads the past: ``PastMiddleware`` runs the view inside ``viewing``,
which, in a transaction that is always rolled back, writes the projections of the
folded aggregate (``Tournament``, ``Player``, ``PlayerRound``, by the projection's
own code) into session temporary tables of the same names. PostgreSQL looks up
temporary tables first, so every selector, page, API and export reads the past
unchanged, and ``tournament_state`` gives the folded aggregate. No view decides
anything about the past itself.

Access stays the present's: the shadow ``Tournament`` row keeps today's
``published`` and rack delay, the team (``Director``) is not shadowed, and the
team's right is checked on the present aggregate (``present_state``). Writes
never take ``at`` (400). Read caches key on the version shown
(``games.readcache`` adds ``past_key()``): the past never changes, so it caches.
"""

from __future__ import annotations

import contextvars
import datetime
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.response import SimpleTemplateResponse
from django.utils import timezone

from games.eventstore.models import StoredEvent
from games.eventstore.store import load_state
from games.readcache import reading_point
from rules.numbers import NumberError, whole_number
from tournaments.core.aggregate import (
    STREAM_TYPE,
    TournamentAggregate,
    present_state,
    showing_past,
    tournament_stream,
)
from tournaments.core.projection import project_past
from tournaments.models import Tournament

PARAMETER = "at"
# Longer than any ISO 8601 time with microseconds and a zone: nothing longer is read.
_MAX_LENGTH = 40
# A stream version is a PositiveIntegerField.
_MAX_DIGITS = 10

AT_HELP = (
    "The record as it stood at that point: a log position (the tournament's event"
    " number, as the audit log shows it) or an ISO 8601 time (the last event"
    " recorded at or before it; a time without a zone is read in the site's zone,"
    " {zone}). Past the end: the present. Before the first event: the"
    " tournament as created, with no results."
)


class AtError(ValueError):
    """An ``at`` that is neither a log position nor an ISO time."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def at_help() -> str:
    return AT_HELP.format(zone=timezone.get_default_timezone_name())


def parse_at(text: str) -> int | datetime.datetime:
    """The log position (a whole number) or the aware time `text` writes; raise
    AtError. A time without a zone is in the site's zone."""
    value = text.strip()
    if not value or len(value) > _MAX_LENGTH:
        raise AtError(_EXPECTED)
    if value.isdigit():
        try:
            return whole_number(value, low=0, max_digits=_MAX_DIGITS)
        except NumberError as error:
            raise AtError(
                f"at as a log position is an event number of at most {_MAX_DIGITS}"
                " digits."
            ) from error
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError as error:
        raise AtError(_EXPECTED) from error
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, timezone.get_default_timezone())
    return moment


_EXPECTED = (
    "at is a log position (an event number, as the audit log shows it) or an ISO"
    " 8601 time such as 2026-11-27T14:05."
)


@dataclass(frozen=True, slots=True)
class At:
    """A past point of a tournament's record: shown as "after event `version` of
    `latest`, recorded at `recorded_at`"."""

    tournament_id: uuid.UUID
    version: int
    latest: int
    recorded_at: datetime.datetime
    asked: str


def resolve_at(tournament_id: uuid.UUID, asked: int | datetime.datetime) -> At | None:
    """The past point `asked` names in the tournament's log, or None for the
    present (past the end, or a tournament with no events)."""
    events = StoredEvent.objects.filter(
        stream_type=STREAM_TYPE, stream_id=tournament_id
    )
    latest = events.order_by("-version").values_list("version", flat=True).first()
    if latest is None:
        return None
    if isinstance(asked, int):
        found = (
            events.filter(version__lte=max(asked, 1))
            .order_by("-version")
            .values_list("version", "recorded_at")
            .first()
        )
    else:
        found = (
            events.filter(recorded_at__lte=asked)
            .order_by("-version")
            .values_list("version", "recorded_at")
            .first()
        )
        if found is None:  # before the first event: the tournament as created
            found = events.filter(version=1).values_list("version", "recorded_at")[0]
    assert found is not None
    version, recorded_at = found
    if version >= latest:
        return None
    return At(tournament_id, version, latest, recorded_at, str(asked))


def fold_tournament_log(tournament_id: uuid.UUID, version: int) -> TournamentAggregate:
    """The tournament's aggregate after event `version`: its log up to there
    replayed through the rules (from a kept state at or before it when there is
    one), not kept in the process's cache (a past state is read once)."""
    _, state = load_state(tournament_stream(tournament_id), version=version, keep=False)
    assert isinstance(state, TournamentAggregate)
    return state


# --- reading the past ----------------------------------------------------------------

_viewing: contextvars.ContextVar[tuple[At, TournamentAggregate] | None] = (
    contextvars.ContextVar("tournament_at", default=None)
)


def shown_at() -> At | None:
    """The past point this request shows, or None for the present."""
    found = _viewing.get()
    return None if found is None else found[0]


# What a read of the past does that must outlive it (after_the_past).
_after: contextvars.ContextVar[list[Callable[[], None]] | None] = (
    contextvars.ContextVar("tournament_after_the_past", default=None)
)


def after_the_past(action: Callable[[], None]) -> None:
    """Run `action` (a write: the record of a file issued at a past position) once
    the past's transaction is rolled back, or now when no past is shown. Anything
    written while the past is shown is undone with its temporary tables."""
    pending = _after.get()
    if pending is None:
        action()
    else:
        pending.append(action)


# The read models a tournament's pages read: shadowed by temporary tables of the
# same names. The team (Director) is not: access is the present's.
_SHADOWED = ("tournaments_tournament", "tournaments_player", "tournaments_player_round")


@contextmanager
def viewing(at: At) -> Iterator[None]:
    """Run the body with the tournament's read models and aggregate as they were
    at `at`; nothing of it outlives the body (the transaction is rolled back)."""
    aggregate = fold_tournament_log(at.tournament_id, at.version)
    present = Tournament.objects.filter(tournament_id=at.tournament_id).first()
    pending: list[Callable[[], None]] = []
    after = _after.set(pending)
    try:
        with _shadowed(at, aggregate, present):
            yield
    finally:
        _after.reset(after)
    for action in pending:  # the body ended well: now, in the present
        action()


@contextmanager
def _shadowed(
    at: At, aggregate: TournamentAggregate, present: Tournament | None
) -> Iterator[None]:
    with (
        transaction.atomic(),
        reading_point(PARAMETER, f"{at.tournament_id}.{at.version}"),
    ):
        try:
            with connection.cursor() as cursor:
                for table in _SHADOWED:
                    cursor.execute(
                        f'CREATE TEMPORARY TABLE "{table}" (LIKE "{table}"'
                        " INCLUDING DEFAULTS INCLUDING IDENTITY)"
                        " ON COMMIT DROP"
                    )
            project_past(
                at.tournament_id,
                aggregate,
                version=at.version,
                recorded_at=at.recorded_at,
                present=present,
            )
            token = _viewing.set((at, aggregate))
            try:
                with showing_past(at.tournament_id, at.version, aggregate):
                    yield
            finally:
                _viewing.reset(token)
        finally:
            transaction.set_rollback(True)


# --- the one way a request reads the past --------------------------------------------

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Said on a page for a bad value: one message, so the page showing it caches once.
_REFUSED = "refused"


class PastMiddleware:
    """Serve a tournament's page, API answer or file with ``?at=`` as the record
    stood then (``viewing``): every view whose URL names a ``tournament_id``.

    Last in ``MIDDLEWARE``: it runs the view itself inside ``viewing`` (after
    every other middleware's ``process_view``, CSRF's included), and renders the
    response there, since the past's tables live only for that transaction.
    """

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Any,
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        text = request.GET.get(PARAMETER)
        tournament_id = view_kwargs.get("tournament_id")
        if text is None or not isinstance(tournament_id, uuid.UUID):
            return None
        api = request.path.startswith("/api/")
        if request.method not in _SAFE_METHODS:
            return _refusal(
                api, "at is for reading: a change is always made to the present."
            )
        try:
            asked = parse_at(text)
        except AtError as error:
            if api:
                return _refusal(api, error.message)
            # A page: the present, saying why (base.html shows it).
            request.at_error = error.message  # type: ignore[attr-defined]
            with reading_point(PARAMETER, _REFUSED):
                return _rendered(view_func(request, *view_args, **view_kwargs))
        at = resolve_at(tournament_id, asked)
        if at is None:
            return None  # past the end: the present
        request.shown_at = at  # type: ignore[attr-defined]
        with viewing(at):
            return _rendered(view_func(request, *view_args, **view_kwargs))


def _refusal(api: bool, message: str) -> HttpResponse:
    if api:
        # The API's one error shape (games.api_errors), naming the parameter.
        return JsonResponse(
            {
                "code": "invalid",
                "message": message,
                "field": PARAMETER,
                "errors": {PARAMETER: [message]},
            },
            status=400,
        )
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


def _rendered(response: HttpResponse) -> HttpResponse:
    """The response with its body made now (a template's, a DRF answer's, a
    streamed file's), while the past's tables still exist."""
    if isinstance(response, SimpleTemplateResponse) and not response.is_rendered:
        response.render()
    if response.streaming:
        streamed = response
        if streamed.get("Content-Type", "").startswith("text/event-stream"):
            streamed.close()
            return _refusal(True, "A live feed is the present: it takes no at.")
        body = b"".join(streamed.streaming_content)  # type: ignore[attr-defined]
        made = HttpResponse(body, status=streamed.status_code)
        for header, value in streamed.items():
            made[header] = value
        streamed.close()
        return made
    return response


def context(request: HttpRequest) -> dict[str, Any]:
    """What base.html shows of the point a tournament page reads: the past's
    banner, a refused ``at``'s message, and the control to choose a point."""
    match = getattr(request, "resolver_match", None)
    tournament_id = None if match is None else match.kwargs.get("tournament_id")
    if not isinstance(tournament_id, uuid.UUID) or request.path.startswith("/api/"):
        return {}
    return {
        "past": getattr(request, "shown_at", None),
        "past_error": getattr(request, "at_error", None),
        "past_present_url": _without_at(request),
        "past_pairings": _LazyPairings(tournament_id, request),
    }


def _without_at(request: HttpRequest) -> str:
    query = request.GET.copy()
    query.pop(PARAMETER, None)
    encoded = query.urlencode()
    return request.path + (f"?{encoded}" if encoded else "")


class _LazyPairings:
    """The moments each round was paired (the pairing in force), as choices: read
    only on a past page (a present page's control takes a time or an event
    number, and so costs no query)."""

    def __init__(self, tournament_id: uuid.UUID, request: HttpRequest) -> None:
        self.tournament_id = tournament_id
        self.request = request

    def __iter__(self) -> Iterator[tuple[int, str]]:
        if getattr(self.request, "shown_at", None) is None:
            return iter(())
        _, aggregate = present_state(self.tournament_id)
        moments = sorted(
            (version, division, round_)
            for (division, round_), version in aggregate.paired_versions.items()
        )
        several = len({division for _, division, _ in moments}) > 1
        return iter(
            (
                version,
                f"when round {round_}"
                + (f" of division {division}" if several else "")
                + " was paired",
            )
            for version, division, round_ in moments
        )
