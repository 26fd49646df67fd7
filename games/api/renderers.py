"""The API's JSON renderer: DRF's output, written by orjson.

The JSON a response carries is the same as DRF's JSONRenderer writes (compact, UTF-8, U+2028 and U+2029
escaped, DRF's own forms of datetimes, decimals, lazy strings and the rest), only several times cheaper
to produce: orjson writes dicts, lists, strings and numbers itself and hands every other type to DRF's
encoder (``default``), datetimes included, so their form is DRF's. Anything orjson refuses (an integer
beyond 64 bits, a key that is not a string or a number) and any request for indented output (``Accept:
application/json; indent=4``, the browsable API) is rendered by DRF's renderer, unchanged. Numbers may be
spelled differently (orjson ``1e16``, Python ``1e+16``): the same value to any JSON reader.
One difference: a float NaN or infinity, which DRF's strict JSON refuses with a 500, is written as null.
"""

from __future__ import annotations

import orjson
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.encoders import JSONEncoder

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_LINE_SEPARATORS = ((b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"))  # as DRF escapes them


class FastJSONRenderer(JSONRenderer):
    _default = staticmethod(JSONEncoder().default)

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        if self.ensure_ascii or not self.compact or self.get_indent(accepted_media_type, renderer_context or {}):
            return super().render(data, accepted_media_type, renderer_context)
        try:
            out = orjson.dumps(data, default=self._default, option=_OPTIONS)
        except orjson.JSONEncodeError:
            return super().render(data, accepted_media_type, renderer_context)
        for raw, escaped in _LINE_SEPARATORS:
            if raw in out:
                out = out.replace(raw, escaped)
        return out
