"""Pages of results: standings and scorecards (public), and the console's results
entry, amendments, forfeits and the games recorded on a board.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import services as game_services
from games.eventstore.errors import ConcurrencyError, EventRejectedError
from games.eventstore.store import AppendResult
from games.models import GameProjection
from games.quotas import QuotaExceededError
from games.readcache import cached_page
from games.refusals import show_gcg_problems, show_refusal
from games.views import flagged_note
from rules import tournament as rt
from rules.errors import GcgError, RulesError
from rules.records import EntryKind
from rules.tournament.rounds import repeats_recorded_result
from tournaments.core import access, headers
from tournaments.core.aggregate import TournamentAggregate, tournament_state
from tournaments.core.pages import (
    CONSOLE_USER_HEADER,
    GAMES_PER_PAGE,
    TeamRequest,
    board_games,
    console_user_key,
    directed,
    division_or_404,
    page_number,
    page_of,
    readable,
    submit,
    team_aggregate,
    team_member,
)
from tournaments.models import Player, Tournament
from tournaments.pairing import selectors as pairing_selectors
from tournaments.pairing.views import pairing_rows
from tournaments.players import selectors as players_selectors
from tournaments.results import presenters, services
from tournaments.results import selectors as results_selectors
from tournaments.results.forms import (
    RESULT_FIELDS,
    RESULT_RULE_FIELDS,
    AmendForm,
    BoardGcgForm,
    ForfeitForm,
    ResultEntryForm,
)


@require_GET
def standings(
    request: HttpRequest,
    tournament_id: uuid.UUID,
    division: str,
    after_round: int | None = None,
) -> HttpResponse:
    # The header (one statement) is all a cached page needs; the model only when
    # the page is built.
    header = access.readable_header(
        headers.tournament_header(tournament_id), request.user
    )
    if division not in header.divisions:
        raise Http404(f"No division {division!r}.")
    version = header.division_version(division)

    def build() -> HttpResponse:
        # Unsaved, built from the header: the page shows only the tournament's name.
        tournament = Tournament(tournament_id=tournament_id, name=header.name)
        # Plain rows, as the API reads them: 125 model instances cost more than the
        # page's whole table.
        if after_round is None:
            # The latest round's rows, which come with its number.
            last, rows = results_selectors.standings(tournament_id, division, None)
            shown = last
        else:
            last = pairing_selectors.paired_rounds(tournament_id, division)
            if not 0 <= after_round <= last:
                raise Http404(f"No standings after round {after_round}.")
            shown, rows = results_selectors.standings(
                tournament_id, division, after_round
            )
        return render(
            request,
            "tournaments/standings.html",
            {
                "tournament": tournament,
                "division": division,
                "after_round": shown,
                "rows": rows,
                # The pre-event order (0) once a round is paired.
                "rounds": range(0, last + 1) if last else range(0),
                "ranking": header.ranking,
                "division_version": version,
            },
        )

    # The page shows the division and the tournament's fixed name and settings.
    return cached_page(
        request, [tournament_id], version, build, streams=[tournament_id]
    )


@require_GET
def scorecard(
    request: HttpRequest, tournament_id: uuid.UUID, player_id: str
) -> HttpResponse:
    # The tournament's and the player's rows in one statement (as the API reads
    # them) are all a cached page needs; the tournament's model only when the page
    # is built.
    header = access.readable_header(
        headers.scorecard_header(tournament_id, player_id), request.user
    )
    if header.player is None:
        raise Http404("No such player.")
    # An unsaved model built from the row just read, never saved: the template and
    # the selectors read a Player's fields, and a second query would fetch the same.
    fields = dict(header.player)
    player = Player(tournament_id=tournament_id, player_id=fields.pop("id"), **fields)
    version = header.division_version(player.division)

    def build() -> HttpResponse:
        # Unsaved, like the player: the page shows only the tournament's name.
        tournament = Tournament(tournament_id=tournament_id, name=header.name)
        # Lazy: a cached fragment (keyed by the division's version) needs neither.
        lines = SimpleLazyObject(
            lambda: results_selectors.scorecard_lines(
                tournament_id, player.player_id, player.division
            )
        )
        return render(
            request,
            "tournaments/scorecard.html",
            {
                "tournament": tournament,
                "player": player,
                "rows": SimpleLazyObject(
                    lambda: _scorecard_rows(tournament, player, lines)
                ),
                "standing": SimpleLazyObject(
                    lambda: results_selectors.latest_standing(lines)
                ),
                "foretold": SimpleLazyObject(lambda: _foretold(player, lines)),
                "division_version": version,
                # Self-entry's switch counts for the division's version.
                "self_entry": header.self_entry,
            },
        )

    # A players change counts for every division's version (the player's row).
    return cached_page(
        request, [tournament_id], version, build, streams=[tournament_id]
    )


def _foretold(
    player: Player, lines: list[results_selectors.ScorecardLine]
) -> list[dict[str, Any]]:
    """The player's round-robin rounds not paired yet, with the opponent the
    table gives (None: the bye): the whole schedule on the scorecard. Looked for
    only while the division's latest round was paired as a round robin (no other
    page pays for it)."""
    if not lines or lines[-1].method != rt.PairingMethod.ROUND_ROBIN:
        return []
    rounds = pairing_selectors.foretold_opponents(
        player.tournament_id, player.division
    ).get(player.player_id, {})
    names = dict(
        Player.objects.filter(
            tournament_id=player.tournament_id,
            player_id__in=[o for o in rounds.values() if o],
        ).values_list("player_id", "name")
    )
    return [
        {"round": round_, "opponent_id": opponent, "name": names.get(opponent, "")}
        for round_, opponent in sorted(rounds.items())
    ]


def _scorecard_rows(
    tournament: Tournament, player: Player, lines: list[results_selectors.ScorecardLine]
) -> list[dict[str, Any]]:
    """The scorecard's lines with their boards and games."""
    # Games recorded without a result naming them: found by round and board, only
    # for the rounds that need it (not the whole division's games).
    unnamed = [
        (line.round, line.board)
        for line in lines
        if line.game_id is None and line.board is not None
    ]
    games = results_selectors.board_game_ids(
        tournament.tournament_id, player.division, unnamed
    )
    return [
        {
            "line": line,
            "board": line.board,
            "game_id": line.game_id or games.get((line.round, line.board)),
        }
        for line in lines
    ]


