"""The game page, its live fragment, the decision form's target, standing orders and the replay."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.presence import presence_record
from games.api.access import game_id_or_404
from games.engines.registry import get_engine
from games.errors import ErrorCode, GameError
from games.models import Game, GameStatus, SubmissionSource
from games.presentation.worded_events import worded_events_for_game
from games.selectors import events_for_user
from games.services import seat_standing_orders_set, submission_create
from games.services.undo import moves_in_words, undo_for_player

from games.presentation.registry import presentation_for

from games.chat.selectors import Reader, messages_in_steps

from .chat_pages import SeatLabels, chat_context, messages_shown, notes_context
from games.invites import game_title
from .pages import board_context, game_context
from .replay import picks_in_step, replay_seat, state_after_step
from .selectors import history_by_round, page_version_for_user, seats_for_page, viewer_for

STALE = ("This decision was already made, or the options changed since the page was loaded; "
         "nothing was changed. Here is what you must decide now.")


def _wants_fragment(request) -> bool:
    return request.headers.get("X-Requested-With") == "fetch"


def _fragment(request, game: Game, viewer) -> JsonResponse:
    ctx = game_context(request=request, game=game, viewer=viewer)
    html = render_to_string("web/game_live.html", ctx, request=request)
    # The title line travels too: at game end its badge turns "Finished" and the Replay button appears.
    head = render_to_string("web/_game_head.html", ctx, request=request)
    return JsonResponse({"version": ctx["version"], "phase": game.phase, "status": game.status, "html": html,
                         "head": head})


@login_required
@require_GET
def game_page(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    viewer = viewer_for(game=game, user=request.user)
    ctx = game_context(request=request, game=game, viewer=viewer, visit=True)
    # Table talk and notes are rendered with the page only: the live fragment leaves a slot where game.js
    # puts the panel back, so what is being typed is never lost to an update.
    ctx.update(chat=chat_context(game=game, viewer=viewer, user=request.user),
               notes=notes_context(game=game, viewer=viewer, user=request.user), talk_here=True)
    return render(request, "web/game.html", ctx)


@login_required
@require_GET
def game_live(request, game_id: int):
    """The page's changing part; 204 while nothing changed since the version the page holds.

    The page asks every WEB_POLL_INTERVAL_MS: an unchanged version costs the session and one small query.
    """
    # The poll's query is plain SQL: an id no 64-bit column can hold is an unknown game, not an OverflowError.
    version = page_version_for_user(game_id=game_id_or_404(game_id), user=request.user)
    if version is None:
        raise Http404("No such game.")
    presence_record(user_id=request.user.pk, game_id=game_id)  # the player is on the page: no prompt mail
    if request.GET.get("v") == version:
        return HttpResponse(status=204)
    game = get_object_or_404(Game, pk=game_id)
    return _fragment(request, game, viewer_for(game=game, user=request.user))


def _seat_form_answer(request, game_id: int, *, watching: str, act) -> HttpResponse:
    """A player's form on the decision (a pick, an undo): ``act(viewer)`` does it and says how it went; a
    spectator is told ``watching``. The answer is the live fragment for the page's script, else the page."""
    game = get_object_or_404(Game, pk=game_id)
    viewer = viewer_for(game=game, user=request.user)
    if not viewer.is_player:
        messages.error(request, watching)
    else:
        act(viewer)
        game.refresh_from_db()
    if _wants_fragment(request):
        return _fragment(request, game, viewer)
    return redirect("web:game", game_id=game.pk)


@login_required
@require_POST
def game_move(request, game_id: int):
    def pick(viewer):
        prompt_id, option_id = request.POST.get("prompt", ""), request.POST.get("option", "")
        try:
            if "\x00" in prompt_id or "\x00" in option_id:  # no id holds a NUL; PostgreSQL refuses it in text
                raise GameError(ErrorCode.NOT_AN_OPTION, "not one of the options offered")
            submission = submission_create(seat=viewer.seat, prompt_id=prompt_id, option_id=option_id,
                                           source=SubmissionSource.WEB)
        except GameError as e:
            if e.code == ErrorCode.STALE_PROMPT:
                messages.warning(request, STALE)
            elif e.code == ErrorCode.NOT_AN_OPTION:
                messages.warning(request, "That is not one of the options offered now; nothing was changed.")
            else:
                messages.error(request, f"Not accepted: {e.detail}.")
        else:
            if not submission.is_new:
                messages.info(request, "That pick was already recorded (sent twice?); it counts once.")

    return _seat_form_answer(request, game_id, watching="You are watching this game; only its players make decisions.",
                             act=pick)


