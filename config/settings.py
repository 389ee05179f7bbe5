"""Django settings, read from the environment (see README "Configuration").

DATABASE_URL   postgresql://… of an existing server; unset: the embedded PostgreSQL
DATABASE_REPLICA_URLS  comma-separated postgresql://… of streaming replicas for reads
REPLICA_MAX_LAG_MS     a replica further behind than this serves nothing (1000)
SECRET_KEY     required when DEBUG is off
DEBUG          1/0 (default 0)
EVENT_LOG_KEY  the event log's HMAC key; required when DEBUG is off
FILE_SIGNING_KEY  path of the Ed25519 PEM key that signs issued files; required
               when DEBUG is off (FILE_SIGNING_OLD_KEYS: retired public keys)
ALLOWED_HOSTS  comma-separated (default 127.0.0.1,localhost)
SITE_URL       the address printed in links and QR codes (default: the request's)
EMAIL_URL      smtp+tls://user:password@host:587 (or EMAIL_HOST…), DEFAULT_FROM_EMAIL
"""

from __future__ import annotations

import datetime
from pathlib import Path
from urllib.parse import urlsplit

from csp.constants import NONE, SELF, UNSAFE_INLINE

from config.env import (
    EnvError,
    email_settings,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_mapping,
    env_site_url,
    env_str,
    parse_database_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)

_DEV_SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"
SECRET_KEY = env_str("SECRET_KEY", default=_DEV_SECRET_KEY if DEBUG else None)
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise EnvError("SECRET_KEY is the development key; set a real one with DEBUG off")

# The key of the event log's hash chain and of its backups (games/eventstore/chain.py),
# kept out of the database: someone who can write the log cannot make hashes that
# verify. Its own variable, so SECRET_KEY can change without re-keying the log
# (docs/RELIABILITY.md, "Key rotation").
EVENT_LOG_KEY = env_str("EVENT_LOG_KEY", default=SECRET_KEY if DEBUG else None)
if not DEBUG and len(EVENT_LOG_KEY) < 32:
    raise EnvError("EVENT_LOG_KEY is too short: use at least 32 random characters")

# The Ed25519 key the site signs the files it issues with (tournaments/issued/):
# the path of a PEM private key, outside the database; with DEBUG on and none set,
# a key derived from SECRET_KEY. Required in production (config/checks.py,
# site.E001). FILE_SIGNING_OLD_KEYS: paths of the public keys rotations retired,
# still published so that files signed before verify (docs/RELIABILITY.md,
# "Signed files").
FILE_SIGNING_KEY = env_str("FILE_SIGNING_KEY", default="")
FILE_SIGNING_KEY_FROM_SECRET = DEBUG and not FILE_SIGNING_KEY
FILE_SIGNING_OLD_KEYS = env_list("FILE_SIGNING_OLD_KEYS", default=[])

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

# The address the players' phones reach, printed in the scorecards' links and QR
# codes and in share links (config/site_url.py); unset, each link takes the
# address of the request that made it. Its host is served, whatever ALLOWED_HOSTS.
SITE_URL = env_site_url("SITE_URL")
if SITE_URL:
    ALLOWED_HOSTS.append(urlsplit(SITE_URL).hostname or "")

INSTALLED_APPS = [
    # The site's own system checks (config/checks.py).
    "config.apps.SiteConfig",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_htmx",
    "games.eventstore",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # A view that loses the database answers 503, not 500 (config/middleware.py).
    "config.middleware.DatabaseUnavailableMiddleware",
    # Where this request reads: a replica, or the primary after a write.
    "config.replicas.ReadReplicaMiddleware",
    # Serves the pages' CSS and JS under gunicorn too (no separate web server).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: it turns a sign-in that django-axes refused into the 429 (config/auth.py).
    "axes.middleware.AxesMiddleware",
    # After every other's process_view: serves a tournament's read with ?at= as the
    # record stood then, running the view itself (tournaments/core/past.py).
    "tournaments.core.past.PastMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.core.past.context",
            ],
        },
    },
]


