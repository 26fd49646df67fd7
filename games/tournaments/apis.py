"""Tournament JSON API: list and create (staff), register and withdraw (players), standings (public)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from faltisia.free_text import validate_free_text

from ..api.serializers import SEED_MAX, ClockField, error_responses
from ..errors import ErrorCode, GameError
from ..models import Press
from .models import Entry, Tournament, TournamentFormat
from .selectors import (tournament_rounds, tournament_shown_to, tournament_standings, tournament_summary,
                        tournaments_visible)
from .services import (entry_drop, entry_replace, tournament_cancel, tournament_create, tournament_register,
                       tournament_start, tournament_withdraw)

# Named request and response bodies, each its own schema component (nested classes all called ``Input``
# would collide into one).


class TournamentCreateRequest(serializers.Serializer):
    name = serializers.CharField(max_length=120, validators=[validate_free_text])
    game = serializers.CharField(max_length=40)
    format = serializers.ChoiceField(choices=TournamentFormat.values)
    table_size = serializers.IntegerField(min_value=2, max_value=12)
    rounds = serializers.IntegerField(min_value=0, max_value=50, required=False, default=0)
    options = serializers.DictField(required=False, default=dict)
    clock = ClockField(required=False, default=dict)
    settings = serializers.DictField(required=False, default=dict)
    rated = serializers.BooleanField(required=False, default=True)
    press = serializers.ChoiceField(choices=Press.values, required=False, default=Press.NONE, help_text=(
        "what the players of its games may say to one another: none (the default, the usual "
        "competitive setting), table, or full"))
    registration_opens = serializers.DateTimeField(required=False, allow_null=True, default=None)
    registration_closes = serializers.DateTimeField(required=False, allow_null=True, default=None)
    max_players = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=2,
                                           max_value=100_000)
    seed = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0, max_value=SEED_MAX)


class TournamentCancelRequest(serializers.Serializer):
    reason = serializers.CharField(max_length=300, required=False, default="", allow_blank=True,
                                   validators=[validate_free_text])


class EntryManageRequest(serializers.Serializer):
    player = serializers.CharField(max_length=150)
    by = serializers.CharField(max_length=150, required=False, default="", allow_blank=True)


class TournamentResponse(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    format = serializers.CharField()
    table_size = serializers.IntegerField()
    rounds = serializers.IntegerField()
    current_round = serializers.IntegerField()
    status = serializers.CharField()
    rated = serializers.BooleanField()
    press = serializers.CharField(help_text="none, table or full: its games' table talk")
    registration_opens = serializers.DateTimeField(allow_null=True)
    registration_closes = serializers.DateTimeField(allow_null=True)
    players = serializers.IntegerField()


class TournamentListResponse(serializers.Serializer):
    tournaments = TournamentResponse(many=True)


class TournamentDetailResponse(TournamentResponse):
    settings = serializers.JSONField()
    rounds_detail = serializers.ListField(child=serializers.JSONField())
    registered = serializers.BooleanField(required=False, help_text="whether the caller is registered "
                                                                    "(signed-in callers only)")


class StandingsResponse(serializers.Serializer):
    tournament = TournamentResponse()
    final = serializers.BooleanField()
    tie_breaks = serializers.ListField(child=serializers.JSONField())
    rounds_played = serializers.IntegerField()
    rows = serializers.ListField(child=serializers.JSONField())


class RegisteredResponse(serializers.Serializer):
    entry = serializers.IntegerField()
    tournament = serializers.IntegerField()


class EntryChangedResponse(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.CharField()
    status = serializers.CharField()


_ERROR_TEXT = {400: "Invalid input or settings (or a NUL character in the URL).", 401: "No or an invalid token.", 403: "Not allowed for this caller.",
               404: "No such tournament.", 409: "Not possible in the tournament's current state."}


def _errors(*codes: int) -> dict:
    return error_responses(_ERROR_TEXT, *codes)


# Tournament ids are 64-bit: a larger one is an unknown id, not a database error.
TOURNAMENT_ID_MAX = 2 ** 63 - 1


def _tournament(tournament_id: int) -> Tournament:
    if not 0 < tournament_id <= TOURNAMENT_ID_MAX:
        raise Http404
    return get_object_or_404(Tournament, pk=tournament_id)


def _shown_tournament(request, tournament_id: int) -> Tournament:
    """Every route's tournament: a proposal not yet approved is 404 to all but staff and its proposer, on
    the writes too (a 403 or 409 there would tell an outsider the proposal exists)."""
    t = _tournament(tournament_id)
    if not tournament_shown_to(tournament=t, user=request.user):
        raise Http404("No such tournament.")
    return t


class TournamentListCreateApi(APIView):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(operation_id="tournaments_list",
                   parameters=[OpenApiParameter("status", str, required=False,
                                                description="only tournaments with this status")],
                   responses={200: TournamentListResponse, **_errors(400)})
    def get(self, request):
        qs = tournaments_visible(status=request.query_params.get("status") or None)[:200]
        return Response({"tournaments": [tournament_summary(t) for t in qs]})

    @extend_schema(operation_id="tournaments_create", request=TournamentCreateRequest,
                   responses={201: TournamentResponse, **_errors(400, 401, 403)})
    def post(self, request):
        data = TournamentCreateRequest(data=request.data)
        data.is_valid(raise_exception=True)
        d = dict(data.validated_data)
        t = tournament_create(created_by=request.user, engine=d.pop("game"), **d)
        return Response(tournament_summary(t), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="tournaments_detail", responses={200: TournamentDetailResponse, **_errors(404)})
    def get(self, request, tournament_id: int):
        t = _shown_tournament(request, tournament_id)
        body = tournament_summary(t)
        body["settings"] = t.settings
        body["rounds_detail"] = tournament_rounds(tournament=t)
        if request.user.is_authenticated:
            body["registered"] = Entry.objects.filter(tournament=t, user=request.user).exists()
        return Response(body)


class TournamentStandingsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: StandingsResponse, **_errors(404)})
    def get(self, request, tournament_id: int):
        return Response(tournament_standings(tournament=_shown_tournament(request, tournament_id)))


class TournamentRegisterApi(APIView):
    @extend_schema(request=None, responses={201: RegisteredResponse, **_errors(401, 404, 409)})
    def post(self, request, tournament_id: int):
        entry = tournament_register(tournament=_shown_tournament(request, tournament_id), user=request.user)
        return Response({"entry": entry.pk, "tournament": tournament_id}, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: OpenApiResponse(description="Withdrawn."),
                                            **_errors(401, 403, 404)})
    def delete(self, request, tournament_id: int):
        tournament_withdraw(tournament=_shown_tournament(request, tournament_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentStartApi(APIView):
    @extend_schema(request=None, responses={200: TournamentResponse, **_errors(400, 401, 403, 404, 409)})
    def post(self, request, tournament_id: int):
        t = _shown_tournament(request, tournament_id)
        tournament_start(tournament=t, by=request.user)
        t.refresh_from_db()
        return Response(tournament_summary(t))


class TournamentCancelApi(APIView):
    """Staff or the creator: call the tournament off ({"reason"} is told to every entrant)."""

    @extend_schema(request=TournamentCancelRequest, responses={200: TournamentResponse,
                                                               **_errors(400, 401, 403, 404, 409)})
    def post(self, request, tournament_id: int):
        data = TournamentCancelRequest(data=request.data)
        data.is_valid(raise_exception=True)
        t = tournament_cancel(tournament=_shown_tournament(request, tournament_id), by=request.user,
                              reason=data.validated_data["reason"])
        return Response(tournament_summary(t))


class EntryManageApi(APIView):
    """Staff: drop an entry ({"player"}) or replace its player ({"player", "by"})."""

    @extend_schema(request=EntryManageRequest, responses={200: EntryChangedResponse,
                                                          **_errors(400, 401, 403, 404, 409)})
    def post(self, request, tournament_id: int, action: str):
        t = _shown_tournament(request, tournament_id)
        data = EntryManageRequest(data=request.data)
        data.is_valid(raise_exception=True)
        entry = Entry.objects.filter(tournament=t, user__username=data.validated_data["player"]).first()
        if entry is None:
            raise GameError(ErrorCode.NOT_YOUR_SEAT, "no such player in this tournament")
        if action == "drop":
            entry = entry_drop(entry=entry, by=request.user)
        else:
            substitute = User.objects.filter(username=data.validated_data["by"]).first()
            if substitute is None:
                raise GameError(ErrorCode.INVALID_SETTINGS, "give the substitute's username as 'by'")
            entry = entry_replace(entry=entry, user=substitute, by=request.user)
        return Response({"entry": entry.pk, "player": entry.user.username, "status": entry.status})
