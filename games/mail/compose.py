"""Render the emails: the context of each kind and its text and HTML parts (templates/email/).

Everything a seat is shown comes from ``engine.view(state, seat)`` (via games.selectors) and from the
events visible to that seat; this module never reads the engine state itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.models import User
from games.engines.registry import get_engine
from games.models import Event, Game, Prompt, Seat, Submission
from games.presentation.generic.mail import Section, generic_situation
from games.presentation.registry import presentation_for
from games.presentation.worded_events import worded_events_for_game
from games.presentation.wording import seat_label
from games.selectors import game_view_for_seat

from .links import pick_link_url, unsubscribe_url
from .models import SeatMailbox
from .tokens import mailbox_for_seat, reply_address

MAX_SUMMARY_EVENTS = 40
MAIL_EVENTS_SHOWN = 6  # a decision mail shows the latest few of what happened; the page has the rest
# A decision mail's plain text stays under this many lines, a typical Mage Knight decision included: when the
# options and the situation leave no room, fewer of the latest events are shown.
MAIL_TEXT_LINES = 40


@dataclass
class Rendered:
    subject: str
    text: str
    html: str
    reply_to: str
    unsubscribe: str | None = None
    extra_headers: dict[str, str] = field(default_factory=dict)


def game_title(game: Game) -> str:
    """The game's name and number, first in every subject so that an inbox groups a game's mails:
    "Mage Knight #4"."""
    try:
        name = get_engine(game.engine).name
    except KeyError:
        name = game.engine
    return f"{name} #{game.pk}"


game_name_number = game_title


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def round_of(view: dict[str, Any]) -> int | None:
    value = view.get("round") if isinstance(view, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def prompt_subject(game: Game, view: dict[str, Any], *, reminder_hours: int | None = None) -> str:
    """"Mage Knight #4: your turn (round 2)"; a reminder: "Mage Knight #4: 2 hours left"."""
    if reminder_hours:
        return f"{game_title(game)}: {reminder_hours} hour{'s' if reminder_hours != 1 else ''} left"
    rnd = round_of(view)
    return f"{game_title(game)}: your turn" + (f" (round {rnd})" if rnd is not None else "")


SOLO_OUTCOME = {"win": "you beat the Classmate", "loss": "the Classmate won", "draw": "a draw with the Classmate"}


def solo_line(view: dict[str, Any] | None) -> str | None:
    """A solo game's result in words, not a lone player's rank (first of one says nothing): Faltisia's Solo
    Mode is won or lost against the Classmate's score (in the view's result once the game is over: Game.result has no
    Classmate); Mage Knight's Dummy Player scores no Fame, so the rules name no winner: the score is the result."""
    result = view.get("result") if isinstance(view, dict) else None
    if not isinstance(result, dict):
        return None
    if result.get("outcome") in SOLO_OUTCOME and isinstance(result.get("classmate"), dict):
        mine = (result.get("scores") or [None])[0]
        return f"{SOLO_OUTCOME[result['outcome']]}, {mine} to {result['classmate'].get('score')}"
    if view.get("solo") and view.get("dummy") is not None:
        return f"your score {(result.get('scores') or [0])[0]} (the Dummy Player scores none)"
    return None


def finished_subject(game: Game, seat: Seat | None, view: dict[str, Any] | None = None) -> str:
    """"Mage Knight #4: game over, you placed 2nd" (a seat without a rank: "game over"); a solo game, where
    nobody else could place: "game over, you scored 57", or against the Classmate (``view``: the seat's final
    view): "game over, you beat the Classmate, 54 to 19"."""
    solo = solo_line(view)
    if solo and "Classmate" in solo:
        return f"{game_title(game)}: game over, {solo}"
    ranks = (game.result or {}).get("ranks") or []
    rank = ranks[seat.position] if seat is not None and seat.position < len(ranks) else None
    scores = (game.result or {}).get("scores") or []
    if len(ranks) == 1 and rank is not None and len(scores) == 1 and isinstance(scores[0], int):
        return f"{game_title(game)}: game over, you scored {scores[0]}"
    if isinstance(rank, int) and rank > 0:
        tied = sum(1 for r in ranks if r == rank) > 1
        return f"{game_title(game)}: game over, you placed {ordinal(rank)}" + (" (tied)" if tied else "")
    return f"{game_title(game)}: game over"


