"""Event handlers for divisions and players: added, registered, withdrawn, back.

Each handler checks its event against the state and returns the new state, with
the cells the event changes refreshed (``rules.tournament.entries``). A withdrawn
player's later rounds follow the withdrawal policy (``WithdrawalPolicy``).

Usage (through ``apply``)::

    state = apply(state, PlayerRegistered(player_id="p3", division="A", name="Cy"))
    state = apply(state, PlayerWithdrawn(player_id="p3", after_round=2))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from rules.errors import TournamentError
from rules.tournament.checks import (
    _check_enum,
    _check_round,
    _require_int,
    _require_text,
)
from rules.tournament.entries import _refresh
from rules.tournament.enums import WithdrawalPolicy
from rules.tournament.events import (
    DivisionAdded,
    Extension,
    PlayerReactivated,
    PlayerRegistered,
    PlayerWithdrawn,
)
from rules.tournament.state import Player, PlayerCard, TournamentState, Withdrawal


def _division_added(event: DivisionAdded, state: TournamentState) -> TournamentState:
    name = _require_text(event.name, "name")
    if name in state.division_players:
        raise TournamentError(
            "duplicate_division", f"Division {name!r} already exists.", "name"
        )
    return replace(
        state,
        divisions=(*state.divisions, name),
        division_players={**state.division_players, name: ()},
    )


def _check_division(state: TournamentState, division: object) -> str:
    if not isinstance(division, str) or division not in state.division_players:
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    return division


def _player_registered(
    event: PlayerRegistered, state: TournamentState
) -> TournamentState:
    player_id = _require_text(event.player_id, "player_id", "invalid_player_id")
    if player_id in state.players:
        raise TournamentError(
            "duplicate_player",
            f"A player with the id {player_id!r} is already registered.",
            "player_id",
        )
    division = _check_division(state, event.division)
    name = _require_text(event.name, "name")
    rating = _require_int(event.rating, "rating", "invalid_rating")
    if rating < 0:
        raise TournamentError(
            "invalid_rating", "rating must not be negative (0: unrated).", "rating"
        )
    if not isinstance(event.member_id, str):
        raise TournamentError("invalid_value", "member_id must be text.", "member_id")
    _check_player_record(event)
    ids = state.division_players[division]
    _check_not_registered(state, ids, name, event.member_id)
    _check_member_id_free(state, event.member_id, None)
    player = Player(
        player_id=player_id,
        division=division,
        number=len(ids) + 1,
        name=name,
        rating=rating,
        member_id=event.member_id,
        joined_after_round=state.paired_rounds(division),
        rating_text=event.rating_text,
        career_games=event.career_games,
        extensions=event.extensions,
    )
    return replace(
        state,
        players={**state.players, player_id: player},
        division_players={**state.division_players, division: (*ids, player_id)},
        cards={
            **state.cards,
            player_id: PlayerCard((None,) * state.settings.rounds),
        },
    )


def _same_name(name: str) -> str:
    return " ".join(name.split()).casefold()


def _check_not_registered(
    state: TournamentState, ids: Iterable[str], name: str, member_id: str
) -> None:
    """Refuse a player pasted or imported twice: the same name and member id in
    the division (two players may share a name when their member ids differ)."""
    key = _same_name(name)
    for player_id in ids:
        other = state.players[player_id]
        if _same_name(other.name) == key and other.member_id == member_id:
            raise TournamentError(
                "duplicate_registration",
                f"{name} is already registered in division {other.division}"
                f" (player #{other.number}"
                + (f", member {member_id}" if member_id else "")
                + ").",
                "name",
            )


def _check_member_id_free(
    state: TournamentState, member_id: str, player_id: str | None
) -> None:
    """Refuse a member id another player of the tournament already has: one
    member plays once in an event (the same person pasted twice under two
    spellings, or a typo in the id)."""
    if not member_id:
        return
    for other in state.players.values():
        if other.member_id == member_id and other.player_id != player_id:
            raise TournamentError(
                "duplicate_member_id",
                f"Member {member_id} is already registered: {other.name}, player"
                f" #{other.number} of division {other.division}.",
                "member_id",
            )


def _check_player_record(event: PlayerRegistered) -> None:
    """Check what a player line of a source file carried beside name and rating."""
    if not isinstance(event.rating_text, str) or any(
        char.isspace() for char in event.rating_text
    ):
        raise TournamentError(
            "invalid_rating", "rating_text must be one word.", "rating_text"
        )
    games = event.career_games
    if games is not None and (type(games) is not int or games < 0):
        raise TournamentError(
            "invalid_value",
            "career_games must be a whole number of 0 or more.",
            "career_games",
        )
    for extension in event.extensions:
        if (
            not isinstance(extension, Extension)
            or not isinstance(extension.key, str)
            or not extension.key
            or any(char.isspace() or char == ";" for char in extension.key)
            or not isinstance(extension.value, str)
            or ";" in extension.value
            or "\n" in extension.value
        ):
            raise TournamentError(
                "invalid_value",
                "Each extension is a key (one word) and its values, without ';'.",
                "extensions",
            )


def _player_rounds_with_results(
    state: TournamentState, player: Player, from_round: int
) -> list[int]:
    found = []
    for round_ in range(from_round, state.settings.rounds + 1):
        round_state = state.round_state(player.division, round_)
        if round_state is None:
            continue
        seat = round_state.seats.get(player.player_id)
        if player.player_id in round_state.unpaired or (
            seat is not None
            and seat.opponent is not None
            and round_state.result_of(player.player_id, seat.opponent) is not None
        ):
            found.append(round_)
    return found


def _status_cells(
    state: TournamentState, player: Player, from_round: int
) -> list[tuple[str, int]]:
    """Cells a status change from ``from_round`` can affect: own and opponents'."""
    cells = []
    for round_ in range(from_round, state.settings.rounds + 1):
        round_state = state.round_state(player.division, round_)
        if round_state is None:
            continue
        cells.append((player.player_id, round_))
        seat = round_state.seats.get(player.player_id)
        if seat is not None and seat.opponent is not None:
            cells.append((seat.opponent, round_))
    return cells


