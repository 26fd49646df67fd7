"""The game page's table talk: the panel's poll and post, notes, reports, mutes and blocks.

Like the page's live board (game_views.game_live), the poll answers 204 for the session and two small
queries while no message is newer than the one the page holds. Every form works without JavaScript too
(redirect after POST); the page's script posts in the background and gets the new messages as HTML.
"""

from __future__ import annotations

from django.contrib import messages as flash
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.api.access import game_id_or_404
from games.chat.errors import ChatError
from games.chat.moderation import (message_report, player_mute, player_unmute, seated_player, user_block,
                                   user_unblock)
from games.chat.notes import note_save
from games.chat.selectors import Reader, latest_message_id, messages_for, read_marker
from games.chat.services import message_post, messages_read
from games.models import Game
from games.selectors import game_version_and_seat

from .chat_pages import SeatLabels, chat_flags, messages_shown
from .selectors import unread_messages_by_game, viewer_for


def _wants_fragment(request) -> bool:
    return request.headers.get("X-Requested-With") == "fetch"


def _since(raw: str | None) -> int:
    return int(raw) if raw and raw.isascii() and raw.isdigit() and len(raw) <= 18 else 0


def _game_and_viewer(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id_or_404(game_id))
    return game, viewer_for(game=game, user=request.user)  # a private game: 404 to outsiders


def _news(request, game: Game, viewer, since: int, found: list | None = None) -> JsonResponse:
    """The messages after ``since`` as the panel's HTML (marked read for a player), and the id to ask after:
    the newest the caller may read, never a message of a thread it is not in (that would tell it one exists)."""
    reader = Reader(game=game, user=request.user, seat=viewer.seat)
    marker = read_marker(seat=viewer.seat) if viewer.seat is not None else 0
    if found is None:
        found = messages_for(reader=reader, since=since)
    if viewer.seat is not None and found:
        messages_read(seat=viewer.seat, up_to=found[-1].pk)
    seats = SeatLabels.of(game)
    chat = chat_flags(game=game, viewer=viewer, user=request.user, seats=seats)
    items = messages_shown(found, reader=reader, seats=seats, read_up_to=marker)
    html = "".join(render_to_string("web/_chat_message.html", {"m": m, "chat": chat}, request=request)
                   for m in items)
    last = max([since, *(m.pk for m in found)])
    return JsonResponse({"html": html, "last": last, "fresh": sum(1 for m in items if m.new)})


@login_required
@require_http_methods(["GET", "POST"])
def game_chat(request, game_id: int):
    """GET: the messages after ``?since=`` (204 when there are none). POST: send ``text`` to the table, or to
    the seats ticked in ``to``."""
    if request.method == "GET":
        return _poll(request, game_id)
    game, viewer = _game_and_viewer(request, game_id)
    to = request.POST.getlist("to")
    try:
        positions = [int(p) for p in to] if to else None
    except ValueError:
        positions = [-1]  # not a seat: refused by the service with its clear message
    try:
        message_post(game=game, user=request.user, text=request.POST.get("text", ""), to=positions)
    except ChatError as e:
        if _wants_fragment(request):
            response = JsonResponse({"error": e.code.value, "detail": e.detail}, status=e.code.http_status)
            if e.retry_after is not None:
                response["Retry-After"] = str(e.retry_after)
            return response
        flash.error(request, f"Not sent: {e.detail}.")
        return redirect(reverse("web:game", args=[game.pk]) + "#chat")
    if _wants_fragment(request):
        return _news(request, game, viewer, _since(request.POST.get("since")))
    return redirect(reverse("web:game", args=[game.pk]) + "#chat")


