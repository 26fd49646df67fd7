"""The garbage collector in the server's long-lived processes (issue 28).

A web or worker process holds a few hundred thousand objects from loading Django, the apps, the engines'
card data and the URL patterns, and keeps them for its whole life. Python's full collections walk all of
them again and again: in the benchmarks the slowest requests and undos (100-180 ms) were such collections.
``gc.freeze()`` once everything is loaded moves these objects out of the collector's sight (they are never
garbage: nothing that was loaded is unloaded), so a collection only walks what requests and tasks made.
Cycles made later are still collected as before.

The youngest generation is collected after 10,000 new objects instead of Python's 700 (issue 28's eighth round).
A collection walks the young objects still alive, and in a threaded web process those are mostly the requests
in flight, walked again at each collection and then promoted to be walked again in the older generations.
Since the hot routes stopped leaving reference cycles (tests/games/test_reference_cycles.py), what the young
collections find is nearly all alive, so fewer of them is less work: under the load benchmark the collector's
CPU in a web process went from 1.6% of it (~530 young collections a worker in 40 s) to 0.6% (~17).
"""

from __future__ import annotations

import gc

YOUNG_COLLECTION_THRESHOLD = 10_000  # new container objects between two collections of the youngest generation


def loaded_objects_freeze(*, urls: bool = False) -> None:
    """Freeze what the process has loaded; ``urls``: load the URL patterns (and so every view module) first,
    which Django would otherwise do on the first request."""
    if urls:
        from django.urls import get_resolver

        get_resolver().url_patterns  # noqa: B018  (imports the views)
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])
