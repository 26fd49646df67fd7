"""The garbage collector in the server's long-lived processes.

A web or worker process holds a few hundred thousand objects from loading Django, the apps, the engines'
card data and the URL patterns, and keeps them for its whole life. Python's full collections walk all of
them again and again: without what follows, the slowest requests and undos in the benchmarks (100-180 ms)
are such collections.
``gc.freeze()`` once everything is loaded moves these objects out of the collector's sight (they are never
garbage: nothing that was loaded is unloaded), so a collection only walks what requests and tasks made.
Cycles made later are still collected.

The youngest generation is collected after 10,000 new objects instead of Python's 700.
A collection walks the young objects still alive, and in a threaded web process those are mostly the requests
in flight, walked again at each collection and then promoted to be walked again in the older generations.
The hot routes leave no reference cycles (tests/games/test_reference_cycles.py), so what the young
collections find is nearly all alive, and fewer of them is less work: under the load benchmark the collector
takes 0.6% of a web process's CPU (~17 young collections a worker in 40 s) against 1.6% (~530) with Python's
threshold.
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
