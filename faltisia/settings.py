"""All settings, read from the environment (django-environ).

The defaults are the embedded mode a newcomer gets with no services at all: SQLite, Celery tasks run
in-process (eager), email printed to the console. Production sets DATABASE_URL (PostgreSQL),
CELERY_BROKER_URL (Redis), SECRET_KEY, DEBUG=false and ALLOWED_HOSTS; see README.md.
"""

from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")  # optional; real environment variables win

# Published in this repository: good for the embedded mode only (DEBUG=true), refused in production.
INSECURE_DEFAULT_SECRET_KEY = "dev-only-insecure-key-change-me-in-production"
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY = env("SECRET_KEY", default=INSECURE_DEFAULT_SECRET_KEY)
DEBUG = env.bool("DEBUG", default=True)
# Sign-up links, one-click mail links and reply tokens are all keyed with SECRET_KEY: with a known or
# guessable key anyone could forge them, so production refuses to start without a real one.
if not DEBUG and (SECRET_KEY == INSECURE_DEFAULT_SECRET_KEY or len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH
                  or len(set(SECRET_KEY)) < 5):
    raise ImproperlyConfigured(
        f"SECRET_KEY must be set to a random string of at least {SECRET_KEY_MIN_LENGTH} characters when "
        "DEBUG is false (the default key is public). Generate one with: python -c \"import secrets; "
        "print(secrets.token_urlsafe(64))\"")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["*"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "accounts",
    "games",
    "games.ratings",
    "games.tournaments",
    "anymail",  # the mail providers' backends and inbound webhooks
    "games.mail",  # play by email
    "games.web",  # the pages (and accounts' pages)
    "axes",  # login lockout (below)
    "games.chat",  # table talk
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The plain form of a pick and of a game's view answered below DRF and the rest (anything else, errors
    # included, goes on down the chain): games/api/hot_routes.py. A middleware placed below it is skipped
    # by those answers: the fast path's system check (games/fastpath/checks.py) refuses one it does not know.
    "games.api.hot_routes.HotApiRoutesMiddleware",
    "games.request_guard.NulCharacterGuardMiddleware",  # a NUL in the URL is a 400, not a database error
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Dates on pages are shown in the signed-in player's own time zone (accounts.User.timezone).
    "games.web.middleware.UserTimezoneMiddleware",
    "games.web.middleware.OutsiderErrorPageMiddleware",  # the site's own 404/500 pages outside INTERNAL_IPS
    "axes.middleware.AxesMiddleware",  # last, as axes asks
]

ROOT_URLCONF = "faltisia.urls"
WSGI_APPLICATION = "faltisia.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Django's default loaders plus each game's presentation package (games/<slug>/... templates).
            "loaders": [("django.template.loaders.cached.Loader", [
                "django.template.loaders.filesystem.Loader",
                "django.template.loaders.app_directories.Loader",
                "games.presentation.loader.Loader",
            ])],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.web.context_processors.chat_unread",  # the nav's count of unread table talk
                "games.web.context_processors.site",  # SITE_NAME
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------------
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The embedded server and its sweeper process share one file: wait for the lock instead of
    # failing, and take the write lock at BEGIN so two writers never deadlock on an upgrade.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Two psycopg options for the hot path, both measured under the load benchmark:
    # - server-side binding: parameters travel apart from the SQL, so the game's whole state (one JSON
    #   parameter per pick) is not quoted in Python (a fifth of a pick's CPU);
    # - statement preparation, which Django leaves off (for pgbouncer in transaction mode): PostgreSQL
    #   then plans each hot statement once per connection; planning was half the database's CPU
    #   (pg_stat_statements: the seats query 1.6 ms to plan, 0.3 ms to run). Set DB_PREPARE_THRESHOLD=off
    #   behind a pooler that cannot keep prepared statements.
    prepare = env.str("DB_PREPARE_THRESHOLD", default="5")
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "server_side_binding": env.bool("DB_SERVER_SIDE_BINDING", default=True),
        "prepare_threshold": None if prepare.lower() in ("", "off", "none") else int(prepare),
    })
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

