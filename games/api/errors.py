"""One error shape for the whole API: {"error": <code>, "detail": <human text>}."""

from __future__ import annotations

from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import GameError


def _detail_text(detail) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{k}: {_detail_text(v)}" for k, v in detail.items())
    if isinstance(detail, list):
        return " ".join(_detail_text(d) for d in detail)
    return str(detail)


def exception_handler(exc, context):
    if isinstance(exc, GameError):
        response = Response({"error": exc.code.value, "detail": exc.detail}, status=exc.code.http_status)
        retry_after = getattr(exc, "retry_after", None)  # a rate limit (games.chat) says when to come back
        if retry_after is not None:
            response["Retry-After"] = str(retry_after)
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        code = "invalid"
        fields = exc.detail if isinstance(exc.detail, dict) else None
        response.data = {"error": code, "detail": _detail_text(exc.detail), "fields": fields}
        response.status_code = status.HTTP_400_BAD_REQUEST
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        response.data = {"error": code, "detail": _detail_text(exc.detail)}
    return response
