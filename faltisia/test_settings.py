"""Test settings: the base settings (still chosen by the environment) plus fast hashing and the tiny
test engine. CI runs these with DATABASE_URL=postgres://... and CELERY_BROKER_URL=redis://..."""

from .settings import *  # noqa: F401,F403
from .settings import GAME_ENGINES

# A long test-only key: the end-to-end stacks (DEBUG=false, which refuses short keys) share it.
SECRET_KEY = "test-only-secret-key-" + "x7Kp2mQv9Lw4Rt8Yb3Nc6Hd1Fg5Js0Za" * 2
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
GAME_ENGINES = {**GAME_ENGINES, "tinygame": "tests.fake_engine:TinyEngine"}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
LOGGING = {"version": 1, "disable_existing_loggers": False}
# The test process runs tasks in-process; end-to-end tests start real workers with the base settings.
CELERY_TASK_ALWAYS_EAGER = True
# Every provider's inbound webhook is mounted, so the tests reach each (a test sets the secret it needs).
MAIL_INBOUND_ESPS = ["*"]
# Prompt mails "when away" wait MAIL_PROMPT_DELAY_SECONDS for an answer on the page (issue 25); the tests
# that are not about that delay have them go at once (tests/mail/test_presence.py sets it).
MAIL_PROMPT_DELAY_SECONDS = 0