# --- API ------------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.fastpath.token_auth.FastTokenAuthentication",  # DRF's TokenAuthentication, one query written out
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # DRF's parsers, refusing over-deep JSON and NUL characters with a 400 (games/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.SafeJSONParser", "games.api.parsers.SafeFormParser",
                               "games.api.parsers.SafeMultiPartParser"],
    # DRF's JSON, written by orjson (games/api/renderers.py: the same output, several times cheaper); then
    # DRF's browsable API.
    "DEFAULT_RENDERER_CLASSES": ["games.api.renderers.FastJSONRenderer",
                                 "rest_framework.renderers.BrowsableAPIRenderer"],
    # DRF's negotiation, answered at once for a plain JSON client's Accept (games/api/negotiation.py).
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "games.api.negotiation.FastContentNegotiation",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Faltisia turn server API",
    "DESCRIPTION": "Asynchronous board games: every decision is a pick among enumerated options.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # A CharField that refuses "" says so (minLength 1): the schema states what the server accepts.
    "ENFORCE_NON_BLANK_FIELDS": True,
}

# --- Celery ---------------------------------------------------------------------------------------
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="memory://")
BROKER_CONFIGURED = not CELERY_BROKER_URL.startswith("memory://")
# Where a write announces that a game changed, so the requests waiting for it (?wait=) wake at once instead of
# polling (games/version_events.py): a Redis URL, the broker's by default; "" (or no Redis): they poll.
VERSION_EVENTS_REDIS_URL = env("VERSION_EVENTS_REDIS_URL", default=CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(
    ("redis://", "rediss://")) else "")
# A player's pick that completes a step resolves it in its own write: the game is locked and loaded
# already, so the step's next prompts commit with the pick, with no broker round trip, second load or second
# commit. Steps completed otherwise (deadlines, bots, a game's start) and any resolution that fails in the pick
# go to the worker's resolve task. False: every step goes to the worker (the tests of its crash safety).
RESOLVE_IN_PICK = env.bool("RESOLVE_IN_PICK", default=True)
# Without a broker, tasks run in-process; deadlines are then fired by `manage.py sweep_deadlines --loop`.
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not BROKER_CONFIGURED)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A task is acknowledged only after it ran, and re-queued if its worker dies: resolution is
# idempotent, so running it again is always safe, while losing it would stall a game until the sweep.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes the database connection before and after every task unless this is set:
# a new PostgreSQL backend per task (fork, authentication, cold caches) cost more database CPU than the
# resolutions themselves (~30 connections a second under the load benchmark). Reused for this many tasks
# instead; faltisia/celery.py checks it before each task as Django does before a request.
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)
CELERY_TASK_TIME_LIMIT = 120
CELERY_TASK_SOFT_TIME_LIMIT = 100
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Fail fast when enqueueing with Redis down: the request must not hang; the sweep catches up.
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=2.0)
# A queue is one Redis list per priority step; a worker takes from the lowest step first. The mail queue
# uses 0 for what a player must act on (prompts, reminders) and 6 for news (results, digests): see
# games/mail/priorities.py. Tasks without a priority count as 0.
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 5, "priority_steps": [0, 3, 6, 9]}
CELERY_TIMEZONE = "UTC"
SWEEP_INTERVAL_SECONDS = env.float("SWEEP_INTERVAL_SECONDS", default=2.0)  # a due deadline waits up to one interval

# --- Games ----------------------------------------------------------------------------------------
# Extra engines, "slug=module:Class,slug2=module:Class" (the tiny test engine, a game under development).
GAME_ENGINES = env.dict("GAME_ENGINES", default={})
# A step that is complete but not yet resolved is picked up by the sweep after this many seconds
# (the on-commit task normally resolves it at once; this is the safety net for a lost task).
RESOLVE_GRACE_SECONDS = env.float("RESOLVE_GRACE_SECONDS", default=3.0)
# Vacations stretch deadlines; these caps keep stacked vacations from stretching them without end
# (accounts/vacation_caps.py): days away per rolling 365 days, and days one game's deadlines may be
# stretched for one player over the game's life.
VACATION_MAX_DAYS_PER_YEAR = env.int("VACATION_MAX_DAYS_PER_YEAR", default=30)
VACATION_MAX_DAYS_PER_GAME = env.int("VACATION_MAX_DAYS_PER_GAME", default=21)
DEFAULT_CLOCK = {"type": "fixed", "step_seconds": 2 * 24 * 3600, "extensions": 1, "bot_after_misses": 3}

