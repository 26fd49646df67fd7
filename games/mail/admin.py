from django.contrib import admin

from games.admin.read_only import ReadOnlyAdmin
from games.admin.secrecy import SecretFieldsAdminMixin

from .models import InboundMessage, Notification, SeatMailbox, UsedLink

# The outbox, the inbound log, used links and reply mailboxes are records staff read and nobody edits or
# deletes by hand (games/admin/read_only.py says why); their secret fields (games/admin/secrecy.py) stay
# out of pages, filters, searches and sorting.


@admin.register(Notification)
class NotificationAdmin(SecretFieldsAdminMixin, ReadOnlyAdmin):
    # The headers carry the seat's secret reply address (a credential); a body shows the player's hand and
    # requirements, so it is shown only once the game is over (never for a mail without a game: a digest).
    list_display = ("id", "kind", "address", "game", "status", "attempts", "created_at", "sent_at")
    list_filter = ("kind", "status")
    search_fields = ("address", "dedupe_key")
    raw_id_fields = ("user", "game", "seat", "prompt")


@admin.register(InboundMessage)
class InboundMessageAdmin(SecretFieldsAdminMixin, ReadOnlyAdmin):
    game_path = "mailbox__seat__game"
    list_display = ("id", "from_address", "subject_for_staff", "outcome", "reason", "answered", "received_at")
    list_filter = ("outcome",)
    list_select_related = ("mailbox__seat__game",)
    raw_id_fields = ("mailbox",)

    @admin.display(description="subject")
    def subject_for_staff(self, obj: InboundMessage) -> str:
        # Players type their pick in the subject of a fresh message.
        return obj.subject if self.secrets_revealed(obj) else "(hidden until the game is over)"


@admin.register(UsedLink)
class UsedLinkAdmin(SecretFieldsAdminMixin, ReadOnlyAdmin):
    game_path = "prompt__game"
    list_display = ("prompt", "used_at")  # not the option: a pick stays secret while the game runs
    raw_id_fields = ("prompt",)


@admin.register(SeatMailbox)
class SeatMailboxAdmin(SecretFieldsAdminMixin, ReadOnlyAdmin):
    game_path = "seat__game"
    list_display = ("seat", "created_at")
    raw_id_fields = ("seat",)
