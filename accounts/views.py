"""Account pages: sign-up with email verification, API token, preferences and vacations.

Log in, log out and password reset are Django's own auth views (accounts/urls_web.py); these views only
parse forms and call the writes in accounts.preferences and accounts.verification.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from .forms import PreferencesForm, ResendVerificationForm, SignupForm, VacationForm
from .models import User
from .preferences import (preferences_for, preferences_update, token_regenerate, user_signup, vacation_delete,
                          vacations_upcoming)
from .services import token_for_user, vacation_create
from .verification import VerificationError, email_verification_send, email_verify

BACKEND = "django.contrib.auth.backends.ModelBackend"


def _base_url(request) -> str:
    return request.build_absolute_uri("/")


def signup(request):
    if request.user.is_authenticated:
        return redirect("web:lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        user = user_signup(username=d["username"], email=d["email"], password=d["password"],
                           timezone=d["timezone"])
        email_verification_send(user=user, base_url=_base_url(request))
        return render(request, "accounts/verify_sent.html", {"email": user.email})
    return render(request, "accounts/signup.html", {"form": form})


def verify_email(request, token: str):
    try:
        user = email_verify(token=token)
    except VerificationError as e:
        return render(request, "accounts/verify_failed.html",
                      {"error": str(e), "form": ResendVerificationForm()}, status=400)
    if not request.user.is_authenticated:
        login(request, user, backend=BACKEND)
    messages.success(request, "Your email address is confirmed. Welcome!")
    return redirect("web:lobby")


def verify_resend(request):
    form = ResendVerificationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # Same answer whether or not the address is known, so the page cannot be used to probe accounts.
        for user in User.objects.filter(email__iexact=form.cleaned_data["email"], is_active=False)[:3]:
            email_verification_send(user=user, base_url=_base_url(request))
        return render(request, "accounts/verify_sent.html", {"email": form.cleaned_data["email"]})
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
    prefs = preferences_for(user=request.user)
    initial = {"timezone": request.user.timezone, "email_prompts": prefs.email_prompts,
               "email_results": prefs.email_results, "digest": prefs.digest,
               "reminder_lead_hours": ", ".join(str(h) for h in prefs.reminder_lead_hours)}
    form = PreferencesForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        preferences_update(user=request.user, **form.cleaned_data)
        messages.success(request, "Preferences saved.")
        return redirect("account-preferences")
    return render(request, "accounts/preferences.html", {"form": form})


@login_required
def vacations(request):
    form = VacationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        vacation_create(user=request.user, starts=form.cleaned_data["starts"], ends=form.cleaned_data["ends"])
        messages.success(request, "Vacation saved: deadlines that fall in it wait for your return.")
        return redirect("account-vacations")
    return render(request, "accounts/vacations.html",
                  {"form": form, "vacations": vacations_upcoming(user=request.user, now=timezone.now())})


@login_required
@require_POST
def vacation_cancel(request, vacation_id: int):
    if vacation_delete(user=request.user, vacation_id=vacation_id):
        messages.success(request, "Vacation cancelled.")
    else:
        messages.error(request, "That vacation does not exist (perhaps it was already cancelled).")
    return redirect("account-vacations")
