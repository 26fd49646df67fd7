"""The admin an operator works in all day: find games that need attention and act on them.

Every change to a running game goes through a service in games/services/admin_actions.py (never a
form save), so the locks, the prompts and the log stay right; submissions and events are read-only
because they are append-only records.
"""

from __future__ import annotations

from django import forms
from django.apps import apps
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import Exists, F, OuterRef, Q
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from accounts.models import User
from faltisia.free_text import validate_free_text
from games.errors import GameError
from games.models import Event, Game, Prompt, Seat, Submission
from games.services.admin_actions import (deadline_extend, game_abandon, game_admin_pause, game_admin_resume,
                                          phase_force_resolve, seat_hand_to_bot, seat_replace_player,
                                          seat_take_back_from_bot)

from .read_only import ReadOnlyAdmin, ReadOnlyInline
from .secrecy import SecretFieldsAdminMixin, SecretFieldsInlineMixin

# Inlines show the latest rows only: a long Faltisia game has hundreds of prompts and submissions.
INLINE_RECENT = 40


class SeatInline(SecretFieldsInlineMixin, ReadOnlyInline):
    model = Seat
    fields = ("position", "user", "is_bot", "bot_reason", "bot_handed_by", "missed_deadlines", "extensions_used",
              "bank_seconds", "standing_orders")
    readonly_fields = fields
    verbose_name_plural = "seats (change them with the actions on the games list)"


class PromptInline(SecretFieldsInlineMixin, ReadOnlyInline):
    model = Prompt
    fk_name = "game"
    fields = ("seat", "prompt_id", "phase", "text", "deadline", "opened_at", "closed_at", "answered")
    readonly_fields = fields
    ordering = ("-id",)
    verbose_name_plural = f"prompts (latest {INLINE_RECENT})"


class SubmissionInline(SecretFieldsInlineMixin, ReadOnlyInline):
    model = Submission
    fields = ("seat", "phase", "prompt_id", "option_id", "source", "created_at")
    readonly_fields = fields
    ordering = ("-id",)
    verbose_name_plural = f"submissions (latest {INLINE_RECENT}; append-only)"


def event_text_for_staff(event: Event, *, game_over: bool) -> str:
    """A private event (a card played face down, told only to its seat) is shown once the game is over."""
    if event.visibility is None or game_over:
        return event.text
    return f"(private to seat {', '.join(map(str, event.visibility))}: shown when the game is over)"


class EventInline(ReadOnlyInline):
    model = Event
    fields = ("phase", "text", "visibility", "created_at")
    readonly_fields = (*fields, "text_for_all")
    ordering = ("-id",)
    verbose_name_plural = f"log (latest {INLINE_RECENT}; append-only)"

    def get_fields(self, request, obj=None):
        if obj is not None and not obj.in_play:
            return self.fields
        return ("phase", "text_for_all", "visibility", "created_at")

    @admin.display(description="text")
    def text_for_all(self, event: Event) -> str:
        return event_text_for_staff(event, game_over=False)


def _overdue_prompts():
    return Prompt.objects.filter(game=OuterRef("pk"), closed_at__isnull=True, deadline__lt=timezone.now())


class LatenessFilter(admin.SimpleListFilter):
    title = "lateness"
    parameter_name = "late"

    def lookups(self, request, model_admin):
        return [("overdue", "has an overdue prompt"), ("missed", "a seat has missed deadlines"),
                ("bot", "a bot took over a player's seat")]

    def queryset(self, request, queryset):
        if self.value() == "overdue":
            return queryset.filter(Exists(_overdue_prompts()))
        if self.value() == "missed":
            return queryset.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), missed_deadlines__gt=0)))
        if self.value() == "bot":
            return queryset.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), is_bot=True,
                                                              user__isnull=False)))
        return queryset


class TournamentFilter(admin.SimpleListFilter):
    title = "tournament"
    parameter_name = "tournament"

    def lookups(self, request, model_admin):
        # By name, not by import: the tournaments app sits above this admin (its own admin uses secrecy.py).
        Tournament = apps.get_model("tournaments", "Tournament")
        return [("none", "not in a tournament")] + [
            (str(t.pk), t.name) for t in Tournament.objects.exclude(status="finished").order_by("-id")[:50]]

    def queryset(self, request, queryset):
        if self.value() == "none":
            return queryset.filter(tournament_table__isnull=True)
        if self.value():
            return queryset.filter(tournament_table__round__tournament_id=self.value())
        return queryset