def _player_withdrawn(
    event: PlayerWithdrawn, state: TournamentState
) -> TournamentState:
    player = state.player(event.player_id)
    from_round = _check_round(state, event.from_round, "from_round")
    policy = WithdrawalPolicy(_check_enum(event.policy, WithdrawalPolicy, "policy"))
    if player.withdrawn:
        raise TournamentError(
            "already_withdrawn",
            f"{player.name} is already withdrawn; re-activate them first.",
            "player_id",
        )
    if player.withdrawals and from_round < (player.withdrawals[-1].until_round or 0):
        raise TournamentError(
            "invalid_round",
            f"{player.name} was re-activated from round"
            f" {player.withdrawals[-1].until_round}; withdraw from then or later.",
            "from_round",
        )
    played = _player_rounds_with_results(state, player, from_round)
    if played:
        raise TournamentError(
            "results_after_withdrawal",
            f"{player.name} has a result in round {played[0]}; withdraw them from"
            f" round {played[-1] + 1} or amend those results first.",
            "from_round",
        )
    new_player = replace(
        player,
        withdrawals=(*player.withdrawals, Withdrawal(from_round, policy)),
        status_changes=(*player.status_changes, (from_round, state.version + 1)),
    )
    players = {**state.players, player.player_id: new_player}
    cards = _refresh(
        state, players, state.rounds, _status_cells(state, player, from_round)
    )
    return replace(state, players=players, cards=cards)


def _player_reactivated(
    event: PlayerReactivated, state: TournamentState
) -> TournamentState:
    player = state.player(event.player_id)
    from_round = _check_round(state, event.from_round, "from_round")
    if not player.withdrawn:
        raise TournamentError(
            "not_withdrawn", f"{player.name} is not withdrawn.", "player_id"
        )
    current = player.withdrawals[-1]
    if from_round < current.from_round:
        raise TournamentError(
            "invalid_round",
            f"{player.name} withdrew from round {current.from_round}; re-activate"
            f" from that round or later.",
            "from_round",
        )
    if from_round == current.from_round:
        # The withdrawal never took effect: forget it.
        withdrawals = player.withdrawals[:-1]
    else:
        withdrawals = (
            *player.withdrawals[:-1],
            replace(current, until_round=from_round),
        )
    new_player = replace(
        player,
        withdrawals=withdrawals,
        status_changes=(
            *player.status_changes,
            (current.from_round, state.version + 1),
        ),
    )
    players = {**state.players, player.player_id: new_player}
    cards = _refresh(
        state, players, state.rounds, _status_cells(state, player, current.from_round)
    )
    return replace(state, players=players, cards=cards)


def _check_pairing_player(
    state: TournamentState, division: str, player_id: object, field: str
) -> Player:
    player = state.player(player_id, field)  # type: ignore[arg-type]
    if player.division != division:
        raise TournamentError(
            "wrong_division",
            f"{player.name} plays in division {player.division}, not {division}.",
            field,
        )
    return player
