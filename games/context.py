"""What a game's tournament means to the games app: registered by the app that owns
tournaments, never looked up by name.

A game may be played for a tournament: its context (the first event's metadata)
names the tournament, and the division, round and board of the pairing it was
played for. Games import nothing of tournaments (which builds on games); the
tournaments app registers a :class:`TournamentLink` from its ``ready()``, and the
games app asks it whom a tournament's games are readable by, who may record them,
which of the tournament's players a user is, and under which rules and with which
tile set and lexicon a game started for it plays::

    register_tournament_link(link)                   # tournaments' AppConfig.ready
    tournament_link().may_read(tournament_id, user)  # games' selectors and services
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from django.db.models import QuerySet

from games.models import GameProjection
from rules.ruleset import Ruleset
from rules.tournament import GameSetup, TournamentError

TournamentId = uuid.UUID | str


@dataclass(frozen=True, slots=True)
class TournamentTable:
    """The table a game's tournament_id refers to, for the game reads that fetch
    the tournament's name and published flag in the game's own statement."""

    table: str
    id_column: str
    name_column: str
    published_column: str


@dataclass(frozen=True, slots=True)
class RackRule:
    """What the rack rule (``games.selectors.rack_view``) needs of a game's
    tournament for one reader: whether the reader is on its team (directors and
    scorekeepers see the racks of its games as they are recorded), and after how
    many minutes everyone else sees them (None: once the game has ended)."""

    on_team: bool
    delay_minutes: int | None


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A tournament's player linked to a user's account."""

    tournament_id: str
    tournament_name: str
    start_date: str
    player_id: str
    name: str
    division: str


class TournamentLink(Protocol):
    """What games need from tournaments."""

    table: TournamentTable | None

    def readable_ids(self, user: Any) -> QuerySet[Any]:
        """The ids of the tournaments whose games `user` may read (a subquery)."""

    def may_read(
        self, tournament_id: TournamentId, user: Any, *, published: bool | None = None
    ) -> bool:
        """Whether `user` may read the tournament's games; `published` is the flag
        when the caller read it with the game (None: not read)."""

    def directs(self, tournament_id: TournamentId, user: Any) -> bool:
        """Whether `user` may record the tournament's games."""

    def linked_player_ids(self, tournament_id: TournamentId, user: Any) -> set[str]:
        """The tournament's players whose account is `user` (they may annotate their
        own games)."""

    def rack_rule(self, tournament_id: TournamentId, user: Any) -> RackRule:
        """Whether `user` is on the tournament's team, and the tournament's delay
        before others see the racks of a game being recorded."""

    def player_records(self, user: Any) -> list[PlayerRecord]:
        """The players linked to `user`'s account, in tournaments `user` may read
        (newest first): whose games are theirs."""

    def game_setup(self, context: Mapping[str, Any]) -> GameSetup:
        """The tile set and lexicon (both given; lexicon "": none named) a game
        started for the tournament is played with: its division's, or the
        tournament's when the context names no division.

        Raises a ``RulesError`` naming the field (``tournament_id``,
        ``division``) when the context names no real tournament or division.
        """

    def game_ruleset(self, context: Mapping[str, Any]) -> Ruleset:
        """The rules a game started for the tournament plays under.

        Raises a ``RulesError`` naming the field (``tournament_id``, ``division``,
        ``round``, ``board``, ``player_ids``) when the context does not name a real
        pairing of the tournament.
        """


class _NoTournaments:
    """The link when no app registered one: no game belongs to a tournament."""

    table = None

    def readable_ids(self, user: Any) -> QuerySet[Any]:
        return GameProjection.objects.none().values("tournament_id")

    def may_read(
        self, tournament_id: TournamentId, user: Any, *, published: bool | None = None
    ) -> bool:
        return False

    def directs(self, tournament_id: TournamentId, user: Any) -> bool:
        return False

    def linked_player_ids(self, tournament_id: TournamentId, user: Any) -> set[str]:
        return set()

    def rack_rule(self, tournament_id: TournamentId, user: Any) -> RackRule:
        return RackRule(on_team=False, delay_minutes=None)

    def player_records(self, user: Any) -> list[PlayerRecord]:
        return []

    def game_setup(self, context: Mapping[str, Any]) -> GameSetup:
        raise TournamentError(
            "unknown_tournament", "There are no tournaments here.", "tournament_id"
        )

    def game_ruleset(self, context: Mapping[str, Any]) -> Ruleset:
        raise TournamentError(
            "unknown_tournament", "There are no tournaments here.", "tournament_id"
        )


_link: TournamentLink = _NoTournaments()


def register_tournament_link(link: TournamentLink) -> None:
    """Make the tournaments app's link known to games (from its AppConfig.ready)."""
    global _link
    _link = link


def tournament_link() -> TournamentLink:
    return _link
