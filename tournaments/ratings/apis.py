"""The ratings files' API: the exports (read-only REST lists, a change feed and
submission files) and the imports (tsh's ``.t`` and ``config.tsh``, a ``.TOU``, a
ratings body's list).

Usage (a ratings body's sync)::

    GET /api/ratings/games?updated_since=2026-11-20T00:00:00Z      (JSON, paginated)
    GET /api/ratings/games?updated_since=2026-11-20T00:00:00Z&format=csv  (every row)
    GET /api/ratings/players?tournament=<id>
    GET /api/ratings/changes?after=1234
    GET /api/tournaments/<id>/export/naspa.t?division=A
    GET /api/tournaments/<id>/export/tournament.tou
    GET /api/tournaments/<id>/export/absp.csv

The lists and the feed show published tournaments only; the files are for whoever
may read the tournament (the public once published, its directors always). A file
that cannot be written (a round still without results, a name a ``.t`` file cannot
hold) is a 400 with the writer's code and message.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime
import io
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any
from uuid import UUID

import django_filters
from django.db.models import QuerySet
from django.http import HttpResponse, StreamingHttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.pagination import CursorPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import (
    AllowAny,
    IsAuthenticated,
)
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from config.filters import UtcDateTimeFilter
from config.parsers import BoundedJSONParser
from games.ratelimit import limit_anonymous
from games.readcache import cached_body
from rules.submissions import spreadsheet_text
from tournaments.core.api import command_response, get_tournament, upload_text
from tournaments.core.uploads import (
    MAX_CONFIG_BYTES,
    MAX_T_FILE_BYTES,
    MAX_TOURNEY_JS_BYTES,
)
from tournaments.issued.registry import issued_response
from tournaments.models import Player, PlayerRound, Tournament
from tournaments.ratings import estimates, imports
from tournaments.ratings import serializers as ratings_serializers
from tournaments.setup import serializers as setup_serializers


class CsvRenderer(BaseRenderer):
    """``?format=csv``: a list (or an error) as CSV, keys as the header."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, context: Any = None):
        rows = data if isinstance(data, list) else [data or {}]
        header = list(rows[0]) if rows else []
        return "".join(csv_lines(header, rows)).encode("utf-8")


class PlainTextRenderer(BaseRenderer):
    """Lets a client that accepts only text/plain fetch a file (errors as text)."""

    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, context: Any = None):
        if isinstance(data, Mapping):
            return "".join(
                f"{key}: {_text(value)}\n" for key, value in data.items()
            ).encode()
        return _text(data).encode()


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(_text(item) for item in value)
    return str(value)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return spreadsheet_text(_text(value))


def csv_lines(header: list[str], rows: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """Yield the CSV text line by line (header first); JSON null is an empty cell."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(values: Iterable[Any]) -> str:
        writer.writerow([_cell(value) for value in values])
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    yield line(header)
    for row in rows:
        yield line(row.get(key) for key in header)


def csv_response(
    header: list[str], rows: Iterable[Mapping[str, Any]], filename: str
) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        csv_lines(header, rows), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


def tournament_file(
    request: Request,
    tournament: Tournament,
    parts: tuple[object, ...],
    build: Callable[[], bytes],
    content_type: str,
    filename: str,
) -> HttpResponse:
    """A tournament's file, built once per version of its stream (a national's
    files read every result), an anonymous address's builds rate-limited."""

    def counted() -> bytes:
        limit_anonymous(request)
        return build()

    response = cached_body(
        request,
        ("export", tournament.pk, *parts),
        tournament.version,
        counted,
        content_type=content_type,
    )
    response["Content-Disposition"] = content_disposition_header(True, filename)
    # Recorded as issued and signed (tournaments.issued): a wrapper around the
    # body as built, which a download never adds to the tournament's stream.
    return issued_response(
        request,
        response,
        tournament_id=tournament.pk,
        position=tournament.version,
        kind=str(parts[0]),
        name=filename,
    )


LIST_RENDERERS = (*api_settings.DEFAULT_RENDERER_CLASSES, CsvRenderer)


