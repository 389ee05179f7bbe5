"""The games REST API: list, detail, event log, state after any event, commands,
GCG upload and download.

Commands take ``expected_version`` and answer 201 with the new state, 400 with the
rule's code and message, 409 on a stale version, 403 without the rights.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers as drf
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.site_url import public_url
from games import analysis, selectors, services
from games import racks as hidden_racks
from games import serializers as s
from games.eventstore.store import AppendResult
from games.eventstore.streams import stream_type
from games.models import GameProjection
from games.ratelimit import limit_anonymous
from games.readcache import cached_body, cached_json
from games.search import GameSearch
from rules.numbers import NumberError, whole_number
from rules.state import effective_events

MAX_GCG_BYTES = 128 * 1024


SHARE = OpenApiParameter(
    "share",
    str,
    description="The secret of a game shared by link (its share_url's last part).",
)


def share_param(request: Request) -> str | None:
    return request.query_params.get("share") or None


def get_game(request: Request, game_id: UUID) -> GameProjection:
    game = get_object_or_404(GameProjection, pk=game_id)
    if not selectors.game_can_read(game, request.user, share_param(request)):
        raise Http404
    return game


def rack_view(request: Request, game: selectors.RackReadable) -> selectors.RackView:
    """The racks of `game` the caller may see now (the one rack rule)."""
    return selectors.rack_view(game, request.user, now=timezone.now())


def command_response(
    result: AppendResult, racks: selectors.RackView = selectors.EVERY_RACK
) -> Response:
    """The new state after a command (the racks as the caller may see them: a
    player annotating their own game is no recorder)."""
    state = result.state.state
    body = {
        "version": result.version,
        "events": [recorded.type_name for recorded in result.recorded],
        "state": selectors.state_payload(state, version=result.version, racks=racks),
    }
    return Response(body, status=status.HTTP_201_CREATED)


class GameListApi(ListAPIView):
    """Games the caller may list, searched by player, opponent, tournament name,
    date, or the caller's own (mine=true)."""

    serializer_class = s.GameOutput
    filterset_class = GameSearch

    def get_queryset(self) -> Any:
        return selectors.game_list(self.request.user).order_by("-started_at")

    @extend_schema(request=s.GameStartInput, responses={201: s.CommandOutput})
    def post(self, request: Request) -> Response:
        data = s.GameStartInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        context = {
            key: v.get(key)
            for key in ("tournament_id", "division", "round", "board", "player_ids")
            if v.get(key) not in (None, "", [])
        }
        if "player_ids" in context and len(context["player_ids"]) != len(v["players"]):
            raise ValidationError({"player_ids": ["Give one id per player."]})
        result = services.game_start(
            user=request.user,
            players=v["players"],
            # Left out, a tournament's game plays under the tournament's rules.
            ruleset_name=v["ruleset"] if "ruleset" in request.data else None,
            lexicon=v.get("lexicon"),
            tile_set_name=v.get("tile_set"),
            seed=v.get("seed"),
            racks=v.get("racks"),
            context=context,
            visibility=v["visibility"],
        )
        response = command_response(result)
        response.data["id"] = str(result.stream.id)
        return response


class GameDetailApi(APIView):
    @extend_schema(parameters=[SHARE], responses=s.GameDetailOutput)
    def get(self, request: Request, game_id: UUID) -> Response:
        game = selectors.game_detail(game_id)
        if game is None or not selectors.game_readable(
            game, request.user, token=share_param(request)
        ):
            raise Http404

        racks = rack_view(request, game)

        def build() -> Any:
            turns = hidden_racks.turn_lines(selectors.game_turns(game_id), racks)
            return {**game.fields, "turns": turns}

        # The racks shown are part of the key: a reader who may see them does not
        # fill the cache for one who may not.
        key = ("game", game_id, "racks", racks.through)
        return cached_json(request, key, game.version, build)


