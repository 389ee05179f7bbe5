"""The tournaments REST API: thin views that validate, call a service, serialise.

Reads are public for published tournaments (and open to their directors otherwise);
commands need a director of the tournament (403), take ``expected_version`` (409 when
stale) and answer 400 with the rule's code, message and field when the rules refuse.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.parsers import BoundedJSONParser
from games.eventstore.store import AppendResult
from games.readcache import cached_json
from tournaments import (
    corrections,
    division_rules,
    imports,
    presenters,
    selectors,
    services,
)
from tournaments import serializers as s
from tournaments.models import Player, Tournament
from tournaments.uploads import (
    MAX_CONFIG_BYTES,
    MAX_T_FILE_BYTES,
    UploadTooLargeError,
    read_upload,
)


def get_tournament(request: Request, tournament_id: UUID) -> Tournament:
    """The tournament if the user may read it; 404 otherwise (no existence leak)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not selectors.tournament_can_read(tournament, request.user):
        raise Http404
    return tournament


def command_response(result: AppendResult) -> Response:
    body = {
        "version": result.version,
        "events": [recorded.type_name for recorded in result.recorded],
    }
    return Response(body, status=status.HTTP_201_CREATED)


def after_round_param(request: Request, rounds: int) -> int | None:
    """The ``after_round`` query parameter: a round from 0 (before round 1) to
    ``rounds``, or None when not given; a 400 naming it otherwise."""
    after_round = request.query_params.get("after_round")
    if after_round is None:
        return None
    if not after_round.isdigit() or not 0 <= int(after_round) <= rounds:
        raise ValidationError(
            {"after_round": [f"Give a round from 0 (before round 1) to {rounds}."]}
        )
    return int(after_round)


def division_param(
    request: Request, tournament: Tournament | selectors.TournamentHeader
) -> str:
    division = request.query_params.get("division") or (
        tournament.divisions[0] if tournament.divisions else ""
    )
    if division not in tournament.divisions:
        raise ValidationError({"division": [f"No division {division!r}."]})
    return division


DIVISION = OpenApiParameter("division", str, description="Default: the first.")


class TournamentListCreateApi(ListAPIView):
    serializer_class = s.TournamentOutput
    permission_classes = (IsAuthenticatedOrReadOnly,)
    filterset_fields = ("published",)

    def get_queryset(self) -> Any:
        return selectors.tournament_list(self.request.user)

    @extend_schema(request=s.TournamentCreateInput, responses={201: s.TournamentOutput})
    def post(self, request: Request) -> Response:
        data = s.TournamentCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        values["start_date"] = values["start_date"].isoformat()
        values["end_date"] = values["end_date"].isoformat()
        result = services.tournament_create(user=request.user, **values)
        tournament = Tournament.objects.get(pk=result.stream.id)
        return Response(s.TournamentOutput(tournament).data, status=201)


