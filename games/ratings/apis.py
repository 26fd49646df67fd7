"""Leaderboards and a player's ratings (public)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User

from ..api.serializers import ErrorResponse
from .selectors import leaderboard, ratings_for_user

# A NUL in the URL is a 400 before any view runs (games/request_guard.py).
_BAD_URL = OpenApiResponse(ErrorResponse, description="The URL holds a NUL character.")


class LeaderboardApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter("game", str, required=False)],
                   responses={200: inline_serializer("Leaderboard", {"game": serializers.CharField(),
                                                                     "rows": serializers.ListField()}),
                              400: _BAD_URL})
    def get(self, request):
        game = request.query_params.get("game") or "faltisia"
        return Response({"game": game, "model": "openskill Plackett-Luce; rating = mu - 3 sigma",
                         "rows": leaderboard(engine=game)})


class UserRatingsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: inline_serializer("UserRatings", {"player": serializers.CharField(),
                                                                     "ratings": serializers.ListField()}),
                              400: _BAD_URL, 404: OpenApiResponse(ErrorResponse, description="No such player.")})
    def get(self, request, username: str):
        user = get_object_or_404(User, username=username)
        return Response({"player": user.username, "ratings": ratings_for_user(user=user)})
