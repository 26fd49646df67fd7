"""Pages behind the links in emails. GET never changes anything (mail scanners prefetch links);
the confirm page POSTs. The signed token in the URL is the authority, not a session, so these POSTs
need no CSRF token (there is no ambient credential to abuse)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from .links import LinkError, unsubscribe_read
from .links_service import link_target, link_use
from .unsubscribe import preferences_unsubscribe

STATUS = {"forged": 400, "expired": 410, "revoked": 403, "used": 409, "unknown": 404, "stale_prompt": 409,
          "game_not_active": 409, "not_an_option": 400, "deactivated": 403, "account_deactivated": 403}


def _page(request, title: str, lines: list[str], *, confirm: str | None = None, status: int = 200) -> HttpResponse:
    return render(request, "email/link_page.html", {"title": title, "lines": lines, "confirm": confirm},
                  status=status)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def pick_link(request: HttpRequest, token: str) -> HttpResponse:
    try:
        if request.method == "GET":
            target = link_target(token)
            return _page(request, "Confirm your choice",
                         [f"Game #{target.prompt.game_id}: {target.prompt.text}", f"Your choice: {target.option['label']}"],
                         confirm="Confirm this choice")
        target, submission = link_use(token=token)
    except LinkError as e:
        return _page(request, "Nothing was recorded", [e.detail], status=STATUS.get(e.code, 400))
    lines = [f"Game #{target.prompt.game_id}: {target.prompt.text}", f"Recorded: {target.option['label']}."]
    if not submission.is_new:
        lines[1] = f"You had already chosen {target.option['label']}; nothing changed."
    return _page(request, "Choice recorded", lines)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user_id = unsubscribe_read(token)
    except LinkError as e:
        return _page(request, "Invalid link", [e.detail], status=400)
    if request.method == "GET":
        return _page(request, "Stop game emails?",
                     ["You will no longer receive prompts, results or digests by email. You can still play "
                      "on the website and turn emails back on in your preferences."], confirm="Unsubscribe")
    preferences_unsubscribe(user_id=user_id)  # RFC 8058 one-click POST lands here too
    return _page(request, "Unsubscribed", ["You will receive no more game emails."])
