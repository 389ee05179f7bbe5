"""Sign-in for people (a form) and for API clients (a token), both rate-limited.

Failed sign-ins are counted per username and client address in Django's cache. After
``LOGIN_FAILURE_LIMIT`` failures (default 5) within ``LOGIN_FAILURE_WINDOW`` seconds
(default 15 minutes) of the first, that username is refused from that address until
the window ends, even with the right password: the form answers 429 with an error
and the token endpoint 429 with ``Retry-After``. A successful sign-in clears the
count. Usage (config/urls.py)::

    path("accounts/login/", LoginView.as_view(), name="login"),
    path("api/auth/token", TokenApi.as_view(), name="api-token"),

    $ curl -d username=mara -d password=… http://127.0.0.1:8000/api/auth/token
    {"token": "9944b0…"}
    $ curl -H "Authorization: Token 9944b0…" …
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpRequest, HttpResponse
from django.template import TemplateDoesNotExist, engines
from django.template.loader import select_template
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.serializer_base import StrictSerializer


class LoginThrottle:
    """Counts failed sign-ins per (username, address) in a fixed window."""

    prefix = "login-failures"

    @property
    def limit(self) -> int:
        return getattr(settings, "LOGIN_FAILURE_LIMIT", 5)

    @property
    def window(self) -> int:
        return getattr(settings, "LOGIN_FAILURE_WINDOW", 15 * 60)

    def _key(self, username: str, address: str) -> str:
        # Hashed: cache keys must be short and printable, usernames need not be.
        digest = hashlib.sha256(f"{username.casefold()}\0{address}".encode())
        return f"{self.prefix}:{digest.hexdigest()}"

    def wait(self, username: str, address: str) -> int:
        """Seconds until this username may try again from this address (0: now)."""
        entry = cache.get(self._key(username, address))
        if entry is None:
            return 0
        count, first = entry
        if count < self.limit:
            return 0
        return max(1, math.ceil(first + self.window - time.time()))

    def failed(self, username: str, address: str) -> None:
        key = self._key(username, address)
        now = time.time()
        count, first = cache.get(key) or (0, now)
        # The entry expires when its window ends, whichever backend keeps it.
        remaining = max(1, math.ceil(first + self.window - now))
        cache.set(key, (count + 1, first), timeout=remaining)

    def succeeded(self, username: str, address: str) -> None:
        cache.delete(self._key(username, address))


throttle = LoginThrottle()


def client_address(request: HttpRequest) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is whatever the client says unless a proxy
    # we trust sets it, and trusting it would let anyone pick a fresh address.
    return request.META.get("REMOTE_ADDR") or "unknown"


def _too_many(wait: int) -> str:
    minutes = max(1, math.ceil(wait / 60))
    return (
        "Too many failed sign-ins for this username. "
        f"Try again in {minutes} minute{'s' if minutes != 1 else ''}."
    )


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's sign-in form, refusing a (username, address) with too many failures."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "rate_limited": "%(message)s",
    }

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if not username or self.cleaned_data.get("password") is None:
            return super().clean()
        address = client_address(self.request) if self.request else "unknown"
        wait = throttle.wait(username, address)
        if wait:
            self.retry_after = wait
            raise ValidationError(
                self.error_messages["rate_limited"],
                code="rate_limited",
                params={"message": _too_many(wait)},
            )
        try:
            cleaned = super().clean()
        except ValidationError as error:
            if error.code == "invalid_login":
                throttle.failed(username, address)
            raise
        throttle.succeeded(username, address)
        return cleaned


_FALLBACK_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head>
<body><main><h1>Sign in</h1>
<form method="post">{% csrf_token %}{{ form.as_p }}
<input type="hidden" name="next" value="{{ next }}">
<button type="submit">Sign in</button></form></main></body></html>
"""


class LoginView(auth_views.LoginView):
    """The sign-in page, rate-limited (429 with the form's error when refused)."""

    form_class = ThrottledAuthenticationForm
    template_name = "registration/login.html"

    def get_template_names(self) -> Any:
        try:
            select_template([self.template_name])
        except TemplateDoesNotExist:
            # The site's pages provide the template; until then the form still works.
            return engines["django"].from_string(_FALLBACK_TEMPLATE)
        return [self.template_name]

    def form_invalid(self, form: forms.Form) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "rate_limited"):
            response.status_code = 429
            response["Retry-After"] = str(getattr(form, "retry_after", 1))
        return response


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
        username = data.validated_data["username"]
        address = client_address(request)
        wait = throttle.wait(username, address)
        if wait:
            raise Throttled(wait=wait, detail=_too_many(wait))
        user = authenticate(
            request, username=username, password=data.validated_data["password"]
        )
        if user is None or not user.is_active:
            throttle.failed(username, address)
            raise serializers.ValidationError(
                {"non_field_errors": ["Wrong username or password."]}
            )
        throttle.succeeded(username, address)
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})