def _database() -> dict[str, object]:
    url = env_str("DATABASE_URL", default="")
    if not url:
        # Imported here: only a process that needs the embedded server pays for it.
        from config.embedded_pg import start_embedded_postgres

        url = start_embedded_postgres()
    database = parse_database_url(url)
    database["CONN_MAX_AGE"] = env_int("CONN_MAX_AGE", default=60)
    # Checked without a round trip when the socket shows it sound (config.postgresql).
    database["CONN_HEALTH_CHECKS"] = True
    return database


DATABASES = {"default": _database()}
# Streaming replicas of the primary, for reads (config/replicas.py): replica_1, …
DATABASE_REPLICAS: list[str] = []
for _number, _url in enumerate(env_list("DATABASE_REPLICA_URLS", default=[]), 1):
    _replica = parse_database_url(_url, name="DATABASE_REPLICA_URLS")
    _replica["CONN_MAX_AGE"] = DATABASES["default"]["CONN_MAX_AGE"]
    _replica["CONN_HEALTH_CHECKS"] = True
    # Under test the replicas are the test database itself (nothing to create).
    _replica["TEST"] = {"MIRROR": "default"}
    DATABASES[f"replica_{_number}"] = _replica
    DATABASE_REPLICAS.append(f"replica_{_number}")
DATABASE_ROUTERS = ["config.replicas.PrimaryReplicaRouter"]
# How far behind the primary a replica may be and still serve a request (its reads,
# access decisions included: config/replicas.py). 0: every read on the primary.
REPLICA_MAX_LAG = env_int("REPLICA_MAX_LAG_MS", default=1000) / 1000
if REPLICA_MAX_LAG < 0:
    raise EnvError("REPLICA_MAX_LAG_MS must be 0 or more (milliseconds)")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
# English only: without the translation machinery, every rendered value skips the
# active-language lookups (Django's advice for a site that is not translated; a
# game page rendered about 5% faster in paired runs). Dates and numbers keep
# LANGUAGE_CODE's formats.
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
# Static files are served straight from the apps by WhiteNoise: no collectstatic
# step to forget, and no STATIC_ROOT to keep in sync.
WHITENOISE_USE_FINDERS = True

# Word lists for adjudicating challenges, by lexicon name: NWL23=/path/nwl23.txt,…
# (one word per line). A game whose lexicon is listed has its challenges ruled by the
# list when the director records no ruling; without one the director rules.
LEXICONS = env_mapping("LEXICONS")
# Leave tables for ranking plays by equity, by lexicon name: NWL23=/path/leaves.csv
# (LEAVE,VALUE lines, as macondo's and Quackle's superleaves). None ships.
LEAVES = env_mapping("LEAVES")

