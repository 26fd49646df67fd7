"""games/engines/json_text.py: orjson's speed, the standard library's values."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engines import json_text

scalars = (st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text())
keys = st.text() | st.integers(min_value=-2**63, max_value=2**64 - 1) | st.booleans() | st.none()
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                      max_leaves=20)


@given(values)
def test_it_writes_what_the_standard_library_reads_back_the_same(value):
    assert json.loads(json_text.dumps(value)) == json.loads(json.dumps(value))


@given(st.dictionaries(st.text(), scalars, max_size=6))
def test_sorted_keys_make_one_text_whatever_the_order_the_keys_were_made_in(d):
    backwards = dict(reversed(list(d.items())))
    assert json_text.dumps(d, sort_keys=True) == json_text.dumps(backwards, sort_keys=True)


@pytest.mark.parametrize("value", [
    2**64, -2**63 - 1, [1, 2**100],  # beyond what orjson writes: the standard library does
    "\ud800", {"a": "\udfff"},  # a lone surrogate: escaped as the standard library escapes it
    {1: "x", "2": "y"}, {(1, 2): "tuple key"},
])
def test_what_orjson_refuses_goes_as_the_standard_library_does_or_raises_as_it_does(value):
    try:
        expected = json.loads(json.dumps(value))
    except TypeError:
        with pytest.raises(TypeError):
            json_text.dumps(value)
        return
    assert json.loads(json_text.dumps(value)) == expected


def test_the_text_is_compact_utf8():
    assert json_text.dumps({"a": [1, "é"]}) == '{"a":[1,"é"]}'.encode()
