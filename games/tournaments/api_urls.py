"""Tournament and rating API routes (mounted under /api/)."""

from django.urls import path

from ..ratings import apis as rating_apis
from . import apis

urlpatterns = [
    path("tournaments/", apis.TournamentListCreateApi.as_view(), name="tournaments"),
    path("tournaments/<int:tournament_id>/", apis.TournamentDetailApi.as_view(), name="tournament-detail"),
    path("tournaments/<int:tournament_id>/standings/", apis.TournamentStandingsApi.as_view(),
         name="tournament-standings"),
    path("tournaments/<int:tournament_id>/register/", apis.TournamentRegisterApi.as_view(),
         name="tournament-register"),
    path("tournaments/<int:tournament_id>/start/", apis.TournamentStartApi.as_view(), name="tournament-start"),
    path("tournaments/<int:tournament_id>/cancel/", apis.TournamentCancelApi.as_view(), name="tournament-cancel"),
    path("tournaments/<int:tournament_id>/drop/", apis.EntryManageApi.as_view(), {"action": "drop"},
         name="tournament-drop"),
    path("tournaments/<int:tournament_id>/replace/", apis.EntryManageApi.as_view(), {"action": "replace"},
         name="tournament-replace"),
    path("leaderboard/", rating_apis.LeaderboardApi.as_view(), name="leaderboard"),
    path("players/<str:username>/ratings/", rating_apis.UserRatingsApi.as_view(), name="player-ratings"),
]
