"""A Swiss tournament of 2-player Mage Knight tables, bots in every seat, to its final standings and ratings
(the game goes through the same protocol, registry, simulate CLI, bots, web, API, email, tournaments and
ratings as the others), and a Mage Knight leaderboard beside the default one.

Each table is a whole First Reconnaissance game played by the game's greedy bot; "the player with the most Fame
wins" after the standard achievements, so a table's places are the game's ranks.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import GameStatus, Submission, SubmissionSource
from games.ratings.models import RatedGame, Rating
from games.tournaments.models import Round, Table, TableSeat, TournamentStatus
from games.tournaments.selectors import tournament_standings
from tests.tournaments.helpers import bot_field, director, make_tournament, run_to_the_end

pytestmark = pytest.mark.django_db


def test_a_mage_knight_swiss_of_two_player_tables_plays_to_the_end_and_rates_by_final_fame():
    boss = director()
    t = make_tournament(boss, name="Mage Knight Swiss", engine="mage_knight", options={}, table_size=2, rounds=2,
                        seed=4)
    users = bot_field(t, 4)
    t = run_to_the_end(t, boss)
    assert t.status == TournamentStatus.FINISHED
    assert [r.status for r in Round.objects.filter(tournament=t).order_by("number")] == ["finished", "finished"]
    tables = list(Table.objects.filter(round__tournament=t).select_related("game"))
    assert len(tables) == 4
    decided = 0
    for tb in tables:
        game = tb.game
        assert game.engine == "mage_knight" and game.players == 2 and game.status == GameStatus.FINISHED
        assert game.state["over"] and not game.state["solo"]
        # The bots played the whole game through the server, pick by pick (the greedy bot of GREEDY).
        assert Submission.objects.filter(game=game, source=SubmissionSource.BOT).count() > 50
        scores, ranks = game.result["scores"], game.result["ranks"]
        assert ranks == [1 + sum(o > s for o in scores) for s in scores]  # most Fame first, ties share a place
        for ts in TableSeat.objects.filter(table=tb).order_by("position"):
            assert ts.place == ranks[ts.position]
        rated = RatedGame.objects.get(game=game)
        assert len(rated.changes) == 2
        by_rank = {c["rank"]: c for c in rated.changes.values()}
        if len(by_rank) == 2:  # a decided table: the winner's rating rises, the loser's falls
            best, worst = by_rank[1], by_rank[2]
            assert best["after"][0] > best["before"][0] and worst["after"][0] < worst["before"][0]
            decided += 1
    assert decided >= 1
    rows = tournament_standings(tournament=t)["rows"]
    assert len(rows) == 4 and all(r["games"] == 2 for r in rows)
    keys = [(r["points"], r["mp"], r["tiebreak"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert Rating.objects.filter(user__in=users, engine="mage_knight", games=2).count() == 4

    # The Mage Knight leaderboard lists the four players; the default (no game named) stays Faltisia's.
    c = Client()
    board = c.get("/api/leaderboard/?game=mage_knight").json()
    assert board["game"] == "mage_knight" and len(board["rows"]) == 4
    assert c.get("/api/leaderboard/").json()["game"] == "faltisia"
    page = c.get("/leaderboard/?game=mage_knight").content.decode()
    assert "Mage Knight" in page and all(u.username in page for u in users)