# --- Email (built by the email layer; console by default) -----------------------------------------
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
EMAIL_FILE_PATH = env("EMAIL_FILE_PATH", default=str(BASE_DIR / "var" / "mail"))
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Faltisia <games@localhost>")
EMAIL_DOMAIN = env("EMAIL_DOMAIN", default="localhost")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
}

# --- Tournaments and ratings (games/tournaments, games/ratings) ----------------------------------
# Tournament notices (new round, your next game, final standings) also go out as a plain-text mail.
TOURNAMENT_NOTICES_BY_MAIL = env.bool("TOURNAMENT_NOTICES_BY_MAIL", default=True)
# --- Play by email (games/mail) -------------------------------------------------------------------
# Reply addresses are <EMAIL_REPLY_LOCAL>+<seat token>.<prompt ref>@<EMAIL_DOMAIN>.
EMAIL_REPLY_LOCAL = env("EMAIL_REPLY_LOCAL", default="play")
# Absolute base of the one-click and unsubscribe links in emails.
MAIL_BASE_URL = env("MAIL_BASE_URL", default=env("SITE_URL", default="http://127.0.0.1:8000"))
# Production (DEBUG=false) refuses to start unless one of them is set (games/mail/checks.py, mail.E003).
MAIL_BASE_URL_GIVEN = bool(env("MAIL_BASE_URL", default="") or env("SITE_URL", default=""))
MAIL_LINK_MAX_AGE_SECONDS = env.int("MAIL_LINK_MAX_AGE_SECONDS", default=14 * 24 * 3600)
MAIL_INBOUND_MAX_BYTES = env.int("MAIL_INBOUND_MAX_BYTES", default=256 * 1024)
MAIL_REMINDER_INTERVAL_SECONDS = env.float("MAIL_REMINDER_INTERVAL_SECONDS", default=300.0)
# How long one run of the reminders task works before it enqueues its continuation (games/mail/reminders.py):
# well under its 100 s soft limit, so a backlog never holds the mail worker from the other mail tasks.
MAIL_REMINDER_RUN_SECONDS = env.float("MAIL_REMINDER_RUN_SECONDS", default=20.0)
# How many continuations a beat run of the reminders task that met a backlog starts: that many mail
# processes work it off at once (their claims skip each other's rows).
MAIL_REMINDER_PARALLEL_RUNS = env.int("MAIL_REMINDER_PARALLEL_RUNS", default=2)
# Provider settings for django-anymail (EMAIL_BACKEND=anymail.backends.<esp>.EmailBackend), e.g.
# ANYMAIL='{"MAILGUN_API_KEY": "..."}'; the inbound webhook's basic auth is ANYMAIL_WEBHOOK_SECRET=user:pass.
ANYMAIL = {**env.json("ANYMAIL", default={}),
           **({"WEBHOOK_SECRET": env("ANYMAIL_WEBHOOK_SECRET")} if env("ANYMAIL_WEBHOOK_SECRET", default="") else {})}
