"""Data for confirmed addresses and case-insensitive usernames, before the case-insensitive unique constraint (0004).

- Every active user with an address is taken as verified: until now an active web account had opened
  its link, and API accounts were never asked, so they keep receiving the mail they got before.
  Inactive users stay unverified and inactive (a ban and an unconfirmed sign-up looked the same; an
  admin reactivates a pending sign-up by hand).
- Usernames equal but for case ("alice", "ALICE") could be made through the API; the oldest account
  keeps its name, each later one gets a numbered suffix ("ALICE-2"), so the constraint can be added.
"""

from django.db import migrations
from django.db.models import Q
from django.utils import timezone


def mark_active_addresses_verified(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    (User.objects.filter(is_active=True, email_verified_at__isnull=True).exclude(Q(email="") | Q(email__isnull=True))
     .update(email_verified_at=timezone.now()))


def suffix_case_duplicates(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    taken: set[str] = set()
    for user in User.objects.order_by("pk").only("pk", "username"):
        name = user.username
        if name.lower() in taken:
            n = 2
            while f"{user.username}-{n}".lower() in taken or User.objects.filter(
                    username__iexact=f"{user.username}-{n}").exclude(pk=user.pk).exists():
                n += 1
            name = f"{user.username}-{n}"
            User.objects.filter(pk=user.pk).update(username=name)
        taken.add(name.lower())


class Migration(migrations.Migration):

    dependencies = [("accounts", "0002_user_email_verified_at_and_username_rule")]

    operations = [
        migrations.RunPython(mark_active_addresses_verified, migrations.RunPython.noop),
        migrations.RunPython(suffix_case_duplicates, migrations.RunPython.noop),
    ]
