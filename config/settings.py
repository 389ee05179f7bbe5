"""Django settings, read from the environment (see README "Configuration").

DATABASE_URL   postgresql://… of an existing server; unset: the embedded PostgreSQL
SECRET_KEY     required when DEBUG is off
DEBUG          1/0 (default 0)
ALLOWED_HOSTS  comma-separated (default 127.0.0.1,localhost)
"""

from __future__ import annotations

from pathlib import Path

from config.env import (
    EnvError,
    env_bool,
    env_int,
    env_list,
    env_mapping,
    env_str,
    parse_database_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)

_DEV_SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"
SECRET_KEY = env_str("SECRET_KEY", default=_DEV_SECRET_KEY if DEBUG else None)
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise EnvError("SECRET_KEY is the development key; set a real one with DEBUG off")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

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
    "django_filters",
    "django_htmx",
    "games.eventstore",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Serves the pages' CSS and JS under gunicorn too (no separate web server).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Sign-in rate limit (config/auth.py): failures per username and client address. The
# local-memory cache is per process: with N worker processes the limit is N times.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "scrabble-records",
        # The read cache (games.readcache) holds rendered pages keyed by version; the
        # default 300 entries is fewer than a national event's divisions, players
        # and games, so pages were culled before their second read.
        "OPTIONS": {"MAX_ENTRIES": env_int("READ_CACHE_ENTRIES", default=5000)},
    }
}
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", default=15 * 60)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
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
    # One schema name for the ruleset presets (GameStartInput.ruleset and
    # GcgUploadInput.rules offer the same choices).
    "ENUM_NAME_OVERRIDES": {"RulesetEnum": "rules.ruleset.PRESETS"},
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
