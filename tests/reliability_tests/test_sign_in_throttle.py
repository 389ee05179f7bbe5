"""One sign-in throttle for every way in (the site's form, the admin's, the token
endpoint), kept in the database that every worker shares, never cleared by a
success, and not to be turned against a team: a hard lockout per (username,
address), a progressive delay per username that the username's own addresses skip,
and a limit on the usernames one address may fail for (config/auth.py)."""

from __future__ import annotations

import datetime
import json

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.db.models import F, Sum
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from config.auth import delay_after
from tests.refusals import refused
from tests.reliability_tests.conftest import gunicorn_server, http

RIGHT = {"username": "mara", "password": "pw-mara-123"}
LIMIT = 5


def token(client: APIClient, username: str, password: str):
    return client.post(
        "/api/auth/token", {"username": username, "password": password}, format="json"
    )


def at(address: str) -> APIClient:
    return APIClient(REMOTE_ADDR=address)


def later(seconds: int) -> None:
    """Move every recorded failure `seconds` into the past: the clock, deterministic."""
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - datetime.timedelta(seconds=seconds)
    )


@pytest.fixture
def fast_passwords(settings) -> None:
    """Cheap hashing, for the tests that try a hundred passwords (asked for before
    the users are made, so theirs are hashed with it)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def wrong_passwords(username: str, count: int, addresses: list[str]) -> None:
    """`count` failures for `username` from `addresses` in turn (a pair locks at
    its fifth), each once the delay the ones before it set has passed."""
    for failures in range(count):
        later(delay_after(failures))
        address = addresses[failures // LIMIT]
        assert token(at(address), username, "guess").status_code in (400, 429)


@pytest.mark.django_db
def test_the_token_endpoint_locks_a_username_and_address_after_five_failures(
    director,
):
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
    assert (
        "Too many failed sign-ins for this username from this address"
        in (blocked.json()["detail"])
    )
    assert int(blocked["Retry-After"]) > 14 * 60
    # Still locked a minute later, whatever the other limits say by then.
    later(60)
    assert token(client, "mara", "pw-mara-123").status_code == 429


def test_the_delay_grows_with_each_failure_up_to_its_cap():
    assert [delay_after(n) for n in range(0, 14)] == (
        [0] * LIMIT + [1, 2, 4, 8, 16, 32, 60, 60, 60]
    )
    assert delay_after(10**9) == 60


@pytest.mark.django_db
def test_an_attacker_elsewhere_does_not_lock_the_director_out(director):
    """The issue's attack: five wrong passwords for the director's username from
    the attacker's address. The director, at their own address, signs in."""
    assert token(at("10.0.0.1"), "mara", "pw-mara-123").status_code == 200
    attacker = at("203.0.113.9")
    assert [token(attacker, "mara", "guess").status_code for _ in range(LIMIT)] == [
        400
    ] * (LIMIT - 1) + [429]
    # At once from the address the director signed in from before.
    assert token(at("10.0.0.1"), "mara", "pw-mara-123").status_code == 200
    # The attacker's own pair stays locked, right password or not.
    assert token(attacker, "mara", "pw-mara-123").status_code == 429


@pytest.mark.django_db
def test_from_a_new_address_the_director_waits_at_most_the_delay(director):
    """Attackers on many addresses keep failing: an address the username never
    signed in from waits the progressive delay, answered 429 without a sleeping
    thread, and then gets in with the right password."""
    assert token(at("10.0.0.1"), "mara", "pw-mara-123").status_code == 200
    wrong_passwords("mara", 15, ["203.0.113.1", "203.0.113.2", "203.0.113.3"])
    assert AccessAttempt.objects.aggregate(n=Sum("failures_since_start"))["n"] == 15
    # The director's usual address: in at once.
    assert token(at("10.0.0.1"), "mara", "pw-mara-123").status_code == 200
    # 15 failures: the next attempt waits the cap (60 s) after the last.
    venue = at("198.51.100.7")
    waiting = token(venue, "mara", "pw-mara-123")
    assert waiting.status_code == 429
    assert "Too many failed sign-ins for this username." in waiting.json()["detail"]
    retry_after = int(waiting["Retry-After"])
    assert 0 < retry_after <= 60
    later(retry_after)
    assert token(venue, "mara", "pw-mara-123").status_code == 200
    print(
        "FIGURES sign-in delay: 15 failures from 3 addresses, a new address "
        f"waited {retry_after} s (cap 60), a known one 0 s"
    )


@pytest.mark.django_db
def test_the_forms_answer_the_delay_with_the_page_and_its_reason(director):
    wrong_passwords("mara", 11, ["203.0.113.1", "203.0.113.2", "203.0.113.3"])
    for path in ("/accounts/login/", "/admin/login/"):
        client = Client(REMOTE_ADDR="198.51.100.7")
        waiting = client.post(path, RIGHT)
        assert waiting.status_code == 429
        assert b"Too many failed sign-ins for this username. Try again in" in (
            waiting.content
        )
        assert 0 < int(waiting["Retry-After"]) <= 60
        assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_attempts_inside_the_delay_are_not_counted(director):
    wrong_passwords("mara", 11, ["203.0.113.1", "203.0.113.2", "203.0.113.3"])
    # The cap's 60 s from the last failure: refused unchecked, right or wrong.
    for password in ("guess", "guess", "pw-mara-123"):
        assert token(at("203.0.113.4"), "mara", password).status_code == 429
    assert AccessAttempt.objects.aggregate(n=Sum("failures_since_start"))["n"] == 11


@pytest.mark.django_db
def test_players_typos_behind_one_venue_address_do_not_lock_the_director(
    fast_passwords, director, django_user_model
):
    """Thirty players at the venue's NAT address each mistype their password three
    times; the director, never signed in from there before, signs in."""
    venue = at("198.51.100.7")
    for number in range(30):
        name = f"player{number}"
        django_user_model.objects.create_user(name, password=f"pw-{name}-123")
        for _ in range(3):
            assert token(venue, name, "typo").status_code == 400
    assert token(venue, "mara", "pw-mara-123").status_code == 200
    assert token(venue, "player7", "pw-player7-123").status_code == 200


@pytest.mark.django_db
def test_spraying_one_password_over_many_usernames_is_limited(
    fast_passwords, director, django_user_model
):
    """One address may fail for LOGIN_ADDRESS_USERNAMES usernames in the window;
    a further username is refused there, but not an account that signed in from
    that address before, nor the same account elsewhere."""
    sprayer = at("198.51.100.7")
    assert token(sprayer, "mara", "pw-mara-123").status_code == 200
    django_user_model.objects.create_user("flo", password="pw-flo-123")
    for number in range(50):
        assert token(sprayer, f"user{number}", "Summer2026!").status_code == 400
    refused_there = token(sprayer, "flo", "pw-flo-123")
    assert refused_there.status_code == 429
    assert "different usernames from this address" in refused_there.json()["detail"]
    assert 14 * 60 < int(refused_there["Retry-After"]) <= 15 * 60
    assert token(sprayer, "mara", "pw-mara-123").status_code == 200
    assert token(at("10.0.0.8"), "flo", "pw-flo-123").status_code == 200
    # A place frees as the oldest failures leave the window.
    later(15 * 60 + 1)
    assert token(sprayer, "flo", "pw-flo-123").status_code == 200


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
