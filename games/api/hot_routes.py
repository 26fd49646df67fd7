"""The two routes a player's client calls for every pick, answered below DRF and most middleware.

``POST /api/games/{id}/moves/`` and ``GET /api/games/{id}/`` are nearly all of the API's traffic. Through
Django's middleware chain, the URL resolver and DRF (request wrapping, negotiation, authentication and
permission classes, the response's rendering) a request cost ~0.9 ms of a web process's CPU before any
game work (benchmarks/server_floor.py), about as much as the game work itself. This middleware, placed
right after SecurityMiddleware (whose headers every response still gets), answers the plain form of those
two requests itself, with the views' own functions (views.move_answer, views.game_view_answer), the API's
own token check (games/fastpath/token_auth.py) and renderer, and the headers DRF and the skipped middleware
would have added.

The answer of a request that succeeds, and of a pick or view the game refuses (a GameError: a stale prompt, an
option not offered, a reused Idempotency-Key...), is made here, the latter with the API's own error body and
status (games/api/errors.py), so a refused pick does not load and lock its game a second time down the chain.
Anything else goes down the usual chain, untouched, and is answered there exactly as DRF answers it:

- a request that is not the plain form: another method, no ``Authorization: Token`` header, a session
  cookie (the page's, with its CSRF rules), an ``Accept`` other than JSON's, a query string other than
  ``wait=<digits>`` on the view, a body that is not a small JSON object of exactly ``prompt`` and
  ``option`` as ASCII strings;
- a request that fails here otherwise (a bad token, a 404, any error that is not the game's refusal): nothing
  it did is kept (a pick's transaction rolled back), so the chain does it again and answers it.
  (Should anything fail after a pick's commit, the chain's answer is that pick's replay: picks are
  idempotent, a pick is never applied twice.)

So the contract, the authorization matrix and every error are the DRF views' own; the tests compare this
path's answers with the chain's, header by header (tests/games/test_hot_routes.py).
"""

from __future__ import annotations

import logging
import re

import orjson
from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseNotModified
from rest_framework.exceptions import APIException

from games.errors import GameError
from games.fastpath.token_auth import FastTokenAuthentication

from .negotiation import PLAIN_JSON_ACCEPTS
from .renderers import FastJSONRenderer
from .serializers import move_request_fields
from .views import CACHE_CONTROL, game_view_answer, move_answer

logger = logging.getLogger(__name__)

_VIEW = re.compile(r"/api/games/([0-9]{1,19})/")
_MOVES = re.compile(r"/api/games/([0-9]{1,19})/moves/")
_WAIT_QUERY = re.compile(r"wait=([0-9]{1,6})")
_JSON_TYPES = frozenset({"application/json", "application/json; charset=utf-8"})
MOVE_BODY_MAX = 1024  # bytes: a pick's body is ~60; anything larger is read by the chain's parsers
_RENDERER = FastJSONRenderer()
_AUTHENTICATION = FastTokenAuthentication()
# What the views raise for the other error answers (401 and 400 among them: DRF's APIException): found before
# any game is locked, they are left to the chain, whose answers carry their own headers (WWW-Authenticate...).
_CHAIN_ERRORS = (Http404, APIException)
_MOVE_ALLOW, _VIEW_ALLOW = "POST, OPTIONS", "GET, HEAD, OPTIONS"


class _NotPlain(Exception):
    """The request is not the plain form this path answers: the chain answers it."""


class HotApiRoutesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        answer = self._answer_for(request)
        return answer if answer is not None else self.get_response(request)

    def _answer_for(self, request) -> HttpResponse | None:
        method, path = request.method, request.path_info
        if method == "POST":
            match, route = _MOVES.fullmatch(path), _move
        elif method == "GET":
            match, route = _VIEW.fullmatch(path), _view
        else:
            return None
        if match is None or not _plain_client(request):
            return None
        try:
            user = _token_user(request)
            return route(request, int(match.group(1)), user)
        except _NotPlain:
            return None
        except GameError as e:  # the game's refusal (stale prompt, not an option...): the API's error answer here,
            # as the chain's exception handler gives it, so a refused pick does not load and lock the game twice
            return _error(e, allow=_MOVE_ALLOW if route is _move else _VIEW_ALLOW)
        except _CHAIN_ERRORS:  # the chain does it again and gives its own error answer (401, 404...)
            return None
        except Exception:  # not an answer the API gives: worth a line in the log, and the chain's answer
            logger.warning("hot route failed on %s %s; the chain answers it", method, path, exc_info=True)
            return None


def _plain_client(request) -> bool:
    return (request.META.get("HTTP_ACCEPT", "*/*").strip() in PLAIN_JSON_ACCEPTS
            and settings.SESSION_COOKIE_NAME not in request.COOKIES)


def _token_user(request):
    """The token's active user, found by the API's own TokenAuthentication (its errors go to the chain)."""
    found = _AUTHENTICATION.authenticate(request)
    if found is None:  # no "Authorization: Token ..." header: the chain's other authentication
        raise _NotPlain
    request.user, request.auth = found  # as DRF leaves them, for whatever reads the request later
    return found[0]


def _move(request, game_id: int, user) -> HttpResponse:
    if request.META.get("QUERY_STRING") or request.META.get("CONTENT_TYPE", "").strip().lower() not in _JSON_TYPES:
        raise _NotPlain
    length = request.META.get("CONTENT_LENGTH") or ""
    if not length.isdigit() or int(length) > MOVE_BODY_MAX:
        raise _NotPlain
    try:
        data = orjson.loads(request.body)
    except orjson.JSONDecodeError:
        raise _NotPlain from None
    fields = move_request_fields(data)
    if fields is None or len(data) != 2:  # other keys: the chain's parser and serializer judge them
        raise _NotPlain
    body, status = move_answer(game_id=game_id, user=user, fields=fields,
                               idempotency_key=request.META.get("HTTP_IDEMPOTENCY_KEY"))
    return _json(body, status, allow=_MOVE_ALLOW)


def _view(request, game_id: int, user) -> HttpResponse:
    query = request.META.get("QUERY_STRING", "")
    wait = None
    if query:
        match = _WAIT_QUERY.fullmatch(query)
        if match is None:
            raise _NotPlain
        wait = match.group(1)
    body, etag = game_view_answer(game_id=game_id, user=user, if_none_match=request.META.get("HTTP_IF_NONE_MATCH"),
                                  wait=wait)
    if body is None:
        response = HttpResponseNotModified()
        _chain_headers(response, allow=_VIEW_ALLOW)
    else:
        response = _json(body, 200, allow=_VIEW_ALLOW)
    response["ETag"], response["Cache-Control"] = etag, CACHE_CONTROL
    return response


def _error(error: GameError, *, allow: str) -> HttpResponse:
    """The API's answer to a game's refusal (games/api/errors.py), with the headers the chain would add."""
    response = _json({"error": error.code.value, "detail": error.detail}, error.code.http_status, allow=allow)
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def _json(body: dict, status: int, *, allow: str) -> HttpResponse:
    response = HttpResponse(_RENDERER.render(body), status=status, content_type="application/json")
    _chain_headers(response, allow=allow)
    response["Content-Length"] = str(len(response.content))  # CommonMiddleware's
    return response


def _chain_headers(response: HttpResponse, *, allow: str) -> None:
    """What DRF's view (Allow, Vary) and XFrameOptionsMiddleware add to such an answer."""
    response["Allow"] = allow
    response["Vary"] = "Accept"
    response["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY").upper()
