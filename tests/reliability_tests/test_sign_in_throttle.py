"""One sign-in throttle for every way in (the site's form, the admin's, the token
endpoint), kept in the database that every worker shares: per username, per
address (password spraying), and never cleared by a success."""

from __future__ import annotations

import datetime
import json

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.refusals import refused
from tests.reliability_tests.conftest import gunicorn_server, http

RIGHT = {"username": "mara", "password": "pw-mara-123"}
LIMIT = 5


def token(client: APIClient, username: str, password: str):
    return client.post(
        "/api/auth/token", {"username": username, "password": password}, format="json"
    )


@pytest.mark.django_db
def test_the_token_endpoint_refuses_a_username_after_five_failures(director):
    client = APIClient()
    for _ in range(LIMIT - 1):
        response = token(client, "mara", "guess")
        assert refused(response) == {
            "code": "invalid",
            "message": "Wrong username or password.",
            "errors": {"non_field_errors": ["Wrong username or password."]},
        }
    assert token(client, "mara", "guess").status_code == 429
    blocked = token(client, "mara", "pw-mara-123")
    assert blocked.status_code == 429
    assert "Too many failed sign-ins" in blocked.json()["detail"]
    assert int(blocked["Retry-After"]) > 14 * 60
    # The username is refused from every address, not only the guesser's.
    elsewhere = APIClient(REMOTE_ADDR="10.0.0.7")
    assert token(elsewhere, "mara", "pw-mara-123").status_code == 429


@pytest.mark.django_db
def test_spraying_one_password_over_many_usernames_is_limited(django_user_model):
    """One address guessing one password for many accounts is refused after five
    failures, even for an account whose password it then gets right."""
    for name in ("ann", "ben", "cy", "di", "ed", "flo"):
        django_user_model.objects.create_user(name, password=f"pw-{name}-123")
    client = APIClient()
    for name in ("ann", "ben", "cy", "di"):
        assert token(client, name, "Summer2026!").status_code == 400
    assert token(client, "ed", "Summer2026!").status_code == 429
    assert token(client, "flo", "pw-flo-123").status_code == 429
    # Another address, another account: not affected.
    assert (
        token(APIClient(REMOTE_ADDR="10.0.0.8"), "flo", "pw-flo-123").status_code == 200
    )


@pytest.mark.django_db
def test_the_admin_login_is_throttled(django_user_model):
    """The issue's attack: 30 wrong superuser passwords, then the right one."""
    django_user_model.objects.create_superuser("root", password="pw-root-123")
    client = Client()
    statuses = [
        client.post(
            "/admin/login/", {"username": "root", "password": f"x{n}"}
        ).status_code
        for n in range(30)
    ]
    assert statuses[: LIMIT - 1] == [200] * (LIMIT - 1)  # the form, with its error
    assert set(statuses[LIMIT - 1 :]) == {429}
    blocked = client.post(
        "/admin/login/", {"username": "root", "password": "pw-root-123"}
    )
    assert blocked.status_code == 429
    assert b"Too many failed sign-ins" in blocked.content
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_three_ways_in_share_one_count(director):
    form, admin, api = Client(), Client(), APIClient()
    for _ in range(2):
        form.post("/accounts/login/", {"username": "mara", "password": "guess"})
        admin.post("/admin/login/", {"username": "mara", "password": "guess"})
    assert token(api, "mara", "guess").status_code == 429  # the fifth failure
    blocked = form.post("/accounts/login/", RIGHT)
    assert blocked.status_code == 429
    assert b"Too many failed sign-ins" in blocked.content
    assert "_auth_user_id" not in form.session


@pytest.mark.django_db
def test_a_success_does_not_clear_the_count(director, other_user):
    """Else a sprayer would sign in to an account of their own between guesses."""
    client = APIClient()
    for name in ("mara", "mara", "mara", "mara"):
        token(client, name, "guess")
    assert token(client, "oscar", "pw-oscar-123").status_code == 200
    assert token(client, "mara", "guess").status_code == 429


@pytest.mark.django_db
def test_the_limit_ends_with_its_window(director):
    client = APIClient()
    for _ in range(LIMIT):
        token(client, "mara", "x")
    assert token(client, "mara", "pw-mara-123").status_code == 429
    # 15 minutes and a second after the last failure.
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - datetime.timedelta(minutes=15, seconds=1)
    )
    assert token(client, "mara", "pw-mara-123").status_code == 200


# --- two worker processes -----------------------------------------------------------


def _sign_in(url: str, password: str) -> int:
    body = json.dumps({"username": "mara", "password": password}).encode()
    status, _, _ = http(
        f"{url}/api/auth/token",
        data=body,
        headers={"Content-Type": "application/json"},
    )
    return status


@pytest.mark.django_db(transaction=True)
def test_two_worker_processes_share_the_throttle():
    get_user_model().objects.create_user("mara", password="pw-mara-123")
    with gunicorn_server() as first, gunicorn_server() as second:
        assert [_sign_in(first, "guess") for _ in range(3)] == [400, 400, 400]
        assert _sign_in(second, "guess") == 400
        # The fifth failure, counted with the first worker's three.
        assert _sign_in(second, "guess") == 429
        assert _sign_in(second, "pw-mara-123") == 429
        assert _sign_in(first, "pw-mara-123") == 429
    print("FIGURES sign-in throttle: 2 gunicorn processes, locked at failure 5")
