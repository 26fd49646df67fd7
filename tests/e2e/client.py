"""A bot client that plays through the JSON API only, knowing nothing of the game's rules."""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
import uuid


class ApiError(Exception):
    def __init__(self, status: int, body) -> None:
        super().__init__(f"{status}: {body}")
        self.status, self.body = status, body


def call(base: str, method: str, path: str, token: str | None = None, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    if token:
        req.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
            return r.status, (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, json.loads(raw)
        except ValueError:
            return e.code, {"raw": raw[:300].decode("utf8", "replace")}


def register(base: str, n: int) -> list[str]:
    tag = uuid.uuid4().hex[:8]
    tokens = []
    for i in range(n):
        st, body = call(base, "POST", "/api/auth/register/",
                        body={"username": f"bot{tag}{i}", "email": f"bot{tag}{i}@example.org",
                              "password": f"Pw-{tag}-{i}-long!"})
        if st != 201:
            raise ApiError(st, body)
        tokens.append(body["token"])
    return tokens


def new_game(base: str, tokens: list[str], *, game: str = "tinygame", options=None, clock=None) -> int:
    st, body = call(base, "POST", "/api/games/", tokens[0],
                    {"game": game, "seats": len(tokens), "options": options or {}, "clock": clock or {}})
    if st != 201:
        raise ApiError(st, body)
    for t in tokens[1:]:
        st, b = call(base, "POST", f"/api/games/{body['id']}/join/", t)
        if st != 200:
            raise ApiError(st, b)
    return body["id"]


def play_round(base: str, gid: int, tokens: list[str], rng: random.Random) -> tuple[int, dict | None]:
    """Each seat answers its open prompt (if any) once; returns (picks made, finished game or None)."""
    picks = 0
    for t in tokens:
        st, v = call(base, "GET", f"/api/games/{gid}/", t)
        if st != 200:
            raise ApiError(st, v)
        if v["status"] == "finished":
            return picks, v
        p = v.get("prompt")
        if not p:
            continue
        option = rng.choice(p["options"])["id"]
        st, b = call(base, "POST", f"/api/games/{gid}/moves/", t, {"prompt": p["id"], "option": option},
                     headers={"Idempotency-Key": uuid.uuid4().hex})
        if st == 409:  # resolved or changed meanwhile: ask again next round
            continue
        if st not in (200, 201):
            raise ApiError(st, b)
        picks += 1
    return picks, None


def play_to_end(base: str, gid: int, tokens: list[str], *, seed: int = 1, timeout: float = 120) -> tuple[dict, int]:
    rng = random.Random(seed)
    t0, picks, idle = time.time(), 0, 0
    while time.time() - t0 < timeout:
        n, finished = play_round(base, gid, tokens, rng)
        if finished:
            return finished, picks
        picks += n
        idle = 0 if n else idle + 1
        if not n:
            time.sleep(min(0.05 * idle, 0.5))
    raise TimeoutError(f"game {gid} did not finish in {timeout}s after {picks} picks")