def decision_url(game: Game) -> str:
    """The one link of a decision mail's text: the game's page, where the decision is."""
    return settings.MAIL_BASE_URL.rstrip("/") + reverse("web:game", args=[game.pk])


def deadline_local(deadline: datetime | None, user: User | None) -> str | None:
    """The deadline in the player's own time zone (UTC if theirs is unknown)."""
    if deadline is None:
        return None
    name = (user.timezone if user is not None else None) or "UTC"
    try:
        tz = ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        tz, name = ZoneInfo("UTC"), "UTC"
    return deadline.astimezone(tz).strftime("%a %d %b %Y, %H:%M ") + f"({name})"


def option_rows(prompt: Prompt, *, links: bool = True, mailbox: SeatMailbox | None = None) -> list[dict[str, Any]]:
    # Links are bound to the seat's current mailbox generation: they die when the seat changes hands.
    generation = (mailbox or mailbox_for_seat(seat=prompt.seat)).generation if links else 0
    return [{"number": i, "id": o["id"], "label": o["label"],
             "url": pick_link_url(prompt_pk=prompt.pk, option_id=o["id"], generation=generation) if links else None}
            for i, o in enumerate(prompt.options, start=1)]


def events_since_last_decision(*, seat: Seat) -> list[Event]:
    """The events this seat may see since we last asked it for a decision (newest last, capped).

    "Since the previous prompt email" rather than "since the previous pick": a pick's own events are
    stored just before its Submission row, and the player should see them once, in the next email.
    Only an email that went out counts: a held-back follow-up skipped because the player answered on
    the web never reached them.
    """
    from .models import Channel, Notification, NotificationKind, NotificationStatus  # models import nothing from here

    # A prompt mail that went, or an answer to a reply that carried the next decision.
    asked = Q(kind=NotificationKind.PROMPT) | Q(kind=NotificationKind.ANSWER, prompt__isnull=False)
    last = (Notification.objects.filter(asked, seat=seat, channel=Channel.MAIL, status=NotificationStatus.SENT)
            .order_by("-id")
            .values_list("created_at", flat=True).first())
    if last is None:
        last = Submission.objects.filter(seat=seat).order_by("-id").values_list("created_at", flat=True).first()
    qs = Event.objects.filter(game_id=seat.game_id)
    if last is not None:
        qs = qs.filter(created_at__gt=last)
    visible = [e for e in qs.order_by("-id")[:MAX_SUMMARY_EVENTS * 4] if e.visible_to(seat.position)]
    # In plain English with the players' names, as on the game page.
    return worded_events_for_game(reversed(visible[:MAX_SUMMARY_EVENTS]), game=seat.game)


def situation_sections(*, engine_slug: str, view: dict[str, Any], seat: int, short: bool = False) -> list[Section]:
    """The seat's situation as text sections, by the game's presentation package (or the generic one).

    ``short``: a decision mail's, by the presentation's ``mail_sections_short`` where it has one
    (the same facts in fewer lines); the "status" answer and the HTML part keep the whole ``mail_sections``."""
    try:
        presentation = presentation_for(engine_slug)
        shorter = getattr(presentation, "mail_sections_short", None) if short else None
        return (shorter or presentation.mail_sections)(view, seat)
    except (KeyError, TypeError, IndexError):
        # A view whose shape moved on must not stop a player's mail: fall back to the generic listing.
        return generic_situation(view, seat)


def where_in_game(view: dict[str, Any], *, engine_slug: str) -> str:
    """A short "where are we" line for the subject and heading, worded by the game's presentation."""
    try:
        return presentation_for(engine_slug).where(view)
    except (KeyError, TypeError, IndexError):
        return f"Step {view.get('step', '?')}"


def has_short_sections(engine_slug: str) -> bool:
    try:
        return hasattr(presentation_for(engine_slug), "mail_sections_short")
    except KeyError:
        return False


def _short_sections(ctx: dict[str, Any]) -> None:
    """A decision mail: its text part gets the short situation, one-line sections as "Title: line"
    (templates/email/_situation.txt); the HTML part keeps the whole one."""
    game, seat, view = ctx.get("game"), ctx.get("seat"), ctx.get("view")
    if game is None or seat is None or not view or not has_short_sections(game.engine):
        return
    ctx["sections_html"] = ctx["sections"]
    ctx["sections"] = situation_sections(engine_slug=game.engine, view=view, seat=seat.position, short=True)
    ctx["compact"] = True


