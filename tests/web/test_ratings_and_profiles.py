"""Rated games outside tournaments, and the player profile page.

Contracts: the lobby's "Rated game" box sets Game.rated; a finished game moves ratings only when it
is rated, exactly once (RatedGame is one-to-one); tournament tables carry the tournament's rated
setting; /players/<username>/ shows ratings and recent finished games without leaking private games;
player names on the game page and the leaderboard link to it.
"""

from __future__ import annotations

import pytest

from games.errors import GameError
from games.models import Game, GameStatus
from games.ratings.models import RatedGame, Rating
from games.ratings.services import game_rated_set, ratings_update_for_game
from games.services import game_create, game_join
from games.tournaments.models import Table
from tests.factories import UserFactory
from tests.tournaments.helpers import bot_field, director, make_tournament, run_to_the_end
from tests.web.conftest import play_until

NEW = {"game": "tinygame", "seats": 2, "bots": 0, "clock": "none", "is_public": "on", "extra_options": '{"rounds": 1}'}


def _finished_game(users, *, rated: bool, is_public: bool = True) -> Game:
    """A 2-player tinygame created through the create service and played to the end."""
    game = game_create(created_by=users[0], engine="tinygame", players=2, options={"rounds": 1}, clock={},
                       is_public=is_public, bots=0, rated=rated)
    game_join(game=game, user=users[1])
    play_until(game, lambda g: g.status == GameStatus.FINISHED)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game


@pytest.mark.parametrize("box, rated", [("on", True), (None, False)])
def test_the_lobby_rated_box_sets_game_rated(db, login, box, rated):
    c = login(UserFactory())
    data = dict(NEW, **({"rated": box} if box else {}))
    r = c.post("/games/new/", data)
    game = Game.objects.get()
    assert r.status_code == 302 and game.rated is rated
    assert ("rated</span>" in c.get(r.url).content.decode()) is rated


def test_a_rated_game_needs_two_people_and_a_refusal_creates_nothing(db, login):
    r = login(UserFactory()).post("/games/new/", dict(NEW, bots=1, rated="on"))
    assert r.status_code == 200 and "at least two seats for people" in r.content.decode()
    assert not Game.objects.exists()


def test_a_finished_rated_casual_game_moves_ratings_once(db):
    users = [UserFactory(), UserFactory()]
    game = _finished_game(users, rated=True)
    record = RatedGame.objects.get(game=game)  # rated by the game_finished hook, not by a tournament
    assert set(record.changes) == {str(u.pk) for u in users}
    before = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games"))
    assert [g for *_, g in before] == [1, 1]
    assert ratings_update_for_game(game=game) is None  # a second call changes nothing
    assert list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games")) == before
    winner = [u for u in users if record.changes[str(u.pk)]["rank"] == 1]
    if len(winner) == 1:
        w = Rating.objects.get(user=winner[0])
        assert w.mu > 25  # openskill's fresh mu: the winner went up


def test_an_unrated_casual_game_leaves_ratings_alone(db):
    game = _finished_game([UserFactory(), UserFactory()], rated=False)
    assert ratings_update_for_game(game=game) is None
    assert not Rating.objects.exists() and not RatedGame.objects.exists()


def test_a_rated_game_cannot_be_made_unrated_after_its_ratings_moved(db):
    game = _finished_game([UserFactory(), UserFactory()], rated=True)
    with pytest.raises(GameError):
        game_rated_set(game=game, rated=False)
    game.refresh_from_db()
    assert game.rated and RatedGame.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("rated", [True, False])
def test_tournament_tables_carry_the_tournaments_rated_setting(db, rated):
    boss = director()
    t = make_tournament(boss, rounds=1, rated=rated)
    bot_field(t, 3)
    run_to_the_end(t, boss)
    game = Table.objects.get(round__tournament=t).game
    assert game.rated is rated
    assert RatedGame.objects.filter(game=game).exists() is rated


def test_profile_shows_ratings_and_recent_games_but_not_private_ones_to_strangers(db, client, login):
    users = [UserFactory(), UserFactory()]
    public = _finished_game(users, rated=True)
    private = _finished_game(users, rated=False, is_public=False)
    url = f"/players/{users[0].username}/"
    page = client.get(url).content.decode()  # public, like the leaderboard
    assert "tinygame" in page and "No rated games yet" not in page
    assert f"/games/{public.pk}/" in page and f"/games/{private.pk}/" not in page
    change = RatedGame.objects.get(game=public).changes[str(users[0].pk)]
    delta = (change["after"][0] - 3 * change["after"][1]) - (change["before"][0] - 3 * change["before"][1])
    assert f"{delta:+.2f}" in page
    mine = login(users[1]).get(url).content.decode()  # a fellow player sees the private game too
    assert f"/games/{private.pk}/" in mine and "unrated" in mine
    assert client.get("/players/nobody-here/").status_code == 404


def test_player_names_on_the_game_page_and_leaderboard_link_to_profiles(db, login, client):
    users = [UserFactory(), UserFactory()]
    _finished_game(users, rated=True)
    game = game_create(created_by=users[0], engine="tinygame", players=2, options={"rounds": 1})
    game_join(game=game, user=users[1])
    page = login(users[0]).get(f"/games/{game.pk}/").content.decode()
    board = client.get("/leaderboard/?game=tinygame").content.decode()
    for u in users:
        assert f'href="/players/{u.username}/"' in page
        assert f'href="/players/{u.username}/"' in board
