"""The read-only admin bases: records staff browse, filter and search, and nobody adds, edits or deletes
by hand.

These rows change only through their services (games/services, games.chat.moderation, games.mail), which
keep the locks, the prompts and the logs right: a hand-edited submission or event rewrites what happened, a
deleted outbox row or inbound record lets a mail be sent or a reply be applied twice, a deleted used link
works again, a moved mailbox hands a seat's replies to another. Put a secrecy mixin (secrecy.py) before
these bases: ``class SeatAdmin(SecretFieldsAdminMixin, ReadOnlyAdmin)``.
"""

from __future__ import annotations

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
