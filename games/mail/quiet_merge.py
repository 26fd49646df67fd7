"""The one mail that carries what fell due during a player's quiet hours (delivery.py).

Each held mail keeps its own text, one after the other, oldest first, under a line with its subject; the
mail's Reply-To is the newest decision's reply address, and each part about a decision says its own, so a
reply can still reach any of them. Threads: when every part is of one game the mail stays in that game's
thread; otherwise it is a mail of its own.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.mail import EmailMultiAlternatives

from .models import Notification, NotificationKind

RULE = "=" * 60


def merged_subject(rows: list[Notification]) -> str:
    games = {r.game_id for r in rows}
    if len(games) == 1 and None not in games:
        head = re.split(r":\s", rows[0].subject, maxsplit=1)[0]
        return f"{head}: {len(rows)} mails from your quiet hours"
    return f"Faltisia: {len(rows)} mails from your quiet hours"


def merged_text(rows: list[Notification]) -> str:
    parts = [f"While your quiet hours lasted, {len(rows)} mails fell due. Here they are, oldest first.\n"]
    for row in rows:
        parts.append(f"{RULE}\n{row.subject}\n{RULE}\n")
        if row.kind in (NotificationKind.PROMPT, NotificationKind.REMINDER) and row.headers.get("Reply-To"):
            parts.append(f"(To answer this one by email, write to {row.headers['Reply-To']})\n")
        parts.append(row.body_text.rstrip() + "\n")
    return "\n".join(parts)


def merged_message(rows: list[Notification]) -> EmailMultiAlternatives:
    rows = sorted(rows, key=lambda r: r.pk)
    newest = rows[-1]
    headers = dict(newest.headers)
    if len({r.game_id for r in rows}) > 1:
        for name in ("In-Reply-To", "References", "List-Id", "X-Faltisia-Prompt"):
            headers.pop(name, None)
    prompts = [r for r in rows if r.kind in (NotificationKind.PROMPT, NotificationKind.REMINDER)]
    if prompts:
        headers["Reply-To"] = prompts[-1].headers.get("Reply-To", headers.get("Reply-To", ""))
    return EmailMultiAlternatives(subject=merged_subject(rows), body=merged_text(rows),
                                  from_email=settings.DEFAULT_FROM_EMAIL, to=[newest.address], headers=headers)
