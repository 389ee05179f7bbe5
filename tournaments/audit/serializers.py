"""Serializers of the audit log."""

from __future__ import annotations

from rest_framework import serializers


class AuditEntryOutput(serializers.Serializer):
    version = serializers.IntegerField()
    position = serializers.IntegerField()
    recorded_at = serializers.DateTimeField()
    recorded_by = serializers.CharField()
    event_type = serializers.CharField()
    summary = serializers.CharField()
    payload = serializers.JSONField()
    supersedes = serializers.JSONField(allow_null=True)
    flagged = serializers.ListField(
        child=serializers.CharField(),
        help_text="What an import flagged for the director (a tourney.js's report).",
    )
