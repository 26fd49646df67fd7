"""Table talk on the web: the panel on the game page, its poll and post, unread counts on
the page, in the lobby and in the nav, notes, reports, blocks and mutes; text escaped as typed."""

from __future__ import annotations

import pytest

from games.chat.models import ChatMessage, ChatReport, SeatNote, TableMute, UserBlock
from games.chat.services import message_post
from games.models import Press
from tests.web.conftest import client_for

from tests.chat.helpers import chat_game, spectator

pytestmark = pytest.mark.django_db

FETCH = {"HTTP_X_REQUESTED_WITH": "fetch"}


def page(user, game) -> str:
    r = client_for(user).get(f"/games/{game.pk}/")
    assert r.status_code == 200
    return r.content.decode()


def test_the_panel_shows_the_table_and_own_threads_escaped_with_links_safe_and_mentions_marked():
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    message_post(game=game, user=alice, text=f"<b>hi</b> @{bob.username} see https://example.org/rules")
    message_post(game=game, user=alice, text="only for the third seat", to=[2])
    html = page(bob, game)
    assert 'id="chat"' in html and "&lt;b&gt;hi&lt;/b&gt;" in html and "<b>hi</b>" not in html
    assert '<a href="https://example.org/rules" rel="nofollow ugc noopener" target="_blank">' in html
    assert f'<mark class="mention mention-me" data-seat="1">@{bob.username}</mark>' in html
    assert "only for the third seat" not in html
    assert "only for the third seat" in page(carol, game)
    watcher = page(spectator(), game)
    assert "&lt;b&gt;hi&lt;/b&gt;" in watcher and "only for the third seat" not in watcher
    assert 'id="chat-form"' not in watcher and "Spectators read the table talk" in watcher


def test_the_page_counts_what_is_new_then_the_count_is_gone_once_seen():
    game, (alice, bob, _) = chat_game()
    message_post(game=game, user=alice, text="one")
    message_post(game=game, user=alice, text="two")
    first = page(bob, game)
    assert '<span class="badge unread" id="chat-unread">2 new</span>' in first
    assert first.count("chat-msg new") == 2
    again = page(bob, game)
    assert 'id="chat-unread" hidden' in again and "chat-msg new" not in again


def test_the_lobby_and_the_nav_count_unread_messages():
    game, (alice, bob, _) = chat_game()
    message_post(game=game, user=alice, text="are you there?")
    lobby = client_for(bob).get("/").content.decode()
    assert "1 new message</span>" in lobby and 'id="nav-unread"' in lobby
    page(bob, game)
    lobby = client_for(bob).get("/").content.decode()
    assert "0 new messages</span>" in lobby and 'data-unread-game="%d" hidden' % game.pk in lobby
    assert 'id="nav-unread" title="new table talk in your games" hidden' in lobby


def test_the_unread_counts_answer_counts_only_of_the_callers_seats():
    """The nav's and the lobby's unread counts refresh from /games/unread/: counts per game of the caller's own
    seats, what they may read only, nothing of the text."""
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    other, _ = chat_game(users=[carol, bob])
    message_post(game=game, user=alice, text="to all")
    message_post(game=game, user=alice, text="secret for carol", to=[2])
    message_post(game=other, user=carol, text="hi bob")
    answer = client_for(bob).get("/games/unread/")
    assert answer.status_code == 200 and answer["Cache-Control"] == "private, no-store"
    assert answer.json() == {"total": 2, "games": {str(game.pk): 1, str(other.pk): 1}}
    assert "secret" not in answer.content.decode() and "to all" not in answer.content.decode()
    assert client_for(carol).get("/games/unread/").json() == {"total": 2, "games": {str(game.pk): 2}}
    page(bob, game)  # read on the page: no longer new
    assert client_for(bob).get("/games/unread/").json() == {"total": 1, "games": {str(other.pk): 1}}
    assert client_for(spectator()).get("/games/unread/").json() == {"total": 0, "games": {}}


def test_the_poll_answers_204_while_nothing_is_new_and_the_new_messages_as_html(django_assert_max_num_queries):
    game, (alice, bob, _) = chat_game()
    c = client_for(bob)
    first = message_post(game=game, user=alice, text="first")
    with django_assert_max_num_queries(4):  # the session, the user, the game's visibility, the newest id
        assert c.get(f"/games/{game.pk}/chat/?since={first.pk}", **FETCH).status_code == 204
    message_post(game=game, user=alice, text="<i>second</i>")
    r = c.get(f"/games/{game.pk}/chat/?since={first.pk}", **FETCH)
    body = r.json()
    assert r.status_code == 200 and "&lt;i&gt;second&lt;/i&gt;" in body["html"] and body["fresh"] == 1
    assert body["last"] > first.pk


