"""Sign-in for people (a form) and for API clients (a token), one throttle for all.

Every way in (the site's sign-in form, the admin's, the token endpoint) goes through
``django.contrib.auth.authenticate`` with the request, and so through
``SignInThrottleBackend``, which counts failures with django-axes in the database
that every worker and machine shares. Three limits, none of which someone who knows
a team's usernames can turn into a lockout of that team (docs/RELIABILITY.md,
"Sign-in throttling"):

- **per (username, address)**, a hard lockout: ``LOGIN_FAILURE_LIMIT`` failures
  (default 5) within ``LOGIN_FAILURE_WINDOW`` seconds (15 minutes) of each other
  lock that pair until the window has passed since the last one;
- **per username, from every address**, a progressive delay: from the
  ``LOGIN_FAILURE_LIMIT``-th failure on, the next attempt waits 1 s, then 2, 4, …
  up to ``LOGIN_DELAY_CAP`` (60 s) after the last failure. An attempt inside the
  delay is answered 429 with ``Retry-After`` without checking the password (no
  server thread sleeps, and the attempt is not counted). An address from which
  the username signed in successfully within ``LOGIN_KNOWN_DAYS`` (the director's
  own) skips the delay: an attacker elsewhere cannot keep it from the account;
- **per address**, a breadth limit against spraying one password over many
  accounts: at most ``LOGIN_ADDRESS_USERNAMES`` (50) distinct usernames may fail
  from one address within the window; further usernames are refused there,
  except those that signed in from it before. A venue's players behind one NAT
  address, each mistyping their own password, never lock anyone but themselves
  (each their own pair), and never the director.

A successful sign-in does not clear a count, else a sprayer could clear their
address's failures by signing in to an account of their own. The forms answer 429
with the sign-in page and the reason, the token endpoint 429 with ``Retry-After``.
Usage (config/urls.py)::

    path("accounts/login/", LoginView.as_view(), name="login"),
    path("api/auth/token", TokenApi.as_view(), name="api-token"),

    $ curl -d username=mara -d password=… http://127.0.0.1:8000/api/auth/token
    {"token": "9944b0…"}
    $ curl -H "Authorization: Token 9944b0…" …
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max, Min, Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import TemplateDoesNotExist, engines
from django.template.loader import select_template
from django.template.response import TemplateResponse
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.serializer_base import StrictSerializer


def client_address(request: HttpRequest) -> str:
    """The address failures are counted against (``AXES_CLIENT_IP_CALLABLE``)."""
    # REMOTE_ADDR only: X-Forwarded-For is whatever the client says unless a proxy
    # we trust sets it, and trusting it would let anyone pick a fresh address.
    return request.META.get("REMOTE_ADDR") or "unknown"


def _window() -> int:
    return int(settings.LOGIN_FAILURE_WINDOW)


def _in_words(seconds: int) -> str:
    if seconds < 120:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minutes"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a sign-in is refused before its password is checked, and for how long."""

    message: str
    retry_after: int  # seconds


def pair_refusal() -> Refusal:
    """The hard lockout of one (username, address) pair (django-axes')."""
    return Refusal(
        "Too many failed sign-ins for this username from this address. "
        f"Try again in {_in_words(_window())}.",
        _window(),
    )


def delay_after(failures: int) -> int:
    """Seconds the next attempt for a username waits after its `failures`-th
    failure within the window: none before LOGIN_FAILURE_LIMIT, then 1, 2, 4, …
    up to LOGIN_DELAY_CAP."""
    free = int(settings.LOGIN_FAILURE_LIMIT)
    if failures < free:
        return 0
    # The exponent is bounded so that a huge count costs no big integer.
    return min(int(settings.LOGIN_DELAY_CAP), 2 ** min(failures - free, 30))


def known_address(username: str, address: str) -> bool:
    """Whether `username` signed in successfully from `address` lately."""
    since = timezone.now() - datetime.timedelta(days=settings.LOGIN_KNOWN_DAYS)
    return AccessLog.objects.filter(
        username=username, ip_address=address, attempt_time__gte=since
    ).exists()


def remember_sign_in(username: str, address: str) -> None:
    """Record a successful sign-in from `address`: one row per (username, address),
    kept in django-axes' access log, rows older than LOGIN_KNOWN_DAYS dropped."""
    now = timezone.now()
    rows = AccessLog.objects.filter(username=username)
    rows.filter(
        attempt_time__lt=now - datetime.timedelta(days=settings.LOGIN_KNOWN_DAYS)
    ).delete()
    if not rows.filter(ip_address=address).update(attempt_time=now):
        AccessLog.objects.create(
            username=username, ip_address=address, user_agent="", attempt_time=now
        )


def _recent_failures() -> Any:
    since = timezone.now() - datetime.timedelta(seconds=_window())
    return AccessAttempt.objects.filter(attempt_time__gte=since)


def _seconds_until(moment: datetime.datetime) -> int:
    return max(1, math.ceil((moment - timezone.now()).total_seconds()))


def username_refusal(username: str) -> Refusal | None:
    """The progressive delay on `username`, counted over every address."""
    counted = _recent_failures().filter(username=username)
    tally = counted.aggregate(
        failures=Sum("failures_since_start"), last=Max("attempt_time")
    )
    wait = delay_after(tally["failures"] or 0)
    if not wait:
        return None
    until = tally["last"] + datetime.timedelta(seconds=wait)
    if until <= timezone.now():
        return None
    seconds = _seconds_until(until)
    return Refusal(
        "Too many failed sign-ins for this username. "
        f"Try again in {_in_words(seconds)}.",
        seconds,
    )


