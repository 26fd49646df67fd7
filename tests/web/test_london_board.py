"""The Battle for London on Faltisia's game page, live fragment, result table, emails and
API view, in an expansion game driven through the server to a state with routes A and B taken, route A's three
Control Points broken and the Big Ben bonus "Eight MP" taken by seat 0 (tests/web/london_game.py)."""

from __future__ import annotations

import html
import json
import re

from django.core import mail

from games.engines.faltisia.cards import CARDS
from games.mail.compose import render_finished, render_prompt
from games.models import Event, Prompt, Seat
from games.presentation.faltisia import presentation
from tests.factories import make_started_game

from .london_game import BFL, ENGINE, SEED, drive, finish, london_game


def _text(page: str) -> str:
    """The page's words, as a reader sees them (tags dropped, spaces collapsed)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_the_page_draws_the_peacekeeping_board_paladins_and_each_mat(db, login, stranger):
    """Routes A-F with each seat's marker, checkpoints left, Control Points with price and
    requirement and which are broken, Big Ben bonuses taken and by whom; the Support Character of each Round
    beside the schedule with the current one marked; each player's Attendance Award and checkpoint tokens."""
    game, users = london_game()
    for client in (login(users[1]), login(stranger)):
        for page in (client.get(f"/games/{game.pk}/").content.decode(),
                     client.get(f"/games/{game.pk}/live/").json()["html"]):
            text = _text(page)
            assert "{#" not in page and "{%" not in page  # no template comment leaks as text
            assert 'id="peacekeeping"' in page and all(f'id="route-{r}"' in page for r in "ABCDEF")
            assert "Route A marker of Nana Michelle (seat 1) · 5 of 5 moves" in text
            assert "0 checkpoints left" in text and "4 checkpoints left" in text
            route_a = page[page.index('id="route-A"'):page.index('id="route-B"')]
            assert route_a.count("pk-cell control broken") == 3 and "£7 or Strength 12" in route_a
            route_c = page[page.index('id="route-C"'):page.index('id="route-D"')]
            assert "broken" not in route_c and "£5 or Beauty 10" in route_c and "free" in route_c
            assert "Eight MP: taken by Nana Michelle (seat 1)" in text and "Twenty Sterlings: free" in text
            paladins = page[page.index('id="paladins"'):]
            assert "Round 3 Support Character Nofeena de Tart" in _text(paladins)
            assert "mercenaries 2 Sterlings cheaper" in paladins and paladins.count("◀ this Round") == 1
            mat0 = _text(page[page.index('id="pk-mat-0"'):])
            assert "Attendance Award face up · 7 MP" in mat0 and "4 checkpoints" in mat0
            assert "Three Red tokens" in mat0 and "Big Ben: Eight MP" in mat0
            assert "Attendance Award flipped · 0 MP" in _text(page[page.index('id="pk-mat-1"'):])


def test_the_api_view_carries_the_same_board(db, api):
    """The API view says the same in data: routes, broken Control Points, Big Ben, awards."""
    game, users = london_game()
    view = api.as_user(users[1]).get(f"/api/games/{game.pk}/").json()["view"]
    assert view["london"]["routes"][0]["seat"] == 0 and view["london"]["routes"][1]["seat"] == 1
    assert view["london"]["big_ben"][0] == {"id": "mp", "name": "Eight MP", "seat": 0}
    assert view["seats"][0]["london"]["control_points_broken"] == 3
    assert view["seats"][1]["london"]["attendance_award"] is False
    assert view["london"]["current_paladin"]["name"] == "Nofeena de Tart"


def _seat1_surfaces(game, users, client) -> dict[str, str]:
    seat1 = Seat.objects.get(game=game, position=1)
    out = {"page": client.get(f"/games/{game.pk}/").content.decode(),
           "live": client.get(f"/games/{game.pk}/live/").json()["html"],
           "replay": client.get(f"/games/{game.pk}/replay/").content.decode(),
           "log": "\n".join(e.text for e in Event.objects.filter(game=game) if e.visible_to(1)),
           "emails": "\n".join(m.body + "".join(str(a[0]) for a in getattr(m, "alternatives", []))
                               for m in mail.outbox if users[1].email in m.to)}
    prompt = Prompt.objects.filter(seat=seat1, closed_at__isnull=True).first()
    if prompt is not None:
        rendered = render_prompt(prompt=prompt, user=users[1])
        out["prompt email"] = rendered.text + rendered.html
    return out


