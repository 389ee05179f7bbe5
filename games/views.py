"""Pages of a game: the annotated game viewer, notes, GCG download and upload, and
the director's move-by-move recorder.

Views are thin: they read through ``games.selectors`` / ``games.services.game_load``
and write through the services; what a page shows of a position is composed here
(board, racks, unseen tiles, the score sheet's lines), never a rule.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import selectors, services, snapshots
from games.eventstore.errors import ConcurrencyError, EventRejectedError
from games.forms import (
    ChallengeForm,
    EndForm,
    ExchangeForm,
    GcgUploadForm,
    NoteForm,
    PassForm,
    PlaceForm,
    UndoForm,
)
from games.readcache import cached_page
from games.streams import GameAggregate
from rules import state as rs
from rules.board import Position as BoardPosition
from rules.board import square_name
from rules.errors import GcgError, RulesError
from rules.moves import PLAYED_THROUGH
from rules.state import TurnKind
from rules.tiles import difference, remove_tiles

STALE = "Someone else changed this game since you loaded it: reload and try again."

END_REASONS = {
    "went_out": "going out",
    "scoreless_turns": "scoreless turns",
    "resigned": "resignation",
    "forfeit": "forfeit",
    "timed_out": "time",
    "adjudicated": "adjudication",
    "director_decision": "the director's decision",
}


# --- composing a position ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the score sheet as the page shows it."""

    index: int
    version: int
    player: int | None
    player_name: str
    rack: str
    position: str
    main_word: str
    other_words: tuple[str, ...]
    what: str
    score: int
    cumulative: int
    badges: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]
    discrepancy: str
    breakdown: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RackView:
    name: str
    score: int
    tiles: str
    unknown: int
    to_move: bool
    from_sheet: bool


@dataclass(frozen=True, slots=True)
class Position:
    """The game as it stood after score-sheet line `index` (0: before any turn)."""

    index: int
    state: rs.GameState
    highlight: frozenset[str]
    racks: tuple[RackView, ...]
    unseen: str
    unseen_for: str


def player_names(aggregate: GameAggregate) -> list[str]:
    assert aggregate.state is not None
    names = aggregate.context.get("player_names") or []
    players = list(aggregate.state.players)
    return [
        (names[index] if index < len(names) and names[index] else nick)
        for index, nick in enumerate(players)
    ]


def score_sheet(
    game_id: uuid.UUID, aggregate: GameAggregate, names: list[str]
) -> list[Line]:
    """The score sheet's lines with their marks (challenges, discrepancies, notes)."""
    state = aggregate.state
    assert state is not None
    turns = state.turns
    lines_of_event: dict[int, int] = {}
    if state.discrepancies:
        # The GCG line of an imported event is in its metadata (not a rules fact).
        lines_of_event = {
            recorded.version: recorded.metadata["line"]
            for recorded in selectors.game_events(game_id)
            if "line" in recorded.metadata
        }
    return [
        _line(index, turn, turns, names, state.discrepancies, lines_of_event)
        for index, turn in enumerate(turns, start=1)
    ]


def _line(
    index: int,
    turn: rs.Turn,
    turns: tuple[rs.Turn, ...],
    names: list[str],
    discrepancies: tuple[rs.Discrepancy, ...],
    lines_of_event: dict[int, int],
) -> Line:
    kind = turn.kind
    words = [word.word for word in turn.words]
    main, others, what = "", (), ""
    badges: list[tuple[str, str]] = []
    following = turns[index] if index < len(turns) else None
    if kind is TurnKind.PLACEMENT:
        main = words[0] if words else (turn.word or "")
        others = tuple(words[1:])
        if turn.bingo:
            badges.append(("bingo", "bingo"))
        if turn.withdrawn:
            badges.append(("phony", "challenged off"))
        elif following is not None and following.kind in (
            TurnKind.CHALLENGE_BONUS,
            TurnKind.CHALLENGE,
        ):
            badges.append(("valid", "challenged, valid"))
    elif kind is TurnKind.EXCHANGE:
        what = f"exchanged {turn.tiles}" if turn.tiles else f"exchanged {turn.count}"
    elif kind is TurnKind.PASS:
        what = "passed"
    elif kind is TurnKind.PHONY_WITHDRAWN:
        what = "phony withdrawn" + (f": {', '.join(words)}" if words else "")
        badges.append(("phony", "phony"))
    elif kind is TurnKind.CHALLENGE_BONUS:
        what = "challenge bonus: the play was valid"
        badges.append(("valid", "valid"))
    elif kind is TurnKind.CHALLENGE:
        what = "challenged: the play was valid"
        badges.append(("valid", "valid"))
    elif kind is TurnKind.LOST_TURN:
        what = "lost turn (unsuccessful challenge)"
        badges.append(("lost", "lost turn"))
    elif kind is TurnKind.END_BONUS:
        what = f"opponent's rack {turn.tiles}" if turn.tiles else "end-of-game bonus"
    elif kind is TurnKind.END_RACK:
        what = f"rack left: {turn.tiles}" if turn.tiles else "rack left"
    else:
        what = kind.value.replace("_", " ")
    if turn.detail:
        what = f"{what} ({turn.detail})" if what else turn.detail
    discrepancy = ""
    for item in discrepancies:
        if item.version == turn.version and item.player == turn.player:
            where = lines_of_event.get(item.version)
            discrepancy = (
                f"Recorded {_signed(item.recorded)}, the rules give "
                f"{_signed(item.computed)}" + (f" (GCG line {where})" if where else "")
            )
            badges.append(("warn", "score differs"))
            break
    player = turn.player
    return Line(
        index=index,
        version=turn.version,
        player=player,
        player_name=names[player] if player is not None else "—",
        rack=turn.recorded_rack or turn.rack or "",
        position=turn.position or "",
        main_word=main,
        other_words=others,
        what=what,
        score=turn.score,
        cumulative=turn.cumulative,
        badges=tuple(badges),
        notes=turn.notes,
        discrepancy=discrepancy,
        breakdown=tuple(f"{w.word}: {w.breakdown()}" for w in turn.words),
    )


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("−" + str(-value) if value < 0 else "0")


