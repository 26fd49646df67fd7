"""Table talk's API: a game's messages (read, wait for, post) and a seat's private notes.

Each route finds the game as every /api/games/{id}/... route does (access.visible_game_or_404: a private
game is a 404 to outsiders), then asks games.chat; its refusals are ChatErrors, answered by the one error
handler (a 429 with Retry-After past the rate).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from games.chat.errors import ChatError, ChatErrorCode
from games.chat.notes import note_save
from games.chat.selectors import message_as_dict, messages_for, note_text, reader_for
from games.chat.services import message_post, messages_read
from games.chat.waiting import WAIT_MAX_SECONDS, messages_wait
from games.selectors import seat_for_user

from .access import visible_game_or_404
from .chat_serializers import MessageRequest, MessageResponse, NotesRequest, NotesResponse
from .conditional import wait_seconds
from .serializers import error_responses

_ERROR_TEXT = {
    400: "Invalid input: empty_message, too_long, bad_characters, bad_recipients, or invalid (fields).",
    401: "No or an invalid token.",
    403: "press_off (the game's press setting does not allow it), not_a_player (spectators read only), muted.",
    404: "No such game, or a private game the caller may not see (the same body).",
    409: "game_over: a finished or abandoned game takes no more messages.",
    413: "The request body is larger than the route takes (body_too_large).",
    429: "rate_limited: past CHAT_MESSAGES_PER_MINUTE or CHAT_MESSAGES_PER_DAY; Retry-After says when to retry.",
}
MESSAGE_MAX_BYTES = 32 * 1024  # 2,000 characters of JSON-escaped text and a list of seats
NOTES_MAX_BYTES = 160 * 1024  # 20,000 characters, escaped


def _errors(*codes: int, **described: str) -> dict:
    return error_responses(_ERROR_TEXT, *codes, **described)


def _since(raw: str | None) -> int:
    if raw is None or raw == "":
        return 0
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise ValidationError({"since": ["a message id: a whole number (0 for every message)"]})
    return int(raw)


class MessagesApi(APIView):
    max_body_bytes = MESSAGE_MAX_BYTES

    @extend_schema(
        operation_id="games_messages",
        parameters=[
            OpenApiParameter("since", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False,
                             description="only messages with a larger id (the last id the client holds)"),
            OpenApiParameter("wait", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False, description=(
                f"with nothing newer yet, hold the request up to this many seconds (0-{WAIT_MAX_SECONDS}; larger "
                "is clamped) until a message for the caller arrives; an empty list if none does")),
        ],
        responses={200: MessageResponse(many=True), **_errors(400, 401, 404)})
    def get(self, request, game_id: int):
        """The table and private messages the caller may read, oldest first; a player's are marked read."""
        game = visible_game_or_404(game_id=game_id, user=request.user)
        reader = reader_for(game=game, user=request.user)
        since = _since(request.query_params.get("since"))
        seconds = wait_seconds(request.query_params.get("wait"))
        found = (messages_wait(reader=reader, since=since, seconds=seconds) if seconds
                 else messages_for(reader=reader, since=since))
        if reader.seat is not None and found:
            messages_read(seat=reader.seat, up_to=found[-1].pk)
        return Response([message_as_dict(m) for m in found])

    @extend_schema(operation_id="games_messages_post", request=MessageRequest,
                   responses={201: MessageResponse, **_errors(400, 401, 403, 404, 409, 413, 429)})
    def post(self, request, game_id: int):
        """Post to the table (``to`` null) or privately to other seats."""
        game = visible_game_or_404(game_id=game_id, user=request.user)
        data = MessageRequest(data=request.data)
        data.is_valid(raise_exception=True)
        message = message_post(game=game, user=request.user, text=data.validated_data["text"],
                               to=data.validated_data["to"])
        return Response(message_as_dict(message), status=status.HTTP_201_CREATED)


class NotesApi(APIView):
    max_body_bytes = NOTES_MAX_BYTES
    _not_a_player = "The caller has no seat in this (visible) game: notes are a seat's."

    def _seat(self, request, game_id: int):
        game = visible_game_or_404(game_id=game_id, user=request.user)
        seat = seat_for_user(game=game, user=request.user)
        if seat is None:
            raise ChatError(ChatErrorCode.NOT_A_PLAYER, "notes are kept by the game's players")
        return seat

    @extend_schema(operation_id="games_notes", responses={200: NotesResponse, **_errors(
        401, 403, 404, e403=_not_a_player)})
    def get(self, request, game_id: int):
        """The caller's private notes at their seat (never anyone else's, staff's neither)."""
        return Response({"text": note_text(seat=self._seat(request, game_id), user=request.user)})

    @extend_schema(operation_id="games_notes_set", request=NotesRequest, responses={200: NotesResponse, **_errors(
        400, 401, 403, 404, 413, e400="too_long (over 20,000 characters), bad_characters, or invalid.",
        e403=_not_a_player)})
    def put(self, request, game_id: int):
        """Replace the caller's private notes at their seat."""
        seat = self._seat(request, game_id)
        data = NotesRequest(data=request.data)
        data.is_valid(raise_exception=True)
        note = note_save(seat=seat, user=request.user, text=data.validated_data["text"])
        return Response({"text": note.text})
