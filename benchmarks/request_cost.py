"""Database queries and milliseconds per API request, measured in-process on a throw-away database.

    python benchmarks/request_cost.py [--games 5]        (SQLite by default; DATABASE_URL for PostgreSQL)

Plays whole 4-player tinygames through the API (test client, tasks eager) and prints one JSON line:
mean queries and ms for GET /api/games/{id}/ and for POST .../moves/ (a move that completes a step
includes its resolution, as it does in-process in the embedded mode).
"""

import json
import statistics
import time

from _django import run_on_test_db


def run(n_games: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from accounts.services import user_create

    figures = {"get": [], "move": []}
    clients = []
    for i in range(4):
        u = user_create(username=f"bench{i}", email=f"b{i}@example.org", password="Bench-pass-123")
        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Token {u.auth_token.key}")
        clients.append(c)

    def timed(kind, fn):
        with CaptureQueriesContext(connection) as q:
            t0 = time.perf_counter()
            r = fn()
            figures[kind].append(((time.perf_counter() - t0) * 1000, len(q.captured_queries)))
        return r

    for g in range(n_games):
        gid = clients[0].post("/api/games/", {"game": "tinygame", "seats": 4, "options": {"rounds": 3}},
                              format="json").json()["id"]
        for c in clients[1:]:
            c.post(f"/api/games/{gid}/join/")
        finished = False
        while not finished:
            for c in clients:
                d = timed("get", lambda: c.get(f"/api/games/{gid}/").json())
                if d["status"] == "finished":
                    finished = True
                    break
                if d["prompt"]:
                    p = d["prompt"]
                    timed("move", lambda: c.post(f"/api/games/{gid}/moves/",
                                                 {"prompt": p["id"], "option": p["options"][-1]["id"]}, format="json"))
    out = {"db": connection.vendor, "games": n_games}
    for kind, rows in figures.items():
        out[f"{kind}_n"] = len(rows)
        out[f"{kind}_ms_mean"] = round(statistics.mean(r[0] for r in rows), 2)
        out[f"{kind}_ms_p95"] = round(sorted(r[0] for r in rows)[int(len(rows) * 0.95)], 2)
        out[f"{kind}_queries_mean"] = round(statistics.mean(r[1] for r in rows), 1)
        out[f"{kind}_queries_max"] = max(r[1] for r in rows)
    print(json.dumps(out))


if __name__ == "__main__":
    run_on_test_db(run, default_games=5)
