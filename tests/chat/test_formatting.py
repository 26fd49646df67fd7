"""A message as HTML: escaped as typed, links clickable safely, seat mentions marked."""

from __future__ import annotations

from games.chat.formatting import chat_html

NAMES = {"alice": 0, "bob": 1}


def html(text: str, me: int | None = None) -> str:
    return str(chat_html(text, names=NAMES, players=3, me=me))


def test_markup_is_escaped_and_line_breaks_kept():
    assert html('<script>alert("x")</script>\nok & done') == (
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<br>\nok &amp; done")


def test_http_links_become_safe_anchors_and_other_schemes_stay_text():
    out = html("see https://example.org/a?b=1&c=2. or javascript:alert(1)")
    assert ('<a href="https://example.org/a?b=1&amp;c=2" rel="nofollow ugc noopener" target="_blank">'
            "https://example.org/a?b=1&amp;c=2</a>.") in out
    assert "javascript:alert(1)" in out and out.count("<a ") == 1


def test_a_quote_cannot_break_out_of_a_link():
    out = html('https://x.org/"onmouseover="alert(1)')
    assert 'href="https://x.org/"' in out and "&quot;onmouseover=&quot;alert(1)" in out


def test_mentions_of_players_and_seats_are_marked_and_the_readers_own_stand_out():
    out = html("@bob and seat 1, not @nobody or seat 9", me=0)
    assert '<mark class="mention" data-seat="1">@bob</mark>' in out
    assert '<mark class="mention mention-me" data-seat="0">seat 1</mark>' in out
    assert "@nobody" in out and "<mark" not in out.split("not")[1]
