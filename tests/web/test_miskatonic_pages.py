"""Miskatonic's surfaces on the web: the drawn board for a player, a spectator and an eliminated player, the
history headings, the rules page, and canary tests: hands only to their owner, hidden
hands and deck orders on every surface.
"""

from __future__ import annotations

import logging

import pytest

from games.models import Event, Prompt
from tests.factories import make_started_game

from .miskatonic_helpers import DECK_CANARY, HAND_CANARY, greedy_pick, play_greedy_until, register_canaries

pytestmark = pytest.mark.django_db


@pytest.fixture
def misk3(db):
    return make_started_game(players=3, engine="miskatonic", seed=5)


def page(c, game) -> str:
    return c.get(f"/games/{game.pk}/").content.decode()


def test_the_board_draws_every_house_the_store_and_my_hand_only(misk3, login, stranger):
    """House Boards with the Sanity track 20..0 in colour bands, pile counts, Classroom, Locker,
    both shelves with their deck sizes, Transfers and Substitutes left; the hand on its owner's page only."""
    game, users = misk3
    play_greedy_until(game, lambda g: g.state["round"] >= 2 and g.state["phase"] in ("student", "faculty"))
    current = game.state["cur"]
    html = page(login(users[current]), game)
    assert 'id="msk-board"' in html and 'id="shelf-student"' in html and 'id="shelf-faculty"' in html
    for seat in range(3):
        assert f'id="house-{seat}"' in html
    assert html.count('class="msk-track"') == 3
    assert html.count("msk-space b-green") >= 3 and "msk-space b-insane" in html  # the bands, 20..0
    assert f"Transfer Students left: <strong>{len(game.state['transfers'])}</strong>" in html
    assert f"Substitutes left: <strong>{len(game.state['substitutes'])}</strong>" in html
    deck = len(game.state["store"]["faculty"]["deck"])
    assert f"{deck} in the deck" in html
    assert 'id="my-hand"' in html and "Friendship left" in html
    spectator = page(login(stranger), game)
    assert 'id="msk-board"' in spectator and 'id="my-hand"' not in spectator
    other = page(login(users[(current + 1) % 3]), game)
    assert 'id="my-hand"' in other and "Friendship left" not in other  # points are the current player's only


def test_history_headings_name_the_round_and_the_player(misk3, login):
    """Plain-English history headings, "Round N · <player>'s turn"."""
    game, users = misk3
    play_greedy_until(game, lambda g: g.state["round"] >= 2)
    html = page(login(users[0]), game)
    for rnd in (1, 2):
        assert any(f"Round {rnd} · {u.username}&#x27;s turn" in html for u in users), rnd


def test_an_eliminated_player_watches_as_a_spectator(misk3, login):
    """Eliminated players are shown as spectators (their seat stays; their cards left play)."""
    game, users = misk3
    play_greedy_until(game, lambda g: any(s["out"] is not None for s in g.state["seats"]))
    out = next(i for i, s in enumerate(game.state["seats"]) if s["out"] is not None)
    html = page(login(users[out]), game)
    assert 'id="spectating"' in html and 'id="my-hand"' not in html
    assert "Insane · spectator" in html
    assert not Prompt.objects.filter(game=game, seat__position=out, closed_at__isnull=True).exists()


def test_the_finished_game_shows_the_elimination_ranking(misk3, login):
    """The result ranks players by elimination order."""
    game, users = misk3
    play_greedy_until(game, lambda g: False)
    game.refresh_from_db()
    assert game.status == "finished"
    html = page(login(users[0]), game)
    assert "Final ranking" in html
    winner = game.state["result"]["ranks"].index(1)
    assert f'<tr class="winner' in html and users[winner].username in html
    assert 'id="class"' not in html and 'id="spectating"' not in html  # nothing "in progress" once it is over


def test_rules_page_summarises_the_turn_for_players(client):
    """A rules page for players, written from the rulebook."""
    html = client.get("/games/miskatonic/rules/").content.decode()
    assert 'id="rules-summary"' in html
    for phrase in ("Go to the Bank", "Stock the School Store", "Pay your Tuition", "Pre-Class", "Class dismissed",
                   "Mad Cackle", "Aggressive", "Friendly", "Locker", "2-4 players"):
        assert phrase in html, phrase
    assert "has no summary yet" not in html


