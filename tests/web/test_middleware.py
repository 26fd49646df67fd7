"""Issue 11 item 9, "small breaks": the live title line at game end, final MP on the mats, the sign-up time
zone, the replay (one step numbering, every seat once over, your own picks), the site's own 404/500 pages
and /favicon.ico."""

from __future__ import annotations

import re

from django.contrib.staticfiles import finders
from django.test import Client, RequestFactory, override_settings
from django.utils.html import escape
from django.views import debug

from games.models import GameStatus, Prompt, Submission
from games.web.middleware import OutsiderErrorPageMiddleware
from tests.factories import make_started_game
from tests.games.helpers import pick

from .conftest import play_until

OUTSIDER = "203.0.113.7"  # TEST-NET-3: another machine


def test_the_live_fragment_at_game_end_brings_the_finished_badge_and_the_replay_button(db, login):
    """issue 11 item 9: the open page got no Replay button and kept the green "active" badge until a reload."""
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
    """issue 11 item 9: the mats said "MP so far" with numbers that disagreed with the final scores."""
    game, (alice, bob) = faltisia2
    play_until(game, lambda g: g.status == GameStatus.FINISHED)
    game.refresh_from_db()
    html = login(alice).get(f"/games/{game.pk}/").content.decode()
    assert "MP so far" not in html
    mats = re.findall(r'<span class="mp final"[^>]*>(-?\d+) <small>MP final</small>', html)
    assert [int(m) for m in mats] == game.result["scores"]


def test_sign_up_prefills_the_browsers_time_zone_on_a_fresh_form_only(db):
    """issue 11 item 9: sign-up ignored the browser's time zone; a script preselects it on a fresh form."""
    fresh = Client().get("/accounts/signup/").content.decode()
    assert "web/timezone_prefill.js" in fresh
    script = finders.find("web/timezone_prefill.js")
    assert script and "resolvedOptions().timeZone" in open(script).read()
    shown_again = Client().post("/accounts/signup/", {"username": "x"}).content.decode()
    assert "web/timezone_prefill.js" not in shown_again  # the person's own choice is kept


def test_the_replay_numbers_steps_once_shows_any_seat_and_lists_your_picks(faltisia2, stranger, login):
    """issue 11 item 9: one step numbering, every seat's view once over, the viewer's own picks listed."""
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


def test_a_bad_url_gets_the_sites_404_page_without_a_route_list(db):
    """issue 11 item 9: outsiders got Django's DEBUG 404 listing every URL."""
    r = Client().get("/no-such-page/")  # tests run with DEBUG off: Django renders templates/404.html
    html = r.content.decode()
    assert r.status_code == 404 and "Page not found" in html and 'class="topnav"' in html
    assert "URLconf" not in html and "api/" not in html


@override_settings(DEBUG=True)
def test_with_debug_on_only_this_machine_sees_the_debug_404(db):
    """issue 11 item 9: the embedded default (DEBUG=True) stays debug-friendly locally, leaks no routes outside."""
    local = Client(REMOTE_ADDR="127.0.0.1").get("/no-such-page/")
    assert local.status_code == 404 and "URLconf" in local.content.decode()
    outside = Client(REMOTE_ADDR=OUTSIDER).get("/no-such-page/")
    html = outside.content.decode()
    assert outside.status_code == 404 and "Page not found" in html
    assert "URLconf" not in html and "tournaments/&lt;int" not in html and "admin/" not in html
    api = Client(REMOTE_ADDR=OUTSIDER).get("/api/games/999999/")
    assert api.status_code in (401, 403, 404) and api["Content-Type"].startswith("application/json")


@override_settings(DEBUG=True)
def test_with_debug_on_an_outsider_gets_the_plain_500_page(db):
    """issue 11 item 9: Django's debug 500 page (settings, traceback) reaches local requests only."""
    request = RequestFactory().get("/boom/", REMOTE_ADDR=OUTSIDER)
    technical = debug.technical_500_response(request, ValueError, ValueError("secret detail"), None)
    response = OutsiderErrorPageMiddleware(lambda r: technical)(request)
    html = response.content.decode()
    assert response.status_code == 500 and "Something went wrong" in html and "secret detail" not in html
    local = RequestFactory().get("/boom/", REMOTE_ADDR="127.0.0.1")
    assert OutsiderErrorPageMiddleware(lambda r: technical)(local) is technical


def test_favicon_answers(db):
    """issue 11 item 9: /favicon.ico was a 404."""
    r = Client().get("/favicon.ico")
    assert r.status_code == 301 and r["Location"].endswith("web/favicon.svg")
    assert finders.find("web/favicon.svg")
    assert 'rel="icon"' in Client().get("/accounts/login/").content.decode()
