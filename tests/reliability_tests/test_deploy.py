"""Production settings: `check --deploy` is clean, and secrets come only from the
environment (with DEBUG off, a missing or development SECRET_KEY, or a missing or
short EVENT_LOG_KEY, or no FILE_SIGNING_KEY, stops start-up)."""

from __future__ import annotations

import functools
import secrets
import subprocess
import tempfile
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.reliability_tests.conftest import PROJECT_DIR, manage, subprocess_env


@functools.cache
def signing_key_file() -> str:
    """A deployment's Ed25519 key for the files it issues (tournaments.issued)."""
    path = Path(tempfile.mkdtemp(prefix="signing-")) / "signing.pem"
    path.write_bytes(
        Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return str(path)


def production_env(**extra: str) -> dict[str, str]:
    values = {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "EVENT_LOG_KEY": secrets.token_urlsafe(50),
        "FILE_SIGNING_KEY": signing_key_file(),
        "ALLOWED_HOSTS": "records.example.org",
        # A mail server, as a deployment gives one (else a system check warns).
        "EMAIL_URL": "smtp+tls://records:secret@mail.example.org:587",
        "DEFAULT_FROM_EMAIL": "records@example.org",
        **extra,
    }
    return subprocess_env(**values)


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.django_db
def test_check_deploy_is_clean_in_production_settings():
    done = run(
        manage("check", "--deploy", "--fail-level", "WARNING", "--database", "default"),
        production_env(),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


@pytest.mark.django_db
def test_without_a_secret_key_production_settings_refuse_to_start():
    env = production_env()
    del env["SECRET_KEY"]
    done = run(manage("check"), env)
    assert done.returncode != 0
    assert "SECRET_KEY is not set" in done.stderr


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "EVENT_LOG_KEY is not set"),
        ("short", "EVENT_LOG_KEY is too short"),
    ],
)
def test_without_an_event_log_key_production_settings_refuse_to_start(value, message):
    """The log's key is not in the database and is not SECRET_KEY by default: a
    deployment must give one (or the chain would fall back to a guessable key)."""
    env = production_env()
    if value is None:
        del env["EVENT_LOG_KEY"]
    else:
        env["EVENT_LOG_KEY"] = value
    done = run(manage("check"), env)
    assert done.returncode != 0
    assert message in done.stderr


@pytest.mark.django_db
def test_without_a_file_signing_key_production_does_not_start():
    """The key that signs issued files is not in the database and not derived in
    production: the system check every start runs (migrate) names it."""
    env = production_env()
    del env["FILE_SIGNING_KEY"]
    done = run(manage("check"), env)
    assert done.returncode != 0
    assert "(site.E001) FILE_SIGNING_KEY is not set" in done.stderr


@pytest.mark.django_db
def test_the_development_key_is_refused_with_debug_off():
    env = production_env(
        SECRET_KEY="django-insecure-development-only-key-never-use-in-production"
    )
    done = run(manage("check"), env)
    assert done.returncode != 0
    assert "development key" in done.stderr


@pytest.mark.django_db
def test_secrets_are_read_from_the_environment():
    key = secrets.token_urlsafe(50)
    env = production_env(SECRET_KEY=key)
    done = run(
        manage(
            "shell",
            "-c",
            "from django.conf import settings; import os; "
            "print(settings.SECRET_KEY == os.environ['SECRET_KEY'], "
            "settings.DATABASES['default']['NAME'], settings.DEBUG, "
            "settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE)",
        ),
        env,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.split()[0] == "True"
    assert last.split()[2:] == ["False", "True", "True"]
    assert key not in done.stdout
