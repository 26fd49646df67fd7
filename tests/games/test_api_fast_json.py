"""The API's orjson renderer and parser give what DRF's JSONRenderer and JSONParser give."""

from __future__ import annotations

import datetime as dt
import io
import json
import uuid
from decimal import Decimal

import pytest
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.serializer_helpers import ReturnDict

from games.api.parsers import SafeJSONParser
from games.api.renderers import FastJSONRenderer

WHEN = dt.datetime(2026, 12, 3, 16, 50, 1, 123456, tzinfo=dt.timezone.utc)

SAMPLES = [
    {"a": 1, "b": [1, 2.5, None, True, False], "c": {"d": "é ü 漢字 🎲"}},
    {"deadline": WHEN, "day": WHEN.date(), "at": WHEN.time(), "naive": WHEN.replace(tzinfo=None)},
    {"price": Decimal("1.10"), "id": uuid.UUID(int=7), "lazy": gettext_lazy("Invalid token.")},
    {"separators": "line\u2028para\u2029end", "tuple": (1, 2), "empty": {}, "list": []},
    {1: "int key", 2.5: "float key", True: "bool key", None: "null key"},
    {"big": 2 ** 70, "negative big": -(2 ** 66)},  # beyond 64 bits: DRF's renderer writes them
    ReturnDict({"x": 1}, serializer=None),
    ["a", {"nested": [[[{"deep": [1]}]]]}],
    "a string", 12, None,
]


@pytest.mark.parametrize("data", SAMPLES, ids=range(len(SAMPLES)))
def test_the_renderer_writes_what_drf_writes(data):
    assert FastJSONRenderer().render(data) == JSONRenderer().render(data)


def test_indented_output_is_drfs():
    assert (FastJSONRenderer().render({"a": [1]}, "application/json; indent=4")
            == JSONRenderer().render({"a": [1]}, "application/json; indent=4"))


def test_an_unknown_type_fails_as_with_drf():
    with pytest.raises(TypeError):
        FastJSONRenderer().render({"x": object()})


def _parse(parser, body: bytes, encoding: str = "utf-8"):
    context = {"encoding": encoding, "request": None, "view": None}
    return parser.parse(io.BytesIO(body), "application/json", context)


BODIES = [b'{"prompt": "p1", "option": "o2"}', b' [1, 2.5, -3, 1e300, "\\u00e9", null, true] ',
          b'{"a": 1, "a": 2}', b'{"seed": 123456789012345678901234567890}', b'{"n": -9223372036854775809}',
          b'{"n": 18446744073709551615}', '{"é": "ü"}'.encode(), b'{"x": "\\ud83c\\udfb2"}', b"0.1"]


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_the_parser_reads_what_pythons_json_reads(body):
    got = _parse(SafeJSONParser(), body)
    assert got == json.loads(body) and json.dumps(got) == json.dumps(json.loads(body))  # types too (int, float)


@pytest.mark.parametrize("body", [b"NaN", b'{"a": Infinity}', b"{", b'{"a": 1}}', b"\xef\xbb\xbf{}", b"\xff\xfe"])
def test_a_refused_body_is_refused_in_drfs_words(body):
    with pytest.raises(ParseError) as ours:
        _parse(SafeJSONParser(), body)
    with pytest.raises(ParseError) as theirs:
        _parse(JSONParser(), body)
    assert str(ours.value.detail) == str(theirs.value.detail)


def test_a_lone_surrogate_is_parsed_as_before():
    body = b'{"a": "\\ud800"}'
    assert _parse(SafeJSONParser(), body) == json.loads(body)


def test_a_body_in_another_charset_is_read_by_drfs_parser():
    assert _parse(SafeJSONParser(), '{"a": "é"}'.encode("latin-1"), encoding="latin-1") == {"a": "é"}


def test_the_depth_and_number_limits_still_hold():
    with pytest.raises(ParseError, match="nested more than"):
        _parse(SafeJSONParser(), b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(ParseError, match="not a finite number"):
        _parse(SafeJSONParser(), b'{"a": 1e400}')
    with pytest.raises(ParseError, match="nested more than"):
        _parse(SafeJSONParser(), b"[" * 40 + b"]" * 40)


# --- the move body's fast check gives MoveRequest's validated data, or leaves the body to it -----------

from games.api.serializers import MoveRequest, move_request_fields  # noqa: E402

MOVE_BODIES = [
    {"prompt": "p1", "option": "o2"}, {"prompt": "  p1 \n", "option": "\to2 "}, {"prompt": "p" * 100, "option": "o"},
    {"prompt": "p" * 101, "option": "o"}, {"prompt": " " + "p" * 100 + " ", "option": "o"},
    {"prompt": "", "option": "o"}, {"prompt": "   ", "option": "o"}, {"prompt": "p\x00", "option": "o"},
    {"prompt": "p\ud800", "option": "o"}, {"prompt": "pé", "option": "o"}, {"prompt": 7, "option": "o"},
    {"prompt": None, "option": "o"}, {"prompt": ["p"], "option": "o"}, {"option": "o"}, {"prompt": "p"}, {},
    {"prompt": "p", "option": "o", "extra": 1}, [], "p", None,
]


@pytest.mark.parametrize("body", MOVE_BODIES, ids=range(len(MOVE_BODIES)))
def test_the_move_bodys_fast_check_agrees_with_move_request(body):
    fast = move_request_fields(body)
    serializer = MoveRequest(data=body)
    valid = serializer.is_valid()
    if fast is not None:  # taken: exactly what the serializer validates
        assert valid and dict(serializer.validated_data) == fast
    else:  # left to the serializer, which answers as before (its errors, or its data for what the check skips)
        assert not valid or not isinstance(body, dict) or not all(
            isinstance(body.get(k), str) and body[k].strip().isascii() for k in ("prompt", "option"))