def _poll(request, game_id: int):
    row = game_version_and_seat(game_id=game_id_or_404(game_id), user=request.user)
    if row is None or (row[2] is None and not row[1]):  # no such game, or a private one not theirs
        raise Http404("No such game.")
    since = _since(request.GET.get("since"))
    if latest_message_id(game_id=game_id) <= since:
        return HttpResponse(status=204)
    game, viewer = _game_and_viewer(request, game_id)
    # Something was written, but perhaps only in a thread the caller is not in: as the API's wait does, answer
    # by what the caller may read, so a poll says nothing of other seats' private talk.
    found = messages_for(reader=Reader(game=game, user=request.user, seat=viewer.seat), since=since)
    if not found:
        return HttpResponse(status=204)
    return _news(request, game, viewer, since, found)


def _back(game: Game, anchor: str = "chat"):
    return redirect(reverse("web:game", args=[game.pk]) + f"#{anchor}")


@login_required
@require_POST
def game_notes(request, game_id: int):
    """Save the player's private notes at their seat."""
    game, viewer = _game_and_viewer(request, game_id)
    if viewer.seat is None:
        flash.error(request, "Notes are kept by the game's players.")
        return _back(game, "notes")
    try:
        note_save(seat=viewer.seat, user=request.user, text=request.POST.get("text", ""))
    except ChatError as e:
        if _wants_fragment(request):
            return JsonResponse({"error": e.code.value, "detail": e.detail}, status=e.code.http_status)
        flash.error(request, f"Notes not saved: {e.detail}.")
        return _back(game, "notes")
    if _wants_fragment(request):
        return JsonResponse({"saved": True})
    flash.success(request, "Notes saved.")
    return _back(game, "notes")


@login_required
@require_POST
def chat_report(request, game_id: int):
    """Report the message ``message`` to staff, with a ``reason``."""
    game, viewer = _game_and_viewer(request, game_id)
    reader = Reader(game=game, user=request.user, seat=viewer.seat)
    try:
        message_report(reader=reader, message_id=_since(request.POST.get("message")),
                       reason=request.POST.get("reason", ""))
    except ChatError as e:
        flash.error(request, f"Not reported: {e.detail}.")
    else:
        flash.success(request, "Reported to the site's staff. Thank you.")
    return _back(game)


def _position(request) -> int:
    raw = request.POST.get("position", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 2 else -1


@login_required
@require_POST
def game_mute(request, game_id: int):
    """Mute (``action=mute``) or unmute the player at seat ``position`` at this table: the creator or staff."""
    game, viewer = _game_and_viewer(request, game_id)
    try:
        if request.POST.get("action") == "unmute":
            player_unmute(game=game, position=_position(request), by=request.user)
            flash.success(request, "They may write at this table again.")
        else:
            player_mute(game=game, position=_position(request), by=request.user,
                        reason=request.POST.get("reason", ""))
            flash.success(request, "Muted at this table.")
    except ChatError as e:
        flash.error(request, f"Not done: {e.detail}.")
    return _back(game)


@login_required
@require_POST
def game_block(request, game_id: int):
    """Block (``action=block``) or unblock the player at seat ``position``: everywhere, for the caller only."""
    game, viewer = _game_and_viewer(request, game_id)
    try:
        player = seated_player(game, _position(request))
        if request.POST.get("action") == "unblock":
            user_unblock(blocker=request.user, blocked=player)
            flash.success(request, f"You see {player.username}'s messages again.")
        else:
            user_block(blocker=request.user, blocked=player)
            flash.success(request, f"Blocked: you no longer see {player.username}'s messages, at any table.")
    except ChatError as e:
        flash.error(request, f"Not done: {e.detail}.")
    return _back(game)


@login_required
@require_GET
def chat_unread(request):
    """The signed-in player's unread table talk, for the nav's and the lobby's counts to refresh without a
    reload (static/web/unread.js): ``{"total": n, "games": {"<game id>": n}}``, games with none left out.
    Counts only, of the caller's own seats: no text, no author."""
    counts = unread_messages_by_game(user=request.user)
    response = JsonResponse({"total": sum(counts.values()), "games": {str(k): v for k, v in counts.items()}})
    response["Cache-Control"] = "private, no-store"
    return response