FORMAT = OpenApiParameter(
    "format",
    str,
    enum=["json", "csv"],
    description="csv: every matching row as one CSV (not paginated); the columns "
    "are the JSON keys.",
)


# --- /api/ratings/games -----------------------------------------------------------


class GameFilter(django_filters.FilterSet):
    tournament = django_filters.UUIDFilter(field_name="tournament_id")
    division = django_filters.CharFilter()
    round = django_filters.NumberFilter()
    date_from = django_filters.DateFilter(
        field_name="tournament__start_date",
        lookup_expr="gte",
        label="Tournaments starting on or after this date.",
    )
    date_to = django_filters.DateFilter(
        field_name="tournament__start_date",
        lookup_expr="lte",
        label="Tournaments starting on or before this date.",
    )
    player = django_filters.CharFilter(
        method="filter_player", label="Internal player id, on either side."
    )
    member_id = django_filters.CharFilter(
        method="filter_member", label="Membership id, on either side."
    )
    updated_since = UtcDateTimeFilter(
        method="filter_updated_since",
        label="Rows changed at or after this time (or of a tournament published "
        "since): an amended result appears again.",
    )
    after_position = django_filters.NumberFilter(
        method="filter_after_position",
        label="Rows changed by an event after this log position.",
    )
    kind = django_filters.ChoiceFilter(
        choices=[(k.value, k.value) for k in estimates.GameKind], method="filter_kind"
    )
    rated = django_filters.BooleanFilter(
        method="filter_rated", label="true: played games only."
    )

    class Meta:
        model = PlayerRound
        fields: list[str] = []

    def filter_player(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return estimates.pairings_of_player(queryset, value)

    def filter_member(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return estimates.pairings_of_member(queryset, value)

    def filter_updated_since(
        self, queryset: QuerySet, name: str, value: datetime.datetime
    ) -> QuerySet:
        return estimates.pairings_changed_since(queryset, value)

    def filter_after_position(
        self, queryset: QuerySet, name: str, value: int
    ) -> QuerySet:
        return estimates.pairings_changed_after(queryset, int(value))

    def filter_kind(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return estimates.pairings_of_kind(queryset, value)

    def filter_rated(self, queryset: QuerySet, name: str, value: bool) -> QuerySet:
        return estimates.pairings_rated(queryset, value)


class GamePagination(CursorPagination):
    """Keyset pages in sync order: rows changed while paging are not skipped."""

    ordering = ("changed_position", "division", "round", "board", "player_id")
    page_size_query_param = "page_size"
    max_page_size = 1000
    # Rows share a position when one event touched them all (a round's byes);
    # a cursor counts those rows by offset.
    offset_cutoff = 10_000


class RatedGamesApi(ListAPIView):
    """Every game with a result; byes and forfeits as unrated rows."""

    permission_classes = (AllowAny,)
    renderer_classes = LIST_RENDERERS
    filterset_class = GameFilter
    pagination_class = GamePagination
    serializer_class = ratings_serializers.GameRowOutput

    def get_queryset(self) -> QuerySet[PlayerRound]:
        return estimates.rated_game_list()

    @extend_schema(
        parameters=[FORMAT],
        responses={
            (200, "application/json"): ratings_serializers.GameRowOutput(many=True),
            (200, "text/csv"): OpenApiTypes.STR,
        },
    )
    def get(self, request: Request) -> Any:
        pairings = self.filter_queryset(self.get_queryset())
        if request.accepted_renderer.format == "csv":
            # One serializer for every row: building its fields for each row cost
            # 1.8 ms a row, reusing them 26 µs (measured on 3,000 rows).
            output = ratings_serializers.GameRowOutput()
            rows = map(output.to_representation, estimates.iter_game_rows(pairings))
            return csv_response(list(output.fields), rows, "rated-games.csv")
        page = self.paginate_queryset(pairings)
        data = ratings_serializers.GameRowOutput(
            estimates.game_rows(page), many=True
        ).data
        return self.get_paginated_response(data)


# --- /api/ratings/players ---------------------------------------------------------


class PlayerRatingFilter(django_filters.FilterSet):
    tournament = django_filters.UUIDFilter(field_name="tournament_id")
    division = django_filters.CharFilter()
    player = django_filters.CharFilter(field_name="player_id")
    member_id = django_filters.CharFilter()
    date_from = django_filters.DateFilter(
        field_name="tournament__start_date", lookup_expr="gte"
    )
    date_to = django_filters.DateFilter(
        field_name="tournament__start_date", lookup_expr="lte"
    )
    updated_since = UtcDateTimeFilter(
        field_name="tournament__updated_at",
        lookup_expr="gte",
        label="Players of tournaments changed at or after this time (any result "
        "can move every estimate of its division).",
    )

    class Meta:
        model = Player
        fields: list[str] = []


class PlayerRatingsApi(ListAPIView):
    """Per player per tournament: rated games and NASPA/ABSP estimates."""

    permission_classes = (AllowAny,)
    renderer_classes = LIST_RENDERERS
    filterset_class = PlayerRatingFilter
    serializer_class = ratings_serializers.PlayerRatingOutput

    def get_queryset(self) -> QuerySet[Player]:
        return estimates.player_rating_list()

    @extend_schema(
        parameters=[FORMAT, ratings_serializers.PlayerRatingInput],
        responses={
            (200, "application/json"): ratings_serializers.PlayerRatingOutput(
                many=True
            ),
            (200, "text/csv"): OpenApiTypes.STR,
        },
    )
    def get(self, request: Request) -> Any:
        params = ratings_serializers.PlayerRatingInput(data=request.query_params)
        params.is_valid(raise_exception=True)
        after_round = params.validated_data.get("after_round")
        players = self.filter_queryset(self.get_queryset())
        # A division whose results the ratings cannot read is a 400 with the rules'
        # code (RatingsError, through the API's exception handler).
        if request.accepted_renderer.format == "csv":
            rows = ratings_serializers.PlayerRatingOutput(
                estimates.player_rating_rows(players, after_round), many=True
            ).data
            return csv_response(
                list(ratings_serializers.PlayerRatingOutput().fields),
                rows,
                "rating-estimates.csv",
            )
        page = self.paginate_queryset(players)
        data = ratings_serializers.PlayerRatingOutput(
            estimates.player_rating_rows(page, after_round), many=True
        ).data
        return self.get_paginated_response(data)


# --- /api/ratings/changes ---------------------------------------------------------


class ResultChangesApi(APIView):
    """The events that changed results, in commit order (the feed's positions)."""

    permission_classes = (AllowAny,)

    @extend_schema(
        parameters=[ratings_serializers.ChangesInput],
        responses=ratings_serializers.ChangesOutput,
    )
    def get(self, request: Request) -> Response:
        data = ratings_serializers.ChangesInput(data=request.query_params)
        data.is_valid(raise_exception=True)
        page = estimates.result_changes(
            after=data.validated_data["after"],
            limit=data.validated_data["limit"],
            tournament_id=data.validated_data.get("tournament"),
        )
        return Response(ratings_serializers.ChangesOutput(page).data)


# --- Submission files -------------------------------------------------------------


FILE_ERRORS = {400: OpenApiResponse(description="The file cannot be written yet.")}


# The files have one form; ``format`` would only pick how an error is written.
NO_FORMAT = OpenApiParameter("format", exclude=True)


def _filename(tournament: Tournament, suffix: str) -> str:
    return f"{slugify(tournament.name) or 'tournament'}{suffix}"


class NaspaTExportApi(APIView):
    """The NASPA submission (tsh ``.t``), one ``#division`` block per division."""

    renderer_classes = (JSONRenderer, PlainTextRenderer)

    @extend_schema(
        operation_id="tournaments_export_naspa_t",
        parameters=[ratings_serializers.NaspaTInput, NO_FORMAT],
        responses={(200, "text/plain"): OpenApiTypes.STR, **FILE_ERRORS},
    )
    def get(self, request: Request, tournament_id: UUID) -> HttpResponse:
        tournament = get_tournament(request, tournament_id)
        data = ratings_serializers.NaspaTInput(data=request.query_params)
        data.is_valid(raise_exception=True)
        division = data.validated_data.get("division")
        if division is not None and division not in tournament.divisions:
            raise ValidationError({"division": [f"No division {division!r}."]})
        firsts = data.validated_data["firsts"]

        def build() -> bytes:
            text = estimates.naspa_t_text(
                estimates.tournament_record(tournament_id),
                None if division is None else [division],
                firsts=firsts,
            )
            return text.encode("utf-8")

        suffix = f"-{slugify(division) or 'division'}.t" if division else ".t"
        return tournament_file(
            request,
            tournament,
            ("naspa.t", division, firsts),
            build,
            "text/plain; charset=utf-8",
            _filename(tournament, suffix),
        )


class TouExportApi(APIView):
    """The AUPAIR ``.TOU`` file (ASCII, CRLF line ends)."""

    renderer_classes = (JSONRenderer, PlainTextRenderer)

    @extend_schema(
        operation_id="tournaments_export_tou",
        parameters=[NO_FORMAT],
        responses={(200, "text/plain"): OpenApiTypes.STR, **FILE_ERRORS},
    )
    def get(self, request: Request, tournament_id: UUID) -> HttpResponse:
        tournament = get_tournament(request, tournament_id)
        return tournament_file(
            request,
            tournament,
            ("tou",),
            lambda: estimates.tou_text(
                estimates.tournament_record(tournament_id)
            ).encode("ascii"),
            "text/plain; charset=us-ascii",
            _filename(tournament, ".TOU"),
        )


class AbspCsvExportApi(APIView):
    """The ABSP results CSV: one row per played game."""

    renderer_classes = (JSONRenderer, PlainTextRenderer)

    @extend_schema(
        operation_id="tournaments_export_absp_csv",
        parameters=[NO_FORMAT],
        responses={(200, "text/csv"): OpenApiTypes.STR, **FILE_ERRORS},
    )
    def get(self, request: Request, tournament_id: UUID) -> HttpResponse:
        tournament = get_tournament(request, tournament_id)
        return tournament_file(
            request,
            tournament,
            ("absp.csv",),
            lambda: estimates.absp_csv_text(
                estimates.tournament_record(tournament_id)
            ).encode("utf-8"),
            "text/csv; charset=utf-8",
            _filename(tournament, "-absp.csv"),
        )


class TshImportApi(APIView):
    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser, FormParser, BoundedJSONParser)

    @extend_schema(
        request=ratings_serializers.TshImportInput,
        responses={201: ratings_serializers.FileImportOutput},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        data = ratings_serializers.TshImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        text = upload_text(
            data.validated_data["file"], MAX_T_FILE_BYTES, "file", "A .t file"
        )
        imported = imports.tsh_import(
            tournament_id=tournament_id,
            division=data.validated_data["division"],
            text=text,
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        response = command_response(imported.result)
        # The import's report: what was kept that the director should know.
        response.data["notes"] = list(imported.notes)
        return response


class TshEventImportApi(APIView):
    """Create a tournament from tsh's config.tsh and its divisions' .t files."""

    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(
        operation_id="tournaments_import_tsh_event",
        request={"multipart/form-data": ratings_serializers.TshEventImportInput},
        responses={201: ratings_serializers.TshEventImportOutput},
    )
    def post(self, request: Request) -> Response:
        data = ratings_serializers.TshEventImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        files = {
            upload.name: upload_text(
                upload, MAX_T_FILE_BYTES, "files", f"The .t file {upload.name}"
            )
            for upload in v["files"]
        }
        end = v.get("end_date")
        start = v.get("start_date")
        imported = imports.tsh_event_import(
            user=request.user,
            name=v.get("name"),
            start_date=start.isoformat() if start else None,
            end_date=end.isoformat() if end else None,
            config=upload_text(v["config"], MAX_CONFIG_BYTES, "config", "config.tsh"),
            files=files,
            published=v["published"],
        )
        tournament = Tournament.objects.get(pk=imported.result.stream.id)
        body = {
            "tournament": setup_serializers.TournamentOutput(tournament).data,
            "divisions": list(imported.divisions),
            "not_taken": [
                {"line": line, "text": text} for line, text in imported.not_taken
            ],
            "notes": list(imported.notes),
        }
        return Response(body, status=201)


class TourneyJsImportApi(APIView):
    """Create a tournament from a tourney.js: every division, player, pairing and
    result, by the same path as config.tsh and .t files; the import's report
    flags byes, forfeits, late entries, withdrawals and what is not kept."""

    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(
        operation_id="tournaments_import_tourney_js",
        request={"multipart/form-data": ratings_serializers.TourneyJsImportInput},
        responses={201: ratings_serializers.TourneyJsImportOutput},
    )
    def post(self, request: Request) -> Response:
        data = ratings_serializers.TourneyJsImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        start, end = v.get("start_date"), v.get("end_date")
        imported = imports.tourney_js_import(
            user=request.user,
            text=upload_text(v["file"], MAX_TOURNEY_JS_BYTES, "file", "A tourney.js"),
            name=v.get("name"),
            start_date=start.isoformat() if start else None,
            end_date=end.isoformat() if end else None,
            published=v["published"],
        )
        tournament = Tournament.objects.get(pk=imported.result.stream.id)
        body = {
            "id": tournament.tournament_id,
            "tournament": setup_serializers.TournamentOutput(tournament).data,
            "divisions": list(imported.divisions),
            "not_taken": [
                {"key": key, "value": value} for key, value in imported.not_taken
            ],
            "report": [dataclasses.asdict(note) for note in imported.notes],
        }
        return Response(body, status=201)


class TouImportApi(APIView):
    """Import a .TOU file: its divisions' players, pairings, results and byes."""

    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser, FormParser, BoundedJSONParser)

    @extend_schema(
        request={"multipart/form-data": ratings_serializers.TouImportInput},
        responses={201: ratings_serializers.FileImportOutput},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        data = ratings_serializers.TouImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        ratings_list = data.validated_data.get("ratings_list")
        imported = imports.tou_import(
            tournament_id=tournament_id,
            text=upload_text(
                data.validated_data["file"], MAX_T_FILE_BYTES, "file", "A .TOU file"
            ),
            ratings_list=(
                None
                if ratings_list is None
                else upload_text(
                    ratings_list, MAX_T_FILE_BYTES, "ratings_list", "A ratings list"
                )
            ),
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        response = command_response(imported.result)
        # The import's report: what was odd in the file and how it is kept.
        response.data["notes"] = list(imported.notes)
        return response


class RatingsListImportApi(APIView):
    """Update pre-event ratings and career games from a ratings body's list."""

    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser, FormParser, BoundedJSONParser)

    @extend_schema(
        request={"multipart/form-data": ratings_serializers.RatingsListImportInput},
        responses={
            201: ratings_serializers.RatingsListImportOutput,
            200: ratings_serializers.RatingsListImportOutput,
        },
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        tournament = get_tournament(request, tournament_id)
        data = ratings_serializers.RatingsListImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        division = data.validated_data.get("division") or None
        if division is not None and division not in tournament.divisions:
            raise ValidationError({"division": [f"No division {division!r}."]})
        result, updates = imports.ratings_list_import(
            tournament_id=tournament_id,
            text=upload_text(
                data.validated_data["file"], MAX_T_FILE_BYTES, "file", "A ratings list"
            ),
            division=division,
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        names = dict(
            Player.objects.filter(tournament_id=tournament_id).values_list(
                "player_id", "name"
            )
        )
        body = {
            "version": tournament.version if result is None else result.version,
            "events": [] if result is None else [r.type_name for r in result.recorded],
            "updated": [event.player_id for event in updates.events],
            "unchanged": list(updates.unchanged),
            "unmatched": [
                {"player_id": pid, "name": names.get(pid, "")}
                for pid in updates.unmatched
            ],
        }
        code = status.HTTP_200_OK if result is None else status.HTTP_201_CREATED
        return Response(
            ratings_serializers.RatingsListImportOutput(body).data, status=code
        )