def _base_context(*, game: Game, seat: Seat | None, user: User | None) -> dict[str, Any]:
    view = game_view_for_seat(game=game, seat=seat) if game.state is not None else {}
    return {
        "game": game, "game_title": game_title(game), "user": user, "seat": seat,
        "where": where_in_game(view, engine_slug=game.engine) if view else "",
        "sections": situation_sections(engine_slug=game.engine, view=view, seat=seat.position)
        if seat is not None and view else [],
        "site_url": settings.MAIL_BASE_URL,
        "rules_url": settings.MAIL_BASE_URL.rstrip("/") + reverse("web:game-rules", args=[game.engine]),
        "decision_url": decision_url(game), "view": view,
    }


def _events_shown(ctx: dict[str, Any]) -> None:
    """The mail shows the latest MAIL_EVENTS_SHOWN events and says how many more the page has."""
    events = list(ctx.get("events") or [])
    ctx["events_shown"] = events[-MAIL_EVENTS_SHOWN:]
    ctx["events_more"] = max(0, len(events) - MAIL_EVENTS_SHOWN)


def _render(template: str, context: dict[str, Any]) -> tuple[str, str]:
    return (render_to_string(f"email/{template}.txt", context).strip() + "\n",
            render_to_string(f"email/{template}.html", context))


def _render_decision(template: str, ctx: dict[str, Any]) -> tuple[str, str]:
    """A decision mail: its text under MAIL_TEXT_LINES lines, by showing fewer of the latest events when
    the options and the situation need the room (the page has them all; the HTML part shows as many)."""
    html = render_to_string(f"email/{template}.html", ctx)
    text = render_to_string(f"email/{template}.txt", ctx).strip() + "\n"
    events = list(ctx.get("events_shown") or [])
    excess = len(text.splitlines()) - (MAIL_TEXT_LINES - 1)
    if excess > 0 and events:
        keep = max(0, len(events) - excess)  # none shown: one line says how many the page has
        ctx["events_shown"] = events[len(events) - keep:] if keep else []
        ctx["events_more"] = ctx.get("events_more", 0) + len(events) - keep
        text = render_to_string(f"email/{template}.txt", ctx).strip() + "\n"
    return text, html


def prompt_context(*, prompt: Prompt, user: User, reminder_hours: int | None = None,
                   mailbox: SeatMailbox | None = None) -> dict[str, Any]:
    """``mailbox``: the seat's, when the caller read it already (a batch: tokens.mailboxes_for_seats)."""
    seat, game = prompt.seat, prompt.game
    ctx = _base_context(game=game, seat=seat, user=user)
    ctx.update({
        "prompt": prompt, "options": option_rows(prompt, mailbox=mailbox), "reminder_hours": reminder_hours,
        "deadline": deadline_local(prompt.deadline, user),
        "events": events_since_last_decision(seat=seat) if reminder_hours is None else [],
        "reply_to": reply_address(seat=seat, prompt_pk=prompt.pk, mailbox=mailbox),
    })
    return ctx


def render_prompt(*, prompt: Prompt, user: User, reminder_hours: int | None = None,
                  mailbox: SeatMailbox | None = None, chat: Any = None) -> Rendered:
    """``chat``: the table talk the email carries (chat_mail.ChatForMail), when it goes before the chat batch."""
    ctx = prompt_context(prompt=prompt, user=user, reminder_hours=reminder_hours, mailbox=mailbox)
    ctx["chat"] = chat
    _events_shown(ctx)
    _short_sections(ctx)
    text, html = _render_decision("prompt", ctx)
    return Rendered(subject=prompt_subject(prompt.game, ctx["view"], reminder_hours=reminder_hours), text=text,
                    html=html, reply_to=ctx["reply_to"], unsubscribe=unsubscribe_url(user_id=user.pk))


def current_reply_to(seat: Seat) -> str:
    prompt = Prompt.objects.filter(seat=seat, closed_at__isnull=True).first()
    return reply_address(seat=seat, prompt_pk=prompt.pk if prompt else None)


def render_result(*, game: Game, seat: Seat, user: User, phase: int, events: list[Event]) -> Rendered:
    ctx = _base_context(game=game, seat=seat, user=user)
    ctx.update({"phase": phase, "events": worded_events_for_game(events, game=game)})
    text, html = _render("result", ctx)
    rnd = round_of(ctx["view"])
    return Rendered(subject=f"{game_title(game)}: what happened" + (f" (round {rnd})" if rnd is not None else ""),
                    text=text, html=html, reply_to=current_reply_to(seat),
                    unsubscribe=unsubscribe_url(user_id=user.pk))


