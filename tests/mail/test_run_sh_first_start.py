"""The first start is quiet: ./run.sh ends with its banner, mails go to files, the beat is silent
(not ~300 lines of emails before the banner, nor a beat line every 2 s)."""

from __future__ import annotations

from tests.mail.run_sh import BANNER_END, free_port, run_sh

LINGER_SECONDS = 15  # the beat's shortest interval is 2 s: it would have logged ~7 lines by then


def test_the_banner_is_the_last_thing_on_screen_and_the_demo_mail_is_in_files(tmp_path):
    port = free_port()
    out = run_sh(tmp_path, linger=LINGER_SECONDS, ADDR=f"127.0.0.1:{port}")
    lines = [line for line in out.text.splitlines() if line.strip()]
    last = "\n".join(lines[-12:])
    # The banner (page, logins, tokens, where the mail is) is at the bottom, after the dev server's lines.
    assert BANNER_END in last and f"http://127.0.0.1:{port}/games/" in last and "Token " in last
    assert f"Mail:   every email is a file in {tmp_path / 'mail'}/" in last
    assert out.text.index("Starting development server") < out.text.index(BANNER_END)
    # No email on the terminal; the demo game's prompt mails are files.
    assert "Or decide on the page:" not in out.text and "MIME-Version" not in out.text
    assert len([body for body in out.mails if "Or decide on the page:" in body]) == 3  # alice, bob and carol
    # The beat runs its tasks every few seconds without a line each.
    assert len([line for line in lines if "succeeded in" in line]) < 3
    assert len(lines) < 40


def test_a_short_clock_and_bots_for_the_demo(tmp_path):
    """DEMO_CLOCK_SECONDS and DEMO_BOTS, so deadlines fire within minutes."""
    port = free_port()
    out = run_sh(tmp_path, ADDR=f"127.0.0.1:{port}", DEMO_CLOCK_SECONDS="120", DEMO_BOTS="1")
    assert "Clock:  120 seconds per decision; 1 bot seat" in out.text
    assert "carol /" not in out.text  # the third seat is a bot's
    assert len([body for body in out.mails if "Or decide on the page:" in body]) == 2
