"""The tournaments side of games: what the games app asks of a game's tournament.

Registered with games (``games.context.register_tournament_link``) from
``TournamentsConfig.ready``, so that games never look tournaments up by name. The
answers are the tournaments app's own: who may read a tournament is its rule
(``tournaments.core.access``: published, or directed by the reader), its directors
record its games, a player linked to an account annotates their own games, and a
game started for a tournament plays under the tournament's rules, for a pairing
the tournament really has (the page path and the API both ask here).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from games.context import PlayerRecord, RackRule, TournamentId, TournamentTable
from rules import tournament as rt
from rules.ruleset import Ruleset
from tournaments.core import access
from tournaments.core.aggregate import tournament_state
from tournaments.core.errors import TournamentNotFoundError
from tournaments.models import Player, Tournament


@dataclass(frozen=True, slots=True)
class _Readable:
    """A tournament as its read rule needs it: the id and the published flag read
    with a game (``selectors.tournament_can_read`` and ``tournament_is_director``
    read only these)."""

    pk: TournamentId
    published: bool


class TournamentGames:
    """The TournamentLink of games (``games.context``)."""

    table = TournamentTable(
        table=Tournament._meta.db_table,
        id_column=Tournament._meta.get_field("tournament_id").column,
        name_column=Tournament._meta.get_field("name").column,
        published_column=Tournament._meta.get_field("published").column,
    )

    def readable_ids(self, user: Any) -> QuerySet[Any]:
        return access.readable_tournaments(user).values("tournament_id")

    def may_read(
        self, tournament_id: TournamentId, user: Any, *, published: bool | None = None
    ) -> bool:
        if published is None:
            return access.readable_tournaments(user).filter(pk=tournament_id).exists()
        return access.tournament_can_read(_Readable(tournament_id, published), user)

    def directs(self, tournament_id: TournamentId, user: Any) -> bool:
        return access.tournament_is_director(_Readable(tournament_id, False), user)

    def linked_player_ids(self, tournament_id: TournamentId, user: Any) -> set[str]:
        return set(
            Player.objects.filter(tournament_id=tournament_id, user=user).values_list(
                "player_id", flat=True
            )
        )

    def rack_rule(self, tournament_id: TournamentId, user: Any) -> RackRule:
        delay = (
            Tournament.objects.filter(pk=tournament_id)
            .values_list("rack_delay_minutes", flat=True)
            .first()
        )
        on_team = access.tournament_role(_Readable(tournament_id, False), user)
        return RackRule(on_team=on_team is not None, delay_minutes=delay)

    def player_records(self, user: Any) -> list[PlayerRecord]:
        from tournaments.players.accounts import player_records

        return player_records(user)

    def game_setup(self, context: Mapping[str, Any]) -> rt.GameSetup:
        state = _tournament_rules(context.get("tournament_id"))
        division = context.get("division") or None
        if division is not None and division not in state.divisions:
            raise rt.TournamentError(
                "unknown_division", f"There is no division {division!r}.", "division"
            )
        return state.game_setup(division)

    def game_ruleset(self, context: Mapping[str, Any]) -> Ruleset:
        state = _tournament_rules(context.get("tournament_id"))
        check_pairing(state, context)
        return rt.game_ruleset(state, context.get("division") or None)


def _tournament_rules(tournament_id: object) -> rt.TournamentState:
    try:
        _, aggregate = tournament_state(uuid.UUID(str(tournament_id)))
    except (TournamentNotFoundError, ValueError):
        raise rt.TournamentError(
            "unknown_tournament",
            f"There is no tournament {tournament_id}.",
            "tournament_id",
        ) from None
    assert aggregate.rules is not None
    return aggregate.rules


def check_pairing(state: rt.TournamentState, context: Mapping[str, Any]) -> None:
    """Check that a game's division, round, board and players name a real pairing.

    Each is optional (a game of the tournament need not be a board's), but what is
    given must exist and agree: a round needs its division, a board its round, and
    the players of a board are its two players. Raises TournamentError naming the
    field.
    """
    division = context.get("division") or None
    round_ = context.get("round")
    board = context.get("board")
    player_ids = list(context.get("player_ids") or ())
    if division is not None and division not in state.divisions:
        raise rt.TournamentError(
            "unknown_division", f"There is no division {division!r}.", "division"
        )
    players = [state.player(player_id, "player_ids") for player_id in player_ids]
    for player in players:
        if division is not None and player.division != division:
            raise rt.TournamentError(
                "wrong_division",
                f"{player.name} plays in division {player.division}, not {division}.",
                "player_ids",
            )
    if board is not None and round_ is None:
        raise rt.TournamentError("round_required", "Give the board's round.", "round")
    if round_ is None:
        return
    if division is None:
        raise rt.TournamentError(
            "division_required", "Give the round's division.", "division"
        )
    round_state = state.round_state(division, round_)
    if round_state is None:
        raise rt.TournamentError(
            "round_not_paired",
            f"Round {round_} of division {division} is not paired.",
            "round",
        )
    if board is not None:
        _check_board(state, round_state, board, player_ids)


def _check_board(
    state: rt.TournamentState,
    round_state: rt.RoundState,
    board: int,
    player_ids: list[str],
) -> None:
    found = next((g for g in round_state.pairing.games if g.board == board), None)
    where = f"Round {round_state.round} of division {round_state.division}"
    if found is None:
        raise rt.TournamentError(
            "unknown_board", f"{where} has no board {board}.", "board"
        )
    if player_ids and sorted(player_ids) != sorted((found.first, found.second)):
        first, second = state.player(found.first), state.player(found.second)
        raise rt.TournamentError(
            "not_the_board",
            f"{where}, board {board}, is {first.name} v {second.name}.",
            "player_ids",
        )