# Providers whose inbound webhook is mounted at /mail/inbound/<esp>/inbound/ (games/mail/inbound_providers.py), e.g.
# MAIL_INBOUND_ESPS=postmark; "*" is all. Default: all when ANYMAIL_WEBHOOK_SECRET is set, else none.
# Production (DEBUG=false) refuses to start with one mounted and no ANYMAIL_WEBHOOK_SECRET (games/mail/checks.py).
MAIL_INBOUND_ESPS = env.list("MAIL_INBOUND_ESPS", default=["*"] if ANYMAIL.get("WEBHOOK_SECRET") else [])
# Digests are due per reader (next_digest_at); the hourly run sends those due. Shorter only in benchmarks.
MAIL_DIGEST_INTERVAL_SECONDS = env.float("MAIL_DIGEST_INTERVAL_SECONDS", default=3600.0)
# A follow-up prompt within a step (the seat's previous pick came by web or API) is emailed this late,
# and not at all if answered meanwhile; after an email pick it goes at once.
MAIL_FOLLOWUP_DELAY_SECONDS = env.int("MAIL_FOLLOWUP_DELAY_SECONDS", default=600)
# The prompt sweep emails a held-back follow-up once its delay has passed (nothing is enqueued for it
# when it opens), a "when away" prompt once MAIL_PROMPT_DELAY_SECONDS have passed (the same), and the
# prompts whose task was lost: so a follow-up still open goes out between MAIL_FOLLOWUP_DELAY_SECONDS and
# that + MAIL_PROMPT_SWEEP_SECONDS after it opened (+ the mail queue's wait). A run with nothing due costs
# one query over the partial index of the prompts not mailed yet.
MAIL_PROMPT_SWEEP_SECONDS = env.float("MAIL_PROMPT_SWEEP_SECONDS", default=30.0)
# A prompt mailed "when I'm away" (the default) waits this long for an answer on the page, and
# goes only if the player is not on the game's page then (its send re-checks; a player there is mailed
# once they leave without answering). "Every decision" is mailed at once. Nothing is enqueued
# or rendered for it before then, since most such prompts are answered within the delay (games/mail/owed.py); the prompt sweep mails it, if still open, between
# this delay and the delay + MAIL_PROMPT_SWEEP_SECONDS.
MAIL_PROMPT_DELAY_SECONDS = env.int("MAIL_PROMPT_DELAY_SECONDS", default=120)
# Players' webhooks go only to https URLs at public addresses; true allows http and private addresses,
# for tests only (accounts/player_hook_urls.py; production refuses to start with it, games/mail/checks.py).
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env.bool("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", default=False)
# A mail task (prompt, result, game-over, send) that has not done its work this long after its write is
# taken as lost (broker flushed, worker killed, database restarted): the mail sweeps do it instead.
MAIL_SWEEP_GRACE_SECONDS = env.float("MAIL_SWEEP_GRACE_SECONDS", default=60.0)
# Result and game-over emails are recorded as mail jobs in the write's transaction (games/mail/jobs.py);
# this sweep runs the jobs whose task was lost, once the grace has passed.
MAIL_JOB_SWEEP_SECONDS = env.float("MAIL_JOB_SWEEP_SECONDS", default=60.0)
# Sent emails, done mail jobs and inbound messages are kept this long, then deleted by the daily prune
# (games/mail/prune.py; a pending email or one about a prompt still open is kept); used one-click links
# until their links have expired (MAIL_LINK_MAX_AGE_SECONDS). A run works at most MAIL_PRUNE_RUN_SECONDS.
MAIL_KEEP_DAYS = env.int("MAIL_KEEP_DAYS", default=30)
MAIL_PRUNE_RUN_SECONDS = env.float("MAIL_PRUNE_RUN_SECONDS", default=60.0)
MAIL_PRUNE_INTERVAL_SECONDS = env.float("MAIL_PRUNE_INTERVAL_SECONDS", default=24 * 3600.0)
# --- Web pages (games.web, accounts' pages) -----------------------------------------------------------
# With DEBUG on, only requests from these addresses see Django's debug 404/500 pages (URL list,
# traceback); others get templates/404.html and 500.html (OutsiderErrorPageMiddleware).
INTERNAL_IPS = env.list("INTERNAL_IPS", default=["127.0.0.1", "::1"])
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# Sign-up links and game invitations are signed; these say how long they stay good. A sign-up link also
# stops working once used or when the account's password or address changes (accounts/verification.py);
# it cannot outlive PASSWORD_RESET_TIMEOUT (Django's, 3 days).
EMAIL_VERIFICATION_MAX_AGE = env.int("EMAIL_VERIFICATION_MAX_AGE", default=3 * 24 * 3600)
INVITE_MAX_AGE = env.int("INVITE_MAX_AGE", default=14 * 24 * 3600)
# How often an open game page asks whether anything changed (milliseconds).
WEB_POLL_INTERVAL_MS = env.int("WEB_POLL_INTERVAL_MS", default=4000)
# How often every signed-in page refreshes the nav's and the lobby's unread table-talk counts.
WEB_UNREAD_POLL_INTERVAL_MS = env.int("WEB_UNREAD_POLL_INTERVAL_MS", default=30000)
# --- Benchmarks -----------------------------------------------------------------------------------
# Only benchmarks/load_bench.py sets this: it mounts a bare one-insert endpoint to measure the floor.
BENCHMARK_FLOOR_ENDPOINT = env.bool("BENCHMARK_FLOOR_ENDPOINT", default=False)
# --- Tournament registration sweep (games/tournaments/tasks.py) -----------------------------------
# Starts tournaments whose registration_closes has passed (or cancels them without enough players).
TOURNAMENT_SWEEP_SECONDS = env.float("TOURNAMENT_SWEEP_SECONDS", default=60.0)
# --- Task queues -----------------------------------------------------------------------------------
# Email tasks get a queue of their own (Procfile: `mailworker: celery -A faltisia worker -Q mail`), so a
# step's resolution (default queue "celery") never waits behind rendering or sending mail. Tournament
# notices are sent on commit in-process, not as a task. Eager mode ignores routes.
CELERY_TASK_ROUTES = {"mail.*": {"queue": "mail"}}
# --- Cache ------------------------------------------------------------------------------------------
# Shared counters (the chat, sign-up, password-reset and link-resend limits, accounts/throttle.py). Each web
# process has its own local memory, so a limit counted there lets through as many times the limit as there are
# processes: production never runs on it. Without CACHE_URL, production takes the broker's Redis, in the
# database after the broker's (redis://host:6379/0 -> redis://host:6379/1); with no Redis broker either, or a
# per-process cache named, it refuses to start. The embedded mode (one process) keeps local memory.
PER_PROCESS_CACHES = ("django.core.cache.backends.locmem.LocMemCache", "django.core.cache.backends.dummy.DummyCache")


