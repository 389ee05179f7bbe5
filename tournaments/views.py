"""Tournament pages: the public record (divisions, pairings, standings, scorecards,
recorded games) and the director console (set-up, players, pairing, fast results
entry, amendments, recorded games, the audit log).

Views are thin: they read through ``tournaments.selectors`` and the projections,
validate with ``tournaments.forms`` and write through ``tournaments.services``. A
refusal by the rules is shown next to the field it names; nothing is stored.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import services as game_services
from games.eventstore.errors import ConcurrencyError, EventRejectedError
from games.models import GameProjection
from games.readcache import cached_page
from games.views import flagged_note
from rules import tournament as rt
from rules.errors import GcgError, RulesError
from rules.records import EntryKind
from tournaments import corrections, imports, presenters, selectors, services
from tournaments.forms import (
    RESULT_FIELDS,
    RESULT_RULE_FIELDS,
    AmendForm,
    BoardGcgForm,
    DivisionAddForm,
    DivisionRenameForm,
    ForfeitForm,
    LateEntryForm,
    LinkAccountForm,
    MissedRoundForm,
    PairForm,
    PlayerEditForm,
    PlayerListForm,
    PublishForm,
    RatingsListForm,
    ReactivateForm,
    ResultEntryForm,
    RosterForm,
    SettingsForm,
    TeamForm,
    TeamRemoveForm,
    TouImportForm,
    TournamentCreateForm,
    TshEventImportForm,
    TshImportForm,
    WithdrawForm,
    apply_rejection,
)
from tournaments.models import Player, Tournament

STALE = "Someone else changed this tournament since you loaded the page: reload."


# --- access ------------------------------------------------------------------------


def _readable(request: HttpRequest, tournament_id: uuid.UUID) -> Tournament:
    """The tournament if the user may read it; 404 otherwise (no existence leak)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not selectors.tournament_can_read(tournament, request.user):
        raise Http404("No such tournament.")
    return tournament


def _directed(request: HttpRequest, tournament_id: uuid.UUID) -> Tournament:
    tournament = _readable(request, tournament_id)
    if not selectors.tournament_is_director(tournament, request.user):
        raise PermissionDenied("Only this tournament's directors may do that.")
    return tournament


def _team_member(request: HttpRequest, tournament_id: uuid.UUID) -> Tournament:
    """The tournament if the user is of its team: a director or a scorekeeper (who
    may enter and amend results)."""
    tournament = _readable(request, tournament_id)
    if selectors.tournament_role(tournament, request.user) is None:
        raise PermissionDenied("Only this tournament's team may do that.")
    return tournament


def _division(tournament: Tournament, division: str) -> str:
    if division not in tournament.divisions:
        raise Http404(f"No division {division!r}.")
    return division


def _paired_rounds(tournament: Tournament, division: str) -> int:
    return selectors.paired_rounds(tournament.tournament_id, division)


def _rules(tournament: Tournament) -> rt.TournamentState:
    _, aggregate = services.tournament_state(tournament.tournament_id)
    assert aggregate.rules is not None
    return aggregate.rules


