"""The ratings officers' page (upload a file and its optional .sig, see the
verdict) and the detached ``.sig`` beside each export.

``detached(view)`` turns an export view into its ``.sig`` sibling: it asks the
view for the file as it would serve it now (same query, so ``?division=`` and
whatever else the view reads) and answers the signature the download carries.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from games.ratelimit import RateLimitedError, limit_anonymous
from tournaments.core import access
from tournaments.issued import registry, signing
from tournaments.issued.apis import signature_file, signing_keys
from tournaments.issued.forms import VerifyForm
from tournaments.issued.verification import UploadRefusedError, verify_uploads
from tournaments.models import Tournament


@require_http_methods(["GET", "POST"])
def verify_page(request: HttpRequest) -> HttpResponse:
    """Upload a file (and its .sig) and see whether this site issued it."""
    form = VerifyForm()
    verdict = None
    status = 200
    if request.method == "POST":
        form = VerifyForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                limit_anonymous(request)
                verdict = verify_uploads(
                    form.cleaned_data["file"], form.cleaned_data.get("signature")
                )
            except UploadRefusedError as error:
                form.add_error(error.field, str(error))
            except RateLimitedError as error:
                form.add_error(None, str(error))
                status = 429
        if verdict is None and status == 200:
            status = 400
    return render(
        request,
        "tournaments/verify.html",
        {
            "form": form,
            "verdict": verdict,
            "tournament": _readable(request, verdict),
            "keys": signing_keys(),
        },
        status=status,
    )


def _readable(request: HttpRequest, verdict: registry.Verdict | None) -> Any:
    """The verdict's tournament, named on the page when the reader may read it
    (else only its id, which the file's holder has anyway)."""
    if verdict is None or verdict.tournament is None:
        return None
    tournament = Tournament.objects.filter(pk=verdict.tournament).first()
    if tournament is None or not access.tournament_can_read(tournament, request.user):
        return None
    return tournament


def detached(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The ``.sig`` of what ``view`` serves now (a 404 or 400 passed through)."""

    def sig(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        # The signature, never a 304 meant for the file.
        request.META.pop("HTTP_IF_NONE_MATCH", None)
        request.META.pop("HTTP_IF_MODIFIED_SINCE", None)
        response = view(request, **kwargs)
        if response.status_code != 200 or "X-Signature" not in response:
            return response
        document = base64.b64decode(response["X-Signature"])
        payload, _, _ = signing.read_document(document)
        return signature_file(document, payload.file)

    return sig
