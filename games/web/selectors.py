"""Reads for the web pages: lobby lists, who may see a game, who is still deciding, the history, the game
page's version (what its live updates poll).

Everything a page shows of a running game comes from the engine's ``view`` for the viewer's seat (None for
a spectator) and from events filtered by their visibility (games.selectors).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from django.db.models import Count, Q
from django.http import Http404

from accounts.models import User
from games.chat.selectors import unread_by_game
from games.models import Event, Game, GameStatus, Prompt, Seat
from games.presentation.registry import GENERIC
from games.presentation.wording import seat_label
from games.selectors import game_version_and_seat, seat_for_user
from games.api.version_tag import version_tag

STATUS_ORDER = {GameStatus.ACTIVE: 0, GameStatus.PAUSED: 1, GameStatus.OPEN: 2, GameStatus.FINISHED: 3,
                GameStatus.ABANDONED: 4}


@dataclass(frozen=True)
class Viewer:
    """Who is looking at a game: a seated player (seat set) or a spectator of a public game."""

    game: Game
    seat: Seat | None

    @property
    def position(self) -> int | None:
        return None if self.seat is None else self.seat.position

    @property
    def is_player(self) -> bool:
        return self.seat is not None


def viewer_for(*, game: Game, user: User) -> Viewer:
    """The user's seat, or a spectator of a public game; Http404 for anyone else (private games hide)."""
    seat = seat_for_user(game=game, user=user)
    if seat is None and not game.is_public:
        raise Http404("No such game.")
    return Viewer(game=game, seat=seat)


@dataclass
class LobbyEntry:
    game: Game
    seat: Seat | None
    prompt: Prompt | None = None
    free_seats: int = 0
    players: list[str] = field(default_factory=list)
    unread: int = 0  # table talk new to the player at their seat

    @property
    def waiting_for_me(self) -> bool:
        return self.prompt is not None


def my_games(*, user: User, limit: int = 100) -> list[LobbyEntry]:
    """The user's games: those waiting for a decision from them first (soonest deadline first)."""
    seats = list(Seat.objects.filter(user=user).select_related("game").order_by("-game_id")[:limit])
    games = [s.game for s in seats]
    prompts = {p.game_id: p for p in Prompt.objects.filter(seat__in=seats, closed_at__isnull=True,
                                                           game__status=GameStatus.ACTIVE)}
    names = _player_names([g.pk for g in games])
    unread = unread_by_game(user=user, seats=seats)
    entries = [LobbyEntry(game=s.game, seat=s, prompt=prompts.get(s.game_id), players=names.get(s.game_id, []),
                          unread=unread.get(s.game_id, 0)) for s in seats]
    far = 10 ** 12

    def key(e: LobbyEntry):
        deadline = e.prompt.deadline.timestamp() if e.prompt and e.prompt.deadline else far
        return (not e.waiting_for_me, STATUS_ORDER.get(e.game.status, 9), deadline, -e.game.pk)

    return sorted(entries, key=key)


def open_games(*, user: User, limit: int = 50) -> list[LobbyEntry]:
    """Public games still looking for players, that the user does not sit at."""
    qs = (Game.objects.filter(status=GameStatus.OPEN, is_public=True)
          .exclude(seats__user=user)
          .annotate(free=Count("seats", filter=Q(seats__user__isnull=True, seats__is_bot=False)))
          .filter(free__gt=0).order_by("-id")[:limit])
    games = list(qs)
    names = _player_names([g.pk for g in games])
    return [LobbyEntry(game=g, seat=None, free_seats=g.free, players=names.get(g.pk, [])) for g in games]


def watchable_games(*, user: User | None, limit: int = 20) -> list[LobbyEntry]:
    """Public games under way, for spectators."""
    qs = Game.objects.filter(status__in=[GameStatus.ACTIVE, GameStatus.FINISHED], is_public=True)
    if user is not None and user.is_authenticated:
        qs = qs.exclude(seats__user=user)
    games = list(qs.order_by("-updated_at")[:limit])
    names = _player_names([g.pk for g in games])
    return [LobbyEntry(game=g, seat=None, players=names.get(g.pk, [])) for g in games]


