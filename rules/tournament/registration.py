"""Event handlers of the registration day: check-in, a move between divisions
before a player's first pairing, and a division's own number of rounds.

Each handler checks its event against the state and returns the new state
(``rules.tournament.replay`` dispatches to them).

Usage (through ``apply``)::

    state = apply(state, PlayerCheckedIn(player_id="p3"))
    state = apply(state, PlayerMoved(player_id="p3", division="B"))
    state = apply(state, DivisionRoundsSet(division="B", rounds=5))
"""

from __future__ import annotations

from dataclasses import replace

from rules.division_rules import check_prize_table
from rules.errors import TournamentError
from rules.tournament.checks import _require_int
from rules.tournament.entries import _refresh
from rules.tournament.events import DivisionRoundsSet, PlayerCheckedIn, PlayerMoved
from rules.tournament.state import Player, TournamentState


def _division(state: TournamentState, division: object, field: str) -> str:
    if not isinstance(division, str) or division not in state.division_players:
        raise TournamentError(
            "unknown_division", f"There is no division {division!r}.", field
        )
    return division


def first_paired_round(state: TournamentState, player: Player) -> int | None:
    """Return the first round the player has in their division (paired, given a
    bye, credited, or a withdrawn player's automatic forfeit), or None."""
    for round_ in range(1, state.settings.rounds + 1):
        round_state = state.round_state(player.division, round_)
        if round_state is None:
            continue
        if (
            player.player_id in round_state.seats
            or player.player_id in round_state.unpaired
        ):
            return round_
        if state.cards[player.player_id].entries[round_ - 1] is not None:
            return round_
    return None


def _player_checked_in(
    event: PlayerCheckedIn, state: TournamentState
) -> TournamentState:
    player = state.player(event.player_id)
    if not isinstance(event.present, bool):
        raise TournamentError(
            "invalid_value", "present must be true or false.", "present"
        )
    # Check-in is the registration day's roll call: once round 1 of the division
    # is paired, who is there is what the pairings and results say.
    if state.round_state(player.division, 1) is not None:
        raise TournamentError(
            "round_already_paired",
            f"Round 1 of division {player.division} is already paired: check-in"
            " is before round 1.",
            "player_id",
        )
    if player.checked_in == event.present:
        state_word = "checked in" if event.present else "not checked in"
        raise TournamentError(
            "nothing_to_change", f"{player.name} is already {state_word}.", "present"
        )
    players = {
        **state.players,
        player.player_id: replace(player, checked_in=event.present),
    }
    return replace(state, players=players)


def _player_moved(event: PlayerMoved, state: TournamentState) -> TournamentState:
    player = state.player(event.player_id)
    target = _division(state, event.division, "division")
    if target == player.division:
        raise TournamentError(
            "nothing_to_change",
            f"{player.name} already plays in division {target}.",
            "division",
        )
    first = first_paired_round(state, player)
    if first is not None:
        raise TournamentError(
            "player_already_paired",
            f"{player.name} has round {first} of division {player.division}: a"
            " player moves to another division only before their first pairing.",
            "player_id",
        )
    source = player.division
    left = tuple(p for p in state.division_players[source] if p != player.player_id)
    players = dict(state.players)
    # The later players of the division left move up one number (their place in
    # the division's list, as in a tsh .t file).
    for number, player_id in enumerate(left, start=1):
        if players[player_id].number != number:
            players[player_id] = replace(players[player_id], number=number)
    joined = state.division_players[target]
    players[player.player_id] = replace(
        player,
        division=target,
        number=len(joined) + 1,
        joined_after_round=state.paired_rounds(target),
    )
    cells = [
        (player.player_id, round_) for round_ in range(1, state.settings.rounds + 1)
    ]
    new_state = replace(
        state,
        players=players,
        division_players={
            **state.division_players,
            source: left,
            target: (*joined, player.player_id),
        },
    )
    cards = _refresh(new_state, players, state.rounds, cells)
    return replace(new_state, cards=cards)


def _division_rounds_set(
    event: DivisionRoundsSet, state: TournamentState
) -> TournamentState:
    division = _division(state, event.division, "division")
    own = dict(state.division_rounds)
    if event.rounds is None:
        if division not in own:
            raise TournamentError(
                "nothing_to_change",
                f"Division {division} already plays the tournament's rounds.",
                "rounds",
            )
        del own[division]
        return replace(state, division_rounds=own)
    rounds = _require_int(event.rounds, "rounds", "invalid_setting")
    if not 1 <= rounds <= state.settings.rounds:
        raise TournamentError(
            "invalid_setting",
            f"A division plays from 1 to {state.settings.rounds} rounds (the"
            " tournament's number).",
            "rounds",
        )
    paired = state.paired_rounds(division)
    if rounds < paired:
        raise TournamentError(
            "rounds_already_paired",
            f"Division {division} has {paired} rounds paired: it cannot play"
            f" fewer than {paired}.",
            "rounds",
        )
    table = state.prize_tables.get(division)
    if table is not None:
        check_prize_table(table, rounds)
    own[division] = rounds
    return replace(state, division_rounds=own)


def _check_division_round(state: TournamentState, division: str, round_: int) -> None:
    """Refuse a round beyond the division's own number of rounds."""
    last = state.rounds_of(division)
    if round_ > last:
        raise TournamentError(
            "invalid_round",
            f"Division {division} plays {last} rounds: there is no round {round_}.",
            "round",
        )
