"""Bot clients that know only the JSON API contract of DESIGN.md: register, create, join, view, move.

One ``Api`` per thread keeps one HTTP/1.1 connection open (as a real client library would), and the
``GameDriver`` plays every seat of one game: it picks a random option of each seat's prompt and follows
the prompt each POST /moves/ returns (the seat's next decision), reading a seat's view only when it
knows no prompt for it and no view read since says that seat decides nothing (``seats[].deciding``). It times two things: each POST /moves/, and, when a step's last pick is in and
no seat has anything left to decide, the wait until the game shows its next step (the resolution's
commit, which opens the next prompts in the same transaction). It waits with a blocking conditional
GET (``If-None-Match`` with the ETag of the view it last read, ``?wait=N``): the server answers as soon
as the game changes, instead of the client polling the full view.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlsplit


class ApiError(Exception):
    def __init__(self, what: str, status: int, body) -> None:
        super().__init__(f"{what}: {status} {str(body)[:300]}")
        self.status, self.body = status, body


class Api:
    """A keep-alive JSON client for one thread."""

    def __init__(self, base_url: str, timeout: float = 60) -> None:
        parts = urlsplit(base_url)
        self.host, self.port, self.timeout = parts.hostname, parts.port or 80, timeout
        self.conn: http.client.HTTPConnection | None = None

    def call(self, method: str, path: str, token: str | None = None, body=None) -> tuple[int, object]:
        status, payload, _ = self.call_with_headers(method, path, token, body)
        return status, payload

    def call_with_headers(self, method: str, path: str, token: str | None = None, body=None,
                          headers: dict[str, str] | None = None) -> tuple[int, object, http.client.HTTPMessage]:
        """``call``, sending extra request ``headers`` and returning the response's headers too."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        if token:
            headers["Authorization"] = f"Token {token}"
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # the server closed an idle keep-alive connection; only ever retried before a response
                self.close()
                if attempt:
                    raise
        if resp.getheader("Connection", "").lower() == "close":
            self.close()
        try:
            payload = json.loads(raw) if raw else None
        except ValueError:
            payload = {"raw": raw[:300].decode("utf8", "replace")}
        return resp.status, payload, resp.headers

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def register(api: Api, name: str) -> str:
    st, body = api.call("POST", "/api/auth/register/",
                        body={"username": name, "email": f"{name}@example.org", "password": f"Horse-{uuid.uuid4().hex}"})
    if st != 201:
        raise ApiError("register", st, body)
    return body["token"]


def create_and_join(api: Api, tokens: list[str], *, game: str = "faltisia") -> int:
    st, body = api.call("POST", "/api/games/", tokens[0],
                        {"game": game, "seats": len(tokens), "options": {}, "clock": {}})
    if st != 201:
        raise ApiError("create", st, body)
    for t in tokens[1:]:
        st, b = api.call("POST", f"/api/games/{body['id']}/join/", t)
        if st != 200:
            raise ApiError("join", st, b)
    return body["id"]


@dataclass
class GameStats:
    game_id: int = 0
    move_ms: list[float] = field(default_factory=list)  # POST /moves/ round trips that were accepted
    step_ms: list[float] = field(default_factory=list)  # last pick of a step -> next step visible
    view_ms: list[float] = field(default_factory=list)  # GET /api/games/{id}/ round trips (not the blocking ones)
    waits: dict[int, int] = field(default_factory=dict)  # blocking GETs (?wait=) by status: 200 changed, 304 not
    refused: dict[int, int] = field(default_factory=dict)  # status -> count of refused moves
    finished: bool = False