class TournamentDetailApi(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(responses=s.TournamentOutput)
    def get(self, request: Request, tournament_id: UUID) -> Response:
        return Response(s.TournamentOutput(get_tournament(request, tournament_id)).data)

    @extend_schema(request=s.SettingsPatchInput, responses={201: s.CommandOutput})
    def patch(self, request: Request, tournament_id: UUID) -> Response:
        """Correct the settings: every result is counted again under them."""
        get_tournament(request, tournament_id)
        data = s.SettingsPatchInput(data=request.data)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        expected = changes.pop("expected_version", None)
        if not changes:
            raise ValidationError({"non_field_errors": ["Give a setting to change."]})
        result = corrections.settings_change(
            tournament_id=tournament_id,
            changes=changes,
            user=request.user,
            expected_version=expected,
        )
        return command_response(result)


class PlayerDetailApi(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(responses=s.PlayerOutput)
    def get(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        tournament = get_tournament(request, tournament_id)
        player = get_object_or_404(Player, tournament=tournament, player_id=player_id)
        return Response(s.PlayerOutput(player).data)

    @extend_schema(request=s.PlayerPatchInput, responses={201: s.CorrectionOutput})
    def patch(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        """Correct a player's name, rating, member id or career games."""
        get_tournament(request, tournament_id)
        data = s.PlayerPatchInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        expected = fields.pop("expected_version", None)
        if not fields:
            raise ValidationError({"non_field_errors": ["Give a field to correct."]})
        done = corrections.player_edit(
            tournament_id=tournament_id,
            player_id=player_id,
            user=request.user,
            expected_version=expected,
            **fields,
        )
        response = command_response(done.result)
        response.data["notes"] = list(done.notes)
        return response


class DivisionApi(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(responses=s.DivisionOutput)
    def get(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """The division and the tile set and lexicon its games are played with."""
        tournament = get_tournament(request, tournament_id)
        _known_division(tournament, division)
        _, state = services.tournament_state(tournament_id)
        assert state.rules is not None
        return Response(division_rules.division_document(state.rules, division))

    @extend_schema(request=s.DivisionPatchInput, responses={201: s.CommandOutput})
    def patch(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """Rename a division (everything of it takes the new name), or choose the
        tile set and lexicon its games are played with (games already started
        keep theirs)."""
        get_tournament(request, tournament_id)
        data = s.DivisionPatchInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        setup = {key: v[key] for key in ("tile_set", "lexicon") if key in v}
        if "name" not in v and not setup:
            raise ValidationError(
                {"non_field_errors": ["Give a new name, a tile_set or a lexicon."]}
            )
        result = division_rules.division_change(
            tournament_id=tournament_id,
            division=division,
            new_name=v.get("name"),
            setup=setup,
            user=request.user,
            expected_version=v.get("expected_version"),
        )
        return command_response(result)


class PairingRulesApi(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(responses=s.PairingRulesFields)
    def get(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """The division's pairing rules (the defaults until a director sets them)."""
        tournament = get_tournament(request, tournament_id)
        _known_division(tournament, division)
        _, state = services.tournament_state(tournament_id)
        assert state.rules is not None
        return Response(
            division_rules.options_document(state.rules.options_of(division))
        )

    @extend_schema(request=s.PairingRulesInput, responses={201: s.CommandOutput})
    def patch(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """Correct the division's pairing rules: repeat limit, Gibsonization,
        prize places and Chew bands, fixed boards, InitFontes rounds (the fields
        given change; fixed_boards, when given, replaces the list). They govern the
        system pairings made from now on."""
        tournament = get_tournament(request, tournament_id)
        _known_division(tournament, division)
        data = s.PairingRulesInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        expected_version = changes.pop("expected_version", None)
        _, state = services.tournament_state(tournament_id)
        assert state.rules is not None
        current = division_rules.options_document(state.rules.options_of(division))
        result = division_rules.pairing_rules_set(
            tournament_id=tournament_id,
            division=division,
            options=division_rules.options_from({**current, **changes}),
            user=request.user,
            expected_version=expected_version,
        )
        return command_response(result)


class PrizesApi(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after_round", int, description="Winners after this round."
            )
        ],
        responses=s.PrizeBoardOutput,
    )
    def get(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """The division's classes and prize table with each prize's winners, as
        the rules compute them from the results (ties as the table says)."""
        tournament = get_tournament(request, tournament_id)
        _known_division(tournament, division)
        board = selectors.prize_board(
            tournament_id, division, after_round_param(request, tournament.rounds)
        )
        return Response(presenters.prize_board_document(board))

    @extend_schema(request=s.PrizeTableInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """Set the division's rating classes and prize table (replacing it)."""
        tournament = get_tournament(request, tournament_id)
        _known_division(tournament, division)
        data = s.PrizeTableInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = division_rules.prize_table_set(
            tournament_id=tournament_id,
            division=division,
            table=division_rules.table_from(data.validated_data),
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


def _known_division(tournament: Tournament, division: str) -> None:
    if division not in tournament.divisions:
        raise Http404(f"No division {division}.")


class TeamApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(responses=s.TeamMemberOutput(many=True))
    def get(self, request: Request, tournament_id: UUID) -> Response:
        """The team: directors and scorekeepers (its directors only)."""
        tournament = get_tournament(request, tournament_id)
        if not selectors.tournament_is_director(tournament, request.user):
            raise services.PermissionDeniedError(
                "Only the tournament's directors may see its team."
            )
        team = selectors.tournament_team(tournament)
        return Response([{"username": name, "role": role} for name, role in team])

    @extend_schema(request=s.TeamMemberInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID) -> Response:
        """Add a co-director or a scorekeeper by username."""
        get_tournament(request, tournament_id)
        data = s.TeamMemberInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = corrections.team_add(
            tournament_id=tournament_id,
            username=data.validated_data["username"],
            role=data.validated_data["role"],
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


class TeamRemoveApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(request=s.TeamRemoveInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID) -> Response:
        """Remove a director (never the last) or a scorekeeper."""
        get_tournament(request, tournament_id)
        data = s.TeamRemoveInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = corrections.team_remove(
            tournament_id=tournament_id,
            username=data.validated_data["username"],
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


class LateEntryApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(request=s.LateEntryInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID) -> Response:
        """Register a late entry, credited for the rounds already paired."""
        get_tournament(request, tournament_id)
        data = s.LateEntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        result = corrections.late_entry(
            tournament_id=tournament_id,
            division=v["division"],
            name=v["name"],
            rating=v["rating"],
            member_id=v["member_id"],
            career_games=v["career_games"],
            credit=corrections.LateCredit(v["credit"]),
            user=request.user,
            expected_version=v.get("expected_version"),
        )
        return command_response(result)


class MissedRoundApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(request=s.MissedRoundInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        """A player misses one round (its forfeit policy) and plays the next."""
        get_tournament(request, tournament_id)
        data = s.MissedRoundInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = corrections.round_missed(
            tournament_id=tournament_id,
            player_id=player_id,
            round_=data.validated_data["round"],
            policy=data.validated_data["policy"],
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


class PlayersApi(APIView):
    @extend_schema(parameters=[DIVISION], responses=s.PlayerOutput(many=True))
    def get(self, request: Request, tournament_id: UUID) -> Response:
        tournament = get_tournament(request, tournament_id)
        players = Player.objects.filter(tournament=tournament)
        if "division" in request.query_params:
            players = players.filter(division=division_param(request, tournament))
        return Response(s.PlayerOutput(players, many=True).data)

    @extend_schema(request=s.PlayersRegisterInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        data = s.PlayersRegisterInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.players_register(
            tournament_id=tournament_id,
            division=data.validated_data["division"],
            entries=[
                (p["name"], p["rating"], p["member_id"], p["career_games"])
                for p in data.validated_data["players"]
            ],
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


class PlayerWithdrawApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(request=s.WithdrawInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        get_tournament(request, tournament_id)
        data = s.WithdrawInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.player_withdraw(
            tournament_id=tournament_id,
            player_id=player_id,
            user=request.user,
            **data.validated_data,
        )
        return command_response(result)


class PlayerReactivateApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(request=s.ReactivateInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        get_tournament(request, tournament_id)
        data = s.ReactivateInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.player_reactivate(
            tournament_id=tournament_id,
            player_id=player_id,
            user=request.user,
            **data.validated_data,
        )
        return command_response(result)


class PairingsApi(APIView):
    @extend_schema(parameters=[DIVISION], responses=s.PairingOutput(many=True))
    def get(self, request: Request, tournament_id: UUID, round_: int) -> Response:
        tournament = get_tournament(request, tournament_id)
        division = division_param(request, tournament)
        boards = selectors.round_boards(tournament.tournament_id, division, round_)
        return Response(s.PairingOutput(boards, many=True).data)


class PairRoundApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(request=s.PairRoundInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID, round_: int) -> Response:
        get_tournament(request, tournament_id)
        data = s.PairRoundInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        result = services.round_pair(
            tournament_id=tournament_id,
            division=v["division"],
            round_=round_,
            method=v["method"],
            games=[(g["board"], g["first"], g["second"]) for g in v.get("games", [])],
            byes=v.get("byes", []),
            based_on_round=v.get("based_on_round"),
            allow_repeats=v["allow_repeats"],
            user=request.user,
            expected_version=v.get("expected_version"),
        )
        return command_response(result)


class ResultsApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(request=s.ResultInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        data = s.ResultInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        game_id = v.pop("game_id", None)
        result = services.result_record(
            tournament_id=tournament_id,
            round_=v.pop("round"),
            game_id=str(game_id) if game_id else None,
            user=request.user,
            **v,
        )
        return command_response(result)


class AmendResultApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(request=s.AmendInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        data = s.AmendInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        game_id = v.pop("game_id", None)
        result = services.result_amend(
            tournament_id=tournament_id,
            round_=v.pop("round"),
            game_id=str(game_id) if game_id else None,
            user=request.user,
            **v,
        )
        return command_response(result)


class ForfeitApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(request=s.ForfeitInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        data = s.ForfeitInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        result = services.forfeit_record(
            tournament_id=tournament_id, round_=v.pop("round"), user=request.user, **v
        )
        return command_response(result)


class StandingsApi(APIView):
    @extend_schema(
        parameters=[
            DIVISION,
            OpenApiParameter(
                "after_round",
                int,
                description="Default: the latest round; 0: the pre-event order.",
            ),
        ],
        responses=s.StandingsOutput,
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        header = selectors.readable_header(
            selectors.tournament_header(tournament_id), request.user
        )
        division = division_param(request, header)
        after_round = after_round_param(request, header.rounds)

        def build() -> Any:
            round_, rows = selectors.standings(tournament_id, division, after_round)
            return {"division": division, "after_round": round_, "standings": rows}

        return cached_json(
            request,
            ("standings", tournament_id, division, after_round),
            header.division_version(division),
            build,
        )


class ScorecardApi(APIView):
    @extend_schema(responses=s.ScorecardOutput)
    def get(self, request: Request, tournament_id: UUID, player_id: str) -> Response:
        header = selectors.readable_header(
            selectors.scorecard_header(tournament_id, player_id), request.user
        )
        player = header.player
        if player is None:
            raise Http404

        def build() -> Any:
            lines = selectors.scorecard_lines(
                tournament_id, player_id, player["division"]
            )
            return {
                "player": player,
                "rounds": [scorecard_line_dict(line) for line in lines],
            }

        return cached_json(
            request,
            ("scorecard", tournament_id, player_id),
            header.division_version(player["division"]),
            build,
        )


# Every ScorecardLineOutput field is a ScorecardLine attribute of the same name.
_LINE_FIELDS = tuple(s.ScorecardLineOutput().fields)


def scorecard_line_dict(line: selectors.ScorecardLine) -> dict[str, Any]:
    """A scorecard line as ScorecardLineOutput documents it (a national scorecard
    has 31 lines: through the serializer they cost more than the whole read)."""
    body = {name: getattr(line, name) for name in _LINE_FIELDS}
    if line.game_id is not None:
        body["game_id"] = str(line.game_id)
    return body


class AuditApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(responses=s.AuditEntryOutput(many=True))
    def get(self, request: Request, tournament_id: UUID) -> Response:
        tournament = get_tournament(request, tournament_id)
        if not selectors.tournament_is_director(tournament, request.user):
            raise services.PermissionDeniedError(
                "Only the tournament's directors may read its log."
            )
        entries = selectors.tournament_audit(tournament)
        return Response(s.AuditEntryOutput(entries, many=True).data)


class TshImportApi(APIView):
    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser, FormParser, BoundedJSONParser)

    @extend_schema(request=s.TshImportInput, responses={201: s.CommandOutput})
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        data = s.TshImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        text = _upload_text(
            data.validated_data["file"], MAX_T_FILE_BYTES, "file", "A .t file"
        )
        result = imports.tsh_import(
            tournament_id=tournament_id,
            division=data.validated_data["division"],
            text=text,
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


def _upload_text(upload: Any, limit: int, field: str, what: str) -> str:
    try:
        return read_upload(upload, limit, what)
    except UploadTooLargeError as error:
        raise ValidationError({field: [str(error)]}) from None


class TshEventImportApi(APIView):
    """Create a tournament from tsh's config.tsh and its divisions' .t files."""

    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(
        operation_id="tournaments_import_tsh_event",
        request={"multipart/form-data": s.TshEventImportInput},
        responses={201: s.TshEventImportOutput},
    )
    def post(self, request: Request) -> Response:
        data = s.TshEventImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        files = {
            upload.name: _upload_text(
                upload, MAX_T_FILE_BYTES, "files", f"The .t file {upload.name}"
            )
            for upload in v["files"]
        }
        end = v.get("end_date")
        imported = imports.tsh_event_import(
            user=request.user,
            name=v["name"],
            start_date=v["start_date"].isoformat(),
            end_date=end.isoformat() if end else None,
            config=_upload_text(v["config"], MAX_CONFIG_BYTES, "config", "config.tsh"),
            files=files,
            published=v["published"],
        )
        tournament = Tournament.objects.get(pk=imported.result.stream.id)
        body = {
            "tournament": s.TournamentOutput(tournament).data,
            "divisions": list(imported.divisions),
            "not_taken": [
                {"line": line, "text": text} for line, text in imported.not_taken
            ],
        }
        return Response(body, status=201)


class TouImportApi(APIView):
    """Import a .TOU file: its divisions' players, pairings, results and byes."""

    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser, FormParser, BoundedJSONParser)

    @extend_schema(
        request={"multipart/form-data": s.TouImportInput},
        responses={201: s.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        get_tournament(request, tournament_id)
        data = s.TouImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        ratings_list = data.validated_data.get("ratings_list")
        result = imports.tou_import(
            tournament_id=tournament_id,
            text=_upload_text(
                data.validated_data["file"], MAX_T_FILE_BYTES, "file", "A .TOU file"
            ),
            ratings_list=(
                None
                if ratings_list is None
                else _upload_text(
                    ratings_list, MAX_T_FILE_BYTES, "ratings_list", "A ratings list"
                )
            ),
            user=request.user,
            expected_version=data.validated_data.get("expected_version"),
        )
        return command_response(result)


class RatingsListImportApi(APIView):
    """Update pre-event ratings and career games from a ratings body's list."""

    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser, FormParser, BoundedJSONParser)

    @extend_schema(
        request={"multipart/form-data": s.RatingsListImportInput},
        responses={201: s.RatingsListImportOutput, 200: s.RatingsListImportOutput},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        tournament = get_tournament(request, tournament_id)
        data = s.RatingsListImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        division = data.validated_data.get("division") or None
        if division is not None and division not in tournament.divisions:
            raise ValidationError({"division": [f"No division {division!r}."]})
        result, updates = imports.ratings_list_import(
            tournament_id=tournament_id,
            text=_upload_text(
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
        return Response(s.RatingsListImportOutput(body).data, status=code)
