"""Give the digest readers the next_digest_at and digest_since of 0005 as the running code would have set
them.

0005 left both NULL, which the digest task reads as "due now, covering the last 24 hours": on a database
upgraded from before it, the first hourly run sent a digest to every reader with news that day, although
most had had theirs a few hours before (the old task skipped a reader whose last digest was under 23 hours
old). Here each reader whose last digest is recorded (the newest digest Notification of the user) gets
what the digest task stores when it queues one: ``digest_since`` = that digest's time and
``next_digest_at`` = that time + games.mail.digests.DIGEST_EVERY (23 hours). A reader with no digest on
record keeps NULL: the old task would have looked at them on its next run too.

A migration of its own (not a RunPython in 0005) for the reasons games 0009 gives: non-atomic batches
that commit one by one, safe to run again (it only fills readers still NULL), harmless on a database that
already ran 0005 under the new code. The reverse is a no-op.
"""

from datetime import timedelta

from django.db import migrations, transaction
from django.db.models import DateTimeField, Exists, ExpressionWrapper, Max, Min, OuterRef, Subquery, Value

ID_RANGE = 5000  # preferences ids per batch (one UPDATE)
DIGEST_EVERY = timedelta(hours=23)  # games.mail.digests.DIGEST_EVERY at the time of this migration


def backfill(apps, schema_editor):
    Prefs = apps.get_model("accounts", "NotificationPreferences")
    Notification = apps.get_model("mail", "Notification")
    readers = Prefs.objects.filter(digest=True, next_digest_at__isnull=True)
    bounds = readers.aggregate(lo=Min("pk"), hi=Max("pk"))
    if bounds["lo"] is None:
        return
    # The reader's newest digest (the old digests_queue's: its last digest), through the outbox's
    # (user, kind, created_at) index; one UPDATE per range of ids, nothing computed row by row in Python.
    last = (Notification.objects.filter(user_id=OuterRef("user_id"), kind="digest")
            .order_by("-created_at").values("created_at")[:1])
    for lo in range(bounds["lo"], bounds["hi"] + 1, ID_RANGE):
        with transaction.atomic(using=schema_editor.connection.alias):
            readers.filter(pk__gte=lo, pk__lt=lo + ID_RANGE).filter(Exists(last)).update(
                digest_since=Subquery(last),
                next_digest_at=ExpressionWrapper(Subquery(last) + Value(DIGEST_EVERY), output_field=DateTimeField()))


class Migration(migrations.Migration):

    atomic = False

    dependencies = [
        ("accounts", "0006_email_results_off_by_default"),
        ("mail", "0004_mail_job_outbox"),  # the outbox: each reader's last digest
    ]

    operations = [
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
    ]
