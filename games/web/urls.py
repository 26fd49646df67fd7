"""Web pages (mounted at the site root). The JSON API is under /api/ (games.api.urls)."""

from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import path

from . import chat_views, game_views, lobby_views, profile_views, rules_views

app_name = "web"


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links: send them to the site's icon, not a 404."""
    return HttpResponsePermanentRedirect(static("web/favicon.svg"))


urlpatterns = [
    path("", lobby_views.lobby, name="lobby"),
    path("games/new/", lobby_views.game_new, name="game-new"),
    path("games/unread/", chat_views.chat_unread, name="chat-unread"),
    path("games/<int:game_id>/", game_views.game_page, name="game"),
    path("games/<slug:slug>/rules/", rules_views.game_rules, name="game-rules"),
    path("games/<int:game_id>/live/", game_views.game_live, name="game-live"),
    path("games/<int:game_id>/move/", game_views.game_move, name="game-move"),
    path("games/<int:game_id>/undo/", game_views.game_undo, name="game-undo"),
    path("games/<int:game_id>/orders/", game_views.game_orders, name="game-orders"),
    path("games/<int:game_id>/replay/", game_views.game_replay, name="game-replay"),
    path("games/<int:game_id>/chat/", chat_views.game_chat, name="game-chat"),
    path("games/<int:game_id>/chat/report/", chat_views.chat_report, name="chat-report"),
    path("games/<int:game_id>/notes/", chat_views.game_notes, name="game-notes"),
    path("games/<int:game_id>/mute/", chat_views.game_mute, name="game-mute"),
    path("games/<int:game_id>/block/", chat_views.game_block, name="game-block"),
    path("games/<int:game_id>/join/", lobby_views.game_join_view, name="game-join"),
    path("games/<int:game_id>/invite/", lobby_views.game_invite, name="game-invite"),
    path("invite/<str:token>/", lobby_views.invite_accept, name="invite"),
    path("players/<str:username>/", profile_views.player_profile, name="player"),
    path("favicon.ico", favicon, name="favicon"),
]
