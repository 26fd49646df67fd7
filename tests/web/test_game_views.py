"""The game page: who may see it, the decision form (CSRF, prompt id), stale and double submits, the live
fragment, spectators, the generic board, final scores and the replay."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.html import escape

from games.models import Game, GameStatus, Prompt, Submission, SubmissionSource
from games.services import game_create
from games.invites import invite_token
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import open_prompt, pick

from .conftest import play_until


def _move(c, game, prompt_id, option_id, **headers):
    return c.post(f"/games/{game.pk}/move/", {"prompt": prompt_id, "option": option_id}, **headers)


def test_a_player_sees_the_board_and_a_decision_form_with_csrf_and_the_prompt_id(faltisia2, login):
    game, (alice, bob) = faltisia2
    prompt = open_prompt(game, 0)
    page = login(alice).get(f"/games/{game.pk}/").content.decode()
    assert 'name="csrfmiddlewaretoken"' in page
    assert f'name="prompt" value="{prompt.prompt_id}"' in page
    for option in prompt.options:
        assert f'value="{option["id"]}"' in page
    assert 'id="schedule"' in page and page.count('<article class="student') == 2 and "Academy Store" in page
    assert 'class="countdown" data-deadline=' in page


def test_a_pick_from_the_page_is_a_web_submission(faltisia2, login):
    game, (alice, bob) = faltisia2
    prompt = open_prompt(game, 0)
    r = _move(login(alice), game, prompt.prompt_id, prompt.options[0]["id"])
    assert r.status_code == 302 and r.url == f"/games/{game.pk}/"
    s = Submission.objects.get(game=game)
    assert (s.prompt_id, s.option_id, s.source) == (prompt.prompt_id, prompt.options[0]["id"], SubmissionSource.WEB)


def test_a_double_submit_counts_once_and_says_so(faltisia2, login):
    game, (alice, bob) = faltisia2
    prompt = open_prompt(game, 0)
    c = login(alice)
    _move(c, game, prompt.prompt_id, prompt.options[0]["id"])
    r = _move(c, game, prompt.prompt_id, prompt.options[0]["id"], follow=True)
    assert b"already recorded" in r.content and Submission.objects.filter(game=game).count() == 1


def test_a_stale_pick_changes_nothing_and_shows_the_current_prompt(faltisia2, login):
    game, (alice, bob) = faltisia2
    old = open_prompt(game, 0)
    c = login(alice)
    _move(c, game, old.prompt_id, old.options[0]["id"])
    current = open_prompt(game, 0)
    state_before = Game.objects.get(pk=game.pk).state
    # The same old prompt answered differently, e.g. from a second tab.
    r = _move(c, game, old.prompt_id, old.options[1]["id"], follow=True)
    page = r.content.decode()
    assert "already made, or the options changed" in page
    assert f'name="prompt" value="{current.prompt_id}"' in page
    assert Submission.objects.filter(game=game).count() == 1 and Game.objects.get(pk=game.pk).state == state_before


def test_an_option_that_is_not_offered_changes_nothing(faltisia2, login):
    game, (alice, bob) = faltisia2
    prompt = open_prompt(game, 0)
    r = _move(login(alice), game, prompt.prompt_id, "draft:9999", follow=True)
    assert b"not one of the options" in r.content and not Submission.objects.filter(game=game).exists()


def test_the_form_is_csrf_protected(faltisia2):
    game, (alice, bob) = faltisia2
    prompt = open_prompt(game, 0)
    c = Client(enforce_csrf_checks=True)
    c.force_login(alice)
    assert _move(c, game, prompt.prompt_id, prompt.options[0]["id"]).status_code == 403
    assert not Submission.objects.filter(game=game).exists()


def test_the_fetch_submit_answers_with_the_fresh_fragment(faltisia2, login):
    game, (alice, bob) = faltisia2
    prompt = open_prompt(game, 0)
    r = _move(login(alice), game, prompt.prompt_id, prompt.options[0]["id"], HTTP_X_REQUESTED_WITH="fetch")
    data = r.json()
    assert r.status_code == 200 and data["phase"] == game.phase
    assert open_prompt(game, 0).prompt_id in data["html"] and prompt.prompt_id not in data["version"]


def test_the_live_fragment_answers_204_until_something_changes(faltisia2, login):
    game, (alice, bob) = faltisia2
    c = login(alice)
    first = c.get(f"/games/{game.pk}/live/").json()
    assert c.get(f"/games/{game.pk}/live/", {"v": first["version"]}).status_code == 204
    pick(game, 1)  # the other player decides something: who is deciding may change, my page must learn it
    play_until(game, lambda g: open_prompt(g, 1) is None)
    r = c.get(f"/games/{game.pk}/live/", {"v": first["version"]})
    assert r.status_code == 200 and r.json()["version"] != first["version"]


def test_a_spectator_of_a_public_game_watches_without_a_form(faltisia2, stranger, login):
    game, _ = faltisia2
    c = login(stranger)
    page = c.get(f"/games/{game.pk}/").content.decode()
    assert "Spectating" in page and "decision-form" not in page and 'id="my-cards"' not in page
    assert c.get(f"/games/{game.pk}/live/").status_code == 200
    prompt = open_prompt(game, 0)
    r = _move(c, game, prompt.prompt_id, prompt.options[0]["id"], follow=True)
    assert b"only its players make decisions" in r.content and not Submission.objects.filter(game=game).exists()


def test_a_private_game_is_404_for_everyone_but_its_players(db, login):
    alice, bob, eve = UserFactory(), UserFactory(), UserFactory()
    game = game_create(created_by=alice, engine="faltisia", players=2, is_public=False)
    login(bob).post(f"/invite/{invite_token(game=game)}/")
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    prompt = open_prompt(game, 0)
    c = login(eve)
    for path in ["", "live/", "replay/"]:
        assert c.get(f"/games/{game.pk}/{path}").status_code == 404
    assert _move(c, game, prompt.prompt_id, prompt.options[0]["id"]).status_code == 404
    assert c.post(f"/games/{game.pk}/orders/", {"orders": ["attend-all"]}).status_code == 404
    assert login(bob).get(f"/games/{game.pk}/").status_code == 200
    assert login(alice).get(f"/games/{game.pk}/").status_code == 200


def test_standing_orders_are_saved_for_the_players_seat(faltisia2, login):
    game, (alice, bob) = faltisia2
    r = login(alice).post(f"/games/{game.pk}/orders/", {"orders": ["attend-all"]})
    assert r.status_code == 302 and game.seats.get(position=0).standing_orders == ["attend-all"]
    r = login(alice).post(f"/games/{game.pk}/orders/", {"orders": ["fly-away"]}, follow=True)
    assert b"Not saved" in r.content and game.seats.get(position=0).standing_orders == ["attend-all"]


def test_other_engines_get_the_generic_structured_view(game2, login):
    game, (alice, bob) = game2
    page = login(alice).get(f"/games/{game.pk}/").content.decode()
    assert 'class="panel generic-board"' in page and "<dt>hand</dt>" in page
    assert "decision-form" in page and 'id="schedule"' not in page


def test_a_finished_tinygame_shows_scores_and_replays(game2, login):
    game, (alice, bob) = game2
    play_until(game, lambda g: g.status == GameStatus.FINISHED)
    game.refresh_from_db()
    c = login(alice)
    page = c.get(f"/games/{game.pk}/").content.decode()
    assert "Final scores" in page and "/replay/" in page
    for category in game.result["breakdown"][0]:
        assert category in page
    r = c.get(f"/games/{game.pk}/replay/")
    assert r.status_code == 200 and b"replay-next" in r.content and b"generic-board" in r.content


def test_the_replay_opens_only_when_the_game_is_finished(faltisia2, login):
    game, (alice, bob) = faltisia2
    r = login(alice).get(f"/games/{game.pk}/replay/")
    assert r.status_code == 302 and r.url == f"/games/{game.pk}/"


def test_a_finished_faltisia_game_has_a_breakdown_and_a_replay_with_prev_next(faltisia2, stranger, login):
    """One whole 2-player game by first options (~5 s): the score table, then the replay's steps."""
    game, (alice, bob) = faltisia2
    play_until(game, lambda g: g.status == GameStatus.FINISHED)
    game.refresh_from_db()
    c = login(alice)
    page = c.get(f"/games/{game.pk}/").content.decode()
    for label in ("Graduation", "Organization", "Clubs", "Attributes", "MP tokens"):
        assert f"<th>{label}</th>" in page
    for score in game.result["scores"]:
        assert f'<td class="num total">{score}</td>' in page
    first = c.get(f"/games/{game.pk}/replay/")
    assert first.status_code == 200 and b'id="replay-prev"' not in first.content
    step = first.context["next"]
    middle = c.get(f"/games/{game.pk}/replay/", {"step": step})
    assert middle.context["prev"] == first.context["phase"] and b'id="schedule"' in middle.content
    assert middle.context["board"] is not None  # the log replays through the engine
    last = c.get(f"/games/{game.pk}/replay/", {"step": 10 ** 6})
    assert last.context["next"] is None and last.context["phase"] == last.context["last"]
    # The last replayed board is the stored final state, seen through the same view.
    assert last.context["board"]["view"]["result"] == game.result
    spectator = login(stranger).get(f"/games/{game.pk}/replay/", {"step": step})
    assert spectator.status_code == 200 and spectator.context["board"]["you"] is None