class GameActionForm(ActionForm):
    """Extra inputs for the actions that need them (shown beside the action menu)."""

    hours = forms.FloatField(required=False, min_value=0.1, max_value=2160,
                             help_text="extend deadline: hours to add")
    position = forms.IntegerField(required=False, min_value=0, max_value=11,
                                  help_text="seat position (replace, bot, extend one seat)")
    username = forms.CharField(required=False, max_length=150, help_text="replace player: new player")
    reason = forms.CharField(required=False, max_length=200, help_text="abandon: reason shown to players",
                             validators=[validate_free_text])


@admin.register(Game)
class GameAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    game_path = ""  # the row is the game
    list_display = ("id", "engine", "status", "phase", "players_list", "overdue", "missed", "tournament",
                    "created_by", "updated_at")
    list_filter = ("status", "engine", LatenessFilter, TournamentFilter, "is_public")
    list_select_related = ("created_by", "tournament_table__round__tournament")
    search_fields = ("=id", "created_by__username", "seats__user__username")
    readonly_fields = ("engine", "players", "seed", "phase", "status", "state", "result", "clock", "options",
                       "resolve_requested_at", "paused_at", "started_at", "finished_at", "created_by")
    fields = ("engine", "players", "status", "phase", "is_public", "clock", "options", "seed", "created_by",
              "started_at", "paused_at", "finished_at", "resolve_requested_at", "result", "state")
    inlines = [SeatInline, PromptInline, SubmissionInline, EventInline]
    action_form = GameActionForm
    actions = ["pause_games", "resume_games", "extend_deadlines", "force_resolve", "replace_player",
               "seat_to_bot", "seat_from_bot", "abandon_games"]
    date_hierarchy = "created_at"
    list_per_page = 50

    def has_add_permission(self, request) -> bool:
        return False  # games are created by players, the API and tournaments, through the services

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # abandon instead: a game's record is kept

    def save_model(self, request, obj, form, change) -> None:
        # Write only what the form edited (is_public): a full save would write back the snapshot and the
        # version read before a concurrent pick. The version moves on, so API clients holding an ETag see it.
        fields = [f for f in form.changed_data if f not in self.readonly_fields]
        if not fields:
            return  # (games are never added here: has_add_permission)
        obj.version = F("version") + 1
        obj.save(update_fields=[*fields, "version", "updated_at"])
        obj.refresh_from_db(fields=["version"])

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user").annotate(
            has_overdue=Exists(_overdue_prompts()),
            has_missed=Exists(Seat.objects.filter(game=OuterRef("pk"), missed_deadlines__gt=0)))

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if obj is not None and isinstance(inline, (PromptInline, SubmissionInline, EventInline)):
            model = inline.model
            recent = list(model.objects.filter(game=obj).order_by("-id").values_list("id", flat=True)[:INLINE_RECENT])
            kwargs["queryset"] = kwargs["queryset"].filter(pk__in=recent)
        return kwargs

    @admin.display(description="players")
    def players_list(self, game: Game) -> str:
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        return ", ".join((s.user.username if s.user else "—") + (" (bot)" if s.is_bot else "") for s in seats)

    @admin.display(boolean=True, description="overdue", ordering="has_overdue")
    def overdue(self, game: Game) -> bool:
        return game.has_overdue

    @admin.display(boolean=True, description="missed", ordering="has_missed")
    def missed(self, game: Game) -> bool:
        return game.has_missed

    @admin.display(description="tournament")
    def tournament(self, game: Game):
        table = getattr(game, "tournament_table", None)
        if table is None:
            return "—"
        t = table.round.tournament
        url = reverse("admin:tournaments_tournament_change", args=[t.pk])
        return format_html('<a href="{}">{}</a> round {}', url, t.name, table.round.number)

    # --- actions: each calls one service per game and reports per game ---------------------------
    def _each(self, request, queryset, verb: str, do) -> None:
        done = 0
        for game in queryset:
            if game.seats.filter(user=request.user).exists():
                # Staff play too: an admin action on one's own game (extend one's deadline, force a step,
                # replace an opponent) is a conflict of interest, so another admin must take it.
                self.message_user(request, f"game {game.pk}: you play in this game; another admin must do this.",
                                  messages.ERROR)
                continue
            try:
                do(game)
                done += 1
            except GameError as e:
                self.message_user(request, f"game {game.pk}: {e.detail}", messages.ERROR)
        if done:
            self.message_user(request, f"{verb} {done} game{pluralize(done)}.", messages.SUCCESS)

    def _param(self, request, name: str, *, required: str | None = None):
        form = self.action_form(request.POST)
        form.fields["action"].choices = self.get_action_choices(request)
        value = form.cleaned_data.get(name) if form.is_valid() else None
        if value in (None, "") and required:
            self.message_user(request, required, messages.ERROR)
        return value

    @admin.action(description="Pause (stop the clocks)", permissions=["change"])
    def pause_games(self, request, queryset):
        self._each(request, queryset, "Paused", lambda g: game_admin_pause(game=g, by=request.user))

    @admin.action(description="Resume", permissions=["change"])
    def resume_games(self, request, queryset):
        self._each(request, queryset, "Resumed", lambda g: game_admin_resume(game=g, by=request.user))

    @admin.action(description="Extend open deadlines by <hours> (of seat <position>, or all)",
                  permissions=["change"])
    def extend_deadlines(self, request, queryset):
        hours = self._param(request, "hours", required="Give the number of hours to extend by.")
        if hours:
            position = self._param(request, "position")
            self._each(request, queryset, "Extended deadlines in",
                       lambda g: deadline_extend(game=g, by=request.user, hours=hours, position=position))

    @admin.action(description="Force-resolve the current step (defaults for missing decisions)",
                  permissions=["change"])
    def force_resolve(self, request, queryset):
        self._each(request, queryset, "Forced the step of", lambda g: phase_force_resolve(game=g, by=request.user))

    @admin.action(description="Replace the player at seat <position> with <username>", permissions=["change"])
    def replace_player(self, request, queryset):
        position = self._param(request, "position", required="Give the seat position.")
        username = self._param(request, "username", required="Give the new player's username.")
        if position is None or not username:
            return
        # A deactivated (banned) account is no player: it must not be handed a seat and its mails.
        user = User.objects.filter(username=username, is_active=True).first()
        if user is None:
            self.message_user(request, f"no active user called {username!r}", messages.ERROR)
            return
        self._each(request, queryset, "Replaced a player in",
                   lambda g: seat_replace_player(game=g, by=request.user, position=position, user=user))

    @admin.action(description="Hand seat <position> to a bot", permissions=["change"])
    def seat_to_bot(self, request, queryset):
        position = self._param(request, "position", required="Give the seat position.")
        if position is not None:
            self._each(request, queryset, "Handed a seat to a bot in",
                       lambda g: seat_hand_to_bot(game=g, by=request.user, position=position))

    @admin.action(description="Give seat <position> back to its player", permissions=["change"])
    def seat_from_bot(self, request, queryset):
        position = self._param(request, "position", required="Give the seat position.")
        if position is not None:
            self._each(request, queryset, "Gave a seat back in",
                       lambda g: seat_take_back_from_bot(game=g, by=request.user, position=position))

    @admin.action(description="Abandon (end without a result)", permissions=["change"])
    def abandon_games(self, request, queryset):
        reason = self._param(request, "reason") or ""
        self._each(request, queryset, "Abandoned", lambda g: game_abandon(game=g, by=request.user, reason=reason))


