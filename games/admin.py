from django.contrib import admin

from .models import Event, Game, Prompt, Seat, Submission


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "is_bot", "missed_deadlines", "extensions_used", "standing_orders")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "engine", "status", "phase", "players", "created_by", "created_at")
    list_filter = ("engine", "status", "is_public")
    search_fields = ("id", "created_by__username")
    readonly_fields = ("state", "result", "seed", "resolve_requested_at")
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("game", "position", "user", "is_bot", "missed_deadlines")
    list_filter = ("is_bot",)


@admin.register(Prompt)
class PromptAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "prompt_id", "phase", "deadline", "opened_at", "closed_at", "answered")
    list_filter = ("answered",)


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "phase", "prompt_id", "option_id", "source", "created_at")
    list_filter = ("source",)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("game", "phase", "text", "visibility", "created_at")
