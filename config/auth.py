"""Sign-in for people (a form) and for API clients (a token), one throttle for all.

Every way in (the site's sign-in form, the admin's, the token endpoint) goes through
``django.contrib.auth.authenticate`` with the request, where django-axes counts the
failures in the database that every worker and machine shares. After
``LOGIN_FAILURE_LIMIT`` failures (default 5) within ``LOGIN_FAILURE_WINDOW`` seconds
(default 15 minutes) of each other, for one username from any address, or from one
address for any usernames (password spraying), sign-in is refused even with the
right password until the window has passed since the last failure: the forms answer
429 with the sign-in page and its error, the token endpoint 429 with ``Retry-After``.
A successful sign-in does not clear the count, else a sprayer could clear their
address's failures by signing in to an account of their own. Usage
(config/urls.py)::

    path("accounts/login/", LoginView.as_view(), name="login"),
    path("api/auth/token", TokenApi.as_view(), name="api-token"),

    $ curl -d username=mara -d password=… http://127.0.0.1:8000/api/auth/token
    {"token": "9944b0…"}
    $ curl -H "Authorization: Token 9944b0…" …
"""

from __future__ import annotations

import math
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import TemplateDoesNotExist, engines
from django.template.loader import select_template
from django.template.response import TemplateResponse
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


def too_many_message() -> str:
    minutes = max(1, math.ceil(_window() / 60))
    return (
        "Too many failed sign-ins for this username or from this address. "
        f"Try again in {minutes} minute{'s' if minutes != 1 else ''}."
    )


class SignInThrottleBackend(AxesStandaloneBackend):
    """django-axes' check, for sign-ins that come with a request.

    Only web sign-ins carry a request, and only they are throttled: a call without
    one (the test client's ``login``, a shell) is left to the next backend.
    """

    def authenticate(
        self, request: HttpRequest | None, *args: Any, **kwargs: Any
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)


class LockedOutForm(AuthenticationForm):
    """The sign-in form as a refused sign-in shows it: empty, with the reason."""

    def non_field_errors(self) -> Any:
        return self.error_class([too_many_message()], error_class="nonfield")


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The 429 a refused sign-in gets (``AXES_LOCKOUT_CALLABLE``): JSON for the API,
    the sign-in page with the error for a form."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"detail": too_many_message()}, status=429
        )
    else:
        response = TemplateResponse(
            request,
            LoginView().get_template_names(),
            {"form": LockedOutForm(request), "next": request.POST.get("next", "")},
            status=429,
        )
        response.render()
    response["Retry-After"] = str(_window())
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