def test_another_seats_set_aside_maid_ability_stays_hidden_until_the_end(db, login, api, stranger):
    """Hidden-info canary: seat 0's set-aside Maid Ability (0003 Patisserie Rush, not played:
    seat 0 took "Eight MP" at Big Ben) never reaches seat 1's page, live fragment, replay, emails, log or API view,
    nor a spectator's page, while the game runs; seat 0 sees its own; once the game is over everyone does."""
    game, users = london_game()
    aside = game.state["seats"][0]["bfl"]["aside"]
    name = CARDS[aside].name
    assert aside == "0003" and game.state["seats"][0]["bfl"]["bonus"] == "mp"
    own = login(users[0]).get(f"/games/{game.pk}/").content.decode()
    assert 'id="set-aside-0"' in own and html.escape(name) in own  # the check can fail: the name does reach a page
    surfaces = _seat1_surfaces(game, users, login(users[1]))
    surfaces["api"] = json.dumps(api.as_user(users[1]).get(f"/api/games/{game.pk}/").json())
    surfaces["spectator"] = login(stranger).get(f"/games/{game.pk}/").content.decode()
    for where, text in surfaces.items():
        assert name not in text and html.escape(name) not in text, f"{name} leaked into {where}"
        assert f'"{aside}"' not in text and f">{aside}<" not in text and 'id="set-aside-0"' not in text, where
    assert "Peacekeeping" in surfaces["emails"] + surfaces.get("prompt email", "")  # the emails were looked at
    # Seat 1's own set-aside card is on its own page (and only its own).
    assert 'id="set-aside-1"' in surfaces["page"]
    finish(game)
    for client in (login(users[1]), login(stranger)):
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert 'id="set-aside-0"' in page and html.escape(name) in page and "revealed at the end" in page


def test_the_result_table_and_the_game_over_mail_name_the_new_categories(db, login):
    """The breakdown shows Attendance Award and Checkpoints in plain words on the result
    table and in the game-over email (not the engine's keys)."""
    game, users = london_game()
    finish(game)
    page = login(users[0]).get(f"/games/{game.pk}/").content.decode()
    head = page[page.index('id="result"'):]
    head = head[:head.index("</thead>")]
    assert "<th>Attendance Award</th>" in head and "<th>Checkpoints</th>" in head
    breakdown = game.result["breakdown"]
    assert breakdown[0]["attendance_award"] == 7 and breakdown[1]["attendance_award"] == 0
    assert breakdown[0]["checkpoints"] == 3
    rendered = render_finished(game=game, seat=Seat.objects.get(game=game, position=0), user=users[0])
    assert "Attendance Award 7" in rendered.text and "Checkpoints 3" in rendered.text
    assert "attendance_award" not in rendered.text and "attendance_award" not in rendered.html


def _seat_deciding(state: dict, stage: str | None = None, option: str | None = None) -> int | None:
    for i in range(state["players"]):
        prompt = ENGINE.prompt(state, i)
        if prompt is None:
            continue
        if (stage and (state["seats"][i]["dec"] or {}).get("st") == stage) or (
                option and option in {o.id for o in prompt.options}):
            return i
    return None


def _decision_box(page: str) -> str:
    box = page[page.index('id="decision"'):]
    return _text(box[:box.index("</form>")])


