"""The JSON API of DESIGN.md: thin views that parse input, call a service or selector, shape output."""

from __future__ import annotations

from django.http import Http404, HttpResponseNotModified
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engines.registry import get_engine, slugs
from games.errors import ErrorCode, GameError
from games.models import Game, GameStatus, SubmissionSource
from games.presentation.worded_events import worded_events_for_game
from games.selectors import (event_as_dict, events_for_user, game_detail_for_user, game_summary, game_visible_to,
                             game_with_creator, games_for_user, open_prompt_for_seat, prompt_as_dict, seat_for_user,
                             seats_with_open_prompts)
from games.services import (game_abandon, game_create, game_join, game_pause, game_resume, seat_reclaim,
                            seat_standing_orders_set)
from games.services.submissions import submission_create_for_player
from games.invites import invite_token

from .access import game_id_or_404, joinable_game_or_404, refuse_unless_visible, visible_game_or_404
from .conditional import WAIT_MAX_SECONDS, etag_matches, game_etag, game_version_wait, wait_seconds
from .parsers import GAME_CREATE_MAX_BYTES
from .serializers import (GameCreateRequest, GameDetailResponse, GameJoinRequest, GameListResponse, JoinResponse,
                          LogResponse, MoveRequest, MoveResponse, StandingOrdersRequest, StandingOrdersResponse,
                          error_responses, move_request_fields)

# Idempotency-Key: stored in Submission.idempotency_key (100 characters); printable ASCII as in any header.
IDEMPOTENCY_KEY_MAX = 100


_ERROR_TEXT = {
    400: "Invalid input (fields: the messages per field).",
    401: "No or an invalid token.",
    403: "Not allowed for this caller.",
    404: "No such game, or a private game the caller may not see (the same body).",
    409: "Not possible in the game's current state.",
    413: "The request body is larger than the route takes (body_too_large).",
}


def _errors(*codes: int, **described: str) -> dict:
    return error_responses(_ERROR_TEXT, *codes, **described)


def _detail(game: Game, user, seats=None) -> dict:
    """The caller's view of the game (GameDetailResponse); a player of a game still open also gets its
    invite token, to pass on (as the web page shows them the invite link): the only way into a private
    game."""
    body = game_detail_for_user(game=game, user=user, seats=seats)
    body["invite"] = (invite_token(game=game) if body["seat"] is not None and game.status == GameStatus.OPEN
                      else None)
    return body


def _my_seat(game: Game, user):
    seat = seat_for_user(game=game, user=user)
    if seat is None:
        raise GameError(ErrorCode.NOT_YOUR_SEAT, "you have no seat in this game")
    return seat


def _idempotency_key(header: str | None) -> str | None:
    """The Idempotency-Key header's value, or None; a 400 for one the database could not store."""
    key = header or None
    if key is not None and (len(key) > IDEMPOTENCY_KEY_MAX or not key.isascii() or not key.isprintable()):
        raise ValidationError({"Idempotency-Key": [
            f"at most {IDEMPOTENCY_KEY_MAX} printable ASCII characters"]})
    return key


class GameListCreateApi(APIView):
    max_body_bytes = GAME_CREATE_MAX_BYTES  # games/api/parsers.py: a 2 MB "option" is refused unread
    @extend_schema(operation_id="games_list", responses={200: GameListResponse, **_errors(401)})
    def get(self, request):
        games = games_for_user(user=request.user)[:200]
        return Response({"games": [game_summary(game=g) for g in games], "available": slugs()})

    @extend_schema(operation_id="games_create", request=GameCreateRequest,
                   responses={201: GameDetailResponse, **_errors(400, 401, 413)})
    def post(self, request):
        data = GameCreateRequest(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        game = game_create(created_by=request.user, engine=d["game"], players=d["seats"], options=d["options"],
                           clock=d["clock"], is_public=d["public"], bots=d["bots"], seed=d["seed"],
                           rated=d["rated"], press=d["press"])
        return Response(_detail(game, request.user), status=status.HTTP_201_CREATED)


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
        operation_id="games_detail",
        parameters=[
            OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER, required=False, description=(
                "The ETag of the caller's last view of this game: 304 with no body while it is still current.")),
            OpenApiParameter("wait", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False, description=(
                f"With If-None-Match only: hold the request up to this many seconds (0-{WAIT_MAX_SECONDS}; larger "
                "is clamped, anything else is a 400) until the game changes for the caller, then answer 200 with "
                "the new view, else 304. Each waiting request holds a server thread.")),
            ETAG_HEADER,
        ],
        responses={200: OpenApiResponse(GameDetailResponse, description="The caller's view, with its ETag."),
                   304: OpenApiResponse(description="Not Modified: the If-None-Match ETag is still current "
                                                    "(after waiting, if ?wait was given). No body."),
                   **_errors(400, 401, 404)})
    def get(self, request, game_id: int):
        body, etag = game_view_answer(game_id=game_id, user=request.user,
                                      if_none_match=request.headers.get("If-None-Match"),
                                      wait=request.query_params.get("wait"))
        if body is None:
            return _not_modified(etag)
        response = Response(body)
        response["ETag"], response["Cache-Control"] = etag, CACHE_CONTROL
        return response


