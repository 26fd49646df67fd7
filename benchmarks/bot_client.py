"""Bot clients that know only the JSON API contract of DESIGN.md: register, create, join, view, move.

One ``Api`` per thread keeps one HTTP/1.1 connection open (as a real client library would), and the
``GameDriver`` plays every seat of one game: it reads each seat's prompt, picks a random option, and
times two things: each POST /moves/, and, when a step's last pick is in and no seat has anything left
to decide, the wait until the game shows its next step (the resolution's commit, which opens the next
prompts in the same transaction).
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
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
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
        return resp.status, payload

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
    view_ms: list[float] = field(default_factory=list)  # GET /api/games/{id}/ round trips
    refused: dict[int, int] = field(default_factory=dict)  # status -> count of refused moves
    finished: bool = False


class GameDriver:
    """Plays all seats of one game until it ends or ``stop`` is set."""

    def __init__(self, *, base_url: str, game_id: int, tokens: list[str], seed: int, stop: threading.Event,
                 poll_seconds: float = 0.02) -> None:
        self.api = Api(base_url)
        self.gid, self.tokens, self.stop, self.poll = game_id, tokens, stop, poll_seconds
        self.rng = random.Random(seed)
        self.stats = GameStats(game_id=game_id)

    def _view(self, seat: int) -> dict:
        t0 = time.perf_counter()
        st, v = self.api.call("GET", f"/api/games/{self.gid}/", self.tokens[seat])
        t1 = time.perf_counter()
        self.stats.view_ms.append((t1 - t0) * 1000)
        if st != 200:
            raise ApiError("view", st, v)
        # The first view showing a later step (or the end) is the moment the next prompts became visible.
        if self.last_pick_phase is not None and self.last_pick_phase != self.timed_phase and \
                (v["phase"] > self.last_pick_phase or v["status"] == "finished"):
            self.stats.step_ms.append((t1 - self.last_pick_at) * 1000)
            self.timed_phase = self.last_pick_phase
        return v

    def _move(self, seat: int, prompt: dict) -> None:
        """Answer the prompt and any follow-up picks of the same decision."""
        while prompt is not None and not self.stop.is_set():
            option = self.rng.choice(prompt["options"])["id"]
            t0 = time.perf_counter()
            st, body = self.api.call("POST", f"/api/games/{self.gid}/moves/", self.tokens[seat],
                                     {"prompt": prompt["id"], "option": option})
            t1 = time.perf_counter()
            if st not in (200, 201):
                self.stats.refused[st] = self.stats.refused.get(st, 0) + 1
                if st == 409:  # changed meanwhile: read the views again
                    return
                raise ApiError("move", st, body)
            self.stats.move_ms.append((t1 - t0) * 1000)
            self.last_pick_at, self.last_pick_phase = t1, body["submission"]["phase"]
            prompt = body.get("prompt")

    def run(self) -> GameStats:
        self.last_pick_at, self.last_pick_phase, self.timed_phase = 0.0, None, None
        try:
            while not self.stop.is_set():
                views = [self._view(s) for s in range(len(self.tokens))]
                if any(v["status"] != "active" for v in views):
                    self.stats.finished = views[0]["status"] == "finished"
                    break
                prompts = [(s, v["prompt"]) for s, v in enumerate(views) if v.get("prompt")]
                for seat, prompt in prompts:
                    self._move(seat, prompt)
                if not prompts:
                    # Nobody has anything to decide: the step is complete and awaits its resolution.
                    # Watch one seat's view (every seat sees the same step number) until it changes.
                    self._wait_for_next_step(views[0]["phase"])
        finally:
            self.api.close()
        return self.stats

    def _wait_for_next_step(self, phase: int) -> None:
        while not self.stop.is_set():
            v = self._view(0)
            if v["phase"] != phase or v["status"] != "active":
                return
            time.sleep(self.poll)


def unique_name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"
