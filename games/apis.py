"""The JSON API of DESIGN.md: thin views that parse input, call a service or selector, shape output."""

from __future__ import annotations

from django.http import Http404, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from .conditional import WAIT_MAX_SECONDS, etag_matches, game_etag, game_version_wait, wait_seconds
from .engines.registry import get_engine, slugs
from .errors import ErrorCode, GameError
from .models import Game, SubmissionSource
from .selectors import (event_as_dict, events_for_user, game_detail_for_user, game_summary, game_visible_to,
                        game_with_creator, games_for_user, open_prompt_for_seat, prompt_as_dict, seat_for_user,
                        seats_with_open_prompts)
from .services import (game_abandon, game_create, game_join, game_pause, game_resume, seat_reclaim,
                       seat_standing_orders_set)
from .services.submissions import submission_create_for_player

ErrorOutput = inline_serializer("Error", {"error": serializers.CharField(), "detail": serializers.CharField()})
GameOutput = inline_serializer("GameDetail", {
    "id": serializers.IntegerField(), "game": serializers.CharField(), "status": serializers.CharField(),
    "view": serializers.JSONField(), "prompt": serializers.JSONField(allow_null=True),
    "result": serializers.JSONField(allow_null=True)})
PromptOutput = inline_serializer("Prompt", {
    "id": serializers.CharField(), "text": serializers.CharField(),
    "options": serializers.ListField(child=serializers.DictField(child=serializers.CharField())),
    "deadline": serializers.DateTimeField(allow_null=True)}, allow_null=True)
MoveOutput = inline_serializer("Move", {
    "submission": inline_serializer("Submission", {
        "id": serializers.IntegerField(), "prompt": serializers.CharField(), "option": serializers.CharField(),
        "phase": serializers.IntegerField(), "source": serializers.CharField()}),
    "replayed": serializers.BooleanField(help_text="true: a resend of a pick already stored (status 200)"),
    "prompt": PromptOutput,  # the caller's next decision, as in GET /api/games/{id}/ (null: none now)
})


def _game_or_404(game_id: int) -> Game:
    return get_object_or_404(Game, pk=game_id)


def _visible_game_or_404(game_id: int, user) -> Game:
    game = _game_or_404(game_id)
    if not game_visible_to(game=game, user=user):
        raise Http404  # a private game's existence is not disclosed
    return game


def _my_seat(game: Game, user):
    seat = seat_for_user(game=game, user=user)
    if seat is None:
        raise GameError(ErrorCode.NOT_YOUR_SEAT, "you have no seat in this game")
    return seat


class GameListCreateApi(APIView):
    class Input(serializers.Serializer):
        game = serializers.CharField(max_length=40)
        seats = serializers.IntegerField(min_value=1, max_value=12)
        options = serializers.DictField(required=False, default=dict)
        clock = serializers.DictField(required=False, default=dict)
        public = serializers.BooleanField(required=False, default=True)
        bots = serializers.IntegerField(required=False, default=0, min_value=0)
        seed = serializers.IntegerField(required=False, allow_null=True, default=None)
        rated = serializers.BooleanField(required=False, default=False)

    @extend_schema(responses={200: inline_serializer("GameList", {"games": serializers.ListField()})})
    def get(self, request):
        games = games_for_user(user=request.user)[:200]
        return Response({"games": [game_summary(game=g) for g in games], "available": slugs()})

    @extend_schema(request=Input, responses={201: GameOutput, 400: ErrorOutput})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        game = game_create(created_by=request.user, engine=d["game"], players=d["seats"], options=d["options"],
                           clock=d["clock"], is_public=d["public"], bots=d["bots"], seed=d["seed"],
                           rated=d["rated"])
        return Response(game_detail_for_user(game=game, user=request.user), status=status.HTTP_201_CREATED)


ETAG_HEADER = OpenApiParameter(
    "ETag", str, OpenApiParameter.HEADER, response=[200, 304],
    description=('This caller\'s version of the game, an opaque tag such as W/"3f9c0a5e8d7b6c1a2e4f9b0d"; '
                 'send it back in If-None-Match.'))
# Per caller (the body differs per seat), and a client must revalidate before reusing a stored copy.
CACHE_CONTROL = "private, no-cache"


def _not_modified(etag: str) -> HttpResponseNotModified:
    response = HttpResponseNotModified()
    response["ETag"], response["Cache-Control"] = etag, CACHE_CONTROL
    return response


class GameDetailApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER, required=False, description=(
                "The ETag of the caller's last view of this game: 304 with no body while it is still current.")),
            OpenApiParameter("wait", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False, description=(
                f"With If-None-Match only: hold the request up to this many seconds (0-{WAIT_MAX_SECONDS}; larger "
                "is clamped, anything else is a 400) until the game changes for the caller, then answer 200 with "
                "the new view, else 304. Each waiting request holds a server thread.")),
            ETAG_HEADER,
        ],
        responses={200: OpenApiResponse(GameOutput, description="The caller's view, with its ETag."),
                   304: OpenApiResponse(description="Not Modified: the If-None-Match ETag is still current "
                                                    "(after waiting, if ?wait was given). No body."),
                   400: ErrorOutput, 404: ErrorOutput})
    def get(self, request, game_id: int):
        if_none_match = request.headers.get("If-None-Match")
        if if_none_match:
            # The cheap path: the token, then one small query per check of the version (one check without
            # ?wait); no seats, no engine view, no rendering while the caller's copy is current.
            version = game_version_wait(game_id=game_id, user=request.user, if_none_match=if_none_match,
                                        seconds=wait_seconds(request.query_params.get("wait")))
            if version is None:
                raise Http404  # as below: a private game's existence is not disclosed, nor its version
            etag = game_etag(game_id=game_id, version=version, user_id=request.user.pk)
            if etag_matches(if_none_match, etag):
                return _not_modified(etag)
        # Three queries in all: the token, the game with its creator, the seats with players and open prompts.
        # The version comes with the game row, read before the seats: the ETag is never newer than the body.
        game = game_with_creator(game_id=game_id)
        if game is None:
            raise Http404
        seats = seats_with_open_prompts(game_id=game.pk)
        if not game_visible_to(game=game, user=request.user, seats=seats):
            raise Http404  # a private game's existence is not disclosed
        response = Response(game_detail_for_user(game=game, user=request.user, seats=seats))
        response["ETag"] = game_etag(game_id=game.pk, version=game.version, user_id=request.user.pk)
        response["Cache-Control"] = CACHE_CONTROL
        return response


