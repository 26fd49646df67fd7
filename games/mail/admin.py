from django.contrib import admin

from .models import InboundMessage, Notification, SeatMailbox, UsedLink


class ReadOnlyAdmin(admin.ModelAdmin):
    """The outbox and the inbound log are records: staff read them, nobody edits them by hand."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "to_email", "game", "status", "attempts", "created_at", "sent_at")
    list_filter = ("kind", "status")
    search_fields = ("to_email", "dedupe_key")
    raw_id_fields = ("user", "game", "seat", "prompt")

    def get_fields(self, request, obj=None):
        # The headers carry the seat's secret reply address (a credential); a body shows the player's
        # hand and requirements, so it is shown only once the game is over.
        hidden = {"headers"}
        if obj is None or obj.game is None or obj.game.in_play:
            hidden |= {"body_text", "body_html"}
        return [f for f in super().get_fields(request, obj) if f not in hidden]


@admin.register(InboundMessage)
class InboundMessageAdmin(ReadOnlyAdmin):
    list_display = ("id", "from_address", "subject", "outcome", "reason", "answered", "received_at")
    list_filter = ("outcome",)
    raw_id_fields = ("mailbox",)


@admin.register(UsedLink)
class UsedLinkAdmin(ReadOnlyAdmin):
    list_display = ("prompt", "used_at")  # not the option: a pick stays secret while the game runs
    exclude = ("nonce", "option_id")
    raw_id_fields = ("prompt",)


@admin.register(SeatMailbox)
class SeatMailboxAdmin(admin.ModelAdmin):
    list_display = ("seat", "created_at")
    raw_id_fields = ("seat",)
    exclude = ("nonce", "token_hash")  # the secret's inputs stay out of the admin