def position_after(aggregate: GameAggregate, index: int, names: list[str]) -> Position:
    """The position after score-sheet line `index`, with the draws that followed it.

    The state shown is the one just before the next line's event, so every rack is
    refilled; the last play is the squares that line's event filled.
    """
    final = aggregate.state
    assert final is not None
    turns = final.turns
    if index <= 0 or not turns:
        first = turns[0].version - 1 if turns else None
        state = selectors.state_after(aggregate, first)
        highlight: frozenset[str] = frozenset()
        upcoming = turns
    else:
        line = turns[index - 1]
        later = [turn.version for turn in turns[index:] if turn.version > line.version]
        state = selectors.state_after(aggregate, later[0] - 1 if later else None)
        highlight = placed_squares(line)
        upcoming = turns[index:]
    racks = []
    next_racks: dict[int, str] = {}
    for turn in upcoming:
        rack = turn.recorded_rack or turn.rack
        if turn.player is not None and rack and turn.player not in next_racks:
            next_racks[turn.player] = rack
    for player, rack in enumerate(state.racks):
        tiles, unknown, from_sheet = rack.known, rack.unknown, False
        if unknown and player in next_racks:
            tiles, unknown, from_sheet = next_racks[player], 0, True
        racks.append(
            RackView(
                name=names[player],
                score=state.scores[player],
                tiles=tiles,
                unknown=unknown,
                to_move=not state.game_over and state.turn == player,
                from_sheet=from_sheet,
            )
        )
    viewer = 0 if state.game_over else state.turn
    unseen = rs.unseen_tiles(state, viewer)
    if racks[viewer].from_sheet:
        # The state did not know this rack yet; the score sheet does.
        missing = difference(racks[viewer].tiles, state.racks[viewer].known)
        unseen = remove_tiles(unseen, missing) or unseen
    return Position(
        index=max(index, 0),
        state=state,
        highlight=highlight,
        racks=tuple(racks),
        unseen=unseen,
        unseen_for=names[viewer],
    )


def placed_squares(turn: rs.Turn) -> frozenset[str]:
    """The squares a placement line filled: its word's letters, less the tiles it
    played through (``.``); none for any other line.

    Read from the line itself: replaying the game to the position before it (to
    compare boards) cost the viewer a second replay on every page.
    """
    if turn.kind is not TurnKind.PLACEMENT or not turn.position or not turn.word:
        return frozenset()
    start = BoardPosition.from_gcg(turn.position)
    step = start.direction.step
    return frozenset(
        square_name(start.index + offset * step)
        for offset, letter in enumerate(turn.word)
        if letter != PLAYED_THROUGH
    )


def result_summary(state: rs.GameState, names: list[str]) -> dict[str, Any] | None:
    """The end of the game: adjustments, final scores, the winner and why."""
    if not state.game_over:
        return None
    before = list(state.scores_before_adjustments or state.scores)
    rows = [
        {
            "name": name,
            "before": before[index],
            "adjustment": state.scores[index] - before[index],
            "final": state.scores[index],
            "winner": state.winner == index,
        }
        for index, name in enumerate(names)
    ]
    winner = names[state.winner] if state.winner is not None else None
    reason = state.end_reason.value if state.end_reason else ""
    return {
        "rows": rows,
        "winner": winner,
        "draw": state.winner is None,
        "tiebreak": state.decided_by_tiebreak,
        "reason": END_REASONS.get(reason, reason.replace("_", " ")),
    }