def game_view_answer(*, game_id: int, user, if_none_match: str | None, wait: str | None) -> tuple[dict | None, str]:
    """GET /api/games/{id}/ for ``user``: (the caller's view, its ETag), or (None, the ETag) when the
    If-None-Match copy is current (a 304). Raises Http404 or ValidationError as the route answers them.
    Shared by the DRF view and the hot route (hot_routes.py)."""
    game_id_or_404(game_id)
    if if_none_match:
        # The cheap path: the token, then one small query per check of the version (one check without
        # ?wait); no seats, no engine view, no rendering while the caller's copy is current.
        version = game_version_wait(game_id=game_id, user=user, if_none_match=if_none_match,
                                    seconds=wait_seconds(wait))
        if version is None:
            raise Http404  # as below: a private game's existence is not disclosed, nor its version
        etag = game_etag(game_id=game_id, version=version, user_id=user.pk)
        if etag_matches(if_none_match, etag):
            return None, etag
    # Three queries in all: the token, the game with its creator, the seats with players and open prompts.
    # The version comes with the game row, read before the seats: the ETag is never newer than the body.
    # The visibility rule is api_access's, applied to the rows read here (no query of its own).
    game = game_with_creator(game_id=game_id)
    if game is None:
        raise Http404
    seats = seats_with_open_prompts(game_id=game.pk)
    if not game_visible_to(game=game, user=user, seats=seats):
        raise Http404  # a private game's existence is not disclosed
    return _detail(game, user, seats=seats), game_etag(game_id=game.pk, version=game.version, user_id=user.pk)


class GameJoinApi(APIView):
    @extend_schema(operation_id="games_join", request=GameJoinRequest,
                   responses={200: JoinResponse, **_errors(
                       400, 401, 403, 404, 409, e403="Staff without the invite of a private game.",
                       e409="The game has started, or every seat is taken.")})
    def post(self, request, game_id: int):
        data = GameJoinRequest(data=request.data)
        data.is_valid(raise_exception=True)
        game = joinable_game_or_404(game_id=game_id, user=request.user, invite=data.validated_data.get("invite"))
        seat = game_join(game=game, user=request.user)
        return Response({"seat": seat.position, "game": game.pk})


class MoveApi(APIView):
    @extend_schema(operation_id="games_move", request=MoveRequest,
                   parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
                                                description=f"At most {IDEMPOTENCY_KEY_MAX} printable ASCII "
                                                            "characters: a resend with the same key is a replay.")],
                   responses={201: MoveResponse, 200: MoveResponse, **_errors(
                       400, 401, 403, 404, 409, e400="Not an option, or invalid input.",
                       e403="The caller has no seat in this (visible) game.",
                       e409="A stale prompt, a game not active, or an Idempotency-Key used for another pick.")})
    def post(self, request, game_id: int):
        fields = move_request_fields(request.data)
        if fields is None:  # anything but the plain body: the serializer says what is wrong
            game_id_or_404(game_id)
            data = MoveRequest(data=request.data)
            data.is_valid(raise_exception=True)
            fields = data.validated_data
        body, code = move_answer(game_id=game_id, user=request.user, fields=fields,
                                 idempotency_key=request.headers.get("Idempotency-Key"))
        return Response(body, status=code)


