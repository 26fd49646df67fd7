"""The API's content negotiation picks what DRF's picks, for every Accept header and format override."""

from __future__ import annotations

import pytest
from django.http import Http404
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from games.api.negotiation import FastContentNegotiation
from games.api.renderers import FastJSONRenderer

ACCEPTS = [None, "", "*/*", " */* ", "application/json", "application/json ", "application/json; indent=4",
           "application/*", "text/html", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
           "application/json;q=0.1, text/html", "image/png", "*/*;q=0", "application/JSON", ",", "*/*, text/html"]
QUERIES = ["", "wait=5", "format=json", "format=api", "format=xml", "x=1&format=api", "format="]


def _choice(negotiation, accept, query, suffix=None):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(APIRequestFactory().get(f"/api/games/1/?{query}", **headers))
    try:
        renderer, media_type = negotiation.select_renderer(request, [FastJSONRenderer(), BrowsableAPIRenderer()],
                                                           suffix)
    except NotAcceptable as e:
        return "406", str(e.detail)
    except Http404:  # a ?format= no renderer has
        return "404", None
    return type(renderer).__name__, media_type


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("accept", ACCEPTS)
def test_the_fast_negotiation_chooses_as_drf_does(accept, query):
    assert _choice(FastContentNegotiation(), accept, query) == _choice(DefaultContentNegotiation(), accept, query)


@pytest.mark.parametrize("suffix", ["json", "api"])
def test_a_format_suffix_is_negotiated_by_drf(suffix):
    assert (_choice(FastContentNegotiation(), "*/*", "", suffix)
            == _choice(DefaultContentNegotiation(), "*/*", "", suffix))


def test_a_plain_json_client_gets_the_json_renderer_without_drfs_parsing(monkeypatch):
    """The fast answer is the one given: DRF's header parsing is not reached for such a request."""
    def refuse(*args, **kwargs):
        raise AssertionError("parsed the Accept header")

    monkeypatch.setattr(DefaultContentNegotiation, "_get_parsed_accept_list", refuse)
    assert _choice(FastContentNegotiation(), "application/json", "wait=5") == ("FastJSONRenderer", "application/json")
    with pytest.raises(AssertionError):
        _choice(FastContentNegotiation(), "text/html", "")