def test_the_expansions_prompts_read_as_cards_in_the_decision_box(db, login):
    """The Maid Ability pick, the route choice, Peacekeeping (an off-campus action) and the Big Ben bonus are
    drawn in the decision box as cards saying what they are: the ability's text, the route's checkpoints and Control
    Points, what the next Peacekeeping move does."""
    game, users = make_started_game(players=2, engine="faltisia", options=BFL, seed=SEED)
    page = login(users[0]).get(f"/games/{game.pk}/").content.decode()
    decision = page[page.index('id="decision"'):]
    assert "Keep this Maid Ability" in decision and "Patisserie Rush" in decision
    assert "Bakery Delivery Run" in decision
    drive(game, lambda state: _seat_deciding(state, stage="route") is not None)
    seat = _seat_deciding(game.state, stage="route")
    page = login(users[seat]).get(f"/games/{game.pk}/").content.decode()
    assert "Peacekeeping: choosing a route" in _text(page)  # the status line names the step (not "Route")
    decision = _decision_box(page)
    assert "Place my marker here" in decision and "Route C" in decision
    assert "Control Points: C1 £5 or Beauty 10; C2 £7 or Beauty 12; C3 £9 or Purity 13." in decision
    drive(game, lambda state: _seat_deciding(state, option="peace") is not None)
    seat = _seat_deciding(game.state, option="peace")
    decision = _decision_box(login(users[seat]).get(f"/games/{game.pk}/").content.decode())
    route = game.state["seats"][seat]["bfl"]["route"]
    assert "Do Peacekeeping" in decision and f"Route {route}, move 1 of 5: take " in decision
    drive(game, lambda state: _seat_deciding(state, stage="bigben") is not None)
    seat = _seat_deciding(game.state, stage="bigben")
    page = login(users[seat]).get(f"/games/{game.pk}/").content.decode()
    assert "Big Ben: choosing a bonus" in _text(page)
    decision = _decision_box(page)
    assert "Take this bonus" in decision and "Play your set-aside Maid Ability" in decision
    assert decision.count("Take this bonus") == 6


def test_the_prompt_email_has_a_peacekeeping_section_in_plain_words(db):
    """The email situation says in words what the board shows: Support Characters, the seat's
    route and set-aside Maid Ability (its own only), each seat's award and checkpoints, routes, Big Ben."""
    game, users = london_game()
    sections = dict(presentation.mail_sections(ENGINE.view(game.state, 1), 1))
    lines = sections["Peacekeeping"]
    assert "Round 3 Support Character: Nofeena de Tart (mercenaries 2 Sterlings cheaper) - this Round." in lines
    assert "Your route: B, 0 of 5 moves, 0 Control Points broken." in lines
    assert ("Your set-aside Maid Ability (hidden from the others): L0006 Exchange Programme "
            f"({CARDS['L0006'].text}).") in lines
    assert ("Nana Michelle (seat 1): Attendance Award face up (7 MP); 4 checkpoint tokens (Three Red tokens, "
            "Five Sterlings, Five MP, Intelligence +2).") in lines
    assert "You: Attendance Award flipped (0 MP); 0 checkpoint tokens (no checkpoints)." in lines
    assert ("Route A: Nana Michelle (seat 1), 5 of 5 moves; 0 checkpoints left; Control Points A1 5 Sterlings or "
            "Strength 10 (broken); A2 7 Sterlings or Strength 12 (broken); A3 9 Sterlings or Intelligence 13 "
            "(broken).") in lines
    assert any(ln.startswith("Route C: free; 4 checkpoints left; Control Points C1 5 Sterlings or Beauty 10;")
               for ln in lines)
    assert lines[-1].startswith("Big Ben bonuses: Eight MP (taken by Nana Michelle (seat 1));")
    assert "Twenty Sterlings (free)" in lines[-1]
    heading = presentation.where(dict(ENGINE.view(game.state, 1), phase="bigben"))
    assert heading.startswith("Round 3, term ") and "choosing a Big Ben bonus" in heading
    seat0 = "\n".join(presentation.mail_sections(ENGINE.view(game.state, 0), 0)[-1][1])
    assert "Exchange Programme" not in seat0 and "Patisserie Rush" in seat0


def test_the_rules_page_has_the_expansion_section(db, client):
    """Faltisia's rules summary gets a Battle for London section written from the rulebook
    (set-aside Maid Ability, routes, Peacekeeping, Control Points, Paladins, Big Ben, expansion scoring)."""
    page = _text(client.get("/games/faltisia/rules/").content.decode())
    section = page[page.index("Expansion: The Battle for London"):page.index("Playing here")]
    for words in ("two Maid Ability cards", "route no other player has taken", "fifth off-campus action",
                  "hire mercenaries", "the action fails and your marker stays", "Nofeena de Tart",
                  "play your set-aside Maid Ability", "7 MP if it is still face up",
                  "3 MP if you hold four checkpoint"):
        assert words in section, words