# Who may create tournaments (tournaments.core.access.may_create_tournament): "staff"
# accounts only, or any signed-in user ("users").
TOURNAMENT_CREATORS = env_choice(
    "TOURNAMENT_CREATORS", ("staff", "users"), default="staff"
)
# Notes a user may add to games in a minute (games.quotas), counted in the database
# every worker shares; more is a 429. 0: no quota.
NOTES_PER_MINUTE = env_int("NOTES_PER_MINUTE", default=20)
# What a user may add in a UTC day (games.quotas; 0: no limit), counted in the
# database. A keen player uploads a few annotated games a day, a club's season at
# once about 100; a real game is about 55 events (a note on each turn adds 30), so
# 100 files make under 10,000 events. The 6,000 events a second one account added
# through private uploads (issue 30) stop at 20,000 a day.
UPLOADS_PER_DAY = env_int("UPLOADS_PER_DAY", default=100)
UPLOAD_EVENTS_PER_DAY = env_int("UPLOAD_EVENTS_PER_DAY", default=20_000)
# Notes a day, typed or inside uploads: a note on every turn of 30 games is 900.
NOTES_PER_DAY = env_int("NOTES_PER_DAY", default=2_000)
# Staff, and a tournament's directors uploading its games, may add this many times
# the day's limits: every board of a national (4 divisions of 125 players, 250
# boards a round, 6 rounds a day) is 1,500 files and about 80,000 events a day, and
# a director is named in the tournament's audit for each.
UPLOAD_QUOTA_RAISED_FACTOR = env_int("UPLOAD_QUOTA_RAISED_FACTOR", default=20)
# Expensive reads (a build the read cache did not have: a GCG export, a page of a
# game's log, a game's state at an earlier version) a signed-out reader may make
# in a minute from one address (games.ratelimit), counted in PostgreSQL, which
# every worker and machine shares; more is a 429. Cached reads are not counted, so
# a venue's spectators behind one address reading standings never meet it; a
# reader paging through logs or downloading games does one a second. 0: no limit.
ANONYMOUS_HEAVY_READS_PER_MINUTE = env_int(
    "ANONYMOUS_HEAVY_READS_PER_MINUTE", default=60
)

