"""Request and response bodies of table talk's API: messages and notes, each a schema component."""

from __future__ import annotations

from rest_framework import serializers

from games.chat.limits import NOTES_MAX, TEXT_MAX

MAX_SEATS = 12  # the API's bound on a game's seats (GameCreateRequest.seats)


class SeatPositionField(serializers.IntegerField):
    """A seat position as a JSON number only: "1" or true is not a seat (DRF's IntegerField would take them)."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class MessageRequest(serializers.Serializer):
    # No max_length here: the service's refusal (too_long, empty_message, bad_characters) is the clearer one.
    text = serializers.CharField(allow_blank=True, trim_whitespace=False, help_text=(
        f"the message as typed: 1 to {TEXT_MAX:,} characters, shown exactly so (escaped on every surface); "
        "control characters but tab and line breaks, and bidirectional overrides, are refused"))
    to = serializers.ListField(
        child=SeatPositionField(min_value=0, max_value=MAX_SEATS - 1), allow_null=True, required=False,
        default=None, max_length=MAX_SEATS, help_text=(
            "null (or absent): the whole table; else the seat positions (as in the API, from 0) of a private "
            "message, the author's seat left out: one thread per set of seats (press full only)"))


class MessageResponse(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="the author's seat position")
    to = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                               help_text="null: the table; else the other seats of the private thread")
    text = serializers.CharField()
    created_at = serializers.DateTimeField()
    hidden = serializers.BooleanField(help_text="true only to its author: staff hid it from everyone else")


class NotesRequest(serializers.Serializer):
    text = serializers.CharField(allow_blank=True, trim_whitespace=False,
                                 help_text=f"the seat's private notes, at most {NOTES_MAX:,} characters")


class NotesResponse(serializers.Serializer):
    text = serializers.CharField(allow_blank=True)
