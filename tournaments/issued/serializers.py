"""The verify API's input and the shapes of its answers."""

from __future__ import annotations

from rest_framework import serializers

from games.serializer_base import StrictSerializer


class VerifyInput(StrictSerializer):
    file = serializers.FileField(
        help_text="The file as downloaded (.t, .TOU, CSV, tourney.js, PDF)."
    )
    signature = serializers.FileField(
        required=False,
        help_text="Its detached .sig (or the X-Signature header's value as a file).",
    )


class VerifyOutput(serializers.Serializer):
    valid = serializers.BooleanField(
        help_text="True only for a file byte for byte as this site issued it (and"
        " the one the signature vouches for, when one is given)."
    )
    tournament = serializers.UUIDField(allow_null=True)
    position = serializers.IntegerField(
        allow_null=True,
        help_text="The tournament's log position (stream version) it was made at.",
    )
    issued_at = serializers.CharField(allow_null=True)
    reason = serializers.CharField(
        help_text="Why: for a changed file, the first line that differs from the"
        " record."
    )


class SigningKeyOutput(serializers.Serializer):
    id = serializers.CharField()
    algorithm = serializers.CharField()
    public_key = serializers.CharField(help_text="PEM (SubjectPublicKeyInfo).")
    current = serializers.BooleanField()


class SigningKeysOutput(serializers.Serializer):
    current = serializers.CharField(help_text="The id of the key signing now.")
    keys = SigningKeyOutput(many=True)
