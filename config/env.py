"""Typed readers for settings that come from the environment.

Each reader names the variable in its error so a misconfigured deployment fails with
one line that says what to fix::

    DEBUG = env_bool("DEBUG", default=False)
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["127.0.0.1"])
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class EnvError(ImproperlyConfigured):
    """Raised when an environment variable is missing or cannot be parsed."""


def env_str(name: str, default: str | None = None) -> str:
    """Return the variable's text, or `default`; raise EnvError if neither exists."""
    value = os.environ.get(name)
    if value is None or value == "":
        if default is None:
            raise EnvError(f"{name} is not set (required)")
        return default
    return value


def env_bool(name: str, default: bool = False) -> bool:
    """Return the variable read as a boolean (1/0, true/false, yes/no, on/off)."""
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise EnvError(f"{name}={value!r} is not a boolean (use 1/0, true/false, yes/no)")


def env_int(name: str, default: int) -> int:
    """Return the variable read as an integer."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise EnvError(f"{name}={value!r} is not an integer") from None


def env_choice(name: str, choices: tuple[str, ...], default: str) -> str:
    """Return the variable if it is one of `choices` (default when unset)."""
    value = os.environ.get(name, "").strip() or default
    if value not in choices:
        raise EnvError(f"{name}={value!r} is not one of {', '.join(choices)}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    """Return the variable split on commas, blanks dropped."""
    value = os.environ.get(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_mapping(name: str) -> dict[str, str]:
    """Return ``KEY=value,KEY2=value2`` as a dict; raise EnvError on a bad item."""
    value = os.environ.get(name, "")
    mapping: dict[str, str] = {}
    for item in value.split(","):
        if not item.strip():
            continue
        key, sep, rest = item.partition("=")
        if not sep or not key.strip() or not rest.strip():
            raise EnvError(f"{name} item {item!r} is not KEY=value")
        mapping[key.strip()] = rest.strip()
    return mapping


def env_site_url(name: str = "SITE_URL") -> str:
    """The site's address as the players' phones reach it (``http://192.168.1.20:8000``),
    without a trailing slash; "" when unset. Only a scheme and a host (and port): the
    links' paths come from the URL configuration."""
    value = os.environ.get(name, "").strip()
    if not value:
        return ""
    parts = urlsplit(value)
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise EnvError(
            f"{name}={value!r} is not a site address: use scheme://host[:port], "
            "e.g. http://192.168.1.20:8000"
        )
    try:
        parts.port  # noqa: B018 (raises ValueError on a bad port)
    except ValueError:
        raise EnvError(f"{name}={value!r} has a bad port") from None
    return f"{parts.scheme}://{parts.netloc}"


def parse_database_url(url: str, name: str = "DATABASE_URL") -> dict[str, object]:
    """Turn a ``postgresql://user:password@host:port/dbname?opt=val`` URL into Django's
    DATABASES entry; a Unix socket directory may be given as ``?host=/path``.

    Raises EnvError naming `name` when the URL is not a PostgreSQL URL.
    """
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql", "pgsql"}:
        raise EnvError(
            f"{name} must be a postgresql:// URL, got scheme {parts.scheme!r}"
        )
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname:
        raise EnvError(f"{name} names no database (postgresql://…/DBNAME)")
    query: Mapping[str, list[str]] = parse_qs(parts.query)
    try:
        port = parts.port
    except ValueError:
        raise EnvError(f"{name} has a malformed port") from None
    host = parts.hostname or ""
    options = {key: values[-1] for key, values in query.items()}
    if "host" in options:
        host = options.pop("host")
    return {
        # Django's backend with a health check that skips the round trip when it can.
        "ENGINE": "config.postgresql",
        "NAME": dbname,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": host,
        "PORT": str(port or ""),
        "OPTIONS": options,
    }


def database_url(database: Mapping[str, object]) -> str:
    """The URL of a DATABASES entry (the inverse of parse_database_url), so that a
    child process can reach the very database this one uses."""
    from urllib.parse import quote

    user = quote(str(database.get("USER") or ""))
    password = quote(str(database.get("PASSWORD") or ""))
    host = str(database.get("HOST") or "")
    port = str(database.get("PORT") or "")
    name = quote(str(database["NAME"]))
    credentials = f"{user}:{password}@" if user or password else ""
    if host.startswith("/"):
        # A Unix socket directory travels as the host query parameter.
        return f"postgresql://{credentials}/{name}?host={quote(host)}"
    location = f"{host}:{port}" if port else host
    return f"postgresql://{credentials}{location}/{name}"


SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
# scheme: (STARTTLS, implicit TLS, default port)
_SMTP_SCHEMES = {
    "smtp": (False, False, 25),
    "smtp+tls": (True, False, 587),
    "smtps": (False, True, 465),
}


def parse_email_url(url: str, name: str = "EMAIL_URL") -> dict[str, object]:
    """Turn a mail URL into Django's EMAIL_* settings:

    - ``smtp+tls://user:password@host:587`` (STARTTLS), ``smtps://…@host:465``
      (TLS from the start), ``smtp://host:25`` (plain: a relay on a private network);
    - ``console:`` (print each mail), ``file:///var/mail/records`` (a file a mail).

    Raises EnvError naming `name` for another scheme, no host or a bad port.
    """
    parts = urlsplit(url)
    if parts.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parts.scheme == "file":
        path = unquote(parts.path)
        if not path:
            raise EnvError(f"{name} names no directory (file:///path)")
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": path,
        }
    if parts.scheme not in _SMTP_SCHEMES:
        raise EnvError(
            f"{name} must be smtp+tls://, smtps://, smtp://, console: or file://, "
            f"got scheme {parts.scheme!r}"
        )
    if not parts.hostname:
        raise EnvError(f"{name} names no mail server (smtp+tls://user:pw@HOST:587)")
    try:
        port = parts.port
    except ValueError:
        raise EnvError(f"{name} has a malformed port") from None
    starttls, implicit_tls, default_port = _SMTP_SCHEMES[parts.scheme]
    return {
        "EMAIL_BACKEND": SMTP_BACKEND,
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port or default_port,
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": starttls,
        "EMAIL_USE_SSL": implicit_tls,
    }