class GameDriver:
    """Plays all seats of one game until it ends or ``stop`` is set."""

    def __init__(self, *, base_url: str, game_id: int, tokens: list[str], seed: int, stop: threading.Event,
                 wait_seconds: int = 5) -> None:
        self.api = Api(base_url)
        self.gid, self.tokens, self.stop, self.wait = game_id, tokens, stop, wait_seconds
        self.rng = random.Random(seed)
        self.stats = GameStats(game_id=game_id)
        self.etags: dict[int, str] = {}  # seat -> ETag of the last view read for it

    def _view(self, seat: int, *, wait: int | None = None) -> dict | None:
        """The seat's view. With ``wait``: a blocking conditional GET on the last view's ETag, None if the
        game did not change within ``wait`` seconds (304)."""
        path, headers = f"/api/games/{self.gid}/", {}
        if wait is not None and seat in self.etags:
            path, headers = f"{path}?wait={wait}", {"If-None-Match": self.etags[seat]}
        t0 = time.perf_counter()
        st, v, response_headers = self.api.call_with_headers("GET", path, self.tokens[seat], headers=headers)
        t1 = time.perf_counter()
        if headers:
            self.stats.waits[st] = self.stats.waits.get(st, 0) + 1
        else:
            self.stats.view_ms.append((t1 - t0) * 1000)
        if st == 304 and headers:
            return None
        if st != 200:
            raise ApiError("view", st, v)
        if response_headers.get("ETag"):
            self.etags[seat] = response_headers["ETag"]
        # The first view showing a later step (or the end) is the moment the next prompts became visible.
        if self.last_pick_phase is not None and self.last_pick_phase != self.timed_phase and \
                (v["phase"] > self.last_pick_phase or v["status"] == "finished"):
            self.stats.step_ms.append((t1 - self.last_pick_at) * 1000)
            self.timed_phase = self.last_pick_phase
        return v

    def _move(self, seat: int, prompt: dict) -> dict | None:
        """Answer the prompt and the follow-up picks of the same decision; the seat's prompt after them."""
        while prompt is not None and not self.stop.is_set():
            option = self.rng.choice(prompt["options"])["id"]
            t0 = time.perf_counter()
            st, body = self.api.call("POST", f"/api/games/{self.gid}/moves/", self.tokens[seat],
                                     {"prompt": prompt["id"], "option": option})
            t1 = time.perf_counter()
            if st not in (200, 201):
                self.stats.refused[st] = self.stats.refused.get(st, 0) + 1
                if st == 409:  # changed meanwhile (a deadline, a bot): read the view again
                    return None
                raise ApiError("move", st, body)
            self.stats.move_ms.append((t1 - t0) * 1000)
            self.last_pick_at, self.last_pick_phase = t1, body["submission"]["phase"]
            if body.get("etag"):  # a server that says how its pick left the game: wait on that seat
                self.etags[seat], self.last_picker = body["etag"], seat
            prompt = body.get("prompt")
        return prompt

    def run(self) -> GameStats:
        self.last_pick_at, self.last_pick_phase, self.timed_phase = 0.0, None, None
        self.last_picker = 0  # the seat watched for the next step (the last picker once an ETag came with a pick)
        seats = range(len(self.tokens))
        known: dict[int, dict | None] = {s: None for s in seats}  # each seat's prompt, from a POST or a view
        fresh: dict[int, dict] = {}  # views read since the last pick (no need to read them again)
        phase = None
        try:
            while not self.stop.is_set():
                for s in seats:
                    if known[s] is None and s not in fresh:
                        told = self._deciding_nothing(fresh, s)
                        if told is not None:  # another seat's view says this one decides nothing: no read
                            fresh[s] = told
                            continue
                        fresh[s] = self._view(s)
                        known[s] = fresh[s]["prompt"]
                if any(v["status"] != "active" for v in fresh.values()):
                    self.stats.finished = any(v["status"] == "finished" for v in fresh.values())
                    break
                phase = max((v["phase"] for v in fresh.values()), default=phase)
                behind = [s for s, v in fresh.items() if v["phase"] < phase]
                if behind:
                    # These views were read before a resolution that the later ones show: read them again
                    # (a seat without a prompt there may have one now; waiting for a step after ``phase``
                    # on such a seat would wait for a step nobody can reach).
                    for s in behind:
                        del fresh[s]
                        known[s] = None
                    continue
                todo = [s for s in seats if known[s] is not None]
                if not todo:
                    # Nobody has anything to decide: the step is complete and awaits its resolution.
                    # Watch one seat's view (every seat sees the same step number) until it changes.
                    watched = self.last_picker
                    fresh = {watched: self._wait_for_next_step(phase, watched)}
                    known[watched] = fresh[watched]["prompt"]
                    continue
                fresh = {}
                for s in todo:
                    known[s] = self._move(s, known[s])
        finally:
            self.api.close()
        return self.stats

    @staticmethod
    def _deciding_nothing(fresh: dict[int, dict], seat: int) -> dict | None:
        """A view read since the last pick that says ``seat`` has no decision open (``seats[].deciding``, from a
        server that says it; ab_bench.py's other tree may not), or None. Its game-wide fields (phase, status)
        stand for the seat's view."""
        for view in fresh.values():
            entry = next((e for e in view.get("seats", ()) if e.get("position") == seat), None)
            if entry is not None and entry.get("deciding") is False:
                return view
        return None

    def _wait_for_next_step(self, phase: int, seat: int = 0) -> dict:
        """Wait on ``seat``'s view until it shows another step (or the end); that view.

        ``seat`` is the step's last picker when the server's move responses carry the ETag of the view as
        the pick left it (then the first blocking GET already waits); seat 0 otherwise.

        Each request is a blocking conditional GET: If-None-Match with the ETag of the seat's last view
        and ?wait=N, so the server answers when the game changes (200, the new view; it may be another
        seat's pick, not yet the next step) or after N seconds (304). The first may carry an older ETag
        (seat 0's view from before the picks) and then answers at once with the current view.
        """
        while True:
            v = self._view(seat, wait=self.wait)
            if v is not None and (v["phase"] != phase or v["status"] != "active" or v["prompt"] is not None):
                return v
            if self.stop.is_set():
                return v if v is not None else self._view(seat)


def unique_name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"
