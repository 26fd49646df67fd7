"""CPU and database statements per API request, in-process, as a production web process pays them.

    python benchmarks/request_cost.py [--games 2] [--emails on|off] [--game faltisia --seats 4] [--profile FILE]
    (SQLite by default; DATABASE_URL for PostgreSQL)

Plays whole games (4-player Faltisia by default; ``--game mage_knight --seats 2``) through the API (Django test client, DEBUG off, the production
settings) on a throw-away database: each seat reads its view, then answers its prompt and the
follow-ups the moves return, with seeded random picks. Tasks are not run in the request: they are
published to an in-memory broker, as a web process publishes them to Redis, and each complete step is
resolved between requests, outside the figures. Prints one JSON line: per GET /api/games/{id}/ and per
POST .../moves/, the mean and median CPU of this process (time.process_time: the database server's own
work is not in it) and the mean number of statements. ``--profile FILE`` also writes a cProfile of the
timed requests (pstats format) and prints the top functions by cumulative time. ``--max-picks N`` stops
after N picks (a Mage Knight game is ~1,000).
"""

import json
import os
import random
import statistics
import sys
import time

from _django import production_settings, run_on_test_db  # noqa: E402

production_settings("request-cost-bench")


def run(n_games: int) -> None:
    from django.db import connection
    from django.test import Client

    from accounts.models import NotificationPreferences
    from accounts.services import user_create
    from games.models import Game
    from games.services.resolution import phase_resolve

    emails = os.environ.get("REQUEST_COST_EMAILS", "on") != "off"
    slug, n_seats = os.environ.get("REQUEST_COST_GAME", "faltisia"), int(os.environ.get("REQUEST_COST_SEATS", "4"))
    max_picks = int(os.environ.get("REQUEST_COST_MAX_PICKS", "0")) or None
    profile_path = os.environ.get("REQUEST_COST_PROFILE")
    profiler = None
    if profile_path:
        import cProfile

        profiler = cProfile.Profile(time.process_time)
    rng = random.Random(1)
    tokens = []
    for i in range(n_seats):
        user = user_create(username=f"bench{i}", email=f"b{i}@example.org", password="Bench-pass-123",
                           email_verified=True)
        NotificationPreferences.objects.update_or_create(user=user, defaults={"email_prompts": emails,
                                                                             "email_results": emails})
        tokens.append(user.auth_token.key)
    client = Client()
    figures = {"get": [], "move": []}

    statements = [0]

    def count(execute, sql, params, many, context):  # lighter than a debug cursor: CPU stays comparable
        statements[0] += 1
        return execute(sql, params, many, context)

    def call(kind, method, path, token, body=None):
        headers = {"HTTP_AUTHORIZATION": f"Token {token}"}
        statements[0] = 0
        with connection.execute_wrapper(count):
            if profiler is not None and kind:
                profiler.enable()
            t0 = time.process_time()
            if body is None:
                response = client.get(path, **headers)
            else:
                response = client.post(path, json.dumps(body), content_type="application/json", **headers)
            cpu = time.process_time() - t0
            if profiler is not None and kind:
                profiler.disable()
        assert response.status_code in (200, 201), response.content
        if kind:
            figures[kind].append((cpu * 1000, statements[0]))
        return response.json()

    for _ in range(n_games):
        gid = call(None, "post", "/api/games/", tokens[0], {"game": slug, "seats": n_seats})["id"]
        for token in tokens[1:]:
            call(None, "post", f"/api/games/{gid}/join/", token, {})
        finished = False
        while not finished and not (max_picks and len(figures["move"]) >= max_picks):
            for token in tokens:
                view = call("get", "get", f"/api/games/{gid}/", token)
                if view["status"] == "finished":
                    finished = True
                    break
                prompt = view["prompt"]
                while prompt:
                    option = rng.choice(prompt["options"])["id"]
                    prompt = call("move", "post", f"/api/games/{gid}/moves/", token,
                                  {"prompt": prompt["id"], "option": option})["prompt"]
            game = Game.objects.get(pk=gid)
            if game.resolve_requested_at is not None:  # the worker's part, outside the figures
                phase_resolve(game_id=gid, phase=game.phase)

    out = {"db": connection.vendor, "game": slug, "seats": n_seats, "games": n_games,
           "emails": "on" if emails else "off"}
    for kind, rows in figures.items():
        cpu = [r[0] for r in rows]
        out[f"{kind}_n"] = len(rows)
        out[f"{kind}_cpu_ms_mean"] = round(statistics.mean(cpu), 2)
        out[f"{kind}_cpu_ms_median"] = round(statistics.median(cpu), 2)
        out[f"{kind}_queries_mean"] = round(statistics.mean(r[1] for r in rows), 1)
    if profiler is not None:
        import pstats

        profiler.dump_stats(profile_path)
        pstats.Stats(profile_path).sort_stats("cumulative").print_stats(45)
    print(json.dumps(out))


if __name__ == "__main__":
    for flag, variable in (("--emails", "REQUEST_COST_EMAILS"), ("--game", "REQUEST_COST_GAME"),
                           ("--seats", "REQUEST_COST_SEATS"), ("--profile", "REQUEST_COST_PROFILE"),
                           ("--max-picks", "REQUEST_COST_MAX_PICKS")):
        if flag in sys.argv:  # run_on_test_db parses --games only
            i = sys.argv.index(flag)
            os.environ[variable] = sys.argv[i + 1]
            del sys.argv[i:i + 2]
    run_on_test_db(run, default_games=2)
