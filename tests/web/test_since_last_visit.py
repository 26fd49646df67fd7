"""What did the others do? The history newest first and "since your last visit"."""

from __future__ import annotations

import pytest

from games.models import Event, Seat
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import pick, play_step

pytestmark = pytest.mark.django_db


def _page(client, game) -> str:
    return client.get(f"/games/{game.pk}/").content.decode()


def _summary(page: str) -> str:
    if 'id="since-last-visit"' not in page:
        return ""
    start = page.index('id="since-last-visit"')
    return page[start:page.index("</section>", start)]


def test_the_history_shows_the_newest_event_first(login):
    """The newest event is at the top of the history box, not below its fold."""
    game, (alice, bob) = make_started_game(players=2, options={"rounds": 2}, seed=3)
    play_step(game)
    play_step(game)
    page = _page(login(alice), game)
    history = page[page.index('id="history"'):]
    texts = [e.text for e in Event.objects.filter(game=game).order_by("id") if e.visible_to(0)]
    assert len(texts) >= 3
    assert history.index(texts[-1]) < history.index(texts[1]) < history.index(texts[0])


def test_since_your_last_visit_lists_what_this_seat_may_see_that_is_new(login):
    """Remembered per player; only events this seat may see; gone once seen."""
    game, (alice, bob) = make_started_game(players=2, options={"rounds": 2}, seed=3)
    alice_client = login(alice)
    assert _summary(_page(alice_client, game)) == ""  # a first visit: the whole history is new anyway
    seen = Seat.objects.get(game=game, position=0).web_seen_event_id
    assert seen == Event.objects.filter(game=game).order_by("id").last().pk

    bob_card = game.state["hands"][1][0]
    pick(game, 1, f"c{bob_card}")  # bob plays a card: secret until the step resolves
    pick(game, 1, "high")
    pick(game, 0)  # alice, from her inbox: the page did not see this
    pick(game, 0, "low")
    game.refresh_from_db()
    assert game.phase == 1  # the draft resolved: both cards are public now

    summary = _summary(_page(alice_client, game))
    new_for_alice = [e.text for e in Event.objects.filter(game=game, pk__gt=seen).order_by("-id")
                     if e.visible_to(0)]
    assert new_for_alice and summary.index(new_for_alice[0]) < summary.index(new_for_alice[-1])  # newest first
    for text in new_for_alice:
        assert text in summary
    # bob's own log lines ("You played card ...", "You bet ...") are his alone.
    for e in Event.objects.filter(game=game, pk__gt=seen).exclude(visibility=None):
        if not e.visible_to(0):
            assert e.text not in summary
    assert "You bet high" not in summary

    assert _summary(_page(alice_client, game)) == ""  # seen now
    # bob's marker is his own: his first visit shows no summary, and alice's visits did not move it.
    assert Seat.objects.get(game=game, position=1).web_seen_event_id is None


def test_a_spectator_gets_no_summary(login):
    """The summary is a player's; a spectator reads the history."""
    game, _ = make_started_game(players=2, options={"rounds": 1}, seed=3)
    game.is_public = True
    game.save()
    page = _page(login(UserFactory()), game)
    assert 'id="history"' in page and _summary(page) == ""


def test_a_new_player_at_the_seat_starts_with_no_summary_of_someone_elses_visits(login):
    """Remembered per player: when an admin gives alice's seat to carol, alice's marker is
    not carol's (carol would otherwise get a "since your last visit" for visits she never made). The same
    player handing her seat to a bot keeps hers."""
    from games.services import admin_actions

    game, (alice, bob) = make_started_game(players=2, options={"rounds": 2}, seed=3)
    _page(login(alice), game)
    _page(login(bob), game)
    play_step(game)
    assert Seat.objects.get(game=game, position=0).web_seen_event_id is not None
    boss = UserFactory()
    boss.is_staff = True
    boss.save()

    # bob leaves his seat to a bot: the same player, so his marker stays.
    bob_seen = Seat.objects.get(game=game, position=1).web_seen_event_id
    admin_actions.seat_hand_to_bot(game=game, by=bob, position=1)
    assert Seat.objects.get(game=game, position=1).web_seen_event_id == bob_seen

    carol = UserFactory()
    admin_actions.seat_replace_player(game=game, by=boss, position=0, user=carol)
    assert Seat.objects.get(game=game, position=0).web_seen_event_id is None
    assert _summary(_page(login(carol), game)) == ""  # her first visit: the whole history is new to her
    assert Seat.objects.get(game=game, position=0).web_seen_event_id is not None  # and from now on hers