def test_another_seats_hand_and_any_deck_order_never_reach_a_page_fragment_or_log(misk3, login, stranger,
                                                                                      monkeypatch, caplog):
    """Canary test: a card in seat 1's hand and a card in seat 1's Deck, named nowhere else, never show
    on seat 0's, seat 2's or a spectator's page, live fragment or history; the Deck's never on seat 1's either."""
    game, users = misk3
    register_canaries(monkeypatch)
    caplog.set_level(logging.DEBUG)
    play_greedy_until(game, lambda g: g.state["cur"] == 1 and g.state["phase"] in ("produce", "student"))
    seats = game.state["seats"]
    seats[1]["hand"].append(HAND_CANARY[0])
    seats[1]["deck"].insert(len(seats[1]["deck"]) // 2, DECK_CANARY[0])
    game.save(update_fields=["state"])
    seen_in_own_page = False
    for _ in range(12):  # a few picks of seat 1's turn while the canary stays in the hand
        game.refresh_from_db()
        if HAND_CANARY[0] not in game.state["seats"][1]["hand"]:
            break
        for viewer in (users[0], users[2], stranger):
            c = login(viewer)
            for name, html in (("page", page(c, game)), ("live", c.get(f"/games/{game.pk}/live/").json()["html"])):
                assert HAND_CANARY[1] not in html and HAND_CANARY[0] not in html, (viewer, name)
                assert DECK_CANARY[1] not in html and DECK_CANARY[0] not in html, (viewer, name)
        own = page(login(users[1]), game)
        assert DECK_CANARY[1] not in own
        seen_in_own_page |= HAND_CANARY[1] in own
        greedy_pick(game)
    assert seen_in_own_page  # the check can fail: the name does reach the page of the hand's owner
    for e in Event.objects.filter(game=game):
        if e.visibility is None or set(e.visibility) - {1}:
            assert DECK_CANARY[0] not in str(e.data) + e.text and HAND_CANARY[1] not in e.text
    assert DECK_CANARY[1] not in caplog.text and HAND_CANARY[1] not in caplog.text


def test_a_step_heading_names_the_seat_that_acts_in_it():
    """History headings: a step is one seat's picks, so its heading names that seat even when another
    seat's Class is announced later in it (an Aggressive Faculty bought on a turn)."""
    from games.presentation.miskatonic.history import step_label
    seats = [{"position": 0, "player": "alice"}, {"position": 1, "player": None, "is_bot": True},
             {"position": 2, "player": "carol"}]
    assert step_label({"kind": "turn", "seat": 2, "round": 3}, seats) == "Round 3 · carol's turn"
    assert step_label({"kind": "buy", "seat": 0, "card": "F1"}, seats) == "alice's turn"
    # seats 1-based in what a person reads
    assert step_label({"kind": "pet", "seat": 1, "card": "F1", "to": 0}, seats) == "Bot 2's Class"
    assert step_label({"kind": "shelf"}, seats) == ""  # no actor: the next event gives the heading


def test_the_lobby_offers_miskatonic_for_two_to_four_players(login):
    """The lobby offers the game with its player counts (2-4) and the engine's options (none: the engine
    refuses any, and the form shows its words)."""
    from games.models import Game, GameStatus
    from tests.factories import UserFactory

    c = login(UserFactory())
    form = c.get("/games/new/").content.decode()
    assert "Miskatonic School for Girls" in form and "2-4 players" in form
    for seats, error in ((5, "2-4 players"), (1, "2-4 players")):
        r = c.post("/games/new/", {"game": "miskatonic", "seats": seats, "clock": "none", "is_public": "on"})
        assert r.status_code == 200 and error in r.content.decode().replace("takes ", ""), seats
    r = c.post("/games/new/", {"game": "miskatonic", "seats": 3, "clock": "none", "is_public": "on",
                               "extra_options": '{"expansion": true}'})
    assert r.status_code == 200 and "has no options" in r.content.decode()
    assert not Game.objects.exists()
    r = c.post("/games/new/", {"game": "miskatonic", "seats": 3, "bots": 2, "clock": "none", "is_public": "on"})
    game = Game.objects.get()
    assert r.status_code == 302 and game.engine == "miskatonic" and game.status == GameStatus.ACTIVE
    assert 'id="msk-board"' in c.get(r.url).content.decode()


def test_a_purchase_card_in_the_decision_box_says_where_the_card_goes():
    """Option cards: Aggressive Faculty go "straight to that player's Classroom", Friendly Students to your
    Classroom, Locker cards to the Locker, the rest to a Purchase Pile (rulebook, Pay your Tuition)."""
    from games.engines.miskatonic.cards import CARDS, card_dict
    from games.presentation.miskatonic.board import option_cards

    def first(kind, keyword=None):
        return next(card_dict(c) for c, card in CARDS.items() if card.kind == kind
                    and (keyword is None and not card.abilities or keyword in card_dict(c)["keywords"]))
    shelf = {"student": [first("student", "friendly"), first("student", "locker"), first("student")],
             "faculty": [first("faculty", "aggressive"), first("faculty"), None]}
    view = {"store": {k: {"shelf": v} for k, v in shelf.items()}, "you": {"hand": []}}
    options = [{"id": f"buy:{c['id']}", "label": ""} for cards in shelf.values() for c in cards if c]
    verbs = [option_cards(view, options)[o["id"]]["verb"] for o in options]
    assert verbs == ["Buy: straight to your Classroom", "Buy for your Locker", "Buy for your Purchase Pile",
                     "Buy: straight to the next player's Classroom", "Buy for the next player's Purchase Pile"]


def test_the_mail_heading_names_the_seat_one_based_and_says_your_turn_to_its_player():
    """Seats are shown 1-based everywhere a person reads them, the email's heading line included."""
    from games.engines.registry import get_engine
    from games.presentation.registry import presentation_for

    engine, misk = get_engine("miskatonic"), presentation_for("miskatonic")
    state = engine.new_game(players=3, options={}, seed=5)
    current = engine.pending(state)[0]
    other = (current + 1) % 3
    assert ", your turn: " in misk.where(engine.view(state, current))
    heading = misk.where(engine.view(state, other))
    assert f"seat {current + 1}'s turn" in heading and "your turn" not in heading
