"""Leaderboards and a player's ratings (public)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User

from .selectors import leaderboard, ratings_for_user


class LeaderboardApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter("game", str, required=False)],
                   responses={200: inline_serializer("Leaderboard", {"game": serializers.CharField(),
                                                                     "rows": serializers.ListField()})})
    def get(self, request):
        game = request.query_params.get("game") or "faltisia"
        return Response({"game": game, "model": "openskill Plackett-Luce; rating = mu - 3 sigma",
                         "rows": leaderboard(engine=game)})


class UserRatingsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: inline_serializer("UserRatings", {"player": serializers.CharField(),
                                                                     "ratings": serializers.ListField()})})
    def get(self, request, username: str):
        user = get_object_or_404(User, username=username)
        return Response({"player": user.username, "ratings": ratings_for_user(user=user)})
