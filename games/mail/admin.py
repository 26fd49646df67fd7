from django.contrib import admin

from .models import InboundMessage, Notification, SeatMailbox, UsedLink


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "to_email", "game", "status", "attempts", "created_at", "sent_at")
    list_filter = ("kind", "status")
    search_fields = ("to_email", "dedupe_key")
    raw_id_fields = ("user", "game", "seat", "prompt")


@admin.register(InboundMessage)
class InboundMessageAdmin(admin.ModelAdmin):
    list_display = ("id", "from_address", "subject", "outcome", "reason", "answered", "received_at")
    list_filter = ("outcome",)
    raw_id_fields = ("mailbox",)


@admin.register(UsedLink)
class UsedLinkAdmin(admin.ModelAdmin):
    list_display = ("nonce", "prompt", "option_id", "used_at")
    raw_id_fields = ("prompt",)


@admin.register(SeatMailbox)
class SeatMailboxAdmin(admin.ModelAdmin):
    list_display = ("seat", "created_at")
    raw_id_fields = ("seat",)
    exclude = ("nonce", "token_hash")  # the secret's inputs stay out of the admin
