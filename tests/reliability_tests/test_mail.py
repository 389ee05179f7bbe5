"""Mail for password reset: settings from the environment (EMAIL_URL, or Django's
EMAIL_HOST and friends), the console in DEBUG, and a system check that warns in
production when no mail server is configured (config/env.py, config/checks.py)."""

from __future__ import annotations

import re
import subprocess

import pytest
from django.core import mail
from django.core.checks import run_checks
from django.test import Client

from config.env import EnvError, parse_email_url
from tests.reliability_tests.conftest import PROJECT_DIR, manage
from tests.reliability_tests.test_deploy import production_env

SETTINGS = (
    "from django.conf import settings as s; "
    "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, "
    "s.EMAIL_HOST_PASSWORD, s.EMAIL_USE_TLS, s.EMAIL_USE_SSL, s.DEFAULT_FROM_EMAIL, "
    "s.EMAIL_TIMEOUT)"
)


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=120
    )


def printed(done: subprocess.CompletedProcess) -> list[str]:
    """The words of the settings line (the shell's last)."""
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1].split()


@pytest.mark.django_db
def test_a_password_reset_mails_a_link_that_sets_a_new_password(django_user_model):
    django_user_model.objects.create_user(
        "mara", email="mara@example.org", password="pw-mara-123"
    )
    client = Client()
    asked = client.post("/accounts/password_reset/", {"email": "mara@example.org"})
    assert asked.status_code == 302
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["mara@example.org"]
    link = re.search(r"http://testserver(/accounts/reset/\S+/\S+/)", sent.body)
    assert link, sent.body
    form = client.get(link.group(1), follow=True)
    assert form.status_code == 200
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a-new-pw-4567", "new_password2": "a-new-pw-4567"},
    )
    assert done.status_code == 302
    token = client.post(
        "/api/auth/token",
        {"username": "mara", "password": "a-new-pw-4567"},
        content_type="application/json",
    )
    assert token.status_code == 200


def test_the_check_warns_in_production_without_a_mail_server(settings):
    settings.DEBUG = False
    settings.EMAIL_CONFIGURED = False
    settings.DEFAULT_FROM_EMAIL = "webmaster@localhost"
    ids = {message.id for message in run_checks()}
    assert {"site.W001", "site.W002"} <= ids
    settings.EMAIL_CONFIGURED = True
    settings.DEFAULT_FROM_EMAIL = "records@example.org"
    ids = {message.id for message in run_checks()}
    assert not {"site.W001", "site.W002"} & ids
    settings.DEBUG = True  # development: the console, no warning
    settings.EMAIL_CONFIGURED = False
    assert "site.W001" not in {message.id for message in run_checks()}


@pytest.mark.django_db
def test_production_start_up_says_no_mail_server_is_configured():
    done = run(manage("check"), production_env(EMAIL_URL="", DEFAULT_FROM_EMAIL=""))
    assert done.returncode == 0, done.stderr
    assert "(site.W001) No mail server is configured" in done.stderr
    assert "(site.W002) DEFAULT_FROM_EMAIL is not set" in done.stderr


@pytest.mark.django_db
def test_mail_settings_come_from_email_url():
    env = production_env(
        EMAIL_URL="smtp+tls://records%40example.org:p%40ss@mail.example.org:2525",
        DEFAULT_FROM_EMAIL="records@example.org",
    )
    assert printed(run(manage("shell", "-c", SETTINGS), env)) == [
        "django.core.mail.backends.smtp.EmailBackend",
        "mail.example.org",
        "2525",
        "records@example.org",
        "p@ss",
        "True",
        "False",
        "records@example.org",
        "10",
    ]


@pytest.mark.django_db
def test_mail_settings_come_from_djangos_own_variables_and_debug_prints_them():
    env = production_env(
        EMAIL_URL="",
        EMAIL_HOST="mail.example.org",
        EMAIL_USE_SSL="1",
        EMAIL_HOST_USER="records",
        EMAIL_HOST_PASSWORD="secret",
        DEFAULT_FROM_EMAIL="records@example.org",
    )
    assert printed(run(manage("shell", "-c", SETTINGS), env))[1:7] == [
        "mail.example.org",
        "465",
        "records",
        "secret",
        "False",
        "True",
    ]
    debug = production_env(DEBUG="1", EMAIL_URL="")
    assert printed(run(manage("shell", "-c", SETTINGS), debug))[0] == (
        "django.core.mail.backends.console.EmailBackend"
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"EMAIL_URL": "imap://mail.example.org"}, "EMAIL_URL must be smtp+tls://"),
        ({"EMAIL_URL": "smtps://"}, "EMAIL_URL names no mail server"),
        ({"EMAIL_URL": "smtp://h:x"}, "EMAIL_URL has a malformed port"),
        (
            {"EMAIL_URL": "smtp://h", "EMAIL_HOST": "h"},
            "Set EMAIL_URL or EMAIL_HOST, not both",
        ),
        (
            {
                "EMAIL_URL": "",
                "EMAIL_HOST": "h",
                "EMAIL_USE_TLS": "1",
                "EMAIL_USE_SSL": "1",
            },
            "EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other",
        ),
    ],
)
def test_a_bad_mail_setting_stops_start_up_naming_it(variables, message):
    done = run(manage("check"), production_env(**variables))
    assert done.returncode != 0
    assert message in done.stderr


def test_email_urls():
    assert parse_email_url("smtps://u:p@mail.example.org") == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 465,
        "EMAIL_HOST_USER": "u",
        "EMAIL_HOST_PASSWORD": "p",
        "EMAIL_USE_TLS": False,
        "EMAIL_USE_SSL": True,
    }
    assert parse_email_url("smtp://relay.internal")["EMAIL_PORT"] == 25
    assert parse_email_url("smtp+tls://relay.internal")["EMAIL_PORT"] == 587
    assert parse_email_url("file:///var/mail/records") == {
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": "/var/mail/records",
    }
    assert parse_email_url("console:")["EMAIL_BACKEND"].endswith("console.EmailBackend")
    with pytest.raises(EnvError, match="names no directory"):
        parse_email_url("file://")
