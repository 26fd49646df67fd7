"""Account pages (mounted under /accounts/). Log in, log out and password reset are Django's views."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("verify/resend/", views.verify_resend, name="verify-resend"),
    path("verify/<str:token>/", views.verify_email, name="verify-email"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("password_reset/", views.ThrottledPasswordResetView.as_view(), name="password_reset"),
    path("token/", views.api_token, name="account-token"),
    path("preferences/", views.preferences, name="account-preferences"),
    path("vacations/", views.vacations, name="account-vacations"),
    path("vacations/<int:vacation_id>/cancel/", views.vacation_cancel, name="account-vacation-cancel"),
    # logout (POST), password_change, password_reset and its confirm steps, with their usual names
    path("", include("django.contrib.auth.urls")),
]
