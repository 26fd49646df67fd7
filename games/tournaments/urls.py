"""Public pages (mounted at the site root): /tournaments/<id>/ and /leaderboard/."""

from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="tournament-page"),
    path("leaderboard/", views.leaderboard_page, name="leaderboard-page"),
]
