"""The games JSON API (mounted under /api/ by faltisia/urls.py): thin DRF views over the services and
selectors, and what every API route shares.

    urls.py         the routes of /api/games/...
    views.py        the views: parse, call a service or selector, shape the body
    access.py       which games a caller may reach (one 404 for "no such game" and "not yours")
    conditional.py  the ETag, If-None-Match and ?wait=N of GET /api/games/{id}/
    version_tag.py  the opaque "has it changed?" tags (the ETag; the web page's live version too)
    serializers.py  the request and response bodies, named so /api/schema/ is exact
    parsers.py      DRF's parsers, refusing over-deep JSON, NULs and oversized bodies with a 400/413
    errors.py       the one error body {"error", "detail"} (settings REST_FRAMEWORK EXCEPTION_HANDLER)

Nothing is imported here, so settings' dotted paths (parsers, the exception handler) load only what
they name.
"""
