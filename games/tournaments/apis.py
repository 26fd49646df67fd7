"""Tournament JSON API: list and create (staff), register and withdraw (players), standings (public)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User

from ..errors import ErrorCode, GameError
from .models import Entry, Tournament, TournamentFormat
from .selectors import (tournament_rounds, tournament_shown_to, tournament_standings, tournament_summary,
                        tournaments_visible)
from .services import (entry_drop, entry_replace, tournament_cancel, tournament_create, tournament_register,
                       tournament_start, tournament_withdraw)

TournamentOutput = inline_serializer("Tournament", {
    "id": serializers.IntegerField(), "name": serializers.CharField(), "game": serializers.CharField(),
    "format": serializers.CharField(), "status": serializers.CharField()})
StandingsOutput = inline_serializer("Standings", {"tournament": serializers.JSONField(),
                                                  "rows": serializers.ListField(), "final": serializers.BooleanField()})


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


def _shown_tournament(request, tournament_id: int) -> Tournament:
    """For the public reads: a proposal not yet approved is 404 to all but staff and its proposer."""
    t = _tournament(tournament_id)
    if not tournament_shown_to(tournament=t, user=request.user):
        raise Http404("No such tournament.")
    return t


class TournamentListCreateApi(APIView):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    class Input(serializers.Serializer):
        name = serializers.CharField(max_length=120)
        game = serializers.CharField(max_length=40)
        format = serializers.ChoiceField(choices=TournamentFormat.values)
        table_size = serializers.IntegerField(min_value=2, max_value=12)
        rounds = serializers.IntegerField(min_value=0, max_value=50, required=False, default=0)
        options = serializers.DictField(required=False, default=dict)
        clock = serializers.DictField(required=False, default=dict)
        settings = serializers.DictField(required=False, default=dict)
        rated = serializers.BooleanField(required=False, default=True)
        registration_opens = serializers.DateTimeField(required=False, allow_null=True, default=None)
        registration_closes = serializers.DateTimeField(required=False, allow_null=True, default=None)
        max_players = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=2)
        seed = serializers.IntegerField(required=False, allow_null=True, default=None)

    @extend_schema(responses={200: inline_serializer("TournamentList", {"tournaments": serializers.ListField()})})
    def get(self, request):
        qs = tournaments_visible(status=request.query_params.get("status") or None)[:200]
        return Response({"tournaments": [tournament_summary(t) for t in qs]})

    @extend_schema(request=Input, responses={201: TournamentOutput})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        d = dict(data.validated_data)
        t = tournament_create(created_by=request.user, engine=d.pop("game"), **d)
        return Response(tournament_summary(t), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentOutput})
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

    @extend_schema(responses={200: StandingsOutput})
    def get(self, request, tournament_id: int):
        return Response(tournament_standings(tournament=_shown_tournament(request, tournament_id)))


class TournamentRegisterApi(APIView):
    @extend_schema(request=None, responses={201: inline_serializer("Registered", {"entry": serializers.IntegerField()})})
    def post(self, request, tournament_id: int):
        entry = tournament_register(tournament=_tournament(tournament_id), user=request.user)
        return Response({"entry": entry.pk, "tournament": tournament_id}, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, tournament_id: int):
        tournament_withdraw(tournament=_tournament(tournament_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentStartApi(APIView):
    @extend_schema(request=None, responses={200: TournamentOutput})
    def post(self, request, tournament_id: int):
        t = _tournament(tournament_id)
        tournament_start(tournament=t, by=request.user)
        t.refresh_from_db()
        return Response(tournament_summary(t))


class TournamentCancelApi(APIView):
    """Staff or the creator: call the tournament off ({"reason"} is told to every entrant)."""

    class Input(serializers.Serializer):
        reason = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)

    @extend_schema(request=Input, responses={200: TournamentOutput})
    def post(self, request, tournament_id: int):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        t = tournament_cancel(tournament=_tournament(tournament_id), by=request.user,
                              reason=data.validated_data["reason"])
        return Response(tournament_summary(t))


class EntryManageApi(APIView):
    """Staff: drop an entry ({"player"}) or replace its player ({"player", "by"})."""

    class Input(serializers.Serializer):
        player = serializers.CharField(max_length=150)
        by = serializers.CharField(max_length=150, required=False, default="")

    @extend_schema(request=Input, responses={200: inline_serializer("EntryChanged", {
        "entry": serializers.IntegerField(), "player": serializers.CharField(), "status": serializers.CharField()})})
    def post(self, request, tournament_id: int, action: str):
        t = _tournament(tournament_id)
        data = self.Input(data=request.data)
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
