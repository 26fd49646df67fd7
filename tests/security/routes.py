"""Every route of the URL conf, walked from ``get_resolver()``, and how the attack suite calls each one.

The authorization matrix is keyed by what ``route_keys()`` finds, so a route added to any urls.py without
a row in the matrix fails the suite: no route escapes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games.models import Prompt

from .world import GAME_KINDS, TOURNAMENT_KINDS, World

# The admin's own pages (one per model and action) are one group: only staff get past its login.
ADMIN_GROUP = "admin:*"
ADMIN_OWN = ("admin:index", "admin:login")
FORGED_TOKEN = "eyJ1IjoxfQ:1tForged:NotSignedByUs"


@dataclass(frozen=True)
class Route:
    key: str  # the route's name ("ns:name"); the admin's model pages share ADMIN_GROUP
    pattern: str  # the full path pattern, e.g. "api/games/<int:game_id>/moves/"


def _walk(resolver: URLResolver, prefix: str = "", namespace: str = ""):
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            ns = ":".join(x for x in (namespace, p.namespace or "") if x)
            yield from _walk(p, prefix + str(p.pattern), ns)
        elif isinstance(p, URLPattern):
            pattern = prefix + str(p.pattern)
            name = p.name or "?" + pattern  # an unnamed route is keyed by its pattern
            yield Route(key=f"{namespace}:{name}" if namespace else name, pattern=pattern)


def all_routes() -> list[Route]:
    """Every URL pattern the server answers, in URL-conf order."""
    routes = []
    for r in _walk(get_resolver()):
        if r.key.startswith("admin:") and r.key not in ADMIN_OWN:
            r = Route(key=ADMIN_GROUP, pattern=r.pattern)
        routes.append(r)
    return routes


def route_keys() -> set[str]:
    return {r.key for r in all_routes()}


def admin_model_pages() -> list[str]:
    """The admin's changelist and add page of every registered model (the ADMIN_GROUP's cells)."""
    names = [r.key for r in _walk(get_resolver()) if r.key.endswith(("_changelist", "_add"))
             and r.key.startswith("admin:")]
    return [reverse(n) for n in names]


# --- how each route is called --------------------------------------------------------------------------

GAME_ROUTES = {  # route name -> its kind of game argument (GAME_KINDS)
    "game-detail", "game-join", "game-moves", "game-undo", "game-log", "game-standing-orders", "game-pause", "game-resume",
    "game-abandon", "game-reclaim", "game-messages", "game-notes", "game-message-report", "game-seat-mute",
    "game-seat-block", "web:game-chat", "web:chat-report",
    "web:game-notes", "web:game-mute", "web:game-block", "web:game", "web:game-live", "web:game-move", "web:game-undo", "web:game-orders",
    "web:game-replay", "web:game-join", "web:game-invite",
}
TOKEN_ROUTES = {"mail-pick", "mail-unsubscribe", "web:invite"}  # valid / forged signed token in the path
TOKEN_VARIANTS = ("valid", "forged")
TOURNAMENT_ROUTES = {  # route name -> its kind of tournament argument (TOURNAMENT_KINDS)
    "tournament-detail", "tournament-standings", "tournament-register", "tournament-start", "tournament-cancel",
    "tournament-drop", "tournament-replace", "tournament-page", "tournament-join", "tournament-withdraw",
    "tournament-approve",
}


def variants_of(key: str) -> tuple[str, ...]:
    if key in GAME_ROUTES:
        return GAME_KINDS
    if key in TOKEN_ROUTES:
        return TOKEN_VARIANTS
    if key in TOURNAMENT_ROUTES:
        return TOURNAMENT_KINDS
    return ("-",)


def url_of(key: str, variant: str, world: World) -> str:
    """The concrete URL of ``key`` for ``variant`` (a kind of game, a token variant, or "-")."""
    if key == "game-message-report":  # the table message seat 1's player wrote in that game
        return reverse(key, kwargs={"game_id": world.game_id(variant), "message_id": world.message_id(variant)})
    if key in ("game-seat-mute", "game-seat-block"):  # acts on seat 1's player (the "other" role)
        return reverse(key, kwargs={"game_id": world.game_id(variant), "position": 1})
    if key in GAME_ROUTES:
        return reverse(key, kwargs={"game_id": world.game_id(variant)})
    if key in TOKEN_ROUTES:
        token = {"mail-pick": world.pick_token, "mail-unsubscribe": world.unsubscribe_token,
                 "web:invite": world.invite_tokens["private_open"]}[key] if variant == "valid" else FORGED_TOKEN
        return reverse(key, kwargs={"token": token})
    if key in TOURNAMENT_ROUTES:
        return reverse(key, kwargs={"tournament_id": world.tournament_id(variant)})
    if key == "api-not-found":
        return "/api/no-such-route/"  # the catch-all after every /api/ route
    kwargs = {
        "verify-email": {"token": FORGED_TOKEN},
        "account-vacation-cancel": {"vacation_id": world.vacation_id},
        "password_reset_confirm": {"uidb64": "MQ", "token": "set-password"},
        "web:player": {"username": world.users["seat"].username},
        "player-ratings": {"username": world.users["seat"].username},
        "web:game-rules": {"slug": "faltisia"},
    }.get(key)
    return reverse(key, kwargs=kwargs)


def body_of(key: str, method: str, variant: str, world: World, role: str) -> dict:
    """The body a well-meaning client of ``role`` would send; only the caller's rights should decide."""
    if key in ("game-moves", "web:game-move"):
        game_id = world.game_id(variant)
        prompt = Prompt.objects.filter(game_id=game_id, seat__position=0, closed_at__isnull=True).first()
        if prompt is None:
            return {"prompt": "p1", "option": "a"}
        return {"prompt": prompt.prompt_id, "option": prompt.options[0]["id"]}
    if key in ("game-undo", "web:game-undo"):  # the seat's open prompt (tinygame takes nothing back: 409 cannot_undo for the seat)
        prompt = Prompt.objects.filter(game_id=world.game_id(variant), seat__position=0, closed_at__isnull=True).first()
        return {"prompt": prompt.prompt_id if prompt is not None else "p1", "to": "last"}
    user = world.users.get(role)
    return {
        "games": {"game": "tinygame", "seats": 2, "options": {"rounds": 1}},
        "game-standing-orders": {"orders": []},
        "game-messages": {"text": "good luck, all", "to": None},
        "game-notes": {"text": "my plan"},
        "game-message-report": {"reason": "spam"},
        "game-seat-mute": {"reason": "rude"},
        "web:game-chat": {"text": "good luck, all"},
        "web:game-notes": {"text": "my plan"},
        "web:chat-report": {"message": "1", "reason": "spam"},
        "web:game-mute": {"position": "1", "action": "mute"},
        "web:game-block": {"position": "1", "action": "block"},
        "web:game-orders": {"orders": []},
        "web:game-invite": {"email": "friend@example.org"},
        "auth-register": {"username": f"new-{role}", "email": f"new-{role}@example.org",
                          "password": "Correct-Horse-42"},
        "auth-token": {"username": user.username if user else "nobody", "password": "Correct-Horse-42"},
        "auth-webhook": {"url": "https://127.0.0.1/hook", "rotate_secret": True},  # PUT reads url, POST rotate_secret
        "tournament-propose": {"name": "A proposed cup", "game": "faltisia", "format": "round_robin",
                               "table_size": 2, "clock": "fixed-48h", "rated": "on"},
        "tournaments": {"name": "New cup", "game": "tinygame", "format": "round_robin", "table_size": 2},
        "tournament-drop": {"player": world.users["seat"].username},
        "tournament-replace": {"player": world.users["seat"].username, "by": world.users["outsider"].username},
        "verify-resend": {"email": world.users["deactivated"].email},
        "password_reset": {"email": world.users["seat"].email},
        "login": {"username": user.username if user else "nobody", "password": "wrong-password"},
        "admin:login": {"username": user.username if user else "nobody", "password": "wrong-password"},
    }.get(key, {})
