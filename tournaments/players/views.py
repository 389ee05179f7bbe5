"""The console's players page: register, import, correct, withdraw, enter late."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from rules import tournament as rt
from tournaments.core.aggregate import tournament_state
from tournaments.core.pages import directed, division_or_404, submit
from tournaments.models import Player
from tournaments.pairing import selectors as pairing_selectors
from tournaments.players import accounts, registration, selectors, services
from tournaments.players.forms import (
    CheckInForm,
    DivisionRoundsForm,
    LateEntryForm,
    LinkAccountForm,
    MissedRoundForm,
    MoveForm,
    NoShowsForm,
    PlayerEditForm,
    PlayerListForm,
    ReactivateForm,
    RosterForm,
    WithdrawForm,
)
from tournaments.ratings import imports
from tournaments.ratings.forms import (
    RatingsListForm,
    TouImportForm,
    TshImportForm,
)

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
    # The registration day.
    "checkin": CheckInForm,
    "noshows": NoShowsForm,
    "move": MoveForm,
    "rounds": DivisionRoundsForm,
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
    imported = imports.tsh_import(
        tournament_id=tid, division=division, text=data["file"], user=user
    )
    if not imported.notes:
        return "The .t file is imported."
    return "The .t file is imported. Kept as tsh keeps it: " + "; ".join(imported.notes)


def _import_tou(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    imported = imports.tou_import(
        tournament_id=tid,
        text=data["file"],
        ratings_list=data["ratings_list"],
        user=user,
    )
    if not imported.notes:
        return "The .TOU file is imported."
    return "The .TOU file is imported. Kept as the WESPA programs read it: " + (
        "; ".join(imported.notes)
    )


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
    accounts.player_link_account(
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
    done = services.player_edit(
        tournament_id=tid, player_id=player.player_id, user=user, **changes
    )
    return " ".join([f"{player.name} corrected.", *done.notes])


def _late(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    services.late_entry(
        tournament_id=tid,
        division=division,
        name=data["name"],
        rating=data["rating"],
        member_id=data.get("member_id") or "",
        career_games=data.get("career_games"),
        credit=services.LateCredit(data["credit"]),
        user=user,
    )
    return f"{data['name']} entered late."


def _miss(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    player = data["player"]
    services.round_missed(
        tournament_id=tid,
        player_id=player.player_id,
        round_=data["round"],
        policy=data["policy"],
        user=user,
    )
    return f"{player.name} misses round {data['round']} and plays the next."


# --- The registration day ----------------------------------------------------------


def _check_in(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    player = data["player"]
    registration.check_in(
        tournament_id=tid,
        player_id=player.player_id,
        present=data["present"],
        user=user,
    )
    return f"{player.name} " + ("checked in." if data["present"] else "not checked in.")


def _no_shows(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    done = registration.no_shows_withdraw(
        tournament_id=tid, division=division, user=user
    )
    return (
        f"Withdrawn from round 1 (not checked in): {', '.join(done.names)}."
        " A player who arrives before round 1 is paired: re-activate them from"
        " round 1 and check them in."
    )


def _move(data: dict[str, Any], tid: uuid.UUID, division: str, user: Any) -> str:
    player = data["player"]
    registration.player_move(
        tournament_id=tid,
        player_id=player.player_id,
        division=data["division"],
        user=user,
    )
    return f"{player.name} now plays in division {data['division']}."


def _division_rounds(
    data: dict[str, Any], tid: uuid.UUID, division: str, user: Any
) -> str:
    registration.division_rounds_set(
        tournament_id=tid, division=division, rounds=data["rounds"], user=user
    )
    if data["rounds"] is None:
        return f"Division {division} plays the tournament's rounds."
    return f"Division {division} plays {data['rounds']} rounds."


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
    "checkin": _check_in,
    "noshows": _no_shows,
    "move": _move,
    "rounds": _division_rounds,
}


# A file's refusals are about the file as a whole; a button's (a check-in, the
# no-shows) have no box to stand by: both are said above the form.
FILE_ACTIONS = ("tsh", "tou", "ratings")
BUTTON_ACTIONS = ("checkin", "noshows")


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
    "division": "division",
    "rounds": "rounds",
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
    tournament = directed(request, tournament_id)
    division = division_or_404(tournament, division)
    roster = selectors.division_roster(tournament, division)
    forms = {action: _player_form(action, roster) for action in PLAYER_FORMS}
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in PLAYER_FORMS:
            return HttpResponse("Unknown action.", status=400)
        form = _player_form(action, roster, request.POST, request.FILES)
        done: list[str] = []
        if form.is_valid() and submit(
            form,
            lambda: done.append(
                PLAYER_COMMANDS[action](
                    form.cleaned_data, tournament.tournament_id, division, request.user
                )
            ),
            # A .t file's refusals are about the file as a whole.
            {} if action in FILE_ACTIONS + BUTTON_ACTIONS else PLAYER_RULE_FIELDS,
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
            "paired": pairing_selectors.paired_rounds(
                tournament.tournament_id, division
            ),
            **_registration_context(tournament.tournament_id, division),
        },
        status=status,
    )


def _registration_context(tournament_id: uuid.UUID, division: str) -> dict[str, Any]:
    """The registration day's part of the page: who has checked in (the
    aggregate's, a fact no public row shows), the division's rounds."""
    _, state = tournament_state(tournament_id)
    rules = state.rules
    assert rules is not None
    players = [rules.players[p] for p in rules.division_players.get(division, ())]
    checked = {player.player_id for player in players if player.checked_in}
    return {
        "check_in_open": rules.round_state(division, 1) is None,
        "checked_in": checked,
        "checked_in_count": len(checked),
        "no_shows": [p.name for p in registration.no_shows(rules, division)],
        "division_rounds": rules.rounds_of(division),
        "own_rounds": division in rules.division_rounds,
        "other_divisions": [d for d in rules.divisions if d != division],
    }