# Mail, for password reset (config/env.py, email_settings): EMAIL_URL, or Django's
# EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS,
# EMAIL_USE_SSL. Neither: the console in DEBUG; in production Django's default (SMTP
# on localhost:25) and a system check's warning (config/checks.py).
_mail = email_settings(DEBUG)
EMAIL_BACKEND = _mail["EMAIL_BACKEND"]
EMAIL_HOST = _mail["EMAIL_HOST"]
EMAIL_PORT = _mail["EMAIL_PORT"]
EMAIL_HOST_USER = _mail["EMAIL_HOST_USER"]
EMAIL_HOST_PASSWORD = _mail["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS = _mail["EMAIL_USE_TLS"]
EMAIL_USE_SSL = _mail["EMAIL_USE_SSL"]
EMAIL_FILE_PATH = _mail["EMAIL_FILE_PATH"]
EMAIL_CONFIGURED = _mail["EMAIL_CONFIGURED"]
# A mail server that does not answer must not hold a worker's thread for ever.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", default="webmaster@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# The read cache (games.readcache): rendered pages and API bodies keyed by version,
# per process, bounded in bytes (config/memory_cache.py): an entry count let a few
# thousand large pages, or a flood of distinct URLs, take hundreds of MB a worker.
CACHES = {
    "default": {
        "BACKEND": "config.memory_cache.BoundedMemoryCache",
        "LOCATION": "scrabble-records",
        "OPTIONS": {"MAX_BYTES": env_int("READ_CACHE_MB", default=64) * 2**20},
    }
}
# Threads a server process runs the pages on (gunicorn's uvicorn worker and
# `manage.py serve`: the bounded pool of config/asgi.py; gthread: its threads).
WEB_THREADS = env_int("WEB_THREADS", default=8)
# The writer process's socket (config/writer.py): set by config/gunicorn.conf.py for
# its workers, which hand every unsafe request to it; empty (``manage.py serve``,
# tests): each process writes on its own page threads.
WEB_WRITER_SOCKET = env_str("WEB_WRITER_SOCKET", default="")
# The live feed (games/livefeed.py, games/feedserver.py): Server-Sent Events held
# open per process at most (each a coroutine under uvicorn; followers beyond are
# answered at once and retry), how long each is held before the browser
# reconnects, how often the process polls the feed's head, how often an idle stream
# sends a comment (and asks again whether its follower may read), and the retry.
FEED_STREAMS = env_int("FEED_STREAMS", default=128)
FEED_HOLD_SECONDS = env_int("FEED_HOLD_SECONDS", default=30)
FEED_POLL_SECONDS = 0.5
FEED_KEEPALIVE_SECONDS = 5
FEED_RETRY_MS = 1000
# Signed-out pages answered on the event loop while their streams have not moved
# (games/pagecache.py): how much of them a process keeps (0: off), how often it
# reads which streams moved, and how old that reading may be before every page
# goes to Django again (the bound on a revocation, as REPLICA_MAX_LAG's).
PAGE_CACHE_BYTES = env_int("PAGE_CACHE_MB", default=32) * 2**20
PAGE_HEAD_POLL_SECONDS = 0.1
PAGE_HEAD_MAX_AGE = 1.0
# One sign-in throttle for every way in (config/auth.py): django-axes counts failures
# in the database, which every worker and machine shares. A hard lockout per
# (username, address); per username from every address a progressive delay
# (1 s, 2 s, 4 s … up to LOGIN_DELAY_CAP) that an address the username signed in
# from within LOGIN_KNOWN_DAYS skips; per address at most LOGIN_ADDRESS_USERNAMES
# distinct usernames failing (spraying), so a venue's shared address is no lockout.
AUTHENTICATION_BACKENDS = [
    "config.auth.SignInThrottleBackend",
    # Reads the sessions it signed in before the throttle backend existed.
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", default=15 * 60)
LOGIN_DELAY_CAP = env_int("LOGIN_DELAY_CAP", default=60)
LOGIN_ADDRESS_USERNAMES = env_int("LOGIN_ADDRESS_USERNAMES", default=50)
LOGIN_KNOWN_DAYS = env_int("LOGIN_KNOWN_DAYS", default=90)
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = datetime.timedelta(seconds=LOGIN_FAILURE_WINDOW)
# The hard lockout is the pair's only: a username alone, or an address alone, would
# let anyone who knows a team's usernames lock the team out.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.auth.client_address"
AXES_LOCKOUT_CALLABLE = "config.auth.lockout_response"
# A refused attempt is not counted (it was not checked), and does not prolong the
# lockout: the pair is free again a window after its last real failure.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# A success must not clear an address's failures (see config/auth.py). Axes' own
# access log (a row per sign-in) is off: config.auth.remember_sign_in keeps one row
# per (username, address) in its table instead, for the known-address rule.
AXES_RESET_ON_SUCCESS = False
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
    # JSON bounded in depth (a 400, not a RecursionError's 500); forms as DRF's.
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "games.api_errors.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Scrabble tournament records API",
    "DESCRIPTION": "Event-sourced Scrabble games and tournaments: every fact is an "
    "immutable event; states and standings are replays.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Every documented 400 answers the one shape of games.api_errors.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        # ?at= on every read of a tournament (tournaments/core/past.py).
        "tournaments.core.api.document_at",
        "games.api_errors.document_rejections",
    ],
    # One schema name for the ruleset presets (GameStartInput.ruleset and
    # GcgUploadInput.rules offer the same choices).
    "ENUM_NAME_OVERRIDES": {
        "RulesetEnum": "rules.ruleset.PRESETS",
        # What a round was for a player, and its outcome: one name each wherever
        # results are read (scorecards, pairings, the ratings lists).
        "EntryKindEnum": "tournaments.results.serializers.KINDS",
        "GameKindEnum": "tournaments.ratings.serializers.GAME_KINDS",
        "OutcomeEnum": "tournaments.results.serializers.OUTCOMES",
    },
    # Swagger UI from our own static files (drf-spectacular-sidecar): the API docs
    # work offline and load nothing from elsewhere.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Content-Security-Policy on every response: scripts, styles, fonts and data only
# from this site, so an injected <script> or <style> never runs. No nonces: signed-
# out pages are cached whole and shared, so a page cannot carry a per-request
# secret. Style *attributes* are allowed (style-src-attr): some pages and Swagger
# UI set them, and they cannot run script. tests/web_tests/test_csp.py fails on any
# violation the browser reports.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "style-src-attr": [UNSAFE_INLINE],
        # Swagger UI draws its icons as data: SVG images.
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

if not DEBUG:
    # Production hardening; `manage.py check --deploy` passes with these.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
