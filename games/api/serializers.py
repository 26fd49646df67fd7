"""Request and response bodies of the games API, each a named serializer so /api/schema/ is exact.

Every class here is a component of the OpenAPI schema under its own name (nested classes all called
``Input`` would collide into one component). Requests validate input; responses only
document what the views answer (the selectors build the dicts), so keep them in step with
games/selectors.py.
"""

from __future__ import annotations

from typing import Mapping

from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers

from games.models import Press
from games.services.clock import CLOCK_BOUNDS, CLOCK_TYPES, COUNT_FIELDS, clock_validate

# Seeds are stored in a signed 64-bit column (Game.seed, Tournament.seed).
SEED_MAX = 2 ** 63 - 1


class ErrorResponse(serializers.Serializer):
    """The one error body of the API (games/api/errors.py)."""

    error = serializers.CharField(help_text="a stable machine-readable code, e.g. not_found, stale_prompt")
    detail = serializers.CharField(help_text="what went wrong, for a person")
    fields = serializers.DictField(required=False, allow_null=True,
                                   help_text="on a 400 of invalid input: the messages per field")


def error_responses(texts: Mapping[int, str], *codes: int, **described: str) -> dict:
    """The error responses of an operation for the schema: the one error body under each status code, described
    by ``texts[code]`` unless the operation says more (``e403="Only the creator..."``)."""
    return {code: OpenApiResponse(ErrorResponse, description=described.get(f"e{code}", texts[code]))
            for code in codes}


_CLOCK_SCHEMA = {
    "type": "object",
    "description": "The game's clock; every field is optional (the server's default clock fills in the rest).",
    "properties": {
        "type": {"type": "string", "enum": list(CLOCK_TYPES)},
        **{key: {"type": "integer" if key in COUNT_FIELDS else "number", "minimum": low, "maximum": high,
                 "nullable": True}
           for key, (low, high) in CLOCK_BOUNDS.items()},
    },
    "additionalProperties": False,
}


@extend_schema_field(_CLOCK_SCHEMA)
class ClockField(serializers.DictField):
    """A clock object, checked field by field against CLOCK_BOUNDS (the services check it again)."""

    def to_internal_value(self, data):
        clock = super().to_internal_value(data)
        try:
            clock_validate(clock)
        except ValueError as e:
            raise serializers.ValidationError(str(e))
        return clock


class GameCreateRequest(serializers.Serializer):
    game = serializers.CharField(max_length=40)
    seats = serializers.IntegerField(min_value=1, max_value=12)
    options = serializers.DictField(required=False, default=dict)
    clock = ClockField(required=False, default=dict)
    public = serializers.BooleanField(required=False, default=True)
    bots = serializers.IntegerField(required=False, default=0, min_value=0, max_value=11)
    seed = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0, max_value=SEED_MAX)
    rated = serializers.BooleanField(required=False, default=False)
    press = serializers.ChoiceField(choices=Press.values, required=False, default=Press.TABLE, help_text=(
        "what the players may say to one another: none, table (table chat for every seat) or full "
        "(table chat and private messages between seats)"))


class GameJoinRequest(serializers.Serializer):
    invite = serializers.CharField(required=False, allow_blank=True, max_length=500, help_text=(
        "A private game's invite token (the last part of its invite link /invite/<token>/); "
        "without a valid one a private game answers 404."))


class MoveRequest(serializers.Serializer):
    prompt = serializers.CharField(max_length=100)
    option = serializers.CharField(max_length=100)


MOVE_FIELD_MAX = 100  # MoveRequest's max_length


def move_request_fields(data) -> dict[str, str] | None:
    """MoveRequest's validated data for the plain body every client sends, without building the serializer
    (~0.3 ms of a pick's CPU): a JSON object whose ``prompt`` and ``option`` are ASCII strings
    of 1-100 characters once stripped (as CharField strips them), without NUL. None for anything else,
    which MoveRequest then validates with its own errors."""
    if type(data) is not dict:
        return None
    prompt, option = data.get("prompt"), data.get("option")
    if type(prompt) is not str or type(option) is not str:
        return None
    prompt, option = prompt.strip(), option.strip()
    for value in (prompt, option):
        if not (0 < len(value) <= MOVE_FIELD_MAX and value.isascii() and "\x00" not in value):
            return None
    return {"prompt": prompt, "option": option}


class StandingOrdersRequest(serializers.Serializer):
    orders = serializers.ListField(child=serializers.CharField(max_length=100), allow_empty=True, max_length=50)


class OptionResponse(serializers.Serializer):
    id = serializers.CharField()
    label = serializers.CharField(allow_blank=True)  # texts an engine writes: no promise they are never empty


class PromptResponse(serializers.Serializer):
    id = serializers.CharField()
    text = serializers.CharField(allow_blank=True)
    options = OptionResponse(many=True)
    deadline = serializers.DateTimeField(allow_null=True)


class SeatResponse(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)
    is_bot = serializers.BooleanField()
    missed_deadlines = serializers.IntegerField()
    deciding = serializers.BooleanField(help_text="The seat has a decision open now (public, as the game page's "
                                                  "\"waiting for ...\"): a client need read only these seats' views.")


class GameSummaryResponse(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.CharField()
    phase = serializers.IntegerField()
    players = serializers.IntegerField()
    is_public = serializers.BooleanField()


class GameListResponse(serializers.Serializer):
    games = GameSummaryResponse(many=True)
    available = serializers.ListField(child=serializers.CharField(), help_text="the games this server hosts")


class GameDetailResponse(GameSummaryResponse):
    options = serializers.JSONField()
    press = serializers.ChoiceField(choices=Press.values, help_text="none, table or full")
    clock = serializers.JSONField()
    created_by = serializers.CharField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True, help_text="the caller's seat (null: a spectator)")
    standing_orders = serializers.ListField(child=serializers.CharField())
    seats = SeatResponse(many=True)
    view = serializers.JSONField(help_text="what this caller may see of the game")
    prompt = PromptResponse(allow_null=True, help_text="the caller's open decision (null: none now)")
    result = serializers.JSONField(allow_null=True, help_text="final scores and ranks once finished")
    invite = serializers.CharField(allow_null=True, help_text=(
        "to a player while the game is open: the invite token others join with (POST .../join/ {invite})"))


class JoinResponse(serializers.Serializer):
    seat = serializers.IntegerField()
    game = serializers.IntegerField()


class SubmissionResponse(serializers.Serializer):
    id = serializers.IntegerField()
    prompt = serializers.CharField()
    option = serializers.CharField()
    phase = serializers.IntegerField()
    source = serializers.CharField()


class MoveResponse(serializers.Serializer):
    submission = SubmissionResponse()
    replayed = serializers.BooleanField(help_text="true: a resend of a pick already stored (status 200)")
    prompt = PromptResponse(allow_null=True, help_text="the caller's next decision (null: none now)")
    etag = serializers.CharField(help_text=(
        "the ETag of the caller's view of the game as this pick left it: send it in If-None-Match with ?wait=N "
        "on GET /api/games/{id}/ to be answered when the game moves on (the step's resolution, another seat's "
        "pick) without reading the view first; a 304 then means nothing changed since this pick"))


class EventResponse(serializers.Serializer):
    id = serializers.IntegerField()
    phase = serializers.IntegerField()
    text = serializers.CharField(allow_blank=True)
    data = serializers.JSONField()
    created_at = serializers.DateTimeField()


class LogResponse(serializers.Serializer):
    events = EventResponse(many=True)


class StandingOrdersResponse(serializers.Serializer):
    orders = serializers.ListField(child=serializers.CharField())
    available = OptionResponse(many=True)