@login_required
@require_POST
def game_undo(request, game_id: int):
    """The decision's Undo buttons: the API's undo service, answered as a pick is."""
    def undo(viewer):
        prompt_id, to = request.POST.get("prompt", ""), request.POST.get("to", "last")
        try:
            if "\x00" in prompt_id or "\x00" in to:  # no id holds a NUL; PostgreSQL refuses it in text
                raise GameError(ErrorCode.STALE_PROMPT, "not a prompt of yours")
            outcome = undo_for_player(game_id=game_id, user=request.user, prompt_id=prompt_id, to=to,
                                      source=SubmissionSource.WEB)
        except GameError as e:
            messages.warning(request, STALE if e.code == ErrorCode.STALE_PROMPT else f"Nothing was taken back: {e.detail}.")
        else:
            messages.success(request, f"Taken back: {moves_in_words(outcome.undo.moves)}.")

    return _seat_form_answer(request, game_id, act=undo,
                             watching="You are watching this game; only its players take back their moves.")


@login_required
@require_POST
def game_orders(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    viewer = viewer_for(game=game, user=request.user)
    if viewer.is_player:
        try:
            seat_standing_orders_set(seat=viewer.seat, order_ids=request.POST.getlist("orders"))
            messages.success(request, "Standing orders saved.")
        except GameError as e:
            messages.error(request, f"Not saved: {e.detail}.")
    return redirect("web:game", game_id=game.pk)


@login_required
@require_GET
def game_replay(request, game_id: int):
    """Step through a finished game: the events of one step and the board right after it."""
    game = get_object_or_404(Game, pk=game_id)
    viewer = viewer_for(game=game, user=request.user)
    if game.status != GameStatus.FINISHED:
        messages.info(request, "The replay opens when the game is finished.")
        return redirect("web:game", game_id=game.pk)
    events = worded_events_for_game(events_for_user(game=game, user=request.user), game=game)
    phases = sorted({e.phase for e in events})
    if not phases:
        return redirect("web:game", game_id=game.pk)
    try:
        phase = int(request.GET.get("step", phases[0]))
    except ValueError:
        phase = phases[0]
    phase = min(phases, key=lambda p: abs(p - phase))  # snap to a step that has events
    i = phases.index(phase)
    state = state_after_step(game=game, phase=phase)
    seats = seats_for_page(game=game)
    # The game is over, so nothing is secret any more: any seat's view may be shown.
    shown = replay_seat(request.GET.get("as"), default=viewer.position, players=game.players)
    board = None
    if state is not None:
        view = get_engine(game.engine).view(state, shown)
        board = board_context(engine=game.engine, view=view, seats=seats)
    step_events = [e for e in events if e.phase == phase]
    presentation = presentation_for(game.engine)
    rounds = history_by_round([e for e in events if e.phase <= phase], step_label=presentation.step_labeller(seats),
                              opens_step=presentation.opens_step)
    # Table talk replays with the step it was written in (and the steps without events before it), for
    # whoever could read it: the table, and a seat's own threads. The last step takes whatever came after.
    reader = Reader(game=game, user=request.user, seat=viewer.seat)
    talk = messages_shown(messages_in_steps(reader=reader, after=phases[i - 1] if i > 0 else None,
                                   up_to=phase if i + 1 < len(phases) else None),
                 reader=reader, seats=SeatLabels.of(game), read_up_to=2 ** 62)
    return render(request, "web/replay.html", {"talk": talk,
        "game": game, "title": game_title(game), "viewer": viewer, "board": board, "events": step_events,
        "phase": phase, "index": i + 1, "count": len(phases), "round_title": rounds[-1].title if rounds else "",
        "prev": phases[i - 1] if i > 0 else None, "next": phases[i + 1] if i + 1 < len(phases) else None,
        "first": phases[0], "last": phases[-1], "all_steps": phases, "seats": seats, "shown": shown,
        "my_picks": picks_in_step(game=game, seat=viewer.seat, phase=phase),
        # the game's terms explained on the replay too
        "glossary": presentation_for(game.engine).glossary(),
        "rules_url": reverse("web:game-rules", args=[game.engine])})
