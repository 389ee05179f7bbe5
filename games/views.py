"""Pages of a game: the annotated game viewer, notes, GCG download and upload, and
the director's move-by-move recorder.

Views are thin: they check who may read or write, read through
``games.selectors`` / ``games.services.game_load``, write through the services, and
render what ``games.presenters`` composes of the game (never a rule).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.site_url import public_url
from games import analysis, selectors, services
from games.apis import gcg_file
from games.context import tournament_link
from games.eventstore.errors import ConcurrencyError, EventRejectedError
from games.forms import (
    ChallengeForm,
    EndForm,
    ExchangeForm,
    GcgUploadForm,
    NoteEditForm,
    NoteForm,
    PassForm,
    PlaceForm,
    UndoForm,
    VisibilityForm,
)
from games.presenters import (
    flagged_note,
    player_names,
    recorder_page,
    turn_url,
    viewer_page,
)
from games.quotas import QuotaExceededError
from games.ratelimit import RateLimitedError
from games.readcache import cached_page
from games.refusals import show_gcg_problems, show_refusal
from games.search import GameSearch, of_user
from games.streams import GameAggregate, kept_game
from rules.analysis import AnalysisError
from rules.errors import GcgError, RulesError
from rules.events import Visibility
from rules.numbers import NumberError, whole_number

STALE = "Someone else changed this game since you loaded it: reload and try again."
# The secret links a reader has opened, in their session: {game id: token}.
SHARED = "shared_games"
# A reader's choice to see no result before the last turn (a cookie: signed-out
# readers choose too).
SPOILERS = "spoilers"
HIDE = "hide"

# --- the viewer -------------------------------------------------------------------


def _share_token(request: HttpRequest, game_id: uuid.UUID) -> str | None:
    return request.session.get(SHARED, {}).get(str(game_id))


def _readable_game(request: HttpRequest, game_id: uuid.UUID) -> selectors.GameHeader:
    game = selectors.game_header(game_id)
    if game is None or not selectors.game_readable(
        game, request.user, token=_share_token(request, game_id)
    ):
        raise Http404("No such game.")
    return game


def hides_result(request: HttpRequest) -> bool:
    """Whether the reader asked to see no result before the last turn."""
    return request.COOKIES.get(SPOILERS) == HIDE


def _turn_param(value: str | None) -> int | None:
    """The ?turn= asked for; None (the last turn) when absent or not a turn."""
    try:
        return None if value is None else whole_number(value, low=0)
    except NumberError:
        return None


def _viewer_aggregate(game: selectors.GameHeader, turn: int | None) -> GameAggregate:
    """The game at the header's version: the state the store keeps at that version
    when the page shows the final position, else the replay of its events (an
    earlier turn's board needs them)."""
    # The row's turn count is the score sheet's length at this version: an earlier
    # turn is known without asking the store.
    if turn is None or turn >= game.turn_count:
        snapshot = kept_game(game.game_id, game.version)
        if snapshot is not None:
            state, context = snapshot
            # No events: the final position is the snapshot's own state
            # (selectors.state_after answers it without replaying).
            return GameAggregate(state=state, context=context)
    # Bounded by the header's version: the page shows one consistent version, and
    # the stream's own version need not be asked for. Not kept in the state cache:
    # readers open thousands of games once each (see eventstore.load_state).
    _, aggregate = services.game_load(game.game_id, version=game.version, keep=False)
    return aggregate


def _rack_view(request: HttpRequest, game: selectors.GameHeader) -> selectors.RackView:
    """The racks of `game` the reader may see now (the one rack rule)."""
    return selectors.rack_view(game, request.user, now=timezone.now())


def _viewer_context(
    request: HttpRequest,
    game: selectors.GameHeader,
    turn: int | None,
    racks: selectors.RackView,
) -> dict[str, Any]:
    aggregate = _viewer_aggregate(game, turn)
    page = viewer_page(
        game, aggregate, turn, hide_result=hides_result(request), racks=racks
    )
    context = {
        **page,
        "can_annotate": services.can_annotate(aggregate, request.user),
        "can_record": services.can_record(aggregate, request.user),
        "is_owner": selectors.game_is_owner(game, request.user),
    }
    if context["is_owner"]:
        context["visibility_form"] = VisibilityForm(
            initial={"visibility": game.visibility}
        )
        context["share_url"] = _share_url(request, game)
    return context


def _share_url(request: HttpRequest, game: selectors.GameHeader) -> str | None:
    if game.visibility != Visibility.LINK or game.share_version is None:
        return None
    token = selectors.share_token(game.game_id, game.share_version)
    return public_url(request, reverse("game-shared", args=[game.game_id, token]))


@require_GET
def game_detail(
    request: HttpRequest, game_id: uuid.UUID, turn: int | None = None
) -> HttpResponse:
    """The annotated game log at any turn (``?turn=N`` or ``/turn/N/``)."""
    game = _readable_game(request, game_id)
    if turn is None:
        turn = _turn_param(request.GET.get("turn"))

    racks = _rack_view(request, game)

    def build() -> HttpResponse:
        context = _viewer_context(request, game, turn, racks)
        if context["can_annotate"] and context["index"]:
            context["note_form"] = NoteForm(initial={"turn": context["index"]})
        return render(request, "games/viewer.html", context)

    # Everything the page shows is the game's stream up to this version, at the
    # line shown. A turn past the end shows the last line, and is kept as that
    # line's page: made-up turn numbers add no entries.
    count = game.turn_count
    shown = count if turn is None else min(turn, count)
    past_end = turn is not None and turn > count
    return cached_page(
        request,
        # The racks shown are the rack rule's at this moment (a delay passes).
        [game.game_id, shown, HIDE if hides_result(request) else "", racks.through],
        game.version,
        build,
        page=turn_url(game_id, count) if past_end else request.path,
        reads=("turn",),
        # A tournament's events decide who reads the game and its rack delay.
        streams=[game.game_id, *filter(None, [game.tournament_id])],
        clock=racks.moves_with_clock,
    )


@require_GET
def game_shared(request: HttpRequest, game_id: uuid.UUID, token: str) -> HttpResponse:
    """A game's secret link: whoever opens it may read the game from then on (the
    token is kept in their session, and checked on every page)."""
    game = selectors.game_header(game_id)
    if game is None or not selectors.game_readable(game, request.user, token=token):
        raise Http404("No such game.")
    request.session[SHARED] = {**request.session.get(SHARED, {}), str(game_id): token}
    return redirect("game-detail", game_id=game_id)


@login_required
@require_POST
def game_visibility(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Publish a casual game, share it by a secret link, or keep it private."""
    game = _readable_game(request, game_id)
    form = VisibilityForm(request.POST)
    if not form.is_valid():
        return HttpResponse("Choose private, link or public.", status=400)
    visibility = form.cleaned_data["visibility"]
    try:
        services.game_set_visibility(
            game_id=game_id, visibility=visibility, user=request.user
        )
    except RulesError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, VISIBILITY_SAID[visibility])
    return redirect(turn_url(game_id, game.turn_count) + "#sharing")


VISIBILITY_SAID = {
    Visibility.PRIVATE: "The game is private: only you can read it.",
    Visibility.LINK: "Anyone with the secret link can read the game.",
    Visibility.PUBLIC: "The game is public: anyone can read it.",
}


# Without CSRF protection on purpose: it sets only a display preference in the
# reader's own cookie (another site could at worst hide a result), and its form
# sits on signed-out pages, which carry no token so that the cache shares them.
@csrf_exempt
@require_POST
def spoilers(request: HttpRequest) -> HttpResponse:
    """Hide the result until the last turn, or show it again (the reader's
    choice, kept in a cookie); back to the page it was asked from."""
    back = request.POST.get("next") or reverse("game-list")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("game-list")
    response = redirect(back)
    if request.POST.get(SPOILERS) == HIDE:
        response.set_cookie(
            SPOILERS, HIDE, max_age=365 * 24 * 3600, samesite="Lax", httponly=True
        )
    else:
        response.delete_cookie(SPOILERS, samesite="Lax")
    return response


@require_GET
def game_analysis(request: HttpRequest, game_id: uuid.UUID, turn: int) -> HttpResponse:
    """The best plays of a turn, and where the move made ranks."""
    game = _readable_game(request, game_id)
    context: dict[str, Any] = {"game": game, "turn": turn}
    status = 200
    try:
        analysis.require_rack_shown(game_id, turn, _rack_view(request, game))
        context["result"] = analysis.turn_analysis(game_id, turn, version=game.version)
    except AnalysisError as error:
        context["unavailable"] = error.message
        status = 404 if error.code == "no_turn" else 200
    except analysis.RackHiddenError as error:
        context["unavailable"] = str(error)
        status = 403
    context["turn_url"] = turn_url(game_id, turn)
    return render(request, "games/analysis.html", context, status=status)


@require_POST
def game_note_add(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Add a note to a turn: the game's players (linked accounts) and directors."""
    game = _readable_game(request, game_id)
    if not request.user.is_authenticated:
        index = _turn_param(request.POST.get("turn")) or 0
        return redirect(f"{reverse('login')}?next={turn_url(game_id, index)}")
    _, aggregate = services.game_load(game_id)
    if not services.can_annotate(aggregate, request.user):
        raise PermissionDenied("Only the game's players and directors may annotate it.")
    form = NoteForm(request.POST)
    quota: QuotaExceededError | None = None
    turns = aggregate.state.turns if aggregate.state else ()
    if form.is_valid():
        index = form.cleaned_data["turn"]
        if index > len(turns):
            form.add_error(None, f"This game has {len(turns)} turns, not {index}.")
        else:
            try:
                services.game_note(
                    game_id=game_id,
                    target_version=turns[index - 1].version,
                    text=form.cleaned_data["text"],
                    user=request.user,
                )
            except EventRejectedError as error:
                show_refusal(form, error, {"text": "text"})
            except ConcurrencyError:
                form.add_error(None, STALE)
            except QuotaExceededError as error:
                form.add_error(None, str(error))
                quota = error
            else:
                messages.success(request, f"Your note on turn {index} is saved.")
                return redirect(turn_url(game_id, index) + "#notes")
    turn = _turn_param(request.POST.get("turn"))
    context = _viewer_context(request, game, turn, _rack_view(request, game))
    context["note_form"] = form
    if quota is None:
        return render(request, "games/viewer.html", context, status=400)
    response = render(request, "games/viewer.html", context, status=429)
    response["Retry-After"] = str(quota.retry_after)
    return response


def _note_change(
    request: HttpRequest, game_id: uuid.UUID, note_version: int, change: Any
) -> HttpResponse:
    """Run an edit or a deletion of a note (its author's); back to its turn."""
    _readable_game(request, game_id)
    _, aggregate = services.game_load(game_id)
    index = _note_turn(aggregate, note_version)
    try:
        said = change()
    except (EventRejectedError, RulesError) as error:
        messages.error(request, error.message)
    except ConcurrencyError:
        messages.error(request, STALE)
    else:
        messages.success(request, said)
    return redirect(turn_url(game_id, index or 0) + "#notes")


def _note_turn(aggregate: GameAggregate, note_version: int) -> int | None:
    """The score-sheet line a note is on (None: no such note)."""
    turns = aggregate.state.turns if aggregate.state else ()
    for index, line in enumerate(turns, start=1):
        if any(note.version == note_version for note in line.notes):
            return index
    return None


@login_required
@require_POST
def game_note_edit(
    request: HttpRequest, game_id: uuid.UUID, note_version: int
) -> HttpResponse:
    """Change a note's text (its author only): an event that supersedes it."""
    form = NoteEditForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors.get("text", ["Check the note."])))
        _, aggregate = services.game_load(game_id)
        index = _note_turn(aggregate, note_version) or 0
        return redirect(turn_url(game_id, index) + "#notes")

    def edit() -> str:
        services.game_note_edit(
            game_id=game_id,
            note_version=note_version,
            text=form.cleaned_data["text"],
            user=request.user,
        )
        return "Your note is changed."

    return _note_change(request, game_id, note_version, edit)


