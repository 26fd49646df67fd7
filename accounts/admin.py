from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import NotificationPreferences, User, Vacation


@admin.register(User)
class FaltisiaUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + (("Faltisia", {"fields": ("timezone",)}),)
    list_display = ("username", "email", "timezone", "is_staff")


@admin.register(NotificationPreferences)
class NotificationPreferencesAdmin(admin.ModelAdmin):
    list_display = ("user", "email_prompts", "email_results", "digest", "reminder_lead_hours")


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    list_display = ("user", "starts", "ends")
