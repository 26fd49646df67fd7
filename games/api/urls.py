"""API routes of the games app (mounted under /api/). Web pages can add their own urls module."""

from django.urls import path

from . import chat_views, moderation_views, undo_views, views

urlpatterns = [
    path("games/", views.GameListCreateApi.as_view(), name="games"),
    path("games/<int:game_id>/", views.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:game_id>/join/", views.GameJoinApi.as_view(), name="game-join"),
    path("games/<int:game_id>/moves/", views.MoveApi.as_view(), name="game-moves"),
    path("games/<int:game_id>/undo/", undo_views.UndoApi.as_view(), name="game-undo"),
    path("games/<int:game_id>/log/", views.LogApi.as_view(), name="game-log"),
    path("games/<int:game_id>/standing-orders/", views.StandingOrdersApi.as_view(), name="game-standing-orders"),
    path("games/<int:game_id>/pause/", views.GamePauseApi.as_view(), name="game-pause"),
    path("games/<int:game_id>/resume/", views.GameResumeApi.as_view(), name="game-resume"),
    path("games/<int:game_id>/abandon/", views.GameAbandonApi.as_view(), name="game-abandon"),
    path("games/<int:game_id>/reclaim/", views.SeatReclaimApi.as_view(), name="game-reclaim"),
    path("games/<int:game_id>/messages/", chat_views.MessagesApi.as_view(), name="game-messages"),
    path("games/<int:game_id>/notes/", chat_views.NotesApi.as_view(), name="game-notes"),
    path("games/<int:game_id>/messages/<int:message_id>/report/", moderation_views.MessageReportApi.as_view(),
         name="game-message-report"),
    path("games/<int:game_id>/seats/<int:position>/mute/", moderation_views.SeatMuteApi.as_view(),
         name="game-seat-mute"),
    path("games/<int:game_id>/seats/<int:position>/block/", moderation_views.SeatBlockApi.as_view(),
         name="game-seat-block"),
]