@extend_schema(parameters=[SHARE])
class GameEventsApi(ListAPIView):
    """The game's event log in version order, superseded events marked."""

    serializer_class = s.EventOutput
    filter_backends = ()
    # Set per request in `list` (the rack rule); none shown unless it says so.
    racks = selectors.RackView(0)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        """A page of the log, kept by the game's version: the page depends on the
        version and the URL asked for (its links carry the host and the query)."""
        game = get_game(request, self.kwargs["game_id"])
        # The racks this reader may see: part of what the page is, so of its key.
        self.racks = rack_view(request, game)

        def build() -> Any:
            # Every page built reads and encodes the whole log: counted.
            limit_anonymous(request)
            return super(GameEventsApi, self).list(request, *args, **kwargs).data

        parts = (
            "events",
            game.game_id,
            self.racks.through,
            request.get_host(),
            request.get_full_path(),
        )
        return cached_json(request, parts, game.version, build)

    def get_queryset(self) -> Any:
        game_id = self.kwargs["game_id"]
        racks = self.racks
        events = selectors.game_events(game_id)
        encode = stream_type("game").codec.encode
        # A correction voids earlier events; they stay in the log, marked.
        live = {version for version, _ in effective_events([e.event for e in events])}
        return [
            {
                "position": e.position,
                "version": e.version,
                "type_name": e.type_name,
                "schema_version": e.schema_version,
                "payload": hidden_racks.event_payload(
                    e.type_name, encode(e.event)[2], shown=racks.shows(e.version)
                ),
                "metadata": hidden_racks.event_metadata(e.metadata, shown=racks.every),
                "recorded_at": e.recorded_at,
                "recorded_by_id": e.recorded_by_id,
                "superseded": e.version not in live
                and e.type_name != "events_superseded",
            }
            for e in events
        ]


class GameStateApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after", int, description="Event version (default: the latest)."
            ),
            SHARE,
        ],
        responses=s.StateOutput,
    )
    def get(self, request: Request, game_id: UUID) -> HttpResponse:
        game = get_game(request, game_id)
        racks = rack_view(request, game)
        after = request.query_params.get("after")
        version = None
        if after is not None:
            try:
                version = whole_number(after, low=1, high=s.MAX_VERSION)
            except NumberError as error:
                raise ValidationError(
                    {"after": [f"Give an event version: {error.message}."]}
                ) from None

        def build() -> Any:
            # An earlier version is a replay of the game up to it: counted.
            limit_anonymous(request)
            return selectors.game_state_at(game_id, version, racks)

        parts = ("state", game_id, version, racks.through)
        return cached_json(request, parts, game.version, build)


def _command(
    input_class: type[drf.Serializer],
    call: Callable[..., AppendResult],
    **extra: Any,
) -> type[APIView]:
    class CommandApi(APIView):
        permission_classes = (IsAuthenticated,)

        @extend_schema(request=input_class, responses={201: s.CommandOutput})
        def post(self, request: Request, game_id: UUID, **path: Any) -> Response:
            racks = rack_view(request, get_game(request, game_id))
            data = input_class(data=request.data)
            data.is_valid(raise_exception=True)
            values = dict(data.validated_data)
            # The path names what the command acts on (a note's version).
            result = call(game_id=game_id, user=request.user, **path, **values, **extra)
            return command_response(result, racks)

    CommandApi.__name__ = f"{call.__name__.title().replace('_', '')}Api"
    return CommandApi


PlaceApi = _command(s.PlaceInput, services.game_place)
ExchangeApi = _command(s.ExchangeInput, services.game_exchange)
PassApi = _command(s.PassInput, services.game_pass)
ChallengeApi = _command(s.ChallengeInput, services.game_challenge)
NoteApi = _command(s.NoteInput, services.game_note)
NoteEditApi = _command(s.NoteEditInput, services.game_note_edit)
NoteDeleteApi = _command(s.NoteDeleteInput, services.game_note_delete)
CorrectionApi = _command(s.CorrectionInput, services.game_supersede)
ScoreCorrectionApi = _command(s.ScoreCorrectionInput, services.game_score_correct)
TimePenaltyApi = _command(s.TimePenaltyInput, services.game_time_penalty)
EndApi = _command(s.EndInput, services.game_end)