def _player_names(game_ids: list[int]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for game_id, position, name, is_bot in (Seat.objects.filter(game_id__in=game_ids).order_by("position")
                                            .values_list("game_id", "position", "user__username", "is_bot")):
        # "Bot 2" as in the history, never a bare "bot" (a game may have several).
        out.setdefault(game_id, []).append(name or (seat_label(position=position, username=None, is_bot=True)
                                                    if is_bot else "(free seat)"))
    return out


def seats_for_page(*, game: Game) -> list[dict[str, Any]]:
    """Each seat's player and whether it still has a decision open (never what it chose)."""
    deciding = set(Prompt.objects.filter(game=game, closed_at__isnull=True).values_list("seat__position", flat=True))
    # label: "alice", or "Bot 3" / "Seat 3" (1-based) where no one sits, as the history names them
    return [{"position": s.position, "player": s.user.username if s.user else None, "is_bot": s.is_bot,
             "label": seat_label(position=s.position, username=s.user.username if s.user else None,
                                 is_bot=s.is_bot),
             "user_id": s.user_id, "deciding": s.position in deciding and game.status == GameStatus.ACTIVE}
            for s in Seat.objects.filter(game=game).select_related("user").order_by("position")]


def unread_messages_by_game(*, user: User) -> dict[int, int]:
    """{game id: table talk new to the user there} at their 100 newest games not over (games with none left
    out): the nav's and the lobby's counts, as the page shows them and as its script refreshes them."""
    seats = Seat.objects.filter(user=user, game__status__in=[GameStatus.OPEN, GameStatus.ACTIVE,
                                                              GameStatus.PAUSED]).order_by("-game_id")[:100]
    return unread_by_game(user=user, seats=list(seats))


def unread_messages_total(*, user: User) -> int:
    """Table talk new to the user at all their games not over (the nav's count)."""
    return sum(unread_messages_by_game(user=user).values())


# --- the page's version (its live updates) --------------------------------------------------------------
# What the game page's live part shows changes only with Game.version (the board and status, every seat's
# open prompt and deadline, who is still deciding, the seats' players and bots, standing orders, the
# history: every write that adds an event bumps it in the same transaction) and with who is looking: the
# viewer's seat (their view, prompt and events) and their time zone (deadlines are printed in it). Ids, a
# counter and the viewer's own zone name: nothing derived from the state, so it tells nobody a secret.

def _page_version(*, game_id: int, version: int, position: int | None, user: User) -> str:
    # Opaque (a keyed hash, games/api/version_tag.py): the raw counter would tell how many picks were made.
    return version_tag("page", game_id, version, position, user.pk, user.timezone)


def page_version(*, game: Game, viewer: Viewer, user: User) -> str:
    """The version of the page ``user`` sees of a game already loaded (no query)."""
    return _page_version(game_id=game.pk, version=game.version, position=viewer.position, user=user)


def page_version_for_user(*, game_id: int, user: User) -> str | None:
    """``page_version`` from one small query, for the page's poll; None if there is no such game or
    ``user`` may not see it (the rule of ``viewer_for``: a private game only to its players).

    """
    row = game_version_and_seat(game_id=game_id, user=user)
    if row is None:
        return None
    version, is_public, position = row
    if position is None and not is_public:
        return None
    return _page_version(game_id=game_id, version=version, position=position, user=user)


# --- history --------------------------------------------------------------------------------------------
ROUND_EVENT = re.compile(r"^Round (\d+):")  # the fallback for engines whose events carry no round data


@dataclass
class HistoryStep:
    phase: int
    events: list[Event]
    label: str = ""  # e.g. "Term 3 · Lecture", from the first event's data (empty when unknown)
    seat: int | None = None  # the seat of the event the game's opens_step marked as this group's start, if any


@dataclass
class HistoryRound:
    title: str
    steps: list[HistoryStep]


def _event_round(e: Event) -> int | None:
    """The round an event belongs to: its data's "round" (Faltisia), else a "Round N:" text, else None."""
    r = (e.data or {}).get("round") if isinstance(e.data, dict) else None
    if isinstance(r, int) and not isinstance(r, bool):
        return r
    m = ROUND_EVENT.match(e.text)
    return int(m.group(1)) if m else None


def history_by_round(events: list[Event], *,
                     step_label: Callable[[Mapping[str, Any]], str] = GENERIC.step_label,
                     opens_step: Callable[[Mapping[str, Any]], bool] = GENERIC.opens_step) -> list[HistoryRound]:
    """Events grouped by step, and steps by round.

    A step is the events written under one phase; an event the game's ``opens_step`` marks (Mage Knight: "Bot 2's
    turn begins", written by the pick that ended the turn before) starts a group of its own within it, so the
    heading it gives sits above what that seat did. Such a group goes on into the next phases while their events
    name the same ``data["seat"]``, so a Mage Knight turn is one group, not a one-line "turn begins"
    group, the turn, and a one-line "turn ends" group; games without ``opens_step`` group by phase only.

    An engine that stamps ``data["round"]`` on its events (Faltisia: round 0 is setup) is grouped by
    that number; events without one (the server's own: the game begins, admin actions) stay in the
    round under way. Other engines fall back to the event that announces "Round N:". Engines without
    rounds get one group. The newest round comes first on the page.
    """
    rounds: list[HistoryRound] = [HistoryRound(title="Setup", steps=[])]
    current: int | None = 0
    seen_round = False
    for e in events:
        r = _event_round(e)
        if r is not None:
            seen_round = True
            if r != current:
                current = r
                rounds.append(HistoryRound(title="Setup" if r == 0 else f"Round {r}", steps=[]))
        steps = rounds[-1].steps
        data = e.data if isinstance(e.data, dict) else {}
        seat = data.get("seat")
        seat = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
        opens = opens_step(data)
        if steps and steps[-1].phase != e.phase and not opens and seat is not None and steps[-1].seat == seat:
            steps[-1].phase = e.phase  # the same seat's turn, on into the next phase
        elif not steps or steps[-1].phase != e.phase or (steps[-1].events and opens):
            steps.append(HistoryStep(phase=e.phase, events=[], seat=seat if opens else None))
        if not steps[-1].label:
            steps[-1].label = step_label(data)
        steps[-1].events.append(e)
    if not seen_round:
        rounds[0].title = "Game log"
    return [r for r in rounds if r.steps]


def history_newest_first(events: list[Event], *,
                         step_label: Callable[[Mapping[str, Any]], str] = GENERIC.step_label,
                         opens_step: Callable[[Mapping[str, Any]], bool] = GENERIC.opens_step) -> list[HistoryRound]:
    """The history as the game page shows it: the newest round, step and event first,
    so what the others just did is at the top of the box, never below its fold."""
    rounds = history_by_round(events, step_label=step_label, opens_step=opens_step)
    for r in rounds:
        r.steps.reverse()
        for step in r.steps:
            step.events.reverse()
    rounds.reverse()
    return rounds


# --- since your last visit ------------------------------------------------------------------------------
SINCE_LAST_VISIT_MAX = 30  # the summary names this many; the history below holds the rest


@dataclass(frozen=True)
class SinceLastVisit:
    events: list[Event]  # newest first
    more: int  # older new events left to the history


def since_last_visit(*, seat: Seat | None, events: list[Event]) -> SinceLastVisit | None:
    """What happened since the seat's player last saw the game page: the events ``events`` (already
    filtered to what this seat may see) newer than its marker. None for a spectator, on a first visit
    (the whole history is new) and when nothing is new."""
    if seat is None or seat.web_seen_event_id is None:
        return None
    new = [e for e in events if e.pk > seat.web_seen_event_id]
    if not new:
        return None
    new.reverse()
    return SinceLastVisit(events=new[:SINCE_LAST_VISIT_MAX], more=max(0, len(new) - SINCE_LAST_VISIT_MAX))


# --- player profiles ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ProfileGame:
    """One finished game on a player's profile: their place, score, and what it did to their rating."""

    game: Game
    position: int
    rank: int | None
    score: int | None
    players: list[str]
    rating_change: float | None  # change of mu - 3 sigma; None when the game was not rated


def _ordinal(pair) -> float:
    mu, sigma = pair
    return mu - 3 * sigma


def player_recent_games(*, player: User, viewer: User | None, limit: int = 10) -> list[ProfileGame]:
    """The player's latest finished games that ``viewer`` may see (public ones, or shared with them).

    A private game stays private on a profile too: only its own players (and staff) see it listed.
    """
    from games.ratings.models import RatedGame

    seats = (Seat.objects.filter(user=player, game__status=GameStatus.FINISHED)
             .select_related("game").order_by("-game__finished_at", "-game_id"))
    if viewer is None or not viewer.is_authenticated:
        seats = seats.filter(game__is_public=True)
    elif not viewer.is_staff:
        shared = Seat.objects.filter(user=viewer).values("game_id")
        seats = seats.filter(Q(game__is_public=True) | Q(game_id__in=shared))
    seats = list(seats[:limit])
    ids = [s.game_id for s in seats]
    names = _player_names(ids)
    changes = dict(RatedGame.objects.filter(game_id__in=ids).values_list("game_id", "changes"))
    out = []
    for s in seats:
        result = s.game.result or {}
        ranks, scores = result.get("ranks") or [], result.get("scores") or []
        change = (changes.get(s.game_id) or {}).get(str(player.pk))
        out.append(ProfileGame(
            game=s.game, position=s.position, players=names.get(s.game_id, []),
            rank=ranks[s.position] if s.position < len(ranks) else None,
            score=scores[s.position] if s.position < len(scores) else None,
            rating_change=None if change is None else round(_ordinal(change["after"]) - _ordinal(change["before"]), 2)))
    return out
