"""``ADDR=host:port ./run.sh``: the demo's emails link to that server.

Otherwise the links in emails (settings.MAIL_BASE_URL) would point at port 8000, whatever ADDR
says. The test starts ./run.sh for real on a free port with a fresh SQLite database, reads the demo game's
prompt emails from the mail files it writes, and stops it.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.mail.run_sh import free_port, run_sh

LINK = re.compile(r"decide on the page: (https?://[^/\s]+)/games/")  # the text's one link


def demo_mail_link_bases(tmp_path: Path, **env_extra: str) -> set[str]:
    """Run ./run.sh until the demo game is ready; the base URLs of the decision links it mailed."""
    out = run_sh(tmp_path, **env_extra)
    bases = {base for body in out.mails for base in LINK.findall(body)}
    assert bases, "the demo sent no prompt email with a decision link"
    return bases


def test_run_sh_links_the_demo_mails_to_its_own_address(tmp_path):
    """ADDR decides the base URL of the links in emails..."""
    port = free_port()
    assert demo_mail_link_bases(tmp_path, ADDR=f"127.0.0.1:{port}") == {f"http://127.0.0.1:{port}"}


def test_run_sh_keeps_a_given_site_url(tmp_path):
    """...unless SITE_URL (or MAIL_BASE_URL) is given."""
    port = free_port()
    bases = demo_mail_link_bases(tmp_path, ADDR=f"127.0.0.1:{port}", SITE_URL="https://games.example.org")
    assert bases == {"https://games.example.org"}
