"""Table talk in the admin: messages with reports first, each with its
reports and the moderators' log; staff hide and restore them with the actions (games.chat.moderation: logged,
the author told). Notes are not here at all: a seat's notes are its player's alone, staff's neither.

A private message is a secret of its seats while the game is played (staff play too): its text shows here
only once one of its readers reported it, or once the game is over, and search (``?q=``) matches it only
then. Table messages show as any spectator of the game reads them. No query-string lookup reads a message's
text, nor a report's or the log's reason (they may quote it): the secrecy mixins answer 400 whatever the
value (games/admin/secrecy.py).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import Count, Exists, OuterRef, Q
from django.template.defaultfilters import pluralize

from games.chat.audience import recipients
from games.chat.errors import ChatError
from games.chat.models import ChatMessage, ChatReport, ModerationAction, TableMute, UserBlock
from games.chat.moderation import REASON_MAX, message_hide, message_restore

from .read_only import ReadOnlyAdmin, ReadOnlyInline
from .secrecy import GAME_OVER, SecretFieldsAdminMixin, SecretFieldsInlineMixin

HIDE_REASON = "against the site's rules (reported)"  # when the moderator gives none


class ModerationActionForm(ActionForm):
    """The changelist's action bar with a reason: logged with the act and told to the author."""
    reason = forms.CharField(required=False, max_length=REASON_MAX, label="Reason (told to the author)",
                             widget=forms.TextInput(attrs={"size": 40, "placeholder": HIDE_REASON}))


PRIVATE_TEXT = "(a private message: shown here once one of its readers reports it, or once the game is over)"


class ReportInline(SecretFieldsInlineMixin, ReadOnlyInline):
    model = ChatReport
    fields = ("reporter", "reason", "created_at", "settled_at")
    readonly_fields = fields


class ModerationInline(SecretFieldsInlineMixin, ReadOnlyInline):
    model = ModerationAction
    fk_name = "message"
    fields = ("kind", "actor", "reason", "created_at")
    readonly_fields = fields


@admin.register(ChatMessage)
class ChatMessageAdmin(SecretFieldsAdminMixin, ReadOnlyAdmin):
    # Read-only: the text is as its author typed it, so moderators hide or restore it, never edit it; and
    # hidden, not deleted, so the record stays with its log.
    list_display = ("id", "game", "author_seat", "author", "thread", "open_reports", "shown", "created_at",
                    "staff_text")
    list_select_related = ("game", "author")
    list_filter = (("hidden_at", admin.EmptyFieldListFilter),)
    raw_id_fields = ("game", "seat", "author")
    search_fields = ("text",)  # matches a message only once its text shows here (revealed_rows)
    fields = ("game", "author_seat", "author", "thread", "staff_text", "phase", "created_at", "hidden_at",
              "hidden_reason")
    readonly_fields = fields
    inlines = [ReportInline, ModerationInline]
    actions = ["hide_messages", "restore_messages"]
    action_form = ModerationActionForm
    # Reported messages first, those with reports not acted on before them; then the newest.
    REPORTED_FIRST = ("-open_report_count", "-report_count", "-id")

    def get_ordering(self, request):
        return self.REPORTED_FIRST

    def get_queryset(self, request):
        # Annotated before it is ordered (ModelAdmin.get_queryset would order by the annotations first).
        return (self.model._default_manager.get_queryset()
                .annotate(open_report_count=Count("reports", filter=Q(reports__settled_at__isnull=True)),
                          report_count=Count("reports"))
                .order_by(*self.REPORTED_FIRST))

    # Which messages' text shows (the "secrets" of SecretFieldsAdminMixin). These say nothing of other
    # models' secrets, so search_fields must not reach one (game__state would then match a game in play).
    def secrets_revealed(self, obj) -> bool:
        if obj is None:
            return False
        reported = obj.report_count > 0 if hasattr(obj, "report_count") else obj.reports.exists()
        return obj.audience == 0 or reported or obj.game.status in GAME_OVER

    def revealed_rows(self) -> Q:
        # Exists, not a join on reports: a join would list a message once per report.
        reported = Exists(ChatReport.objects.filter(message=OuterRef("pk")))
        return Q(audience=0) | Q(reported) | Q(game__status__in=GAME_OVER)

    @admin.display(description="seat")
    def author_seat(self, obj: ChatMessage) -> str:
        return f"Seat {obj.position + 1}"

    @admin.display(description="to")
    def thread(self, obj: ChatMessage) -> str:
        to = recipients(obj.audience, obj.position)
        return "the table" if to is None else "seats " + ", ".join(str(p + 1) for p in to)

    @admin.display(description="open reports", ordering="open_report_count")
    def open_reports(self, obj: ChatMessage) -> int:
        return obj.open_report_count

    @admin.display(description="shown", boolean=True)
    def shown(self, obj: ChatMessage) -> bool:
        return obj.hidden_at is None

    @admin.display(description="text")
    def staff_text(self, obj: ChatMessage) -> str:
        return obj.text if self.secrets_revealed(obj) else PRIVATE_TEXT

    def _moderate(self, request, queryset, act, done: str) -> None:
        count = 0
        for message in queryset:
            try:
                act(message)
                count += 1
            except ChatError as e:
                self.message_user(request, f"Message {message.pk}: {e.detail}", messages.ERROR)
        self.message_user(request, f"{count} message{pluralize(count)} {done}; each act is logged and its author told.")

    @admin.action(description="Hide the selected messages (their authors are told)")
    def hide_messages(self, request, queryset):
        reason = _reason(request) or HIDE_REASON
        self._moderate(request, queryset, lambda m: message_hide(message=m, by=request.user, reason=reason),
                       "hidden")

    @admin.action(description="Show the selected messages again (their authors are told)")
    def restore_messages(self, request, queryset):
        reason = _reason(request)
        self._moderate(request, queryset, lambda m: message_restore(message=m, by=request.user, reason=reason),
                       "restored")


def _reason(request) -> str:
    return request.POST.get("reason", "").strip()[:REASON_MAX]


@admin.register(ModerationAction)
class ModerationActionAdmin(SecretFieldsAdminMixin, ReadOnlyAdmin):
    """The log: its reason is shown (moderators need it) but is no lookup, search or sort (it may quote a
    private message; secrecy.Secrets.unqueried)."""
    list_display = ("id", "kind", "game", "message", "target", "actor", "reason", "created_at")
    list_filter = ("kind",)
    raw_id_fields = ("game", "message", "target", "actor")

    def get_field_queryset(self, db, db_field, request):
        # The message field's choices would be ordered as ChatMessageAdmin lists them, by report counts
        # only its own queryset annotates: a plain queryset of messages cannot be ordered so.
        if db_field.name == "message":
            return None
        return super().get_field_queryset(db, db_field, request)


@admin.register(TableMute)
class TableMuteAdmin(ReadOnlyAdmin):
    list_display = ("game", "user", "muted_by", "created_at")
    raw_id_fields = ("game", "user", "muted_by")


@admin.register(UserBlock)
class UserBlockAdmin(ReadOnlyAdmin):
    list_display = ("blocker", "blocked", "created_at")
    raw_id_fields = ("blocker", "blocked")
