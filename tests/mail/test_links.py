"""Signed one-click links: GET changes nothing; POST records once; forged, expired and reused links
get a clear error and change nothing."""

from __future__ import annotations

import re

import pytest
from django.core import signing
from django.test import Client

from games.mail.links import PICK_SALT
from games.mail.models import UsedLink
from games.models import Game, Submission
from tests.mail.helpers import latest_prompt_mail, start_game

pytestmark = pytest.mark.django_db(transaction=True)  # the pick's on-commit effects run for real

# One-click links are the HTML part's buttons; the text has one link to the game's page.
LINK = re.compile(r'href="https?://[^/"]+(/mail/l/[^"]+/)"')


@pytest.fixture
def setup():
    game, users = start_game(players=2, options={"rounds": 1})
    m = latest_prompt_mail(users[0].email)
    return game, users, m, LINK.findall(m.alternatives[0][0])


def state_of(game: Game):
    game.refresh_from_db()
    return (game.phase, Submission.objects.count(), str(game.state))


def test_get_shows_a_confirm_page_and_changes_nothing_post_records_the_pick(setup):
    game, users, m, links = setup
    client = Client()
    before = state_of(game)
    page = client.get(links[1])
    assert page.status_code == 200 and b"Confirm this choice" in page.content and b'method="post"' in page.content
    assert client.get(links[1]).status_code == 200  # a scanner prefetching twice changes nothing
    assert state_of(game) == before and not UsedLink.objects.exists()
    done = client.post(links[1])
    assert done.status_code == 200 and b"Recorded" in done.content
    sub = Submission.objects.get()
    assert sub.source == "email" and sub.option_id == "c" + re.search(rb"Card (\d+)", done.content).group(1).decode()


def test_a_reused_link_is_refused_and_changes_nothing(setup):
    game, users, m, links = setup
    client = Client()
    assert client.post(links[0]).status_code == 200
    before = state_of(game)
    again = client.post(links[0])
    assert again.status_code == 409 and b"already been used" in again.content
    assert client.get(links[0]).status_code == 409
    assert state_of(game) == before


def test_another_link_of_an_answered_prompt_is_refused_as_closed(setup):
    game, users, m, links = setup
    client = Client()
    assert client.post(links[0]).status_code == 200
    before = state_of(game)
    other = client.post(links[1])
    assert other.status_code == 409 and b"already closed" in other.content
    assert state_of(game) == before
    assert UsedLink.objects.count() == 1  # the refused link was not consumed


def test_a_forged_link_is_refused(setup):
    game, users, m, links = setup
    client = Client()
    before = state_of(game)
    token = links[0].split("/")[-2]
    tampered = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    r = client.post(f"/mail/l/{tampered}/")
    assert r.status_code == 400 and b"not valid" in r.content
    # A token signed with the wrong key (or salt) naming another option is refused too.
    data = signing.loads(token, salt=PICK_SALT)
    forged = signing.dumps({**data, "o": "c1"}, salt=PICK_SALT, key="not-our-secret")
    assert client.post(f"/mail/l/{forged}/").status_code == 400
    assert client.post("/mail/l/garbage/").status_code == 400
    assert state_of(game) == before and not UsedLink.objects.exists()


def test_an_expired_link_is_refused(setup, settings):
    game, users, m, links = setup
    settings.MAIL_LINK_MAX_AGE_SECONDS = -1  # every link issued so far is older than that
    before = state_of(game)
    r = Client().post(links[0])
    assert r.status_code == 410 and b"expired" in r.content
    assert state_of(game) == before


def test_unsubscribe_get_confirms_post_unsubscribes(setup):
    game, users, m, links = setup
    url = re.search(r"<https?://[^/]+(/mail/unsubscribe/\S+/)>", m.extra_headers["List-Unsubscribe"]).group(1)
    assert m.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    client = Client()
    assert client.get(url).status_code == 200
    prefs = users[0].notification_preferences
    prefs.refresh_from_db()
    assert prefs.email_prompts
    assert client.post(url, {"List-Unsubscribe": "One-Click"}).status_code == 200
    prefs.refresh_from_db()
    assert not (prefs.email_prompts or prefs.email_results or prefs.digest)
    assert client.post(url.replace("/unsubscribe/", "/unsubscribe/x")).status_code == 400