def email_settings(debug: bool) -> dict[str, object]:
    """Django's EMAIL_* settings from ``EMAIL_URL``, or from Django's own variables
    (``EMAIL_HOST``, ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
    ``EMAIL_USE_TLS``, ``EMAIL_USE_SSL``), and ``EMAIL_CONFIGURED``: whether either
    was given. Neither: the console in DEBUG, else Django's default (an SMTP
    server on localhost:25, if there is one; a system check warns)."""
    url = env_str("EMAIL_URL", default="")
    host = env_str("EMAIL_HOST", default="")
    if url and host:
        raise EnvError("Set EMAIL_URL or EMAIL_HOST, not both")
    mail: dict[str, object] = {
        "EMAIL_BACKEND": SMTP_BACKEND,
        "EMAIL_HOST": "localhost",
        "EMAIL_PORT": 25,
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "EMAIL_USE_TLS": False,
        "EMAIL_USE_SSL": False,
        "EMAIL_FILE_PATH": None,
        "EMAIL_CONFIGURED": bool(url or host),
    }
    if url:
        mail.update(parse_email_url(url))
    elif host:
        tls = env_bool("EMAIL_USE_TLS", default=False)
        ssl = env_bool("EMAIL_USE_SSL", default=False)
        if tls and ssl:
            raise EnvError("EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other")
        port = env_int("EMAIL_PORT", default=465 if ssl else 587 if tls else 25)
        mail.update(
            EMAIL_HOST=host,
            EMAIL_PORT=port,
            EMAIL_HOST_USER=env_str("EMAIL_HOST_USER", default=""),
            EMAIL_HOST_PASSWORD=env_str("EMAIL_HOST_PASSWORD", default=""),
            EMAIL_USE_TLS=tls,
            EMAIL_USE_SSL=ssl,
        )
    elif debug:
        mail["EMAIL_BACKEND"] = "django.core.mail.backends.console.EmailBackend"
    return mail
