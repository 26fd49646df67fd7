"""The two routes a player's client calls for every pick, answered below DRF and most middleware.

``POST /api/games/{id}/moves/`` and ``GET /api/games/{id}/`` are nearly all of the API's traffic. Through
Django's middleware chain, the URL resolver and DRF (request wrapping, negotiation, authentication and
permission classes, the response's rendering) a request cost ~0.9 ms of a web process's CPU before any
game work (benchmarks/server_floor.py), about as much as the game work itself. This middleware, placed
right after SecurityMiddleware (whose headers every response still gets), answers the plain form of those
two requests itself, with the views' own functions (views.move_answer, views.game_view_answer), the API's
own token check (accounts.authentication) and renderer, and the headers DRF and the skipped middleware
would have added.

Only the answer of a request that succeeds is made here. Anything else goes down the usual chain,
untouched, and is answered there exactly as DRF answers it (its error body, its status, its headers):

- a request that is not the plain form: another method, no ``Authorization: Token`` header, a session
  cookie (the page's, with its CSRF rules), an ``Accept`` other than JSON's, a query string other than
  ``wait=<digits>`` on the view, a body that is not a small JSON object of exactly ``prompt`` and
  ``option`` as ASCII strings;
- a request that fails here (a bad token, a 404, a stale prompt, a bad Idempotency-Key, any error at all):
  nothing it did is kept (a pick's transaction rolled back), so the chain does it again and answers it.
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

from accounts.authentication import FastTokenAuthentication
from games.errors import GameError

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
# What the views raise for the API's error answers (401 and 400 among them: DRF's APIException).
_ERROR_ANSWERS = (GameError, Http404, APIException)


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
        except _ERROR_ANSWERS:  # the chain does it again and gives its own error answer
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
    return _json(body, status, allow="POST, OPTIONS")


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
        _chain_headers(response, allow="GET, HEAD, OPTIONS")
    else:
        response = _json(body, 200, allow="GET, HEAD, OPTIONS")
    response["ETag"], response["Cache-Control"] = etag, CACHE_CONTROL
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
