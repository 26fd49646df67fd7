"""At most a few requests of a web process run at once; the others wait their turn (issue 28's eighth round).

A web process has threads enough for the requests that wait on a game (``GET /api/games/{id}/?wait=N`` holds its
thread for up to N seconds: gunicorn's 8 threads a worker in the Procfile). When all of them run at once, on a
machine with fewer cores than that, they work no faster together than a few would, but they cost more CPU: the
threads of one process take the interpreter's lock (GIL) from each other all the time, and three workers' 24
database sessions are all busy at once, each going to sleep and waking for every statement. Under the load
benchmark (20 games, 4 seats, 2 cores), 4 threads a worker instead of 8 served 26% more picks for 16% less CPU
a pick, the web's and PostgreSQL's alike.

So a request takes one of the process's ``WEB_ACTIVE_REQUESTS`` turns before Django sees it and gives it back
when its response is made; one that comes while all are taken waits (asleep: no CPU) for the first given back.
A request that waits on a game gives its turn back while it sleeps (``turn_given_back``) and takes one again to
read the game, so the waits still need no turns. A request's database transaction always runs within its turn,
so a request holding a row lock is never waiting for a turn held by one that waits for that lock.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

_held = threading.local()  # .turns: the semaphore whose turn this thread holds (None: none)


class ActiveRequestLimit:
    """WSGI middleware: at most ``turns`` requests in ``app`` at once (0: no limit)."""

    def __init__(self, app: Callable, turns: int) -> None:
        self.app = app
        self.turns = threading.Semaphore(turns) if turns > 0 else None

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if self.turns is None:
            return self.app(environ, start_response)
        self.turns.acquire()
        _held.turns = self.turns
        try:
            return self.app(environ, start_response)
        finally:
            _held.turns = None
            self.turns.release()


@contextmanager
def turn_given_back() -> Iterator[None]:
    """Give this request's turn back for the time it sleeps (nothing to do if it holds none), and take one again
    before it goes on."""
    turns = getattr(_held, "turns", None)
    if turns is None:
        yield
        return
    _held.turns = None
    turns.release()
    try:
        yield
    finally:
        turns.acquire()
        _held.turns = turns