def result_rows(game: Game) -> list[dict[str, Any]]:
    result = game.result or {}
    seats = {s.position: s for s in Seat.objects.filter(game=game).select_related("user")}
    label = presentation_for(game.engine).score_label  # plain words for the breakdown's categories
    rows = []
    for pos, score in enumerate(result.get("scores", [])):
        s = seats.get(pos)
        breakdown = sorted((result.get("breakdown") or [{}] * (pos + 1))[pos].items())
        rows.append({"position": pos, "player": s.user.username if s and s.user else seat_label(
                         position=pos, username=None, is_bot=bool(s and s.is_bot)),
                     "score": score, "rank": result.get("ranks", [None] * (pos + 1))[pos],
                     "breakdown": [(label(k), v) for k, v in breakdown]})
    return sorted(rows, key=lambda r: (r["rank"] or 0, r["position"]))


def render_finished(*, game: Game, seat: Seat, user: User) -> Rendered:
    ctx = _base_context(game=game, seat=seat, user=user)
    # What happened since the seat's last prompt email, the last step included: the game-over email is
    # the seat's one email of that step (no result email once the game is over).
    ctx.update({"rows": result_rows(game), "events": events_since_last_decision(seat=seat)})
    ctx["sections"] = []  # the situation is moot once the game is over
    ctx["solo_line"] = solo_line(ctx.get("view"))
    text, html = _render("finished", ctx)
    return Rendered(subject=finished_subject(game, seat, ctx.get("view")), text=text, html=html, reply_to=reply_address(seat=seat),
                    unsubscribe=unsubscribe_url(user_id=user.pk))


def render_digest(*, user: User, games: list[dict[str, Any]]) -> Rendered:
    ctx = {"user": user, "games": games, "site_url": settings.MAIL_BASE_URL}
    text, html = _render("digest", ctx)
    return Rendered(subject="Your Faltisia daily digest", text=text, html=html, reply_to=settings.DEFAULT_FROM_EMAIL,
                    unsubscribe=unsubscribe_url(user_id=user.pk))


def answer_subject(game: Game, *, title: str, ok: bool, carries_prompt: bool) -> str:
    """"Mage Knight #4: recorded, your next decision" when the answer carries it; else what it says."""
    if ok and title.lower().startswith("recorded"):
        return f"{game_title(game)}: recorded" + (", your next decision" if carries_prompt else "")
    return f"{game_title(game)}: {title[:1].lower()}{title[1:]}"


def render_answer(*, seat: Seat | None, user: User | None, title: str, lines: list[str], ok: bool,
                  show_prompt: bool = False, show_situation: bool = False, note: str | None = None,
                  prompt: Prompt | None = None) -> Rendered:
    """Our answer to an inbound message: what was recorded, or why not and what is open now.

    ``prompt``: the seat's open decision the answer carries (show_prompt; the caller read it): the answer is
    then that decision's mail, with its options, situation and reply address: one mail per reply, not an
    answer followed by a prompt mail."""
    ctx: dict[str, Any] = {"title": title, "lines": lines, "ok": ok, "note": note, "user": user,
                           "site_url": settings.MAIL_BASE_URL, "sections": [], "options": [], "prompt": None}
    subject = "Re: your Faltisia email"
    reply_to = settings.DEFAULT_FROM_EMAIL
    if seat is not None:
        game = seat.game
        ctx.update(_base_context(game=game, seat=seat, user=user))
        if prompt is None:
            prompt = Prompt.objects.filter(seat=seat, closed_at__isnull=True).first()
        carried = show_prompt and prompt is not None
        if carried:
            ctx.update({"prompt": prompt, "options": option_rows(prompt),
                        "deadline": deadline_local(prompt.deadline, user),
                        "events": events_since_last_decision(seat=seat)})
            _events_shown(ctx)
            _short_sections(ctx)
        elif not show_situation:
            ctx["sections"] = []
        reply_to = reply_address(seat=seat, prompt_pk=prompt.pk if prompt else None)
        subject = answer_subject(game, title=title, ok=ok, carries_prompt=carried)
    text, html = _render_decision("answer", ctx) if ctx.get("prompt") is not None else _render("answer", ctx)
    return Rendered(subject=subject, text=text, html=html, reply_to=reply_to,
                    unsubscribe=unsubscribe_url(user_id=user.pk) if user is not None else None)