def _next_redis_database(url: str) -> str:
    """The same Redis server, the database after the URL's (its own number for the cache's keys)."""
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(number + 1) % 16}"))


_BROKER_IS_REDIS = CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
CACHE_URL = env("CACHE_URL", default="" if DEBUG or not _BROKER_IS_REDIS else _next_redis_database(CELERY_BROKER_URL))
CACHES = {"default": env.cache_url_config(CACHE_URL or "locmemcache://")}
if not DEBUG and CACHES["default"]["BACKEND"] in PER_PROCESS_CACHES:
    raise ImproperlyConfigured(
        "CACHE_URL must name a cache shared by every process when DEBUG is false (the chat, sign-up and mail "
        "limits are counted there): set CACHE_URL=redis://host:6379/2, or a Redis CELERY_BROKER_URL, whose "
        "server is then used.")
# --- Login protection (django-axes) ---------------------------------------------------
# Every authentication (web login, admin login, POST /api/auth/token/) goes through axes first: after
# LOGIN_FAILURE_LIMIT wrong passwords in a row for one username, or from one client address, logging in
# is refused with a 429 for LOGIN_COOLOFF_MINUTES. Failures during a lockout do not extend it and a success
# clears the count: a lockout always ends, and the owner can still reset the password by email meanwhile.
# Attempts are rows in the database (shared by every process).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # either one alone locks
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # failures are kept; a row per successful login is not needed
AXES_VERBOSE = False  # no banner on every start; lockouts are still logged as warnings
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "accounts.lockout.client_ip"
# Behind N reverse proxies that append to X-Forwarded-For, the client is the Nth address from the right;
# 0 (the default) uses the connection's address. Set it, or every client shares the proxy's address.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
# --- HTTPS (docs/security.md) ------------------------------------------------------------------------
# HTTPS=true: the site is served over HTTPS (TLS ending here or at a proxy). Session and CSRF cookies are
# then sent over HTTPS only, plain HTTP is redirected, and browsers are told (HSTS) to use HTTPS for a year.
# Off by default, so the embedded server and the test stacks work over plain HTTP; production warns
# without it (accounts/checks.py: sessions and passwords would cross the network in the clear).
HTTPS = env.bool("HTTPS", default=False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=HTTPS)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=365 * 24 * 3600 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
# Behind a proxy that ends TLS, the request reaches Django over HTTP: the proxy's X-Forwarded-Proto tells
# it was HTTPS. Trusted only with a proxy in front (TRUSTED_PROXY_COUNT), which must overwrite the header a
# client sends; otherwise anyone could claim HTTPS.
if env.bool("SECURE_PROXY_SSL", default=HTTPS and TRUSTED_PROXY_COUNT > 0):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Forms that mail an address someone types (password reset, sign-up link again): at most this many per
# address and per client address within the window (accounts/throttle.py).
MAIL_REQUESTS_PER_EMAIL = env.int("MAIL_REQUESTS_PER_EMAIL", default=3)
MAIL_REQUESTS_PER_IP = env.int("MAIL_REQUESTS_PER_IP", default=20)
MAIL_REQUEST_WINDOW_SECONDS = env.int("MAIL_REQUEST_WINDOW_SECONDS", default=3600)
# Accounts one client address may create per window (sign-ups mail a confirmation link to any address typed).
SIGNUPS_PER_IP = env.int("SIGNUPS_PER_IP", default=10)
# --- Table talk (games/chat) ------------------------------------------------------------------------------
# Messages one user may post, per minute and per day, at all tables together (429 with Retry-After beyond).
CHAT_MESSAGES_PER_MINUTE = env.int("CHAT_MESSAGES_PER_MINUTE", default=10)
CHAT_MESSAGES_PER_DAY = env.int("CHAT_MESSAGES_PER_DAY", default=200)
# New messages reach a player by mail in one email per game at most this often: the first goes this long after
# the first message they have not read; a prompt email that goes sooner carries them instead.
CHAT_MAIL_BATCH_SECONDS = env.int("CHAT_MAIL_BATCH_SECONDS", default=1800)
# How often beat looks for chat mails due (mail.send_chat_batches); a batch goes at most this much late.
CHAT_MAIL_SWEEP_SECONDS = env.float("CHAT_MAIL_SWEEP_SECONDS", default=60.0)
# The site's own name, in every page's header and title: the server hosts several games, so it is none of
# theirs.
SITE_NAME = env.str("SITE_NAME", default="Turn Table")
# --- Beat: what runs on a schedule (each interval is read above) -------------------------------------------
CELERY_BEAT_SCHEDULE = {
    "sweep-due-phases": {"task": "games.sweep_due_phases", "schedule": SWEEP_INTERVAL_SECONDS},
    "mail-reminders": {"task": "mail.send_due_reminders", "schedule": MAIL_REMINDER_INTERVAL_SECONDS},
    "mail-digests": {"task": "mail.send_digests", "schedule": MAIL_DIGEST_INTERVAL_SECONDS},
    "mail-prompts": {"task": "mail.sweep_prompt_notifications", "schedule": MAIL_PROMPT_SWEEP_SECONDS},
    "mail-jobs": {"task": "mail.sweep_mail_jobs", "schedule": MAIL_JOB_SWEEP_SECONDS},
    "mail-prune": {"task": "mail.prune_mail_records", "schedule": MAIL_PRUNE_INTERVAL_SECONDS},
    "mail-chat-batches": {"task": "mail.send_chat_batches", "schedule": CHAT_MAIL_SWEEP_SECONDS},
    "tournaments-close-registrations": {"task": "tournaments.close_registrations",
                                        "schedule": TOURNAMENT_SWEEP_SECONDS},
}