def address_refusal(username: str, address: str) -> Refusal | None:
    """The breadth limit on `address`: a username that has not failed there yet
    is refused once LOGIN_ADDRESS_USERNAMES others have."""
    here = _recent_failures().filter(ip_address=address)
    if here.filter(username=username).exists():
        return None  # already counted: its own pair's limit applies
    tally = here.aggregate(
        usernames=Count("username", distinct=True), oldest=Min("attempt_time")
    )
    if tally["usernames"] < settings.LOGIN_ADDRESS_USERNAMES:
        return None
    # A place frees when the oldest counted failure leaves the window.
    seconds = _seconds_until(tally["oldest"] + datetime.timedelta(seconds=_window()))
    return Refusal(
        "Too many failed sign-ins for different usernames from this address. "
        f"Try again in {_in_words(seconds)}.",
        seconds,
    )


def throttle_refusal(username: str, address: str) -> Refusal | None:
    """Why a sign-in of `username` from `address` is refused now, if it is (the
    pair's hard lockout is django-axes' own and is asked first)."""
    if known_address(username, address):
        return None
    return username_refusal(username) or address_refusal(username, address)


class SignInThrottleBackend(AxesStandaloneBackend, ModelBackend):
    """The one sign-in check: the throttle (see the module), then the password.

    Only web sign-ins carry a request, and only they are throttled: a call without
    one (the test client's ``login``, a shell) checks the password alone. A wrong
    password stops here (PermissionDenied) rather than being checked again by the
    next backend, which is listed only to read the sessions it signed in.
    """

    def authenticate(  # type: ignore[override]
        self, request: HttpRequest | None, *args: Any, **kwargs: Any
    ) -> Any:
        if request is None:
            return ModelBackend.authenticate(self, request, *args, **kwargs)
        # django-axes: the (username, address) pair's hard lockout.
        AxesStandaloneBackend.authenticate(self, request, *args, **kwargs)
        username = str(kwargs.get("username") or "")
        address = client_address(request)
        refusal = throttle_refusal(username, address)
        if refusal is not None:
            # Answered 429 by django-axes' middleware (lockout_response); marked
            # locked out, the attempt is not counted as a failure.
            request.axes_locked_out = True  # type: ignore[attr-defined]
            request.sign_in_refusal = refusal  # type: ignore[attr-defined]
            raise AxesBackendPermissionDenied(refusal.message)
        user = ModelBackend.authenticate(self, request, *args, **kwargs)
        if user is None:
            raise PermissionDenied("Wrong username or password.")
        remember_sign_in(user.get_username(), address)
        return user


class LockedOutForm(AuthenticationForm):
    """The sign-in form as a refused sign-in shows it: empty, with the reason."""

    def __init__(self, request: HttpRequest, refusal: Refusal) -> None:
        super().__init__(request)
        self.refusal = refusal

    def non_field_errors(self) -> Any:
        return self.error_class([self.refusal.message], error_class="nonfield")


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The 429 a refused sign-in gets (``AXES_LOCKOUT_CALLABLE``): JSON for the API,
    the sign-in page with the error for a form."""
    refusal = getattr(request, "sign_in_refusal", None) or pair_refusal()
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": refusal.message}, status=429)
    else:
        response = TemplateResponse(
            request,
            LoginView().get_template_names(),
            {
                "form": LockedOutForm(request, refusal),
                "next": request.POST.get("next", ""),
            },
            status=429,
        )
        response.render()
    response["Retry-After"] = str(refusal.retry_after)
    return response


_FALLBACK_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head>
<body><main><h1>Sign in</h1>
<form method="post">{% csrf_token %}{{ form.as_p }}
<input type="hidden" name="next" value="{{ next }}">
<button type="submit">Sign in</button></form></main></body></html>
"""


class LoginView(auth_views.LoginView):
    """The sign-in page (throttled with every other way in; see the module)."""

    template_name = "registration/login.html"

    def get_template_names(self) -> Any:
        try:
            select_template([self.template_name])
        except TemplateDoesNotExist:
            # The site's pages provide the template; until then the form still works.
            return engines["django"].from_string(_FALLBACK_TEMPLATE)
        return [self.template_name]


class TokenInput(StrictSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, style={"input_type": "password"}
    )


class TokenOutput(serializers.Serializer):
    token = serializers.CharField()


class TokenApi(APIView):
    """Exchange a username and password for the account's API token."""

    # Credentials come in the body: no session (so no CSRF token) is involved.
    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema(
        request=TokenInput,
        responses={
            200: TokenOutput,
            400: OpenApiResponse(description="Wrong username or password."),
            429: OpenApiResponse(description="Too many failed attempts."),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        # The Django request: django-axes marks it when it refuses, and its
        # middleware then answers 429 (lockout_response) instead of this view.
        user = authenticate(
            request._request,
            username=data.validated_data["username"],
            password=data.validated_data["password"],
        )
        if user is None or not user.is_active:
            raise serializers.ValidationError(
                {"non_field_errors": ["Wrong username or password."]}
            )
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})