class GameJoinApi(APIView):
    @extend_schema(request=None, responses={200: inline_serializer("Joined", {"seat": serializers.IntegerField()}),
                                            409: ErrorOutput})
    def post(self, request, game_id: int):
        seat = game_join(game=_game_or_404(game_id), user=request.user)
        return Response({"seat": seat.position, "game": game_id})


class MoveApi(APIView):
    class Input(serializers.Serializer):
        prompt = serializers.CharField(max_length=100)
        option = serializers.CharField(max_length=100)

    @extend_schema(request=Input,
                   parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
                   responses={201: MoveOutput, 200: MoveOutput, 400: ErrorOutput, 403: ErrorOutput,
                              404: ErrorOutput, 409: ErrorOutput})
    def post(self, request, game_id: int):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        key = request.headers.get("Idempotency-Key") or None
        try:
            # The seat is found inside the pick's locked transaction: no lookup before it, no read after.
            outcome = submission_create_for_player(game_id=game_id, user=request.user,
                                                   prompt_id=data.validated_data["prompt"],
                                                   option_id=data.validated_data["option"], idempotency_key=key,
                                                   source=SubmissionSource.API)
        except Game.DoesNotExist:
            raise Http404
        submission, prompt = outcome.submission, outcome.next_prompt
        if outcome.step_completed:
            # The resolution ran on commit if tasks run in-process (or a worker was quick): its prompt, if any.
            prompt = open_prompt_for_seat(seat=outcome.seat)
        body = {"submission": {"id": submission.pk, "prompt": submission.prompt_id, "option": submission.option_id,
                               "phase": submission.phase, "source": submission.source},
                "replayed": not submission.is_new,
                "prompt": prompt_as_dict(prompt)}
        return Response(body, status=status.HTTP_201_CREATED if submission.is_new else status.HTTP_200_OK)


class LogApi(APIView):
    @extend_schema(responses={200: inline_serializer("Log", {"events": serializers.ListField()})})
    def get(self, request, game_id: int):
        game = _visible_game_or_404(game_id, request.user)
        return Response({"events": [event_as_dict(e) for e in events_for_user(game=game, user=request.user)]})


class StandingOrdersApi(APIView):
    class Input(serializers.Serializer):
        orders = serializers.ListField(child=serializers.CharField(max_length=100), allow_empty=True)

    @extend_schema(responses={200: inline_serializer("StandingOrders", {
        "orders": serializers.ListField(), "available": serializers.ListField()})})
    def get(self, request, game_id: int):
        game = _game_or_404(game_id)
        seat = _my_seat(game, request.user)
        return Response(self._body(game, seat))

    @extend_schema(request=Input, responses={200: inline_serializer("StandingOrdersSet", {
        "orders": serializers.ListField(), "available": serializers.ListField()}), 400: ErrorOutput})
    def post(self, request, game_id: int):
        game = _game_or_404(game_id)
        seat = _my_seat(game, request.user)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        seat = seat_standing_orders_set(seat=seat, order_ids=data.validated_data["orders"])
        return Response(self._body(game, seat))

    @staticmethod
    def _body(game: Game, seat) -> dict:
        available = [o.as_dict() for o in get_engine(game.engine).standing_orders()]
        return {"orders": seat.standing_orders, "available": available}


class GamePauseApi(APIView):
    @extend_schema(request=None, responses={200: GameOutput, 403: ErrorOutput, 409: ErrorOutput})
    def post(self, request, game_id: int):
        game = game_pause(game=_game_or_404(game_id), by=request.user)
        return Response(game_detail_for_user(game=game, user=request.user))


class GameResumeApi(APIView):
    @extend_schema(request=None, responses={200: GameOutput, 403: ErrorOutput, 409: ErrorOutput})
    def post(self, request, game_id: int):
        game = game_resume(game=_game_or_404(game_id), by=request.user)
        return Response(game_detail_for_user(game=game, user=request.user))


class SeatReclaimApi(APIView):
    @extend_schema(request=None, responses={200: GameOutput, 403: ErrorOutput})
    def post(self, request, game_id: int):
        game = _game_or_404(game_id)
        seat_reclaim(seat=_my_seat(game, request.user), by=request.user)
        return Response(game_detail_for_user(game=game, user=request.user))


class GameAbandonApi(APIView):
    @extend_schema(request=None, responses={200: GameOutput, 403: ErrorOutput, 409: ErrorOutput})
    def post(self, request, game_id: int):
        game = game_abandon(game=_game_or_404(game_id), by=request.user)
        return Response(game_detail_for_user(game=game, user=request.user))
