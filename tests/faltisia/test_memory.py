"""The collector in a web process (faltisia/memory.py): what the process loaded is frozen out of its sight, and the
youngest generation is collected every 10,000 new objects, not Python's 700."""

from __future__ import annotations

from tests.production_process import production_process_run


def test_a_web_process_freezes_what_it_loaded_and_collects_its_young_objects_less_often():
    started = production_process_run("import gc; print(gc.get_threshold()[0]); from faltisia.wsgi import application; "
                                     "print(gc.get_freeze_count(), *gc.get_threshold())")
    assert started.returncode == 0, started.stderr
    before, after = started.stdout.split("\n")[:2]
    frozen, young, middle, old = map(int, after.split())
    assert int(before) == 700  # Python's own, until the app is loaded
    assert frozen > 50_000  # Django, the apps, the engines' card data, the URL patterns
    assert (young, middle, old) == (10_000, 10, 10)
