"""A Swiss tournament of 3-player Miskatonic games, bots in every seat, to its final standings and ratings
(the elimination order is the ranking), and a Miskatonic
leaderboard next to Faltisia's default one.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import GameStatus
from games.ratings.models import RatedGame, Rating
from games.tournaments.models import Round, Table, TableSeat, TournamentStatus
from games.tournaments.selectors import tournament_standings
from tests.tournaments.helpers import bot_field, director, make_tournament, run_to_the_end

pytestmark = pytest.mark.django_db


def test_a_miskatonic_swiss_plays_every_table_to_the_end_and_rates_by_elimination_order():
    boss = director()
    t = make_tournament(boss, name="Miskatonic Swiss", engine="miskatonic", options={}, rounds=2, seed=3)
    users = bot_field(t, 6)
    t = run_to_the_end(t, boss)
    assert t.status == TournamentStatus.FINISHED
    assert [r.status for r in Round.objects.filter(tournament=t).order_by("number")] == ["finished", "finished"]
    tables = list(Table.objects.filter(round__tournament=t).select_related("game"))
    assert len(tables) == 4
    for tb in tables:
        game = tb.game
        assert game.engine == "miskatonic" and game.status == GameStatus.FINISHED
        ranks = game.result["ranks"]
        # Elimination order is the ranking: the table's places are the game's ranks, seat by seat.
        for ts in TableSeat.objects.filter(table=tb).order_by("position"):
            assert ts.place == ranks[ts.position]
        rated = RatedGame.objects.get(game=game)
        by_rank = {c["rank"]: c for c in rated.changes.values()}
        best, worst = by_rank[min(by_rank)], by_rank[max(by_rank)]
        assert best["after"][0] > best["before"][0] and worst["after"][0] < worst["before"][0]
    rows = tournament_standings(tournament=t)["rows"]
    assert len(rows) == 6 and all(r["games"] == 2 for r in rows)
    keys = [(r["points"], r["mp"], r["tiebreak"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert Rating.objects.filter(user__in=users, engine="miskatonic", games=2).count() == 6

    # The leaderboards: Miskatonic's lists the six players; the default (no game named) stays Faltisia's.
    c = Client()
    board = c.get("/api/leaderboard/?game=miskatonic").json()
    assert board["game"] == "miskatonic" and len(board["rows"]) == 6
    assert c.get("/api/leaderboard/").json()["game"] == "faltisia"
    page = c.get("/leaderboard/?game=miskatonic").content.decode()
    assert "Miskatonic School for Girls" in page and all(u.username in page for u in users)
