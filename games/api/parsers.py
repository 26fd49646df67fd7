"""Request body parsers of the whole API: DRF's own, refusing what would otherwise end in a 500.

- JSON nested deeper than MAX_DEPTH: Python's json module recurses once per level, so a body of
  100,000 ``[`` would raise RecursionError (a 500). Such a body is a 400 here, and a body under
  the limit never reaches code that walks it recursively.
- A NUL character (U+0000) anywhere in a key or a string: PostgreSQL refuses it in text and jsonb
  columns, so a NUL in a clock, an option or a name would be a DataError (a 500) on PostgreSQL only.
  DRF's CharField refuses it, but free-form objects (options, clock) are not CharFields.
- A number too large for a float (``1e400``): Python's json reads it as infinity, which DRF's strict
  JSON does not catch (it refuses only the NaN/Infinity literals), and an engine's ``int(options[...])``
  would then raise OverflowError (a 500). No field of the API takes a non-finite number.
- A body larger than its route needs, which would otherwise be read and parsed whole: a view may set
  ``max_body_bytes`` (creating a game: GAME_CREATE_MAX_BYTES), every other body is held to MAX_BODY_BYTES.
  Refused (413 ``body_too_large``) from the Content-Length, before a byte is read or parsed.

JSON is read by orjson (a move body in ~31 us against ~59 with DRF's parser, on every pick) when it can give
exactly what Python's json module gives: a UTF-8 body without integers of 19 digits or more (orjson reads those
beyond 64 bits as floats). Any body orjson refuses, or one in another charset, goes to DRF's own
parser, so every error is worded as DRF words it.
"""

from __future__ import annotations

import io
import math
import re
from typing import Any

import orjson

from django.http import QueryDict
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

MAX_DEPTH = 32  # far beyond any body of the API (the deepest, a game's options, is two or three levels)
MAX_BODY_BYTES = 64 * 1024  # far beyond any body of the API
GAME_CREATE_MAX_BYTES = 8 * 1024  # a create body is a game name, a few numbers and a handful of options


class BodyTooLarge(APIException):
    status_code = 413
    default_code = "body_too_large"
    default_detail = "the request body is too large"


def check_size(parser_context) -> None:
    """BodyTooLarge if the request declares more bytes than its view takes."""
    context = parser_context or {}
    limit = getattr(context.get("view"), "max_body_bytes", MAX_BODY_BYTES)
    request = context.get("request")
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
    except ValueError:
        declared = 0  # Django refuses a garbled Content-Length itself
    if declared > limit:
        raise BodyTooLarge(f"the request body is {declared} bytes; this route takes at most {limit}")


def body_problem(data: Any) -> str | None:
    """Why ``data`` (parsed JSON or form data) is refused: nested more than MAX_DEPTH levels, a NUL or a
    non-finite number somewhere (named by where it is); None if it is fine. Walks without recursion, so
    it cannot overflow."""
    pending: list[tuple[Any, int, str]] = [(data, 1, "")]
    while pending:
        value, depth, where = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return f"{where or 'the body'} holds a NUL character (\\u0000), which no field accepts"
        elif isinstance(value, float):
            if not math.isfinite(value):
                return f"{where or 'the body'} is not a finite number"
        elif isinstance(value, (dict, list, QueryDict)):
            if depth > MAX_DEPTH:
                return f"the body is nested more than {MAX_DEPTH} levels deep"
            pending.extend((item, depth + 1, f"{where}{'.' if where else ''}{name}")
                           for name, item in _children(value))
    return None


def check_body(data: Any) -> Any:
    """``data`` if ``body_problem`` finds nothing; ParseError (a 400) saying what it found if not."""
    problem = body_problem(data)
    if problem is not None:
        raise ParseError(problem)
    return data


def _children(value) -> list[tuple[str, Any]]:
    """(name, value) of each key and item of a container; a key is checked as a value of its own."""
    if isinstance(value, list):
        return [(str(i), item) for i, item in enumerate(value)]
    pairs = value.lists() if isinstance(value, QueryDict) else ((k, [v]) for k, v in value.items())
    out: list[tuple[str, Any]] = []
    for key, values in pairs:
        shown = str(key).replace("\x00", "\\u0000")
        out.append((f"{shown} (a key)", key))
        out.extend((shown, v) for v in values)
    return out


_LONG_INTEGER = re.compile(rb"\d{19}")  # might not fit 64 bits: Python's json reads it as an int, orjson not


def _orjson_or_none(raw: bytes, encoding: str | None) -> tuple[bool, Any]:
    """(True, the parsed body) when orjson reads it as Python's json module would; (False, None) if not."""
    if (encoding or "utf-8").lower().replace("_", "-") not in ("utf-8", "utf8") or _LONG_INTEGER.search(raw):
        return False, None
    try:
        return True, orjson.loads(raw)
    except orjson.JSONDecodeError:  # refused (NaN, too deep, bad UTF-8, a lone surrogate...): worded by DRF
        return False, None


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        check_size(parser_context)
        raw = stream.read()
        parsed, data = _orjson_or_none(raw, (parser_context or {}).get("encoding"))
        if not parsed:
            try:
                data = super().parse(io.BytesIO(raw), media_type, parser_context)
            except RecursionError:
                raise ParseError(f"the body is nested more than {MAX_DEPTH} levels deep")
        return check_body(data)


class SafeFormParser(FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        check_size(parser_context)
        return check_body(super().parse(stream, media_type, parser_context))


class SafeMultiPartParser(MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        check_size(parser_context)
        parsed = super().parse(stream, media_type, parser_context)
        check_body(parsed.data)
        return parsed