def move_answer(*, game_id: int, user, fields: dict[str, str], idempotency_key: str | None) -> tuple[dict, int]:
    """POST /api/games/{id}/moves/ for ``user`` with the validated ``fields`` (prompt, option): (the body,
    201 for a new pick or 200 for a replay). Raises Http404, GameError or ValidationError as the route
    answers them. Shared by the DRF view and the hot route (hot_routes.py)."""
    game_id_or_404(game_id)
    key = _idempotency_key(idempotency_key)
    try:
        # The seat is found inside the pick's locked transaction: no lookup before it, no read after.
        outcome = submission_create_for_player(game_id=game_id, user=user, prompt_id=fields["prompt"],
                                               option_id=fields["option"], idempotency_key=key,
                                               source=SubmissionSource.API)
    except Game.DoesNotExist:
        raise Http404
    except GameError as e:
        if e.code != ErrorCode.NOT_YOUR_SEAT:
            raise
        refuse_unless_visible(game_id=game_id, user=user, error=e)  # an outsider of a private game: 404
    submission, prompt = outcome.submission, outcome.next_prompt
    if outcome.step_completed:
        # The resolution ran on commit if tasks run in-process (or a worker was quick): its prompt, if any.
        prompt = open_prompt_for_seat(seat=outcome.seat)
    body = {"submission": {"id": submission.pk, "prompt": submission.prompt_id, "option": submission.option_id,
                           "phase": submission.phase, "source": submission.source},
            "replayed": not submission.is_new,
            "prompt": prompt_as_dict(prompt),
            # The ETag of the caller's view as this pick left the game (the version its write committed,
            # read under the lock): If-None-Match with ?wait= answers when anything changes after it,
            # with no GET first. Never newer than the game: at worst a wait answers at once.
            "etag": game_etag(game_id=game_id, version=outcome.seat.game.version, user_id=user.pk)}
    return body, status.HTTP_201_CREATED if submission.is_new else status.HTTP_200_OK


class LogApi(APIView):
    @extend_schema(operation_id="games_log", responses={200: LogResponse, **_errors(401, 404)})
    def get(self, request, game_id: int):
        game = visible_game_or_404(game_id=game_id, user=request.user)
        # ``text`` in plain English with the players' names; ``data`` keeps 0-based positions.
        events = worded_events_for_game(events_for_user(game=game, user=request.user), game=game)
        return Response({"events": [event_as_dict(e) for e in events]})


class StandingOrdersApi(APIView):
    @extend_schema(operation_id="games_standing_orders", responses={200: StandingOrdersResponse, **_errors(
        401, 403, 404, e403="The caller has no seat in this (visible) game.")})
    def get(self, request, game_id: int):
        game = visible_game_or_404(game_id=game_id, user=request.user)
        seat = _my_seat(game, request.user)
        return Response(self._body(game, seat))

    @extend_schema(operation_id="games_standing_orders_set", request=StandingOrdersRequest,
                   responses={200: StandingOrdersResponse, **_errors(
                       400, 401, 403, 404, e400="An unknown order, or invalid input.",
                       e403="The caller has no seat in this (visible) game.")})
    def post(self, request, game_id: int):
        game = visible_game_or_404(game_id=game_id, user=request.user)
        seat = _my_seat(game, request.user)
        data = StandingOrdersRequest(data=request.data)
        data.is_valid(raise_exception=True)
        seat = seat_standing_orders_set(seat=seat, order_ids=data.validated_data["orders"])
        return Response(self._body(game, seat))

    @staticmethod
    def _body(game: Game, seat) -> dict:
        available = [o.as_dict() for o in get_engine(game.engine).standing_orders()]
        return {"orders": seat.standing_orders, "available": available}


_ADMIN_ERRORS = _errors(401, 403, 404, 409, e403="Only the game's creator or staff may do this.")


class GamePauseApi(APIView):
    @extend_schema(operation_id="games_pause", request=None, responses={200: GameDetailResponse, **_ADMIN_ERRORS})
    def post(self, request, game_id: int):
        game = game_pause(game=visible_game_or_404(game_id=game_id, user=request.user), by=request.user)
        return Response(_detail(game, request.user))


class GameResumeApi(APIView):
    @extend_schema(operation_id="games_resume", request=None, responses={200: GameDetailResponse, **_ADMIN_ERRORS})
    def post(self, request, game_id: int):
        game = game_resume(game=visible_game_or_404(game_id=game_id, user=request.user), by=request.user)
        return Response(_detail(game, request.user))


class SeatReclaimApi(APIView):
    @extend_schema(operation_id="games_reclaim", request=None, responses={200: GameDetailResponse, **_errors(
        401, 403, 404, 409, e403="The caller has no seat in this (visible) game, or may not reclaim it.")})
    def post(self, request, game_id: int):
        game = visible_game_or_404(game_id=game_id, user=request.user)
        seat_reclaim(seat=_my_seat(game, request.user), by=request.user)
        return Response(_detail(game, request.user))


class GameAbandonApi(APIView):
    @extend_schema(operation_id="games_abandon", request=None,
                   responses={200: GameDetailResponse, **_ADMIN_ERRORS})
    def post(self, request, game_id: int):
        game = game_abandon(game=visible_game_or_404(game_id=game_id, user=request.user), by=request.user)
        return Response(_detail(game, request.user))
