"""Search of games: by player, opponent, tournament, date, and the reader's own.

One filter set serves the games page's search form and the API's list
(``GET /api/games/?player=…&opponent=…``); it narrows the games a reader may list
(``games.selectors.game_list``), never widens them. Names match anywhere in a
player's name or nick, ignoring case::

    search = GameSearch(request.GET, queryset=game_list(user), request=request)
    search.qs
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import BooleanField, Q, QuerySet
from django.db.models.expressions import RawSQL

from games.context import tournament_link
from games.models import GameProjection

_TABLE = GameProjection._meta.db_table
_MATCHES = "(p.v->>'name' ILIKE %s ESCAPE '\\' OR p.v->>'nick' ILIKE %s ESCAPE '\\')"


def _pattern(text: str) -> str:
    """An ILIKE pattern matching `text` anywhere, its wildcards taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def with_player(queryset: QuerySet[Any], name: str) -> QuerySet[Any]:
    """Games one of whose players' names contains `name`."""
    pattern = _pattern(name)
    sql = (
        f"EXISTS (SELECT 1 FROM jsonb_array_elements({_TABLE}.players) AS p(v) "
        f"WHERE {_MATCHES})"
    )
    return queryset.filter(RawSQL(sql, [pattern, pattern], output_field=BooleanField()))


def with_opponents(
    queryset: QuerySet[Any], player: str, opponent: str
) -> QuerySet[Any]:
    """Games between a player whose name contains `player` and another whose name
    contains `opponent`."""
    first, second = _pattern(player), _pattern(opponent)
    other = _MATCHES.replace("p.v", "q.v")
    sql = (
        f"EXISTS (SELECT 1 FROM jsonb_array_elements({_TABLE}.players) "
        f"WITH ORDINALITY AS p(v, i) JOIN jsonb_array_elements({_TABLE}.players) "
        f"WITH ORDINALITY AS q(v, i) ON p.i <> q.i WHERE {_MATCHES} AND {other})"
    )
    params = [first, first, second, second]
    return queryset.filter(RawSQL(sql, params, output_field=BooleanField()))


def in_tournaments_named(queryset: QuerySet[Any], name: str) -> QuerySet[Any]:
    """Games of the tournaments whose name contains `name`."""
    table = tournament_link().table
    if table is None:
        return queryset.none()
    sql = (
        f"{_TABLE}.tournament_id IN (SELECT {table.id_column} FROM {table.table} "
        f"WHERE {table.name_column} ILIKE %s ESCAPE '\\')"
    )
    return queryset.filter(RawSQL(sql, [_pattern(name)], output_field=BooleanField()))


def of_user(queryset: QuerySet[Any], user: Any) -> QuerySet[Any]:
    """The user's games: those they recorded or uploaded, and those their linked
    tournament players played."""
    if not getattr(user, "is_authenticated", False):
        return queryset.none()
    mine = Q(created_by=user, tournament_id__isnull=True)
    for record in tournament_link().player_records(user):
        mine |= Q(
            tournament_id=record.tournament_id,
            players__contains=[{"player_id": record.player_id}],
        )
    return queryset.filter(mine)


class GameSearch(django_filters.FilterSet):
    """The games search (page and API)."""

    player = django_filters.CharFilter(
        method="filter_player", max_length=100, label="Player"
    )
    opponent = django_filters.CharFilter(
        method="filter_opponent", max_length=100, label="Opponent"
    )
    tournament = django_filters.CharFilter(
        method="filter_tournament", max_length=200, label="Tournament"
    )
    date_from = django_filters.DateFilter(
        field_name="started_at", lookup_expr="date__gte", label="From"
    )
    date_to = django_filters.DateFilter(
        field_name="started_at", lookup_expr="date__lte", label="To"
    )
    mine = django_filters.BooleanFilter(
        method="filter_mine", label="Only my games (signed in)"
    )
    tournament_id = django_filters.UUIDFilter()
    division = django_filters.CharFilter(max_length=64)
    round = django_filters.NumberFilter(min_value=1)
    is_over = django_filters.BooleanFilter()

    class Meta:
        model = GameProjection
        fields: list[str] = []

    def filter_player(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        if self.form.cleaned_data.get("opponent"):
            return queryset  # filter_opponent matches the pair
        return with_player(queryset, value)

    def filter_opponent(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        player = self.form.cleaned_data.get("player")
        if player:
            return with_opponents(queryset, player, value)
        return with_player(queryset, value)

    def filter_tournament(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return in_tournaments_named(queryset, value)

    def filter_mine(self, queryset: QuerySet, name: str, value: bool) -> QuerySet:
        if not value:
            return queryset
        return of_user(queryset, getattr(self.request, "user", None))