@require_GET
def division_games(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    tournament = readable(request, tournament_id)
    division = division_or_404(tournament, division)
    games = GameProjection.objects.filter(
        tournament_id=tournament.tournament_id, division=division
    ).order_by("round", "board_number", "started_at")
    # Paged, not cached: a game's moves change its row without any tournament
    # version moving.
    page = page_of(games, GAMES_PER_PAGE, page_number(request))
    return render(
        request,
        "tournaments/games.html",
        {
            "tournament": tournament,
            "division": division,
            "games": page.object_list,
            "page": page,
        },
    )


# --- results -----------------------------------------------------------------------


def _results_form(
    rules: rt.TournamentState, division: str, round_: int, data: Any = None
) -> ResultEntryForm:
    return ResultEntryForm(data, rules=rules, division=division, round_=round_)


def _results_context(
    tournament: Tournament, division: str, round_: int, form: ResultEntryForm
) -> dict[str, Any]:
    rows = pairing_rows(tournament, division, round_)
    games = [
        row
        for row in rows
        if row.game is not None and row.game.is_over and not row.has_result
    ]
    _, standing_rows = results_selectors.standings(
        tournament.tournament_id, division, round_
    )
    # The cursor goes where the director has to act: the first field refused, else
    # the first box of a fresh slip.
    focus = next((f for f in RESULT_FIELDS if f in form.errors), "a_number")
    form.fields[focus].widget.attrs["autofocus"] = True
    show_tie = form.is_bound and (
        form.tied or "a_pre" in form.errors or "b_pre" in form.errors
    )
    return {
        "tournament": tournament,
        "division": division,
        "round": round_,
        "form": form,
        "slip_fields": [form[name] for name in RESULT_FIELDS[:4]],
        "tie_fields": [form[name] for name in RESULT_FIELDS[4:]],
        "show_tie": show_tie,
        "missing": [row for row in rows if not row.alone and not row.has_result],
        "entered": [row for row in rows if not row.alone and row.has_result],
        "byes": [row for row in rows if row.alone],
        "games_to_record": games,
        "standings": standing_rows,
        # From the state the form was built on (the page's), not a query.
        "rounds": range(1, form.rules.paired_rounds(division) + 1),
        "forfeit_form": ForfeitForm(roster={}),
        # The version a slip typed on this page is typed against.
        "typed_at": form.rules.version,
    }


@login_required
@require_http_methods(["GET", "POST"])
def manage_results(
    request: HttpRequest, tournament_id: uuid.UUID, division: str, round_: int
) -> HttpResponse:
    """Enter a round's results fast: number, score, number, score, Enter.

    One pass: the aggregate is loaded once (``team_aggregate``, which also decides
    the right on it); the form only reads the slip; the rules validate it once, when
    it is appended (``core.writes``: at the version the tournament has when its turn
    comes, as a slip does not depend on what its director saw); the fresh slip
    after it is built on the state the append left.

    A slip for a board that already has a result is settled against it: the same
    scores are "Already recorded" (a resend), different ones a conflict shown with
    both scores and the board's amend link. The browser's queue of slips kept while
    the server could not be reached (site.js) posts here too, asking for JSON
    (``X-Slip-Queue``): one answer per slip, the same decisions."""
    team = team_aggregate(request, tournament_id)
    tournament = team.tournament
    division = division_or_404(tournament, division)
    if not 1 <= round_ <= team.rules.paired_rounds(division):
        raise Http404(f"Round {round_} is not paired yet.")
    status = 200
    flash = ""
    conflict: SlipConflict | None = None
    if request.method != "POST":
        form = _results_form(team.rules, division, round_)
    else:
        form = _results_form(team.rules, division, round_, request.POST)
        stored: list[AppendResult] = []
        settled = _take_slip(form, team, request.user, stored)
        if isinstance(settled, SlipConflict):
            conflict = settled
        elif settled is not None:
            flash = settled.flash
        if request.headers.get("X-Slip-Queue") == "1":
            return _queued_answer(form, settled)
        if flash:
            if not request.htmx:
                messages.success(request, flash)
                return redirect("manage-results", tournament_id, division, round_)
            # The fresh slip on the state the append left: nothing loaded again.
            after: TournamentAggregate = stored[0].state if stored else team.aggregate
            assert after.rules is not None
            form = _results_form(after.rules, division, round_)
        else:
            # htmx swaps only 2xx answers: the refusal is in the page it swaps in.
            status = 200 if request.htmx else 400
    context = _results_context(tournament, division, round_, form)
    context.update(flash=flash, conflict=conflict, user_key=console_user_key(request))
    template = (
        "tournaments/manage/_results_panel.html"
        if request.htmx
        else "tournaments/manage/results.html"
    )
    response = render(request, template, context, status=status)
    # The console's offline copy is kept per user (static/scrabble/console-sw.js).
    response[CONSOLE_USER_HEADER] = context["user_key"]
    return response


@dataclass(frozen=True, slots=True)
class Slip:
    """A whole slip as read (kept apart from the form, whose refusal takes its
    fields out of ``cleaned_data``)."""

    event: rt.ResultRecorded
    a: rt.Player
    b: rt.Player
    typed_at: int | None  # the tournament's version it was typed against


@dataclass(frozen=True, slots=True)
class SlipStored:
    """A slip stored now, or found already recorded (sent again)."""

    slip: Slip
    again: bool

    @property
    def outcome(self) -> str:
        return "already" if self.again else "recorded"

    @property
    def flash(self) -> str:
        event, a, b = self.slip.event, self.slip.a, self.slip.b
        return (
            f"{'Already recorded' if self.again else 'Recorded'}: "
            f"#{a.number} {a.name} {event.score_a} – {event.score_b} "
            f"#{b.number} {b.name}."
        )


@dataclass(frozen=True, slots=True)
class SlipConflict:
    """A slip whose board already has a different result: both, side by side."""

    board: int | None
    typed: str
    recorded: str
    recorded_at: int  # the version of the result recorded
    typed_at: int | None  # the version the slip was typed against
    amend_url: str

    @property
    def since_typed(self) -> bool:
        """Recorded after the slip was typed: entered elsewhere meanwhile."""
        return self.typed_at is not None and self.recorded_at > self.typed_at

    @property
    def message(self) -> str:
        when = " after this slip was typed" if self.since_typed else ""
        return (
            f"Board {self.board} already has a result, recorded{when}: "
            f"{self.recorded}. This slip says {self.typed}. Nothing was stored: "
            "amend the board if the slip is right."
        )


Settled = SlipStored | SlipConflict | None


def _take_slip(
    form: ResultEntryForm, team: TeamRequest, user: Any, stored: list[AppendResult]
) -> Settled:
    """Read, record and settle a posted slip. None: refused, or not whole yet (the
    form says why); else stored (``stored`` gets the append), already recorded, or
    a conflict with the board's result."""
    if not (form.is_valid() and form.finish()):
        return None
    data = form.cleaned_data
    slip = Slip(form.event(), data["player_a"], data["player_b"], data.get("typed_at"))
    if repeats_recorded_result(team.rules, slip.event):
        return SlipStored(slip, again=True)
    if submit(
        form,
        lambda: stored.append(_record_slip(slip, team, user)),
        RESULT_RULE_FIELDS,
    ):
        return SlipStored(slip, again=False)
    # Refused: if for the result its board has (perhaps stored by another console
    # after this request loaded the aggregate), settled against the record now.
    _, fresh = tournament_state(team.tournament.tournament_id)
    assert fresh.rules is not None
    return _settle(slip, fresh.rules, team.tournament.tournament_id, form.division)


def _settle(
    slip: Slip, rules: rt.TournamentState, tournament_id: uuid.UUID, division: str
) -> Settled:
    """A slip the rules refused, against the record: already recorded when it is
    the result recorded, sent again (``repeats_recorded_result``: two consoles
    sending the same slip at once); a SlipConflict when its board has another
    result; None when the board has none (another refusal)."""
    event, a, b = slip.event, slip.a, slip.b
    if repeats_recorded_result(rules, event):
        return SlipStored(slip, again=True)
    round_state = rules.round_state(division, event.round)
    if round_state is None:
        return None
    found = round_state.result_of(event.player_a, event.player_b)
    if found is None:
        return None
    seat = round_state.seats.get(a.player_id)
    board = seat.board if seat else None
    if found.absentee is not None:
        absent = rules.players[found.absentee]
        recorded = f"a forfeit (#{absent.number} {absent.name} absent)"
    else:
        own, opponent = found.scores_for(a.player_id)
        recorded = f"#{a.number} {a.name} {own} – {opponent} #{b.number} {b.name}"
    amend = (
        reverse("manage-amend", args=[tournament_id, division, event.round, board])
        if board is not None
        else ""
    )
    return SlipConflict(
        board=board,
        typed=f"{event.score_a} – {event.score_b}",
        recorded=recorded,
        recorded_at=found.version,
        typed_at=slip.typed_at,
        amend_url=amend,
    )


def _queued_answer(form: ResultEntryForm, settled: Settled) -> JsonResponse:
    """The answer to a slip the browser kept and sends now: what became of it, in
    words for the director. A refusal has the API's one error shape (``code``,
    ``message``, ``field``, ``errors``); a conflict is a 409 with both scores."""
    if isinstance(settled, SlipStored):
        return JsonResponse({"outcome": settled.outcome, "message": settled.flash})
    if isinstance(settled, SlipConflict):
        return JsonResponse(
            {
                "outcome": "conflict",
                "code": "result_conflict",
                "message": settled.message,
                "field": "a_score",
                "board": settled.board,
                "typed": settled.typed,
                "recorded": settled.recorded,
                "recorded_at": settled.recorded_at,
                "typed_at": settled.typed_at,
                "since_typed": settled.since_typed,
                "amend_url": settled.amend_url,
            },
            status=409,
        )
    errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
    first = next(iter(errors.items()), ("__all__", ["The slip was not recorded."]))
    return JsonResponse(
        {
            "outcome": "refused",
            "code": "slip_refused",
            "message": first[1][0],
            "field": None if first[0] == "__all__" else first[0],
            "errors": errors,
        },
        status=400,
    )


def _record_slip(slip: Slip, team: TeamRequest, user: Any) -> AppendResult:
    """Append the slip's result from the aggregate the request loaded (its right
    decided on it); the rules validate it there, once."""
    event = slip.event
    return services.result_record(
        tournament_id=team.tournament.tournament_id,
        round_=event.round,
        player_a=event.player_a,
        player_b=event.player_b,
        score_a=event.score_a,
        score_b=event.score_b,
        pre_adjustment_a=event.pre_adjustment_a,
        pre_adjustment_b=event.pre_adjustment_b,
        user=user,
        loaded=team.loaded,
    )


@login_required
@require_POST
def manage_results_check(
    request: HttpRequest, tournament_id: uuid.UUID, division: str, round_: int
) -> HttpResponse:
    """The instant check of a partly typed slip: a message per field, as JSON (the
    rules' own, from the slip applied to the state without writing)."""
    team = team_aggregate(request, tournament_id)
    division = division_or_404(team.tournament, division)
    form = _results_form(team.rules, division, round_, request.POST)
    notes = form.check()
    return JsonResponse(
        {
            "notes": {
                field: (
                    {"level": notes[field].level, "text": notes[field].text}
                    if field in notes
                    else None
                )
                for field in (*RESULT_FIELDS, "__all__")
            },
            "tied": form.tied,
        }
    )


@login_required
@require_POST
def manage_forfeit(
    request: HttpRequest, tournament_id: uuid.UUID, division: str, round_: int
) -> HttpResponse:
    team = team_aggregate(request, tournament_id)
    tournament = team.tournament
    division = division_or_404(tournament, division)
    roster = players_selectors.division_roster(tournament, division)
    form = ForfeitForm(request.POST, roster=roster)
    absentee = form.cleaned_data["absentee"] if form.is_valid() else None
    if absentee is not None and submit(
        form,
        lambda: services.forfeit_record(
            tournament_id=tournament_id,
            round_=round_,
            absentee=absentee.player_id,
            user=request.user,
            loaded=team.loaded,
        ),
        {"absentee": "absentee", "round": "absentee"},
    ):
        messages.success(request, f"{absentee.name} forfeits round {round_}.")
        return redirect("manage-results", tournament_id, division, round_)
    context = _results_context(
        tournament, division, round_, _results_form(team.rules, division, round_)
    )
    context["forfeit_form"] = form
    return render(request, "tournaments/manage/results.html", context, status=400)


def _board_pairing(
    tournament: Tournament, division: str, round_: int, board: int
) -> pairing_selectors.Board:
    """The game on ``board`` of the round (404 when the round has no such game)."""
    for line in pairing_selectors.round_boards(
        tournament.tournament_id, division, round_
    ):
        if line.board == board and line.second is not None:
            return line
    raise Http404(f"No board {board} in round {round_}.")


def _amend_initial(board: pairing_selectors.Board, version: int) -> dict[str, Any]:
    """The amend form's starting values: the result as it stands. The scores before
    the end-of-game adjustments only for a tie (where they decided it)."""
    first = board.first
    initial: dict[str, Any] = {"version": version}
    if first.kind in (EntryKind.FORFEIT_LOSS, EntryKind.FORFEIT_WIN):
        absent = first if first.kind == EntryKind.FORFEIT_LOSS else board.second
        initial["absentee"] = absent.player_id if absent else ""
    elif first.has_result:
        initial.update(a_score=first.own_score, b_score=first.opponent_score)
        if first.own_score == first.opponent_score:
            initial.update(
                a_pre=first.own_pre_adjustment, b_pre=first.opponent_pre_adjustment
            )
    return initial


# The amend form's fields a confirm carries over from the preview, unchanged.
_AMEND_FIELDS = ("a_score", "b_score", "a_pre", "b_pre", "absentee", "reason")


def stale_preview_message(error: ConcurrencyError) -> str:
    """Why a confirm was refused: the log moved after its preview."""
    return (
        "Someone else changed this tournament since this preview (it was made on"
        f" version {error.expected}; the tournament is now at version"
        f" {error.current}): nothing was stored. Below is what the amendment would"
        " do now: confirm again if it is still right."
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_amend(
    request: HttpRequest,
    tournament_id: uuid.UUID,
    division: str,
    round_: int,
    board: int,
) -> HttpResponse:
    """Amend a board's result as a whole: new scores or a forfeit, with a reason.

    Two steps: the form's POST shows what the amendment would change (the
    preview: ``results.impact``) and a Confirm button carrying the same values
    and the version previewed; only the confirm stores it, refused with the
    fresh preview when the log moved since."""
    tournament = team_member(request, tournament_id)
    division = division_or_404(tournament, division)
    line = _board_pairing(tournament, division, round_, board)
    first, second = line.first, line.second
    assert second is not None
    initial = _amend_initial(line, tournament.version)
    form = AmendForm(initial=initial, first=first, second=second)
    status = 200
    preview = None
    if request.method == "POST":
        form = AmendForm(request.POST, first=first, second=second)
        data = form.cleaned_data if form.is_valid() else None
        status = 400
        if data is not None:
            fields = {
                "round_": round_,
                "player_a": first.player_id,
                "player_b": second.player_id,
                "score_a": data["a_score"],
                "score_b": data["b_score"],
                "pre_adjustment_a": data["a_pre"],
                "pre_adjustment_b": data["b_pre"],
                "absentee": data["absentee"],
                "reason": data.get("reason") or "",
            }
            stored, preview, status = _amend_step(
                request, form, tournament_id, fields, data["version"]
            )
            if stored:
                messages.success(
                    request,
                    f"Round {round_} board {board} amended: every later standing "
                    "is recomputed.",
                )
                return redirect("manage-results", tournament_id, division, round_)
    values = form.data if form.is_bound else initial
    tied = values.get("a_score") not in (None, "") and str(
        values.get("a_score")
    ) == str(values.get("b_score"))
    return render(
        request,
        "tournaments/manage/amend.html",
        {
            "tournament": tournament,
            "division": division,
            "round": round_,
            "board": board,
            "line": presenters.board_line(tournament, line, None),
            "first": first,
            "second": second,
            "form": form,
            "tied": tied,
            "preview": preview.document if preview else None,
            "confirm_values": [
                (name, form.data.get(name, "")) for name in _AMEND_FIELDS
            ]
            if preview
            else (),
            "preview_version": preview.version if preview else None,
        },
        status=status,
    )


def _amend_step(
    request: HttpRequest,
    form: AmendForm,
    tournament_id: uuid.UUID,
    fields: dict[str, Any],
    version: int,
) -> tuple[bool, Any, int]:
    """Preview the amendment, or store it when the POST confirms a preview.

    Returns (stored, the preview to show, status). A refusal by the rules goes
    on the field it names; a confirm on a log that moved since its preview is
    refused with that preview made again on the log as it is now."""
    try:
        if request.POST.get("confirm"):
            try:
                services.result_amend(
                    tournament_id=tournament_id,
                    user=request.user,
                    expected_version=version,
                    **fields,
                )
                return True, None, 200
            except ConcurrencyError as error:
                form.add_error(None, stale_preview_message(error))
        preview = services.result_amend_preview(
            tournament_id=tournament_id, user=request.user, **fields
        )
    except (EventRejectedError, RulesError) as error:
        show_refusal(form, error, RESULT_RULE_FIELDS)
        return False, None, 400
    return False, preview, 400 if form.non_field_errors() else 200


def _game_header(first: Player, second: Player) -> str:
    """A GCG record with the players only: a game whose racks are not known yet."""

    def nick(player: Player) -> str:
        return "_".join(player.name.split()) or f"player{player.number}"

    return (
        "#character-encoding UTF-8\n"
        f"#player1 {nick(first)} {first.name}\n"
        f"#player2 {nick(second)} {second.name}\n"
    )


def _game_context(
    tournament: Tournament, division: str, round_: int, board: int, ids: list[str]
) -> dict[str, Any]:
    return {
        "tournament_id": str(tournament.tournament_id),
        "division": division,
        "round": round_,
        "board": board,
        "player_ids": ids,
    }


@login_required
@require_POST
def manage_board_record(
    request: HttpRequest,
    tournament_id: uuid.UUID,
    division: str,
    round_: int,
    board: int,
) -> HttpResponse:
    """Start (or go back to) recording a board's game move by move."""
    tournament = directed(request, tournament_id)
    division = division_or_404(tournament, division)
    line = _board_pairing(tournament, division, round_, board)
    first, second = line.first, line.second
    assert second is not None
    existing = board_games(tournament, division, round_).get((round_, board))
    if existing is not None and not existing.is_over:
        return redirect("game-record", game_id=existing.game_id)
    # The racks of a game recorded from score slips are unknown: starting it as a
    # GCG record of the players only records them so (draws of unknown tiles).
    try:
        result, _ = game_services.game_import_gcg(
            text=_game_header(first, second),
            user=request.user,
            context=_game_context(
                tournament, division, round_, board, [first.player_id, second.player_id]
            ),
        )
    except QuotaExceededError as error:
        messages.error(request, str(error))
        return redirect("manage-results", tournament_id, division, round_)
    return redirect("game-record", game_id=result.stream.id)


@login_required
@require_http_methods(["GET", "POST"])
def manage_board_gcg(
    request: HttpRequest,
    tournament_id: uuid.UUID,
    division: str,
    round_: int,
    board: int,
) -> HttpResponse:
    """Upload a board's game as a GCG file."""
    tournament = directed(request, tournament_id)
    division = division_or_404(tournament, division)
    line = _board_pairing(tournament, division, round_, board)
    first, second = line.first, line.second
    assert second is not None
    form = BoardGcgForm(first=first, second=second)
    status = 200
    quota: QuotaExceededError | None = None
    if request.method == "POST":
        form = BoardGcgForm(request.POST, request.FILES, first=first, second=second)
        if form.is_valid():
            ids = [first.player_id, second.player_id]
            if form.cleaned_data["first_in_file"] == "second":
                ids.reverse()
            try:
                result, record = game_services.game_import_gcg(
                    text=form.cleaned_data["file"].read(),
                    user=request.user,
                    context=_game_context(tournament, division, round_, board, ids),
                )
            except GcgError as error:
                show_gcg_problems(form, error)
            except (RulesError, EventRejectedError) as error:
                form.add_error("file", error.message)
            except QuotaExceededError as error:
                form.add_error("file", str(error))
                quota = error
            else:
                messages.success(
                    request, "Game uploaded." + flagged_note(record.discrepancies)
                )
                return redirect("game-detail", game_id=result.stream.id)
        status = 400 if quota is None else 429
    response = render(
        request,
        "tournaments/manage/board_gcg.html",
        {
            "tournament": tournament,
            "division": division,
            "round": round_,
            "board": board,
            "first": first,
            "second": second,
            "form": form,
        },
        status=status,
    )
    if quota is not None:
        response["Retry-After"] = str(quota.retry_after)
    return response


@login_required
@require_POST
def manage_result_from_game(
    request: HttpRequest, tournament_id: uuid.UUID, game_id: uuid.UUID
) -> HttpResponse:
    """Record a board's result from its finished, recorded game."""
    tournament = team_member(request, tournament_id)
    game = get_object_or_404(
        GameProjection, pk=game_id, tournament_id=tournament.tournament_id
    )
    target = reverse(
        "manage-results", args=[tournament_id, game.division, game.round or 1]
    )
    ids = [player.get("player_id") for player in game.players]
    if len(ids) != 2 or not all(ids) or game.round is None:
        messages.error(request, "Only a game of two paired players counts.")
        return redirect(target)
    # The scores, the scores before the adjustments and the winner come from the
    # game's replay (services.result_record reads them): never typed twice.
    form = forms.Form()
    if submit(
        form,
        lambda: services.result_record(
            tournament_id=tournament_id,
            round_=game.round,
            player_a=ids[0],
            player_b=ids[1],
            game_id=str(game.game_id),
            user=request.user,
        ),
        {},
    ):
        scores = "–".join(map(str, game.scores))
        messages.success(request, f"Result recorded from the game: {scores}.")
    else:
        messages.error(request, " ".join(form.non_field_errors()))
    return redirect(target)