def test_the_live_fragment_at_game_end_brings_the_finished_badge_and_the_replay_button(db, login):
    """The live fragment of the move that ends the game brings the finished badge and the Replay button to the open
    page, without a reload."""
    rehearsal, _ = make_started_game(players=2, seed=3, options={"rounds": 1})
    play_until(rehearsal, lambda g: g.status == GameStatus.FINISHED)
    picks_to_finish = rehearsal.submissions.count()  # the same seed and picks end the same way
    game, (alice, bob) = make_started_game(players=2, seed=3, options={"rounds": 1})
    play_until(game, lambda g: g.submissions.count() == picks_to_finish - 1)
    c = login(alice)
    page = c.get(f"/games/{game.pk}/").content.decode()
    assert 'id="replay-link"' not in page
    version = re.search(r'data-version="([^"]*)"', page).group(1)
    last = Prompt.objects.get(game=game, closed_at__isnull=True)
    pick(game, last.seat.position)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    data = c.get(f"/games/{game.pk}/live/", {"v": version}).json()
    assert data["status"] == "finished"
    assert 'class="badge status-finished"' in data["head"] and "status-active" not in data["head"]
    assert f'href="/games/{game.pk}/replay/"' in data["head"] and 'id="replay-link"' in data["head"]


def test_the_mats_show_the_final_totals_once_the_game_is_over(faltisia2, login):
    """Once the game is over the mats show "MP final", the same numbers as the final scores, not "MP so far"."""
    game, (alice, bob) = faltisia2
    play_until(game, lambda g: g.status == GameStatus.FINISHED)
    game.refresh_from_db()
    html = login(alice).get(f"/games/{game.pk}/").content.decode()
    assert "MP so far" not in html
    mats = re.findall(r'<span class="mp final"[^>]*>(-?\d+) <small>MP final</small>', html)
    assert [int(m) for m in mats] == game.result["scores"]


