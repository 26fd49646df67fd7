"""Account pages: sign-up with email verification, API token, preferences and vacations.

Log in, log out and password reset are Django's own auth views (accounts/urls_web.py; the reset form
throttled); these views only parse forms and call the writes in accounts.services, accounts.preferences and
accounts.verification.

Who may do what: a new account is active at once and may log in and play; its address
is confirmed by a single-use link, and no game mail goes to it before that. Opening the link never logs
anyone in. ``is_active=False`` is a ban: no login, no token, and no link changes that.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from .forms import PreferencesForm, ResendVerificationForm, SignupForm, VacationForm
from .preferences import (player_hook_secret_rotate, preferences_for, preferences_update, token_regenerate,
                          vacation_delete, vacations_upcoming)
from .selectors import game_modes, running_games
from .player_hook_urls import player_hook_secret
from .services import token_for_user, user_register, vacation_create
from .throttle import mail_request_allowed, signup_allowed, too_many_requests
from .vacation_caps import VacationLimitError, per_game_cap, yearly_cap
from .verification import VerificationError, email_verify, verification_resend

BACKEND = "django.contrib.auth.backends.ModelBackend"


def _base_url(request) -> str:
    return request.build_absolute_uri("/")


def signup(request):
    if request.user.is_authenticated:
        return redirect("web:lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not signup_allowed(request=request):
            form.add_error(None, "Too many sign-ups from your address; try again in an hour.")
            return too_many_requests(request, "accounts/signup.html", {"form": form})
        d = form.cleaned_data
        user = user_register(username=d["username"], email=d["email"], password=d["password"],
                             timezone=d["timezone"], base_url=_base_url(request))
        login(request, user, backend=BACKEND)
        return render(request, "accounts/verify_sent.html", {"email": user.email, "new_account": True})
    return render(request, "accounts/signup.html", {"form": form})


def verify_email(request, token: str):
    """Confirm the address; never a login (the link is a mail, not a password)."""
    try:
        email_verify(token=token)
    except VerificationError as e:
        return render(request, "accounts/verify_failed.html",
                      {"error": str(e), "form": ResendVerificationForm()}, status=400)
    messages.success(request, "Your email address is confirmed: game emails will reach you from now on.")
    return redirect("web:lobby" if request.user.is_authenticated else "login")


def verify_resend(request):
    form = ResendVerificationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        if not mail_request_allowed(request=request, scope="verify-resend", email=email):
            return too_many_requests(request, "accounts/too_many_requests.html")
        # Same answer whether or not the address is known, confirmed or banned: the page probes nothing.
        verification_resend(email=email, base_url=_base_url(request))
        return render(request, "accounts/verify_sent.html", {"email": email})
    return render(request, "accounts/verify_resend.html", {"form": form})


@login_required
def api_token(request):
    if request.method == "POST":
        token_regenerate(user=request.user)
        messages.success(request, "A new API token was made; the old one no longer works.")
        return redirect("account-token")
    return render(request, "accounts/token.html", {"token": token_for_user(user=request.user)})


@login_required
def preferences(request):
    if request.method == "POST" and "rotate_hook_secret" in request.POST:  # the page's second form
        player_hook_secret_rotate(user=request.user)
        messages.success(request, "A new webhook signing secret was made (below): check signatures with it, "
                                  "the old one no longer signs anything.")
        return redirect("account-preferences")
    prefs = preferences_for(user=request.user)
    games = running_games(user=request.user)
    initial = {"timezone": request.user.timezone, "email_prompts": prefs.email_prompts,
               "email_results": prefs.email_results, "digest": prefs.digest, "email_chat": prefs.email_chat,
               "reminder_lead_hours": ", ".join(str(h) for h in prefs.reminder_lead_hours),
               "prompt_mail": prefs.prompt_mail, "quiet_start": prefs.quiet_start, "quiet_end": prefs.quiet_end,
               "webhook_url": prefs.webhook_url,
               **{f"game_{g}": mode for g, mode in game_modes(user=request.user).items()}}
    form = PreferencesForm(request.POST or None, initial=initial, games=games)
    if request.method == "POST" and form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if not k.startswith("game_")}
        preferences_update(user=request.user, **data, game_modes=form.game_modes())
        messages.success(request, "Preferences saved.")
        return redirect("account-preferences")
    return render(request, "accounts/preferences.html",
                  {"form": form, "webhook_secret": player_hook_secret(user_id=request.user.pk) if prefs.webhook_url else None})


@login_required
def vacations(request):
    form = VacationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            vacation_create(user=request.user, starts=form.cleaned_data["starts"], ends=form.cleaned_data["ends"])
        except VacationLimitError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, "Vacation saved: deadlines that fall in it wait for your return.")
            return redirect("account-vacations")
    now = timezone.now()
    return render(request, "accounts/vacations.html",
                  {"form": form, "vacations": vacations_upcoming(user=request.user, now=now), "now": now,
                   "days_per_year": yearly_cap().days, "days_per_game": per_game_cap().days})


@login_required
@require_POST
def vacation_cancel(request, vacation_id: int):
    if vacation_delete(user=request.user, vacation_id=vacation_id, now=timezone.now()):
        messages.success(request, "Vacation cancelled.")
    else:
        messages.error(request, "That vacation cannot be cancelled: it has already started, or it does not "
                                "exist any more.")
    return redirect("account-vacations")


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, at most MAIL_REQUESTS_PER_EMAIL mails per address (and a limit per client
    address) per window, so the form cannot flood an inbox."""

    def form_valid(self, form):
        if not mail_request_allowed(request=self.request, scope="password-reset", email=form.cleaned_data["email"]):
            return too_many_requests(self.request, "accounts/too_many_requests.html")
        return super().form_valid(form)