def flagged_note(discrepancies: Any) -> str:
    """What an import flagged, line by line (the record itself is kept)."""
    if not discrepancies:
        return ""
    lines = "; ".join(
        f"line {d.line}: {'cumulative' if d.kind == 'cumulative' else 'score'} "
        f"{d.recorded}, the rules give {d.computed}"
        for d in discrepancies
    )
    return (
        f" The game is kept as recorded; what differs from the rules is flagged "
        f"({lines})."
    )


# --- the viewer -------------------------------------------------------------------


def _readable_game(request: HttpRequest, game_id: uuid.UUID) -> selectors.GameHeader:
    game = selectors.game_header(game_id)
    if game is None or not selectors.game_readable(
        game.tournament_id, game.published, request.user
    ):
        raise Http404("No such game.")
    return game


def _turn_param(value: str | None) -> int | None:
    if value is None or not value.strip().isdigit():
        return None
    return int(value)


def _tournament_info(
    context: dict[str, Any], game: selectors.GameHeader
) -> dict[str, Any] | None:
    tournament_id = context.get("tournament_id")
    if not tournament_id:
        return None
    return {
        "id": tournament_id,
        "name": game.tournament_name or "Tournament",
        "division": context.get("division") or "",
        "round": context.get("round"),
        "board": context.get("board"),
    }


def board_caption(line: Line | None) -> str:
    if line is None:
        return "Board at the start of the game"
    play = " ".join(
        part for part in (line.position, line.main_word or line.what) if part
    )
    return f"Board after turn {line.index}, {line.player_name}: {play}"


def turn_url(game_id: uuid.UUID, index: int) -> str:
    return reverse("game-turn", args=[game_id, index])


def _viewer_aggregate(game: selectors.GameHeader, turn: int | None) -> GameAggregate:
    """The game at the header's version: its snapshot when the page shows the final
    position, else the replay of its events (an earlier turn's board needs them)."""
    # The row's turn count is the score sheet's length at this version: an earlier
    # turn is known without unpickling the snapshot.
    if turn is None or turn >= game.turn_count:
        snapshot = snapshots.load(game.game_id, game.version, game.snapshot)
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


def _viewer_context(
    request: HttpRequest, game: selectors.GameHeader, turn: int | None
) -> dict[str, Any]:
    aggregate = _viewer_aggregate(game, turn)
    final = aggregate.state
    assert final is not None
    names = player_names(aggregate)
    lines = score_sheet(game.game_id, aggregate, names)
    count = len(lines)
    index = count if turn is None else max(0, min(turn, count))
    position = position_after(aggregate, index, names)
    current = lines[index - 1] if index else None
    nav = {
        "first": 0 if index > 0 else None,
        "prev": index - 1 if index > 0 else None,
        "next": index + 1 if index < count else None,
        "last": count if index < count else None,
    }
    return {
        "game": game,
        "title": " v ".join(names),
        "names": names,
        "lines": lines,
        "count": count,
        "index": index,
        "current": current,
        "position": position,
        "nav": nav,
        "nav_urls": {
            key: turn_url(game.game_id, value)
            for key, value in nav.items()
            if value is not None
        },
        "board_caption": board_caption(current),
        "flagged": [line for line in lines if line.discrepancy],
        "result": result_summary(final, names),
        "tournament": _tournament_info(dict(aggregate.context), game),
        "can_annotate": services.can_annotate(aggregate, request.user),
        "can_record": services.can_record(aggregate, request.user),
        "ruleset": final.ruleset.name,
    }


@require_GET
def game_detail(
    request: HttpRequest, game_id: uuid.UUID, turn: int | None = None
) -> HttpResponse:
    """The annotated game log at any turn (``?turn=N`` or ``/turn/N/``)."""
    game = _readable_game(request, game_id)
    if turn is None:
        turn = _turn_param(request.GET.get("turn"))

    def build() -> HttpResponse:
        context = _viewer_context(request, game, turn)
        if context["can_annotate"] and context["index"]:
            context["note_form"] = NoteForm(initial={"turn": context["index"]})
        return render(request, "games/viewer.html", context)

    # Everything the page shows is the game's stream up to this version.
    return cached_page(request, [game.game_id], game.version, build)


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
                add_rejection(form, error, {"text": "text"})
            except ConcurrencyError:
                form.add_error(None, STALE)
            else:
                messages.success(request, f"Your note on turn {index} is saved.")
                return redirect(turn_url(game_id, index) + "#notes")
    context = _viewer_context(request, game, _turn_param(request.POST.get("turn")))
    context["note_form"] = form
    return render(request, "games/viewer.html", context, status=400)


