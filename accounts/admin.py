"""Users with what an operator needs to judge them: reliability, vacations, ratings."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.template.defaultfilters import pluralize
from django.utils import timezone

from games.ratings.models import Rating
from games.ratings.selectors import user_reliability, users_with_reliability

from .models import NotificationPreferences, User, Vacation


class VacationInline(admin.TabularInline):
    model = Vacation
    extra = 0
    fields = ("starts", "ends")


class RatingInline(admin.TabularInline):
    model = Rating
    extra = 0
    can_delete = False
    fields = ("engine", "mu", "sigma", "ordinal", "games", "updated_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # ratings move only when rated games finish


class OnVacationFilter(admin.SimpleListFilter):
    title = "vacation"
    parameter_name = "vacation"

    def lookups(self, request, model_admin):
        return [("now", "away now"), ("ahead", "vacation booked ahead")]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "now":
            return queryset.filter(vacations__starts__lte=now, vacations__ends__gt=now).distinct()
        if self.value() == "ahead":
            return queryset.filter(vacations__starts__gt=now).distinct()
        return queryset


class MissingNowFilter(admin.SimpleListFilter):
    title = "reliability"
    parameter_name = "reliability"

    def lookups(self, request, model_admin):
        return [("missing", "missing deadlines now"), ("ever_missed", "has ever missed a decision")]

    def queryset(self, request, queryset):
        if self.value() == "missing":
            return queryset.filter(missed_now__gt=0)
        if self.value() == "ever_missed":
            return queryset.filter(decisions_missed__gt=0)
        return queryset


@admin.register(User)
class FaltisiaUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + (
        ("Faltisia", {"fields": ("timezone", "email_verified_at")}),
        ("Reliability", {"fields": ("reliability",)}),
    )
    readonly_fields = ("reliability",)
    list_display = ("username", "email", "timezone", "is_staff", "decisions_on_time", "decisions_missed",
                    "on_time_share", "missed_now", "away_now")
    list_filter = UserAdmin.list_filter + (MissingNowFilter, OnVacationFilter)
    inlines = [VacationInline, RatingInline]

    def save_model(self, request, obj, form, change):
        # A confirmation is for one address: a new one waits for its own link.
        if change and "email" in form.changed_data and "email_verified_at" not in form.changed_data:
            obj.email_verified_at = None
        super().save_model(request, obj, form, change)

    def get_queryset(self, request):
        return users_with_reliability(super().get_queryset(request)).prefetch_related("vacations")

    @admin.display(description="on time", ordering="decisions_on_time")
    def decisions_on_time(self, user: User) -> int:
        return user.decisions_on_time

    @admin.display(description="missed", ordering="decisions_missed")
    def decisions_missed(self, user: User) -> int:
        return user.decisions_missed

    @admin.display(description="on time %")
    def on_time_share(self, user: User) -> str:
        total = user.decisions_on_time + user.decisions_missed
        return "—" if total == 0 else f"{100 * user.decisions_on_time / total:.0f}%"

    @admin.display(description="missing now", ordering="missed_now")
    def missed_now(self, user: User) -> int:
        return user.missed_now

    @admin.display(boolean=True, description="away")
    def away_now(self, user: User) -> bool:
        now = timezone.now()
        return any(v.starts <= now < v.ends for v in user.vacations.all())

    @admin.display(description="reliability")
    def reliability(self, user: User) -> str:
        if user.pk is None:
            return "—"
        r = user_reliability(user=user)
        share = "no decisions yet" if r["on_time_share"] is None else f"{100 * r['on_time_share']:.0f}% on time"
        return (f"{r['decisions_on_time']} decisions on time, {r['decisions_missed']} missed ({share}); "
                f"{r['missed_deadlines_now']} consecutive misses open now; "
                f"{'on vacation now' if r['on_vacation'] else 'not on vacation'}, "
                f"{r['vacations_ahead']} vacation{pluralize(r['vacations_ahead'])} booked ahead")


@admin.register(NotificationPreferences)
class NotificationPreferencesAdmin(admin.ModelAdmin):
    list_display = ("user", "email_prompts", "email_results", "digest", "reminder_lead_hours")
    search_fields = ("user__username",)


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    list_display = ("user", "starts", "ends")
    search_fields = ("user__username",)
    date_hierarchy = "starts"
