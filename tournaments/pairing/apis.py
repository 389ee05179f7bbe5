"""The API of pairing: a round's pairings, pairing a round, pairing rules."""

from __future__ import annotations

from uuid import UUID

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.core import aggregate
from tournaments.core import serializers as core_serializers
from tournaments.core.api import (
    DIVISION,
    command_response,
    division_param,
    get_tournament,
    require_division,
)
from tournaments.pairing import presenters, selectors, services
from tournaments.pairing import serializers as pairing_serializers


class PairingRulesApi(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(responses=pairing_serializers.PairingRulesFields)
    def get(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """The division's pairing rules (the defaults until a director sets them)."""
        tournament = get_tournament(request, tournament_id)
        require_division(tournament, division)
        _, state = aggregate.tournament_state(tournament_id)
        assert state.rules is not None
        return Response(
            pairing_serializers.options_document(state.rules.options_of(division))
        )

    @extend_schema(
        request=pairing_serializers.PairingRulesInput,
        responses={201: core_serializers.CommandOutput},
    )
    def patch(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """Correct the division's pairing rules: repeat limit, Gibsonization,
        prize places and Chew bands, fixed boards, InitFontes rounds (the fields
        given change; fixed_boards, when given, replaces the list). They govern the
        system pairings made from now on."""
        tournament = get_tournament(request, tournament_id)
        require_division(tournament, division)
        data = pairing_serializers.PairingRulesInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        expected_version = changes.pop("expected_version", None)
        _, state = aggregate.tournament_state(tournament_id)
        assert state.rules is not None
        current = pairing_serializers.options_document(state.rules.options_of(division))
        result = services.pairing_rules_set(
            tournament_id=tournament_id,
            division=division,
            options=pairing_serializers.options_from({**current, **changes}),
            user=request.user,
            expected_version=expected_version,
        )
        return command_response(result)


class PairingsApi(APIView):
    @extend_schema(
        parameters=[DIVISION], responses=pairing_serializers.PairingOutput(many=True)
    )
    def get(self, request: Request, tournament_id: UUID, round_: int) -> Response:
        tournament = get_tournament(request, tournament_id)
        division = division_param(request, tournament)
        boards = selectors.round_boards(tournament.tournament_id, division, round_)
        return Response(pairing_serializers.PairingOutput(boards, many=True).data)


class PairingReasonsApi(APIView):
    @extend_schema(
        parameters=[DIVISION], responses=pairing_serializers.PairingReasonsOutput
    )
    def get(self, request: Request, tournament_id: UUID, round_: int) -> Response:
        """Why the round is paired as it is: per board and bye, as the pairing
        recorded it; for a hand pairing, what the system would have done."""
        tournament = get_tournament(request, tournament_id)
        division = division_param(request, tournament)
        found = selectors.round_explanation(tournament.tournament_id, division, round_)
        if found is None:
            raise Http404(f"Round {round_} of division {division} is not paired.")
        event, names = found
        return Response(
            pairing_serializers.reasons_document(
                event, presenters.explain(event, names)
            )
        )


class PairRoundApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=pairing_serializers.PairRoundInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID, round_: int) -> Response:
        get_tournament(request, tournament_id)
        data = pairing_serializers.PairRoundInput(data=request.data)
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


class RoundScheduleApi(APIView):
    permission_classes = (IsAuthenticatedOrReadOnly,)

    @extend_schema(responses=pairing_serializers.RoundScheduleOutput)
    def get(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """The division's round schedule: which system pairs each round on which
        round's results (tsh's autopair), and a due round it could not pair."""
        tournament = get_tournament(request, tournament_id)
        require_division(tournament, division)
        _, state = aggregate.tournament_state(tournament_id)
        assert state.rules is not None
        return Response(
            {
                "rounds": pairing_serializers.schedule_document(
                    state.rules.schedule_of(division)
                ),
                "status": services.schedule_status(state.rules, division),
            }
        )

    @extend_schema(
        request=pairing_serializers.RoundScheduleInput,
        responses={201: core_serializers.CommandOutput},
    )
    def post(self, request: Request, tournament_id: UUID, division: str) -> Response:
        """Set the division's round schedule, replacing the earlier one (an empty
        list: none): a new event, as the API never changes what it stored (POST,
        not PUT). Each round then pairs itself, as the system, once the round
        before it is paired and every result of the round it is based on is in;
        a round due already is paired at once."""
        tournament = get_tournament(request, tournament_id)
        require_division(tournament, division)
        data = pairing_serializers.RoundScheduleInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        result = services.round_schedule_set(
            tournament_id=tournament_id,
            division=division,
            rounds=[
                (line["round"], line["method"], line["based_on_round"])
                for line in v["rounds"]
            ],
            user=request.user,
            expected_version=v.get("expected_version"),
        )
        return command_response(result)
