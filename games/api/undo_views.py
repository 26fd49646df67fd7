"""POST /api/games/{id}/undo/: take back the caller's own picks (games/services/undo.py)."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.errors import ErrorCode, GameError
from games.models import Game, SubmissionSource, UndoTo
from games.selectors import game_with_creator
from games.services.undo import undo_for_player

from .access import game_id_or_404, refuse_unless_visible
from .serializers import GameDetailResponse
from .views import IDEMPOTENCY_KEY_MAX, _detail, _errors, _idempotency_key


class UndoRequest(serializers.Serializer):
    prompt = serializers.CharField(max_length=100, help_text=(
        "The seat's open prompt id, or (a simultaneous step) the id of a prompt it answered in this step: that "
        "prompt is reopened and the seat's later picks of the step are withdrawn."))
    to = serializers.ChoiceField(choices=UndoTo.choices, default=UndoTo.LAST, help_text=(
        "last: take back one pick; turn: back to the seat's first pick of its turn (or of the step)."))


class UndoApi(APIView):
    @extend_schema(
        operation_id="games_undo", request=UndoRequest,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
                                     description=f"At most {IDEMPOTENCY_KEY_MAX} printable ASCII characters: a "
                                                 "resend with the same key is a replay (200, nothing changed).")],
        responses={200: GameDetailResponse, **_errors(
            400, 401, 403, 404, 409, e400="Invalid input.", e403="The caller has no seat in this (visible) game.",
            e409="cannot_undo (nothing to take back, or a checkpoint: a pick that drew, revealed or rolled something, "
                 "or asked another seat), stale_prompt, game_not_active, or an Idempotency-Key used for another "
                 "undo.")})
    def post(self, request, game_id: int):
        game_id_or_404(game_id)
        data = UndoRequest(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        key = _idempotency_key(request.headers.get("Idempotency-Key"))
        try:
            undo_for_player(game_id=game_id, user=request.user, prompt_id=fields["prompt"], to=fields["to"],
                            idempotency_key=key, source=SubmissionSource.API)
        except Game.DoesNotExist:
            raise Http404
        except GameError as e:
            if e.code != ErrorCode.NOT_YOUR_SEAT:
                raise  # only a seated player gets this far: no secret of an unseen game in it
            refuse_unless_visible(game_id=game_id, user=request.user, error=e)  # an outsider of a private game: 404
        game = game_with_creator(game_id=game_id)
        return Response(_detail(game, request.user))