def test_the_replay_numbers_steps_once_shows_any_seat_and_lists_your_picks(faltisia2, stranger, login):
    """The replay numbers steps as the game page does, shows any seat's view once the game is over and lists the
    viewer's own picks of the step."""
    game, (alice, bob) = faltisia2
    play_until(game, lambda g: g.status == GameStatus.FINISHED)
    c = login(alice)
    steps = c.get(f"/games/{game.pk}/replay/").context["all_steps"]
    mine = [s for s in Submission.objects.filter(game=game, seat__position=0).select_related("prompt_row")
            .order_by("id") if s.phase in steps][5]
    r = c.get(f"/games/{game.pk}/replay/", {"step": mine.phase})
    html = r.content.decode()
    # "step N of M" with N the same step number as the game page and ?step=; no second "(i of n)" count
    assert f"step {mine.phase} of {r.context['last']}" in html and not re.search(r"\(\d+ of \d+\)", html)
    label = next(o["label"] for o in mine.prompt_row.options if o["id"] == mine.option_id)
    picks = html[html.index('id="replay-picks"'):]
    assert "Your picks in step" in picks and escape(label) in picks
    # alice's own seat by default; bob's hand on request, since the game is over
    assert 'class="student me" id="student-0"' in html
    as_bob = c.get(f"/games/{game.pk}/replay/", {"step": mine.phase, "as": 1})
    assert as_bob.context["board"]["you"] is not None and as_bob.context["shown"] == 1
    assert 'class="student me" id="student-1"' in as_bob.content.decode()
    assert c.get(f"/games/{game.pk}/replay/", {"as": 7}).context["shown"] == 0  # no such seat: your own
    watcher = login(stranger).get(f"/games/{game.pk}/replay/", {"step": mine.phase})
    assert 'id="replay-picks"' not in watcher.content.decode()  # a spectator made no picks


@pytest.mark.django_db
def test_the_header_shows_the_sites_own_name(login, settings):
    """The server hosts several games: the header names the site (settings.SITE_NAME), not "Faltisia" on another
    game's page."""
    settings.SITE_NAME = "Zq Game Room"
    game, users = make_started_game(players=2, engine="miskatonic", seed=5)
    html = login(users[0]).get(f"/games/{game.pk}/").content.decode()
    header = html[html.index("<header>"):html.index("</header>")]
    assert "Zq Game Room" in header and "Faltisia" not in header
    assert "<title>" in html


@pytest.mark.django_db
def test_no_step_pill_and_a_polite_live_region(login):
    """No "Step N" pill, a number that tells a player nothing; the live region announces changes politely."""
    game, users = make_started_game(players=2, engine="faltisia", seed=5)
    html = login(users[0]).get(f"/games/{game.pk}/").content.decode()
    assert f"Step {game.phase}<" not in html
    assert 'id="live-status" role="status" aria-live="polite"' in html
