"""Table talk's moderation in the API: report a message, mute a player at a table, block a player.

The same acts as the game page's forms (games/web/chat_views.py), through the same services
(games.chat.moderation), so their rules live in one place: anyone who may read a message may report it; the
game's creator or staff mute a seat's player at this table; anyone who sees the game may block a seat's
player, which hides that player's messages from the caller at every table and stops their private messages.
PUT and DELETE are idempotent: muting a muted player (or unblocking someone not blocked) changes nothing.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.chat.limits import REPORT_REASON_MAX
from games.chat.moderation import (REASON_MAX, message_report, player_mute, player_unmute, seated_player, user_block,
                                   user_unblock)
from games.chat.selectors import reader_for

from .access import visible_game_or_404
from .serializers import error_responses

MODERATION_MAX_BYTES = 8 * 1024  # a reason of 500 characters, JSON-escaped

_ERROR_TEXT = {
    400: "bad_recipients (no player sits at that seat, or it is the caller's own), too_long, bad_characters, "
         "empty_message (a report needs a reason), or invalid (fields).",
    401: "No or an invalid token.",
    403: "not_moderator: only the game's creator or staff mute players at a table.",
    404: "No such game, or a private game the caller may not see (the same body); no_such_message: no message "
         "with that id the caller may read.",
    413: "The request body is larger than the route takes (body_too_large).",
}


def _errors(*codes: int) -> dict:
    return error_responses(_ERROR_TEXT, *codes)


class MessageReportRequest(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True, trim_whitespace=False, help_text=(
        f"why staff should look at it: 1 to {REPORT_REASON_MAX} characters; reporting again replaces the reason"))


class MessageReportResponse(serializers.Serializer):
    message = serializers.IntegerField(help_text="the reported message's id")
    reason = serializers.CharField()


class SeatMuteRequest(serializers.Serializer):
    reason = serializers.CharField(required=False, default="", allow_blank=True, max_length=REASON_MAX,
                                   help_text="optional, logged with the act for staff")


class MuteResponse(serializers.Serializer):
    position = serializers.IntegerField(help_text="the seat (as in the API, from 0) whose player it concerns")
    muted = serializers.BooleanField()


class BlockResponse(serializers.Serializer):
    position = serializers.IntegerField(help_text="the seat (as in the API, from 0) whose player it concerns")
    blocked = serializers.BooleanField()


class MessageReportApi(APIView):
    max_body_bytes = MODERATION_MAX_BYTES

    @extend_schema(operation_id="games_messages_report", request=MessageReportRequest,
                   responses={201: MessageReportResponse, **_errors(400, 401, 404, 413)})
    def post(self, request, game_id: int, message_id: int):
        """Report a message the caller may read to the site's staff (they hide it or not; the author is told
        if they do). The reporter's name is never shown to the author."""
        game = visible_game_or_404(game_id=game_id, user=request.user)
        data = MessageReportRequest(data=request.data)
        data.is_valid(raise_exception=True)
        report = message_report(reader=reader_for(game=game, user=request.user), message_id=message_id,
                                reason=data.validated_data["reason"])
        return Response({"message": report.message_id, "reason": report.reason}, status=status.HTTP_201_CREATED)


def _reason(request) -> str:
    data = SeatMuteRequest(data=request.data or {})
    data.is_valid(raise_exception=True)
    return data.validated_data["reason"]


class SeatMuteApi(APIView):
    max_body_bytes = MODERATION_MAX_BYTES

    @extend_schema(operation_id="games_seats_mute", request=SeatMuteRequest,
                   responses={200: MuteResponse, **_errors(400, 401, 403, 404, 413)})
    def put(self, request, game_id: int, position: int):
        """Mute the player at this seat at this table (the game's creator or staff): their messages are
        refused (403 muted) until unmuted. Logged."""
        game = visible_game_or_404(game_id=game_id, user=request.user)
        player_mute(game=game, position=position, by=request.user, reason=_reason(request))
        return Response({"position": position, "muted": True})

    @extend_schema(operation_id="games_seats_unmute", request=None,
                   responses={200: MuteResponse, **_errors(400, 401, 403, 404)})
    def delete(self, request, game_id: int, position: int):
        """Let the player at this seat write at this table again (the game's creator or staff). Logged."""
        game = visible_game_or_404(game_id=game_id, user=request.user)
        player_unmute(game=game, position=position, by=request.user)
        return Response({"position": position, "muted": False})


class SeatBlockApi(APIView):
    max_body_bytes = MODERATION_MAX_BYTES

    def _player(self, request, game_id: int, position: int):
        game = visible_game_or_404(game_id=game_id, user=request.user)
        return seated_player(game, position)

    @extend_schema(operation_id="games_seats_block", request=None,
                   responses={200: BlockResponse, **_errors(400, 401, 404)})
    def put(self, request, game_id: int, position: int):
        """Block the player at this seat, for the caller only: their messages are hidden from the caller at
        every table, and they cannot write to the caller privately. They are not told."""
        user_block(blocker=request.user, blocked=self._player(request, game_id, position))
        return Response({"position": position, "blocked": True})

    @extend_schema(operation_id="games_seats_unblock", request=None,
                   responses={200: BlockResponse, **_errors(400, 401, 404)})
    def delete(self, request, game_id: int, position: int):
        """See the player at this seat's messages again."""
        user_unblock(blocker=request.user, blocked=self._player(request, game_id, position))
        return Response({"position": position, "blocked": False})

