"""Public pages (mounted at the site root): /tournaments/ and each tournament's page, the players' buttons
on it, the proposal form and staff's approval; /leaderboard/."""

from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/", views.tournaments_index, name="tournaments-index"),
    path("tournaments/propose/", views.tournament_propose_view, name="tournament-propose"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="tournament-page"),
    path("tournaments/<int:tournament_id>/join/", views.tournament_register_view, name="tournament-join"),
    path("tournaments/<int:tournament_id>/withdraw/", views.tournament_withdraw_view, name="tournament-withdraw"),
    path("tournaments/<int:tournament_id>/approve/", views.tournament_approve_view, name="tournament-approve"),
    path("leaderboard/", views.leaderboard_page, name="leaderboard-page"),
]
