"""GET /api/games/{id}/ says which seats have a decision open (``seats[].deciding``): what the game
page shows as "waiting for ...", so a client watching the game reads only those seats' views."""

from __future__ import annotations

from games.models import Game, GameStatus, Prompt
from games.web.selectors import seats_for_page
from tests.games.helpers import open_prompt


def _deciding(api, user, game) -> list[bool]:
    return [s["deciding"] for s in api.as_user(user).get(f"/api/games/{game.pk}/").json()["seats"]]


def _open_positions(game) -> set[int]:
    return set(Prompt.objects.filter(game=game, closed_at__isnull=True).values_list("seat__position", flat=True))


def test_deciding_is_the_seats_with_an_open_prompt_and_the_same_for_every_viewer(game2, api):
    game, (a, b) = game2
    assert _deciding(api, a, game) == _deciding(api, b, game) == [p in _open_positions(game) for p in (0, 1)]
    while 0 in _open_positions(game):  # seat 0 answers everything it is asked in this step
        p = open_prompt(game, 0)
        assert api.as_user(a).post(f"/api/games/{game.pk}/moves/", {"prompt": p.prompt_id,
                                                                    "option": p.options[0]["id"]},
                                   format="json").status_code == 201
    expected = [p in _open_positions(game) for p in (0, 1)]
    assert expected[0] is False
    assert _deciding(api, a, game) == _deciding(api, b, game) == expected


def test_it_is_what_the_game_page_shows_as_waiting_for(game2, api):
    game, (a, b) = game2
    page = [s["deciding"] for s in seats_for_page(game=game)]
    assert _deciding(api, b, game) == page and any(page)


def test_nobody_is_deciding_in_a_game_that_is_not_active(game2, api):
    game, (a, b) = game2
    Game.objects.filter(pk=game.pk).update(status=GameStatus.PAUSED)
    assert _deciding(api, a, game) == [False, False]
