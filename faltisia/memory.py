"""The garbage collector in the server's long-lived processes (issue 28).

A web or worker process holds a few hundred thousand objects from loading Django, the apps, the engines'
card data and the URL patterns, and keeps them for its whole life. Python's full collections walk all of
them again and again: in the benchmarks the slowest requests and undos (100-180 ms) were such collections.
``gc.freeze()`` once everything is loaded moves these objects out of the collector's sight (they are never
garbage: nothing that was loaded is unloaded), so a collection only walks what requests and tasks made.
Cycles made later are still collected as before.
"""

from __future__ import annotations

import gc


def loaded_objects_freeze(*, urls: bool = False) -> None:
    """Freeze what the process has loaded; ``urls``: load the URL patterns (and so every view module) first,
    which Django would otherwise do on the first request."""
    if urls:
        from django.urls import get_resolver

        get_resolver().url_patterns  # noqa: B018  (imports the views)
    gc.collect()
    gc.freeze()