def _board_games(
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


def pairing_rows(
    tournament: Tournament, division: str, round_: int
) -> list[presenters.BoardLine]:
    """A round's lines as the pages show them, with each board's recorded game."""
    games = _board_games(tournament, division, round_)
    return [
        presenters.board_line(
            tournament, board, games.get((round_, board.board)) if board.board else None
        )
        for board in selectors.round_boards(tournament.tournament_id, division, round_)
    ]


def _submit(
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
        apply_rejection(form, error, fields, prefix(error) if prefix else "")
    else:
        return True
    return False


# --- public pages ------------------------------------------------------------------


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.tournament_list(request.user).order_by(
        "-start_date", "name"
    )
    return render(
        request,
        "tournaments/list.html",
        {
            "tournaments": tournaments,
            "may_create": services.may_create_tournament(request.user),
        },
    )


@require_GET
def tournament_detail(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    header = selectors.readable_header(
        selectors.tournament_header(tournament_id), request.user
    )

    def build() -> HttpResponse:
        # Bounded whatever the log holds (a tournament from before the limits may
        # have thousands of divisions): the first MAX_DIVISIONS, then a count.
        shown = header.divisions[: rt.MAX_DIVISIONS]
        return render(
            request,
            "tournaments/detail.html",
            {
                "tournament": Tournament.objects.defer(
                    "divisions", "division_versions"
                ).get(pk=tournament_id),
                "divisions": selectors.division_summaries(tournament_id, shown),
                "more_divisions": len(header.divisions) - len(shown),
                "is_director": selectors.tournament_is_director(header, request.user),
            },
        )

    # Everything the page shows moves with the tournament's version.
    return cached_page(request, [tournament_id], header.version, build)


# A division's lists, a page at a time: bounded whatever an old log holds.
PLAYERS_PER_PAGE = 250
GAMES_PER_PAGE = 200


def _page_number(request: HttpRequest) -> int:
    """The ?page= asked for; 1 when absent or not a page number."""
    value = request.GET.get("page", "")
    return int(value) if value.isdigit() and len(value) < 7 and value != "0" else 1


def _page(items: Any, per_page: int, number: int) -> Any:
    """Page `number` of `items`; 404 past the last (never a page kept for it)."""
    pages = Paginator(items, per_page)
    if number > pages.num_pages:
        raise Http404("No such page.")
    return pages.page(number)


@require_GET
def division_detail(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    header = selectors.readable_header(
        selectors.tournament_header(tournament_id), request.user
    )
    if division not in header.divisions:
        raise Http404(f"No division {division!r}.")
    number = _page_number(request)

    def build() -> HttpResponse:
        players = Player.objects.filter(
            tournament_id=tournament_id, division=division
        ).order_by("number")
        page = _page(players, PLAYERS_PER_PAGE, number)
        last = selectors.last_round(tournament_id, division)
        return render(
            request,
            "tournaments/division.html",
            {
                # Unsaved, from the header: the page shows only the name.
                "tournament": Tournament(tournament_id=tournament_id, name=header.name),
                "division": division,
                "players": page.object_list,
                "page": page,
                "rounds": range(1, (last or 0) + 1),
                "standings_after": last,
            },
        )

    # Players and pairings both move the division's version.
    return cached_page(
        request,
        [tournament_id, division, number],
        header.division_version(division),
        build,
        reads=("page",),
    )


@require_GET
def round_pairings(
    request: HttpRequest, tournament_id: uuid.UUID, division: str, round_: int
) -> HttpResponse:
    tournament = _readable(request, tournament_id)
    division = _division(tournament, division)
    paired = _paired_rounds(tournament, division)
    if not 1 <= round_ <= max(paired, 1) or round_ > tournament.rounds:
        raise Http404(f"Round {round_} is not paired.")
    return render(
        request,
        "tournaments/pairings.html",
        {
            "tournament": tournament,
            "division": division,
            "round": round_,
            "rows": pairing_rows(tournament, division, round_),
            "rounds": range(1, paired + 1),
            "is_director": selectors.tournament_is_director(tournament, request.user),
        },
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
    header = selectors.readable_header(
        selectors.tournament_header(tournament_id), request.user
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
            last, rows = selectors.standings(tournament_id, division, None)
            shown = last
        else:
            last = selectors.paired_rounds(tournament_id, division)
            if not 0 <= after_round <= last:
                raise Http404(f"No standings after round {after_round}.")
            shown, rows = selectors.standings(tournament_id, division, after_round)
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
    return cached_page(request, [tournament_id], version, build)


@require_GET
def scorecard(
    request: HttpRequest, tournament_id: uuid.UUID, player_id: str
) -> HttpResponse:
    # The tournament's and the player's rows in one statement (as the API reads
    # them) are all a cached page needs; the tournament's model only when the page
    # is built.
    header = selectors.readable_header(
        selectors.scorecard_header(tournament_id, player_id), request.user
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
            lambda: selectors.scorecard_lines(
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
                "standing": SimpleLazyObject(lambda: selectors.latest_standing(lines)),
                "division_version": version,
                # Self-entry's switch counts for the division's version.
                "self_entry": header.self_entry,
            },
        )

    # A players change counts for every division's version (the player's row).
    return cached_page(request, [tournament_id], version, build)


def _scorecard_rows(
    tournament: Tournament, player: Player, lines: list[selectors.ScorecardLine]
) -> list[dict[str, Any]]:
    """The scorecard's lines with their boards and games."""
    # Games recorded without a result naming them: found by round and board, only
    # for the rounds that need it (not the whole division's games).
    unnamed = [
        (line.round, line.board)
        for line in lines
        if line.game_id is None and line.board is not None
    ]
    games = selectors.board_game_ids(tournament.tournament_id, player.division, unnamed)
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
    tournament = _readable(request, tournament_id)
    division = _division(tournament, division)
    games = GameProjection.objects.filter(
        tournament_id=tournament.tournament_id, division=division
    ).order_by("round", "board_number", "started_at")
    # Paged, not cached: a game's moves change its row without any tournament
    # version moving.
    page = _page(games, GAMES_PER_PAGE, _page_number(request))
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


# --- director console --------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    services.require_may_create_tournament(request.user)
    today = timezone.localdate()
    form = TournamentCreateForm(
        initial={
            "preset": "classic",
            "rounds": 7,
            "start_date": today,
            "end_date": today,
        }
    )
    status = 200
    if request.method == "POST":
        form = TournamentCreateForm(request.POST)
        if form.is_valid():
            try:
                result = services.tournament_create(
                    user=request.user, **form.service_arguments()
                )
            except EventRejectedError as error:
                fields = dict(TournamentCreateForm.FIELDS)
                if error.index > 0:
                    fields["name"] = "divisions"
                apply_rejection(form, error, fields)
            else:
                messages.success(request, "Tournament created: now add the players.")
                return redirect("manage", tournament_id=result.stream.id)
        status = 400
    return render(
        request, "tournaments/manage/create.html", {"form": form}, status=status
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_import_tsh(request: HttpRequest) -> HttpResponse:
    """Set up a tournament from tsh's config.tsh and its divisions' .t files."""
    services.require_may_create_tournament(request.user)
    form = TshEventImportForm(initial={"start_date": timezone.localdate()})
    status = 200
    if request.method == "POST":
        form = TshEventImportForm(request.POST, request.FILES)
        done: list[imports.EventImport] = []
        data = form.cleaned_data if form.is_valid() else None
        if data is not None and _submit(
            form,
            lambda: done.append(
                imports.tsh_event_import(
                    user=request.user,
                    name=data["name"],
                    start_date=data["start_date"].isoformat(),
                    end_date=data["end_date"].isoformat()
                    if data.get("end_date")
                    else None,
                    config=data["config"],
                    files=data["files"],
                )
            ),
            {},
        ):
            imported = done[0]
            messages.success(
                request,
                f"Imported divisions {', '.join(imported.divisions)}: ranked as tsh"
                " ranks.",
            )
            for line, text in imported.not_taken:
                messages.warning(request, f"config.tsh line {line} not taken: {text}")
            return redirect("manage", tournament_id=imported.result.stream.id)
        status = 400
    return render(
        request, "tournaments/manage/import_tsh.html", {"form": form}, status=status
    )


def _console_context(tournament: Tournament) -> dict[str, Any]:
    divisions = []
    for division in tournament.divisions:
        paired = _paired_rounds(tournament, division)
        missing = selectors.missing_results(tournament, division)
        divisions.append(
            {
                "name": division,
                "players": Player.objects.filter(
                    tournament=tournament, division=division
                ).count(),
                "paired": paired,
                "rounds": range(1, paired + 1),
                "missing": missing,
            }
        )
    return {"tournament": tournament, "divisions": divisions}


# The console's forms: (form class, what it does, the rules' fields it shows).
CONSOLE_FORMS: dict[str, type[forms.Form]] = {
    "division": DivisionAddForm,
    "rename": DivisionRenameForm,
    "settings": SettingsForm,
    "team": TeamForm,
    "team_remove": TeamRemoveForm,
}


def _console_command(
    action: str, form: Any, tournament_id: uuid.UUID, user: Any
) -> str:
    """Run one command of the console; return the message said when it is stored."""
    data = form.cleaned_data
    if action == "division":
        services.tournament_append(
            tournament_id=tournament_id,
            events=[rt.DivisionAdded(name=data["name"])],
            user=user,
        )
        return f"Division {data['name']} added."
    if action == "rename":
        corrections.division_rename(
            tournament_id=tournament_id,
            name=data["division"],
            new_name=data["name"],
            user=user,
        )
        return f"Division {data['division']} is now {data['name']}."
    if action == "settings":
        corrections.settings_change(
            tournament_id=tournament_id, changes=form.changes(), user=user
        )
        return "Settings corrected: every standing is counted again."
    if action == "team":
        corrections.team_add(
            tournament_id=tournament_id,
            username=data["username"],
            role=data["role"],
            user=user,
        )
        return f"{data['username']} joins the team as {data['role']}."
    corrections.team_remove(
        tournament_id=tournament_id, username=data["username"], user=user
    )
    return f"{data['username']} leaves the team."


CONSOLE_RULE_FIELDS = {
    "name": "name",
    "new_name": "name",
    "rounds": "rounds",
    "bye_spread": "bye_spread",
    "forfeit_spread": "forfeit_spread",
    "spread_cap": "spread_cap",
    "spread_caps": "spread_caps",
    "username": "username",
    "role": "role",
    "tile_set": "tile_set",
    "lexicon": "lexicon",
}


@login_required
@require_http_methods(["GET", "POST"])
def manage(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """The director's console: divisions, settings, the team, publication, links to
    every task (a scorekeeper sees the results only)."""
    tournament = _team_member(request, tournament_id)
    is_director = selectors.tournament_is_director(tournament, request.user)
    forms_ = {action: form() for action, form in CONSOLE_FORMS.items()}
    forms_["settings"] = SettingsForm.of(tournament)
    status = 200
    if request.method == "POST":
        if not is_director:
            raise PermissionDenied("Only this tournament's directors may do that.")
        action = request.POST.get("action", "")
        if action == "publish":
            form = PublishForm(request.POST)
            form.is_valid()
            services.tournament_publish(
                tournament_id=tournament_id,
                published=form.cleaned_data.get("published", False),
                user=request.user,
            )
            return redirect("manage", tournament_id=tournament_id)
        if action not in CONSOLE_FORMS:
            return HttpResponse("Unknown action.", status=400)
        form = (
            SettingsForm.of(tournament, request.POST)
            if action == "settings"
            else CONSOLE_FORMS[action](request.POST)
        )
        done: list[str] = []
        if form.is_valid() and _submit(
            form,
            lambda: done.append(
                _console_command(action, form, tournament_id, request.user)
            ),
            CONSOLE_RULE_FIELDS,
        ):
            messages.success(request, done[0])
            return redirect("manage", tournament_id=tournament_id)
        forms_[action] = form
        status = 400
        tournament.refresh_from_db()
    context = _console_context(tournament)
    context.update(
        forms=forms_,
        is_director=is_director,
        team=selectors.tournament_team(tournament) if is_director else [],
    )
    return render(request, "tournaments/manage/console.html", context, status=status)


PLAYER_FORMS = {
    "register": PlayerListForm,
    "tsh": TshImportForm,
    "tou": TouImportForm,
    "ratings": RatingsListForm,
    "withdraw": WithdrawForm,
    "reactivate": ReactivateForm,
    "link": LinkAccountForm,
    "edit": PlayerEditForm,
    "late": LateEntryForm,
    "miss": MissedRoundForm,
}


def _player_form(action: str, roster: dict[int, Player], *args: Any) -> Any:
    form_class = PLAYER_FORMS[action]
    kwargs: dict[str, Any] = {"prefix": action}
    if issubclass(form_class, RosterForm):
        kwargs["roster"] = roster
    return form_class(*args, **kwargs)


# Each command of the players page: (form's data, tournament id, division, user)
# -> the message said when it is stored.
PlayerCommand = Callable[[dict[str, Any], uuid.UUID, str, Any], str]


def _register(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    services.players_register(
        tournament_id=tid, division=division, entries=data["entries"], user=user
    )
    return f"{len(data['entries'])} players registered."


def _import_t(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    imports.tsh_import(
        tournament_id=tid, division=division, text=data["file"], user=user
    )
    return "The .t file is imported."


def _import_tou(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    imports.tou_import(
        tournament_id=tid,
        text=data["file"],
        ratings_list=data["ratings_list"],
        user=user,
    )
    return "The .TOU file is imported."


def _import_ratings(
    data: dict[str, Any], tid: uuid.UUID, division: str, user: Any
) -> str:
    _, updates = imports.ratings_list_import(
        tournament_id=tid, text=data["file"], division=division, user=user
    )
    names = dict(
        Player.objects.filter(tournament_id=tid).values_list("player_id", "name")
    )
    message = f"Ratings updated for {len(updates.events)} players"
    if updates.unchanged:
        message += f", {len(updates.unchanged)} already up to date"
    if updates.unmatched:
        missing = ", ".join(names.get(pid, pid) for pid in updates.unmatched)
        message += f"; not on the list: {missing}"
    return message + "."


def _withdraw(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    player = data["player"]
    services.player_withdraw(
        tournament_id=tid,
        player_id=player.player_id,
        from_round=data["from_round"],
        policy=data["policy"],
        user=user,
    )
    return f"{player.name} withdrawn from round {data['from_round']}."


def _reactivate(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    player = data["player"]
    services.player_reactivate(
        tournament_id=tid,
        player_id=player.player_id,
        from_round=data["from_round"],
        user=user,
    )
    return f"{player.name} plays again from round {data['from_round']}."


def _link(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    player = data["player"]
    account = get_user_model().objects.filter(username=data["username"]).first()
    if account is None:
        raise rt.TournamentError(
            "unknown_user", f"No user is called {data['username']!r}.", "username"
        )
    services.player_link_account(
        tournament_id=tid, player_id=player.player_id, account=account, user=user
    )
    return f"{player.name} is linked to the account {account.get_username()}."


def _edit(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    player = data["player"]
    changes = {
        field: data[field]
        for field in ("name", "rating", "member_id", "career_games")
        if data.get(field) not in (None, "")
    }
    done = corrections.player_edit(
        tournament_id=tid, player_id=player.player_id, user=user, **changes
    )
    return " ".join([f"{player.name} corrected.", *done.notes])


def _late(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    corrections.late_entry(
        tournament_id=tid,
        division=division,
        name=data["name"],
        rating=data["rating"],
        member_id=data.get("member_id") or "",
        career_games=data.get("career_games"),
        credit=corrections.LateCredit(data["credit"]),
        user=user,
    )
    return f"{data['name']} entered late."


def _miss(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    player = data["player"]
    corrections.round_missed(
        tournament_id=tid,
        player_id=player.player_id,
        round_=data["round"],
        policy=data["policy"],
        user=user,
    )
    return f"{player.name} misses round {data['round']} and plays the next."


PLAYER_COMMANDS: dict[str, PlayerCommand] = {
    "register": _register,
    "tsh": _import_t,
    "tou": _import_tou,
    "ratings": _import_ratings,
    "withdraw": _withdraw,
    "reactivate": _reactivate,
    "link": _link,
    "edit": _edit,
    "late": _late,
    "miss": _miss,
}


# A file's refusals are about the file as a whole.
FILE_ACTIONS = ("tsh", "tou", "ratings")

PLAYER_RULE_FIELDS = {
    "player_id": "player",
    "from_round": "from_round",
    "policy": "policy",
    "username": "username",
    "name": "name",
    "rating": "rating",
    "member_id": "member_id",
    "career_games": "career_games",
    "round": "round",
}


def _player_line(entries: list[tuple[str, int, str]]) -> Callable[[Any], str]:
    """Name the pasted line a refused registration came from."""

    def prefix(error: Any) -> str:
        index = getattr(error, "index", 0)
        return f"Player {index + 1} ({entries[index][0]}): "

    return prefix


@login_required
@require_http_methods(["GET", "POST"])
def manage_players(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """Register (paste, upload, .t file), withdraw, re-activate and link players."""
    tournament = _directed(request, tournament_id)
    division = _division(tournament, division)
    roster = selectors.division_roster(tournament, division)
    forms = {action: _player_form(action, roster) for action in PLAYER_FORMS}
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in PLAYER_FORMS:
            return HttpResponse("Unknown action.", status=400)
        form = _player_form(action, roster, request.POST, request.FILES)
        done: list[str] = []
        if form.is_valid() and _submit(
            form,
            lambda: done.append(
                PLAYER_COMMANDS[action](
                    form.cleaned_data, tournament.tournament_id, division, request.user
                )
            ),
            # A .t file's refusals are about the file as a whole.
            {} if action in FILE_ACTIONS else PLAYER_RULE_FIELDS,
            _player_line(form.cleaned_data["entries"])
            if action == "register"
            else None,
        ):
            messages.success(request, done[0])
            return redirect("manage-players", tournament_id, division)
        forms[action] = form
        status = 400
    players = Player.objects.filter(tournament=tournament, division=division)
    return render(
        request,
        "tournaments/manage/players.html",
        {
            "tournament": tournament,
            "division": division,
            "players": players,
            "forms": forms,
            "paired": _paired_rounds(tournament, division),
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def manage_pair(
    request: HttpRequest, tournament_id: uuid.UUID, division: str
) -> HttpResponse:
    """Pair a round by system or by hand, and show what it gave."""
    tournament = _directed(request, tournament_id)
    division = _division(tournament, division)
    roster = selectors.division_roster(tournament, division)
    paired = _paired_rounds(tournament, division)
    next_round = min(paired + 1, tournament.rounds)
    form = PairForm(roster=roster, initial={"round": next_round, "method": "swiss"})
    status = 200
    if request.method == "POST":
        form = PairForm(request.POST, roster=roster)
        data = form.cleaned_data if form.is_valid() else None
        if data is not None and _submit(
            form,
            lambda: services.round_pair(
                tournament_id=tournament_id,
                division=division,
                round_=data["round"],
                method=data["method"],
                games=data["games"],
                byes=data["byes"],
                based_on_round=data.get("based_on_round"),
                allow_repeats=data["allow_repeats"],
                user=request.user,
            ),
            {"round": "round", "games": "manual", "byes": "manual"},
        ):
            messages.success(request, f"Round {data['round']} is paired.")
            return redirect(
                reverse("manage-pair", args=[tournament_id, division])
                + f"?round={data['round']}"
            )
        status = 400
    shown = request.GET.get("round", "")
    shown_round = int(shown) if shown.isdigit() else paired
    return render(
        request,
        "tournaments/manage/pair.html",
        {
            "tournament": tournament,
            "division": division,
            "form": form,
            "roster": sorted(roster.values(), key=lambda p: p.number),
            "paired": paired,
            "shown_round": shown_round,
            "rows": pairing_rows(tournament, division, shown_round)
            if shown_round
            else [],
        },
        status=status,
    )


# --- results -----------------------------------------------------------------------


def _results_form(
    tournament: Tournament, division: str, round_: int, data: Any = None
) -> ResultEntryForm:
    return ResultEntryForm(
        data, rules=_rules(tournament), division=division, round_=round_
    )


def _results_context(
    tournament: Tournament, division: str, round_: int, form: ResultEntryForm
) -> dict[str, Any]:
    rows = pairing_rows(tournament, division, round_)
    games = [
        row
        for row in rows
        if row.game is not None and row.game.is_over and not row.has_result
    ]
    _, standing_rows = selectors.standings(tournament.tournament_id, division, round_)
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
        "rounds": range(1, _paired_rounds(tournament, division) + 1),
        "forfeit_form": ForfeitForm(roster={}),
    }


@login_required
@require_http_methods(["GET", "POST"])
def manage_results(
    request: HttpRequest, tournament_id: uuid.UUID, division: str, round_: int
) -> HttpResponse:
    """Enter a round's results fast: number, score, number, score, Enter."""
    tournament = _team_member(request, tournament_id)
    division = _division(tournament, division)
    if not 1 <= round_ <= _paired_rounds(tournament, division):
        raise Http404(f"Round {round_} is not paired yet.")
    form = _results_form(tournament, division, round_)
    status = 200
    flash = ""
    if request.method == "POST":
        form = _results_form(tournament, division, round_, request.POST)
        data = form.cleaned_data if form.is_valid() and form.finish() else None
        if data is not None:
            a, b = data["player_a"], data["player_b"]
            if _submit(
                form,
                lambda: services.result_record(
                    tournament_id=tournament_id,
                    round_=round_,
                    player_a=a.player_id,
                    player_b=b.player_id,
                    score_a=data["a_score"],
                    score_b=data["b_score"],
                    pre_adjustment_a=data.get("a_pre"),
                    pre_adjustment_b=data.get("b_pre"),
                    user=request.user,
                ),
                RESULT_RULE_FIELDS,
            ):
                flash = (
                    f"Recorded: #{a.number} {a.name} {data['a_score']} – "
                    f"{data['b_score']} #{b.number} {b.name}."
                )
                if not request.htmx:
                    messages.success(request, flash)
                    return redirect("manage-results", tournament_id, division, round_)
                tournament.refresh_from_db()
                form = _results_form(tournament, division, round_)
        if not flash:
            # htmx swaps only 2xx answers: the refusal is in the page it swaps in.
            status = 200 if request.htmx else 400
    context = _results_context(tournament, division, round_, form)
    context["flash"] = flash
    template = (
        "tournaments/manage/_results_panel.html"
        if request.htmx
        else "tournaments/manage/results.html"
    )
    return render(request, template, context, status=status)


@login_required
@require_POST
def manage_results_check(
    request: HttpRequest, tournament_id: uuid.UUID, division: str, round_: int
) -> HttpResponse:
    """The instant check of a partly typed slip: a message per field, as JSON."""
    tournament = _team_member(request, tournament_id)
    division = _division(tournament, division)
    form = _results_form(tournament, division, round_, request.POST)
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
    tournament = _team_member(request, tournament_id)
    division = _division(tournament, division)
    roster = selectors.division_roster(tournament, division)
    form = ForfeitForm(request.POST, roster=roster)
    absentee = form.cleaned_data["absentee"] if form.is_valid() else None
    if absentee is not None and _submit(
        form,
        lambda: services.forfeit_record(
            tournament_id=tournament_id,
            round_=round_,
            absentee=absentee.player_id,
            user=request.user,
        ),
        {"absentee": "absentee", "round": "absentee"},
    ):
        messages.success(request, f"{absentee.name} forfeits round {round_}.")
        return redirect("manage-results", tournament_id, division, round_)
    context = _results_context(
        tournament, division, round_, _results_form(tournament, division, round_)
    )
    context["forfeit_form"] = form
    return render(request, "tournaments/manage/results.html", context, status=400)


def _board_pairing(
    tournament: Tournament, division: str, round_: int, board: int
) -> selectors.Board:
    """The game on ``board`` of the round (404 when the round has no such game)."""
    for line in selectors.round_boards(tournament.tournament_id, division, round_):
        if line.board == board and line.second is not None:
            return line
    raise Http404(f"No board {board} in round {round_}.")


def _amend_initial(board: selectors.Board, version: int) -> dict[str, Any]:
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
            initial.update(a_pre=first.own_pre, b_pre=first.opponent_pre)
    return initial


@login_required
@require_http_methods(["GET", "POST"])
def manage_amend(
    request: HttpRequest,
    tournament_id: uuid.UUID,
    division: str,
    round_: int,
    board: int,
) -> HttpResponse:
    """Amend a board's result as a whole: new scores or a forfeit, with a reason."""
    tournament = _team_member(request, tournament_id)
    division = _division(tournament, division)
    line = _board_pairing(tournament, division, round_, board)
    first, second = line.first, line.second
    assert second is not None
    initial = _amend_initial(line, tournament.version)
    form = AmendForm(initial=initial, first=first, second=second)
    status = 200
    if request.method == "POST":
        form = AmendForm(request.POST, first=first, second=second)
        data = form.cleaned_data if form.is_valid() else None
        if data is not None and _submit(
            form,
            lambda: services.result_amend(
                tournament_id=tournament_id,
                round_=round_,
                player_a=first.player_id,
                player_b=second.player_id,
                score_a=data["a_score"],
                score_b=data["b_score"],
                pre_adjustment_a=data["a_pre"],
                pre_adjustment_b=data["b_pre"],
                absentee=data["absentee"],
                reason=data.get("reason") or "",
                user=request.user,
                expected_version=data["version"],
            ),
            RESULT_RULE_FIELDS,
        ):
            messages.success(
                request,
                f"Round {round_} board {board} amended: every later standing "
                "is recomputed.",
            )
            return redirect("manage-results", tournament_id, division, round_)
        status = 400
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
        },
        status=status,
    )


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
    tournament = _directed(request, tournament_id)
    division = _division(tournament, division)
    line = _board_pairing(tournament, division, round_, board)
    first, second = line.first, line.second
    assert second is not None
    existing = _board_games(tournament, division, round_).get((round_, board))
    if existing is not None and not existing.is_over:
        return redirect("game-record", game_id=existing.game_id)
    # The racks of a game recorded from score slips are unknown: starting it as a
    # GCG record of the players only records them so (draws of unknown tiles).
    result, _ = game_services.game_import_gcg(
        text=_game_header(first, second),
        user=request.user,
        context=_game_context(
            tournament, division, round_, board, [first.player_id, second.player_id]
        ),
    )
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
    tournament = _directed(request, tournament_id)
    division = _division(tournament, division)
    line = _board_pairing(tournament, division, round_, board)
    first, second = line.first, line.second
    assert second is not None
    form = BoardGcgForm(first=first, second=second)
    status = 200
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
                for line, _code, message in error.problems:
                    form.add_error(
                        "file", f"Line {line}: {message}" if line else message
                    )
            except (RulesError, EventRejectedError) as error:
                form.add_error("file", error.message)
            else:
                messages.success(
                    request, "Game uploaded." + flagged_note(record.discrepancies)
                )
                return redirect("game-detail", game_id=result.stream.id)
        status = 400
    return render(
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


@login_required
@require_POST
def manage_result_from_game(
    request: HttpRequest, tournament_id: uuid.UUID, game_id: uuid.UUID
) -> HttpResponse:
    """Record a board's result from its finished, recorded game."""
    tournament = _team_member(request, tournament_id)
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
    if _submit(
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


@login_required
@require_GET
def manage_audit(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Every event of the tournament: who did what, when, and what it replaced."""
    tournament = _directed(request, tournament_id)
    entries = selectors.tournament_audit(tournament)
    players = selectors.players_by_id(tournament)
    rows = []
    for entry in reversed(entries):
        replaced = ""
        if entry.supersedes:
            old = entry.supersedes
            if old.get("absentee"):
                name = players.get(old["absentee"])
                replaced = f"{name.name if name else old['absentee']} forfeits"
            else:
                a, b = players.get(old["player_a"]), players.get(old["player_b"])
                replaced = (
                    f"{a.name if a else old['player_a']} {old['score_a']}–"
                    f"{old['score_b']} {b.name if b else old['player_b']}"
                )
        rows.append(
            {
                "entry": entry,
                "replaced": replaced,
                "reason": entry.payload.get("reason", "")
                if entry.event_type == "result_amended"
                else "",
            }
        )
    return render(
        request,
        "tournaments/manage/audit.html",
        {"tournament": tournament, "rows": rows},
    )
