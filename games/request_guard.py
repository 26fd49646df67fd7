"""Answers for requests that never reach a view: a NUL in the URL, and an /api/ URL that matches no route.

- A NUL character (%00) in the path or the query string would reach the ORM as a filter value, and
  PostgreSQL refuses NUL in text: a 500 on PostgreSQL only. No route or parameter
  of this server accepts one, so the request is a 400 before any view runs.
- An /api/ URL that matches no route (a negative or non-numeric id: the <int:> converter does not
  match it) would get Django's HTML 404 page, where an API client expects the API's error body.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from django.http import HttpResponseBadRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

API_PREFIX = "/api/"


def _is_api(request) -> bool:
    return request.path.startswith(API_PREFIX)


def _has_nul(request) -> bool:
    return "\x00" in request.path or b"\x00" in unquote_to_bytes(request.META.get("QUERY_STRING", ""))


class NulCharacterGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _has_nul(request):
            detail = "the URL holds a NUL character (%00), which no route or parameter accepts"
            if _is_api(request):
                return JsonResponse({"error": "bad_request", "detail": detail}, status=400)
            return HttpResponseBadRequest(detail)
        return self.get_response(request)


@csrf_exempt  # a POST to no route is a 404, not a CSRF failure page
def api_not_found(request, *args, **kwargs):
    """The API's 404 body (as DRF's NotFound has it), for the catch-all route after every /api/ route."""
    return JsonResponse({"error": "not_found", "detail": "Not found."}, status=404)