@require_GET
def game_gcg(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The game as a GCG file (what the API's /gcg gives)."""
    _readable_game(request, game_id)
    text = services.game_export_gcg(game_id)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{game_id}.gcg"'
    return response


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    """Recent games anyone may read (casual ones and published tournaments')."""
    games = selectors.game_list(request.user).order_by("-started_at")[:100]
    return render(request, "games/list.html", {"games": games})


@login_required
@require_http_methods(["GET", "POST"])
def game_upload(request: HttpRequest) -> HttpResponse:
    """Upload a GCG record: kept as recorded, its score mistakes flagged by line."""
    form = GcgUploadForm()
    status = 200
    if request.method == "POST":
        form = GcgUploadForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                result, record = services.game_import_gcg(
                    text=form.cleaned_data["file"].read(),
                    user=request.user,
                    rules_name=form.cleaned_data["rules"] or None,
                )
            except GcgError as error:
                for line, _code, message in error.problems:
                    where = f"Line {line}: " if line else ""
                    form.add_error("file", f"{where}{message}")
            except RulesError as error:
                form.add_error("file", error.message)
            except EventRejectedError as error:
                form.add_error("file", error.message)
            else:
                note = flagged_note(record.discrepancies)
                messages.success(request, f"Game uploaded.{note}")
                return redirect("game-detail", game_id=result.stream.id)
        status = 400
    return render(request, "games/upload.html", {"form": form}, status=status)


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


def add_rejection(
    form: Any, error: EventRejectedError | RulesError, fields: dict[str, str]
) -> None:
    """Show a rule's refusal next to the field it names (else at the top)."""
    target = fields.get(getattr(error, "field", None) or "")
    form.add_error(target if target in form.fields else None, error.message)


def _recorder_form(
    action: str, names: list[str], version: int, data: Any = None
) -> Any:
    form_class = RECORDER_FORMS[action]
    kwargs: dict[str, Any] = {"prefix": action, "initial": {"version": version}}
    if form_class is EndForm:
        kwargs["players"] = names
    return form_class(data, **kwargs) if data is not None else form_class(**kwargs)


def _record_command(
    action: str,
    form: Any,
    game_id: uuid.UUID,
    aggregate: GameAggregate,
    user: Any,
) -> None:
    data = form.cleaned_data
    common = {"game_id": game_id, "user": user, "expected_version": data["version"]}
    if action == "place":
        services.game_place(
            position=data["position"],
            word=data["word"],
            score=data.get("score"),
            rack=data.get("rack"),
            **common,
        )
    elif action == "exchange":
        services.game_exchange(tiles=data["tiles"], count=data["count"] or 0, **common)
    elif action == "pass":
        services.game_pass(**common)
    elif action == "challenge":
        services.game_challenge(outcome=data["outcome"], **common)
    elif action == "end":
        services.game_end(
            reason=data["reason"],
            player=data.get("player"),
            final_scores=form.final_scores(),
            **common,
        )
    elif action == "undo":
        turns = aggregate.state.turns if aggregate.state else ()
        if not turns:
            form.add_error(None, "There is no turn to undo.")
            return
        services.game_supersede(
            from_version=turns[-1].version, reason=data["reason"], **common
        )


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
                _record_command(action, form, game_id, aggregate, request.user)
            except EventRejectedError as error:
                add_rejection(form, error, FIELD_NAMES)
            except ConcurrencyError:
                form.add_error(None, STALE)
            except RulesError as error:
                add_rejection(form, error, FIELD_NAMES)
            if not form.errors:
                return redirect("game-record", game_id=game_id)
        forms[action] = form
        failed = action
        status = 400
    lines = score_sheet(game_id, aggregate, names)
    position = position_after(aggregate, len(lines), names)
    state = aggregate.state
    assert state is not None
    context = {
        "game": game,
        "title": " v ".join(names),
        "names": names,
        "lines": lines,
        "position": position,
        "forms": forms,
        "failed": failed,
        "version": version,
        "state": state,
        "pending_end": state.pending_end.value if state.pending_end else "",
        "pending_label": (
            END_REASONS.get(state.pending_end.value, "") if state.pending_end else ""
        ),
        "pending_player": (
            names[state.pending_player] if state.pending_player is not None else ""
        ),
        "can_challenge": state.last_play is not None,
        "result": result_summary(state, names),
        "tournament": _tournament_info(dict(aggregate.context), game),
        "player_ids": list(aggregate.context.get("player_ids") or []),
    }
    return render(request, "games/record.html", context, status=status)