class GcgUploadApi(APIView):
    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(request=s.GcgUploadInput, responses={201: s.GcgImportOutput})
    def post(self, request: Request) -> Response:
        data = s.GcgUploadInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        upload = v["file"]
        if upload.size > MAX_GCG_BYTES:
            raise ValidationError({"file": ["A GCG file may be at most 128 KB."]})
        context = {
            key: v.get(key)
            for key in ("tournament_id", "division", "round", "board")
            if v.get(key) not in (None, "")
        }
        result, record = services.game_import_gcg(
            text=upload.read(), user=request.user, rules_name=v.get("rules"),
            context=context, visibility=v["visibility"],
        )  # fmt: skip
        body = {
            "id": result.stream.id,
            "version": result.version,
            "scores": list(record.state.scores),
            "discrepancies": [
                {
                    "line": d.line,
                    "kind": d.kind,
                    "recorded": d.recorded,
                    "computed": d.computed,
                }
                for d in record.discrepancies
            ],
            "warnings": [
                {"line": w.line, "code": w.code, "message": w.message}
                for w in record.warnings
            ],
        }
        return Response(s.GcgImportOutput(body).data, status=201)


class VisibilityApi(APIView):
    """Who may read a casual game (its owner only): private, shared by a secret
    link, or public."""

    permission_classes = (IsAuthenticated,)

    @extend_schema(responses=s.VisibilityOutput)
    def get(self, request: Request, game_id: UUID) -> Response:
        game = _owned(request, game_id)
        return Response(_visibility_body(request, game))

    @extend_schema(request=s.VisibilityInput, responses={201: s.VisibilityOutput})
    def post(self, request: Request, game_id: UUID) -> Response:
        get_game(request, game_id)
        data = s.VisibilityInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.game_set_visibility(
            game_id=game_id, user=request.user, **data.validated_data
        )
        game = _owned(request, game_id)
        return Response(_visibility_body(request, game), status=201)


def _owned(request: Request, game_id: UUID) -> GameProjection:
    game = get_game(request, game_id)
    if not selectors.game_is_owner(game, request.user):
        raise services.GamePermissionError("Only the game's owner may share it.")
    return game


def _visibility_body(request: Request, game: GameProjection) -> dict[str, Any]:
    url = None
    if game.share_version is not None:
        token = selectors.share_token(game.game_id, game.share_version)
        url = public_url(request, reverse("game-shared", args=[game.game_id, token]))
    return {"visibility": game.visibility, "share_url": url}


class AnalysisApi(APIView):
    """The best plays of a turn for the player on turn, and where the move made
    ranks (computed on demand with the game's or its tournament's word list)."""

    @extend_schema(parameters=[SHARE], responses=s.AnalysisOutput)
    def get(self, request: Request, game_id: UUID, turn: int) -> Response:
        game = get_game(request, game_id)
        analysis.require_rack_shown(game_id, turn, rack_view(request, game))
        result = analysis.turn_analysis(game_id, turn, version=game.version)
        return Response(analysis.analysis_document(result))


class GcgDownloadApi(APIView):
    @extend_schema(
        parameters=[SHARE], responses={(200, "text/plain"): OpenApiTypes.STR}
    )
    def get(self, request: Request, game_id: UUID) -> HttpResponse:
        return gcg_file(request, get_game(request, game_id))


def gcg_file(request: Any, game: GameProjection | selectors.GameHeader) -> HttpResponse:
    """The game as a GCG file (the API's and the page's), kept by version: the
    export of a game of thousands of notes is built once per version, for each
    view of its racks (the one rack rule)."""
    racks = selectors.rack_view(game, request.user, now=timezone.now())

    def build() -> bytes:
        limit_anonymous(request)
        text = services.game_export_gcg(game.game_id, racks_through=racks.through)
        return text.encode()

    response = cached_body(
        request,
        ("gcg", game.game_id, racks.through),
        game.version,
        build,
        content_type="text/plain; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{game.game_id}.gcg"'
    return response
