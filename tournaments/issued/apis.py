"""The API of issued files: the public keys, a file's verification, and a
detached signature.

Usage::

    GET  /api/signing-key                    {"current": id, "keys": [...]}
    POST /api/verify   (multipart file, optional signature)
         200 {"valid", "tournament", "position", "issued_at", "reason"}
    GET  /api/signatures/<sha256>.sig        the .sig of an issued file

Everyone may verify, signed in or not; a signed-out verifier's checks are counted
as the other expensive anonymous reads are (games.ratelimit).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.http import Http404, HttpResponse
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.ratelimit import limit_anonymous
from tournaments.issued import registry, signing
from tournaments.issued import serializers as issued_serializers
from tournaments.issued.verification import UploadRefusedError, verify_uploads
from tournaments.models import IssuedFile


def signing_keys() -> dict[str, Any]:
    current = signing.current_key_id()
    return {
        "current": current,
        "keys": [
            {
                "id": key_id,
                "algorithm": "Ed25519",
                "public_key": signing.public_pem(key),
                "current": key_id == current,
            }
            for key_id, key in signing.public_keys().items()
        ],
    }


class SigningKeyApi(APIView):
    """The public keys the site's files are signed with (retired ones too, so
    that files signed before a rotation still verify)."""

    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="signing_key",
        responses={200: issued_serializers.SigningKeysOutput},
    )
    def get(self, request: Request) -> Response:
        return Response(signing_keys())


class VerifyApi(APIView):
    """Whether a file is byte for byte one this site issued; if not, the first
    line that differs from the record."""

    permission_classes = (AllowAny,)
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(
        operation_id="verify_file",
        request={"multipart/form-data": issued_serializers.VerifyInput},
        responses={200: issued_serializers.VerifyOutput},
    )
    def post(self, request: Request) -> Response:
        data = issued_serializers.VerifyInput(data=request.data)
        data.is_valid(raise_exception=True)
        limit_anonymous(request)
        try:
            verdict = verify_uploads(
                data.validated_data["file"], data.validated_data.get("signature")
            )
        except UploadRefusedError as error:
            raise ValidationError({error.field: [str(error)]}) from None
        return Response(dataclasses.asdict(verdict))


class SignatureApi(APIView):
    """The detached signature of an issued file, by its sha256 (the ``Link``
    header of every download names it)."""

    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="issued_signature",
        responses={(200, "text/plain"): OpenApiTypes.STR},
    )
    def get(self, request: Request, sha256: str) -> HttpResponse:
        row = IssuedFile.objects.filter(sha256=sha256.lower()).first()
        if row is None:
            raise Http404("No file with this sha256 was issued here.")
        return signature_file(signing.sign(registry.payload_of(row)), row.name)


def signature_file(document: bytes, name: str) -> HttpResponse:
    response = HttpResponse(document, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, f"{name}.sig")
    return response
