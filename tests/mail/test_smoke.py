import pytest
from django.core import mail

from tests.factories import make_started_game
from tests.mail.helpers import latest_prompt_mail, pipe, reply_bytes

pytestmark = pytest.mark.django_db(transaction=True)


def test_smoke():
    game, users = make_started_game(players=2, options={"rounds": 1})
    for m in mail.outbox:
        print(m.to, m.subject, m.extra_headers)
        print(m.body)
    m = latest_prompt_mail(users[0].email)
    print(pipe(reply_bytes(m, "1")))
    for m in mail.outbox[-3:]:
        print(m.to, m.subject)
        print(m.body)
    assert 0