@admin.register(Seat)
class SeatAdmin(SecretFieldsAdminMixin, ReadOnlyAdmin):
    list_display = ("game", "position", "user", "is_bot", "bot_reason", "missed_deadlines", "extensions_used")
    list_filter = ("is_bot", "bot_reason")
    list_select_related = ("game", "user")
    search_fields = ("user__username", "=game__id")


@admin.register(Prompt)
class PromptAdmin(SecretFieldsAdminMixin, ReadOnlyAdmin):
    list_display = ("game", "seat", "prompt_id", "phase", "deadline", "opened_at", "closed_at", "answered")
    list_filter = ("answered", ("closed_at", admin.EmptyFieldListFilter))
    list_select_related = ("game", "seat")
    search_fields = ("=game__id", "seat__user__username")


@admin.register(Submission)
class SubmissionAdmin(SecretFieldsAdminMixin, ReadOnlyAdmin):
    list_display = ("game", "seat", "phase", "prompt_id", "pick", "source", "created_at")
    list_filter = ("source",)
    list_select_related = ("game", "seat")
    search_fields = ("=game__id", "seat__user__username")

    @admin.display(description="option")
    def pick(self, obj: Submission) -> str:
        return obj.option_id if self.secrets_revealed(obj) else "(hidden until the game is over)"


@admin.register(Event)
class EventAdmin(SecretFieldsAdminMixin, ReadOnlyAdmin):
    list_display = ("game", "phase", "text_for_staff", "visibility", "created_at")
    list_select_related = ("game",)
    search_fields = ("=game__id", "text")  # a private event's text matches only once its game is over
    list_filter = (("visibility", admin.EmptyFieldListFilter),)

    def secrets_revealed(self, obj) -> bool:
        return obj is not None and (obj.visibility is None or super().secrets_revealed(obj))

    def revealed_rows(self):
        return Q(visibility__isnull=True) | super().revealed_rows()

    @admin.display(description="text")
    def text_for_staff(self, event: Event) -> str:
        return event_text_for_staff(event, game_over=self.secrets_revealed(event))

