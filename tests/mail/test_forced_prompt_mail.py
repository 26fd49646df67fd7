"""No prompt mail for a prompt the server picked itself: there is nothing to decide."""

from __future__ import annotations

import pytest

from games.mail.models import Notification, NotificationKind
from games.models import Submission, SubmissionSource
from tests.games.helpers import play_step
from tests.mail.helpers import mails_to, start_game

pytestmark = pytest.mark.django_db


def test_a_forced_prompt_sends_no_mail_and_the_real_choice_is_mailed_at_once():
    """tinygame, 3 rounds: in the last draft each hand holds one card; only the bet is mailed."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 3}, seed=3)
    for _ in range(4):
        play_step(game)
    forced = list(Submission.objects.filter(game=game, source=SubmissionSource.FORCED))
    assert len(forced) == 2
    assert not Notification.objects.filter(prompt__in=[s.prompt_row for s in forced]).exists()
    for user in (alice, bob):
        bet = Notification.objects.get(kind=NotificationKind.PROMPT, seat__user=user, prompt__phase=4)
        # Sent at once, not held back as a follow-up: the player made no pick in this step.
        assert bet.prompt.prompt_id.endswith("-bet") and bet.not_before is None and bet.status == "sent"
        assert any(m.extra_headers.get("X-Faltisia-Prompt") == str(bet.prompt.pk) for m in mails_to(user.email))