def test_the_poll_says_nothing_to_a_third_seat_of_two_others_talking_privately():
    """Seat c polling must not learn that a and b exchanged a private message: a poll answers as if it were not
    there (204 before and after it), and ``last`` never passes the newest message the caller may read."""
    game, (a, b, c) = chat_game(press=Press.FULL)
    table = message_post(game=game, user=a, text="hello all")
    poll = lambda: client_for(c).get(f"/games/{game.pk}/chat/?since={table.pk}", **FETCH)  # noqa: E731
    assert poll().status_code == 204
    private = message_post(game=game, user=a, text="PRIVATE-CANARY", to=[1])
    assert poll().status_code == 204
    later = message_post(game=game, user=b, text="and hello again")
    newer_private = message_post(game=game, user=a, text="PRIVATE-CANARY 2", to=[1])
    r = poll()
    assert r.status_code == 200 and r.json()["last"] == later.pk < newer_private.pk
    assert "PRIVATE-CANARY" not in r.content.decode()
    assert client_for(c).get(f"/games/{game.pk}/chat/?since={later.pk}", **FETCH).status_code == 204
    assert private.pk < later.pk


def test_posting_from_the_page_by_script_and_without_it():
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    c = client_for(alice)
    r = c.post(f"/games/{game.pk}/chat/", {"text": "good luck", "since": "0"}, **FETCH)
    assert r.status_code == 200 and "good luck" in r.json()["html"]
    r = c.post(f"/games/{game.pk}/chat/", {"text": "just you two", "to": ["1", "2"]})
    assert r.status_code == 302 and r["Location"].endswith("#chat")
    assert ChatMessage.objects.get(text="just you two").audience == 0b111
    r = c.post(f"/games/{game.pk}/chat/", {"text": "x" * 2001}, **FETCH)
    assert r.status_code == 400 and r.json()["error"] == "too_long"
    r = client_for(spectator()).post(f"/games/{game.pk}/chat/", {"text": "let me in"}, **FETCH)
    assert r.status_code == 403 and r.json()["error"] == "not_a_player"
    assert ChatMessage.objects.count() == 2


def test_a_private_game_panel_and_poll_are_a_404_to_outsiders():
    game, (alice, _, _) = chat_game(public=False)
    outsider = client_for(spectator())
    assert outsider.get(f"/games/{game.pk}/chat/?since=0").status_code == 404
    assert outsider.post(f"/games/{game.pk}/chat/", {"text": "hi"}).status_code == 404
    assert not ChatMessage.objects.exists()


def test_notes_are_saved_on_the_page_and_shown_to_their_player_only():
    game, (alice, bob, _) = chat_game()
    r = client_for(alice).post(f"/games/{game.pk}/notes/", {"text": "<plan> bluff in round 2"}, **FETCH)
    assert r.status_code == 200 and r.json() == {"saved": True}
    assert "&lt;plan&gt; bluff in round 2" in page(alice, game)
    assert "bluff in round 2" not in page(bob, game)
    assert client_for(spectator()).post(f"/games/{game.pk}/notes/", {"text": "mine?"}).status_code == 302
    assert SeatNote.objects.count() == 1


def test_report_block_and_mute_from_the_page():
    game, (alice, bob, carol) = chat_game()
    message = message_post(game=game, user=bob, text="rude words")
    client_for(carol).post(f"/games/{game.pk}/chat/report/", {"message": message.pk, "reason": "rude"})
    assert ChatReport.objects.get().reason == "rude"
    client_for(carol).post(f"/games/{game.pk}/block/", {"position": "1", "action": "block"})
    assert UserBlock.objects.filter(blocker=carol, blocked=bob).exists()
    assert "rude words" not in page(carol, game)
    client_for(carol).post(f"/games/{game.pk}/mute/", {"position": "1", "action": "mute"})
    assert not TableMute.objects.exists()  # carol did not create the game
    client_for(alice).post(f"/games/{game.pk}/mute/", {"position": "1", "action": "mute"})
    assert TableMute.objects.filter(game=game, user=bob).exists()
    assert "You are muted at this table." in page(bob, game)


def test_the_new_game_form_chooses_the_press():
    alice = spectator()
    r = client_for(alice).post("/games/new/", {"game": "tinygame", "seats": 2, "bots": 0, "clock": "fixed-48h",
                                               "press": "none", "is_public": "on", "rounds": 1})
    assert r.status_code == 302, r.content.decode()[:2000]
    from games.models import Game
    assert Game.objects.get().press == Press.NONE


def test_after_the_game_its_table_talk_is_in_the_replay_and_private_threads_only_for_their_seats():
    """Once the game is over its table talk is in the replay, each private thread for its own seats only."""
    from games.models import GameStatus
    from tests.games.helpers import play_step

    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    message_post(game=game, user=alice, text="good luck all")
    message_post(game=game, user=alice, text="bob, let us team up", to=[1])
    for _ in range(20):
        play_step(game)
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            break
    assert game.status == GameStatus.FINISHED

    def replay(user):
        c = client_for(user)
        first = c.get(f"/games/{game.pk}/replay/").content.decode()
        return first

    assert "good luck all" in replay(bob) and "bob, let us team up" in replay(bob)
    assert "good luck all" in replay(carol) and "let us team up" not in replay(carol)
    watcher = replay(spectator())
    assert "good luck all" in watcher and "let us team up" not in watcher
