"""API routes of the games app (mounted under /api/). Web pages can add their own urls module."""

from django.urls import path

from . import apis

urlpatterns = [
    path("games/", apis.GameListCreateApi.as_view(), name="games"),
    path("games/<int:game_id>/", apis.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:game_id>/join/", apis.GameJoinApi.as_view(), name="game-join"),
    path("games/<int:game_id>/moves/", apis.MoveApi.as_view(), name="game-moves"),
    path("games/<int:game_id>/log/", apis.LogApi.as_view(), name="game-log"),
    path("games/<int:game_id>/standing-orders/", apis.StandingOrdersApi.as_view(), name="game-standing-orders"),
    path("games/<int:game_id>/pause/", apis.GamePauseApi.as_view(), name="game-pause"),
    path("games/<int:game_id>/resume/", apis.GameResumeApi.as_view(), name="game-resume"),
    path("games/<int:game_id>/abandon/", apis.GameAbandonApi.as_view(), name="game-abandon"),
    path("games/<int:game_id>/reclaim/", apis.SeatReclaimApi.as_view(), name="game-reclaim"),
]