@login_required
@require_POST
def game_note_delete(
    request: HttpRequest, game_id: uuid.UUID, note_version: int
) -> HttpResponse:
    """Delete a note (its author only); the log keeps it."""

    def delete() -> str:
        services.game_note_delete(
            game_id=game_id, note_version=note_version, user=request.user
        )
        return "Your note is deleted."

    return _note_change(request, game_id, note_version, delete)


@require_GET
def game_gcg(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The game as a GCG file (what the API's /gcg gives)."""
    game = _readable_game(request, game_id)
    try:
        return gcg_file(request, game)
    except RateLimitedError as error:
        response = HttpResponse(str(error), status=429, content_type="text/plain")
        response["Retry-After"] = str(error.retry_after)
        return response


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    """Games the reader may list, newest first, searched by player, opponent,
    tournament and date."""
    search = GameSearch(
        request.GET,
        queryset=selectors.game_list(request.user).order_by("-started_at"),
        request=request,
    )
    games = search.qs[:100] if search.is_valid() else []
    return render(
        request,
        "games/list.html",
        {
            "games": games,
            "search": search,
            "searched": any(request.GET.get(name) for name in search.form.fields),
            "hide_result": hides_result(request),
        },
        status=200 if search.is_valid() else 400,
    )


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """The signed-in player's tournaments (their linked player records) and
    games."""
    games = of_user(selectors.game_list(request.user), request.user)
    return render(
        request,
        "games/mine.html",
        {
            "records": tournament_link().player_records(request.user),
            "games": games.order_by("-started_at")[:200],
            "hide_result": hides_result(request),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def game_upload(request: HttpRequest) -> HttpResponse:
    """Upload a GCG record: kept as recorded, its score mistakes flagged by line."""
    form = GcgUploadForm()
    status = 200
    quota: QuotaExceededError | None = None
    if request.method == "POST":
        form = GcgUploadForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                result, record = services.game_import_gcg(
                    text=form.cleaned_data["file"].read(),
                    user=request.user,
                    rules_name=form.cleaned_data["rules"] or None,
                    visibility=form.cleaned_data["visibility"],
                )
            except GcgError as error:
                show_gcg_problems(form, error)
            except RulesError as error:
                form.add_error("file", error.message)
            except EventRejectedError as error:
                form.add_error("file", error.message)
            except QuotaExceededError as error:
                form.add_error("file", str(error))
                quota = error
            else:
                note = flagged_note(record.discrepancies)
                messages.success(request, f"Game uploaded.{note}")
                return redirect("game-detail", game_id=result.stream.id)
        status = 400 if quota is None else 429
    response = render(request, "games/upload.html", {"form": form}, status=status)
    if quota is not None:
        response["Retry-After"] = str(quota.retry_after)
    return response


# --- the recorder -----------------------------------------------------------------

RECORDER_FORMS = {
    "place": PlaceForm,
    "exchange": ExchangeForm,
    "pass": PassForm,
    "challenge": ChallengeForm,
    "end": EndForm,
    "undo": UndoForm,
}

# The rules name event fields; these are the recorder's fields for them.
FIELD_NAMES = {"position": "position", "word": "word", "rack": "rack", "tiles": "tiles"}


def _recorder_form(
    action: str, names: list[str], version: int, data: Any = None
) -> Any:
    form_class = RECORDER_FORMS[action]
    kwargs: dict[str, Any] = {"prefix": action, "initial": {"version": version}}
    if form_class is EndForm:
        kwargs["players"] = names
    return form_class(data, **kwargs) if data is not None else form_class(**kwargs)


# Each recorder action's service call, from the form's cleaned data. `common` holds
# the game, the user and the expected version.
RecordCommand = Callable[[Any, GameAggregate, dict[str, Any]], None]


def _record_place(form: Any, aggregate: GameAggregate, common: dict[str, Any]) -> None:
    data = form.cleaned_data
    services.game_place(
        position=data["position"],
        word=data["word"],
        score=data.get("score"),
        rack=data.get("rack"),
        **common,
    )


def _record_exchange(
    form: Any, aggregate: GameAggregate, common: dict[str, Any]
) -> None:
    data = form.cleaned_data
    services.game_exchange(tiles=data["tiles"], count=data["count"] or 0, **common)


def _record_pass(form: Any, aggregate: GameAggregate, common: dict[str, Any]) -> None:
    services.game_pass(**common)


def _record_challenge(
    form: Any, aggregate: GameAggregate, common: dict[str, Any]
) -> None:
    services.game_challenge(outcome=form.cleaned_data["outcome"], **common)


def _record_end(form: Any, aggregate: GameAggregate, common: dict[str, Any]) -> None:
    data = form.cleaned_data
    services.game_end(
        reason=data["reason"],
        player=data.get("player"),
        final_scores=form.final_scores(),
        **common,
    )


def _record_undo(form: Any, aggregate: GameAggregate, common: dict[str, Any]) -> None:
    turns = aggregate.state.turns if aggregate.state else ()
    if not turns:
        form.add_error(None, "There is no turn to undo.")
        return
    services.game_supersede(
        from_version=turns[-1].version, reason=form.cleaned_data["reason"], **common
    )


RECORD_COMMANDS: dict[str, RecordCommand] = {
    "place": _record_place,
    "exchange": _record_exchange,
    "pass": _record_pass,
    "challenge": _record_challenge,
    "end": _record_end,
    "undo": _record_undo,
}


@login_required
@require_http_methods(["GET", "POST"])
def game_record(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Record a game move by move (the game's directors; for a casual game, its
    owner), with the board as it stands."""
    game = selectors.game_header(game_id)
    if game is None:
        raise Http404("No such game.")
    version, aggregate = services.game_load(game_id)
    if not services.can_record(aggregate, request.user):
        raise PermissionDenied("Only the game's directors may record it.")
    names = player_names(aggregate)
    forms = {
        action: _recorder_form(action, names, version) for action in RECORDER_FORMS
    }
    status = 200
    failed = ""
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in RECORDER_FORMS:
            return HttpResponse("Unknown action.", status=400)
        form = _recorder_form(action, names, version, request.POST)
        if form.is_valid():
            try:
                common = {
                    "game_id": game_id,
                    "user": request.user,
                    "expected_version": form.cleaned_data["version"],
                }
                RECORD_COMMANDS[action](form, aggregate, common)
            except EventRejectedError as error:
                show_refusal(form, error, FIELD_NAMES)
            except ConcurrencyError:
                form.add_error(None, STALE)
            except RulesError as error:
                show_refusal(form, error, FIELD_NAMES)
            if not form.errors:
                return redirect("game-record", game_id=game_id)
        forms[action] = form
        failed = action
        status = 400
    context = {
        **recorder_page(game, aggregate, names),
        "forms": forms,
        "failed": failed,
        "version": version,
    }
    return render(request, "games/record.html", context, status=status)
