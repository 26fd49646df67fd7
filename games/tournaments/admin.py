"""Tournament admin: create and watch tournaments; start, drop and replace through the services."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import Q
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from accounts.models import User
from faltisia.free_text import validate_free_text
from games.admin.secrecy import SecretFieldsAdminMixin
from games.errors import GameError

from .models import Entry, Notice, Round, Table, Tournament, TournamentStatus
from .selectors import tournament_standings
from .services import entry_drop, entry_replace, tournament_approve, tournament_cancel, tournament_start


TOURNAMENT_OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("user", "status", "plays_as_bot", "seed_no", "eliminated_in", "previous_users")
    readonly_fields = ("status", "seed_no", "eliminated_in", "previous_users")
    autocomplete_fields = ("user",)

    def has_change_permission(self, request, obj=None) -> bool:
        # Before the start entries may be edited here; afterwards only through drop/replace.
        return obj is None or obj.status == "registration"

    has_add_permission = has_change_permission
    has_delete_permission = has_change_permission


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    can_delete = False
    fields = ("number", "status", "started_at", "finished_at", "games")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="tables")
    def games(self, rnd: Round) -> str:
        rows = []
        for t in rnd.tables.prefetch_related("places__entry__user"):
            names = ", ".join(p.entry.user.username for p in t.places.all())
            if t.game_id:
                url = reverse("admin:games_game_change", args=[t.game_id])
                rows.append((url, f"table {t.number}: game #{t.game_id} ({names})"))
            else:
                rows.append(("#", f"bye: {names}"))
        return format_html_join(mark_safe("<br>"), '<a href="{}">{}</a>', rows)


class TournamentForm(forms.ModelForm):
    """The same checks as tournament_create, so a tournament made here can always be run."""

    class Meta:
        model = Tournament
        fields = "__all__"

    def clean(self):
        data = super().clean()
        if self.instance.pk and self.instance.status not in ("registration", "proposed"):
            return data
        from games.engines.registry import get_engine
        from games.services.clock import clock_validate

        from .rules import rules_from

        try:
            engine = get_engine(data.get("engine", ""))
        except (KeyError, ImportError, AttributeError):
            raise forms.ValidationError({"engine": "no such game"})
        try:
            engine.validate_options(data.get("table_size") or 0, data.get("options") or {})
            clock_validate(data.get("clock") or {})
            rules_from(table_size=data.get("table_size") or 0, min_players=engine.min_players,
                       settings=data.get("settings") or {})
        except ValueError as e:
            raise forms.ValidationError(str(e))
        if data.get("format") == "swiss" and not data.get("rounds"):
            raise forms.ValidationError({"rounds": "a Swiss tournament needs a number of rounds"})
        return data


class TournamentActionForm(ActionForm):
    username = forms.CharField(required=False, max_length=150, help_text="drop / replace: the entry's player")
    new_username = forms.CharField(required=False, max_length=150, help_text="replace: the substitute")
    reason = forms.CharField(required=False, max_length=300, help_text="cancel: told to every entrant",
                             validators=[validate_free_text])


@admin.register(Tournament)
class TournamentAdmin(SecretFieldsAdminMixin, admin.ModelAdmin):
    list_display = ("id", "name", "engine", "format", "table_size", "status", "current_round", "rounds",
                    "public_page")
    list_filter = ("status", "format", "engine")
    search_fields = ("name",)
    fields = ("name", "engine", "format", "table_size", "rounds", "options", "clock", "settings", "rated",
              "registration_opens", "registration_closes", "max_players", "seed", "status", "current_round",
              "started_at", "finished_at", "proposed_by", "standings")
    readonly_fields = ("status", "current_round", "started_at", "finished_at", "proposed_by", "standings")
    inlines = [EntryInline, RoundInline]
    form = TournamentForm
    action_form = TournamentActionForm
    actions = ["approve", "start", "cancel", "drop_player", "replace_player"]

    # Every table's seed derives from the tournament's: hidden (and random) until the tournament is over.
    def secrets_revealed(self, obj) -> bool:
        return obj is not None and obj.status in TOURNAMENT_OVER

    def revealed_rows(self):
        return Q(status__in=TOURNAMENT_OVER)

    def get_readonly_fields(self, request, obj=None):
        fixed = ("engine", "format", "table_size", "options", "clock", "settings", "seed", "rated")
        started = obj is not None and obj.status not in ("registration", "proposed")
        return self.readonly_fields + (fixed if started else ())

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


    @admin.display(description="public page")
    def public_page(self, t: Tournament) -> str:
        return format_html('<a href="{}">standings</a>', reverse("tournament-page", args=[t.pk]))

    @admin.display(description="standings")
    def standings(self, t: Tournament) -> str:
        if t.pk is None:
            return "—"
        rows = tournament_standings(tournament=t)["rows"]
        return format_html_join(mark_safe("<br>"), "{}. {} — {} pts, {} MP, tie-break {} ({})",
                                ((r["rank"], r["player"], r["points"], r["mp"], r["tiebreak"], r["status"])
                                 for r in rows)) or "—"

    def _value(self, request, name):
        form = self.action_form(request.POST)
        form.fields["action"].choices = self.get_action_choices(request)
        return (form.cleaned_data.get(name) or "").strip() if form.is_valid() else ""

    def _report(self, request, t: Tournament, action, success: str) -> None:
        """Run one tournament's admin action; say what happened, or the service's refusal, per tournament."""
        try:
            action()
            self.message_user(request, f"{t.name}: {success}", messages.SUCCESS)
        except GameError as e:
            self.message_user(request, f"{t.name}: {e.detail}", messages.ERROR)

    def _entry(self, request, t: Tournament):
        username = self._value(request, "username")
        entry = Entry.objects.filter(tournament=t, user__username=username).first()
        if entry is None:
            self.message_user(request, f"{t.name}: no entry for {username!r}", messages.ERROR)
        return entry

    @admin.action(description="Approve the proposals (open them for registration)", permissions=["change"])
    def approve(self, request, queryset):
        for t in queryset:
            self._report(request, t, lambda: tournament_approve(tournament=t, by=request.user),
                         "approved, open for registration.")

    @admin.action(description="Start (close registration, seat round 1)", permissions=["change"])
    def start(self, request, queryset):
        for t in queryset:
            self._report(request, t, lambda: tournament_start(tournament=t, by=request.user), "round 1 seated.")

    @admin.action(description="Cancel (tell every entrant; unfinished games are abandoned)", permissions=["change"])
    def cancel(self, request, queryset):
        reason = self._value(request, "reason")
        for t in queryset:
            self._report(request, t, lambda: tournament_cancel(tournament=t, by=request.user, reason=reason),
                         "cancelled, entrants notified.")

    @admin.action(description="Drop the player <username> (bots finish their games)", permissions=["change"])
    def drop_player(self, request, queryset):
        for t in queryset:
            entry = self._entry(request, t)
            if entry is None:
                continue
            self._report(request, t, lambda: entry_drop(entry=entry, by=request.user),
                         f"{entry.user.username} dropped.")

    @admin.action(description="Replace the player <username> with <new username>", permissions=["change"])
    def replace_player(self, request, queryset):
        # A deactivated (banned) account is no player: it must not take over an entry and its seats.
        new = User.objects.filter(username=self._value(request, "new_username"), is_active=True).first()
        if new is None:
            self.message_user(request, "Give an existing, active user as the substitute.", messages.ERROR)
            return
        for t in queryset:
            entry = self._entry(request, t)
            if entry is None:
                continue
            self._report(request, t, lambda: entry_replace(entry=entry, user=new, by=request.user),
                         f"{new.username} took over.")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "round", "number", "game", "scored_at")
    list_select_related = ("round", "game")
    list_filter = ("round__tournament",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ("id", "tournament", "user", "kind", "subject", "created_at", "emailed_at")
    list_filter = ("kind", ("emailed_at", admin.EmptyFieldListFilter))
    list_select_related = ("tournament", "user")
    search_fields = ("user__username", "subject")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
