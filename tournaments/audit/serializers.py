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
    notes = serializers.ListField(
        child=serializers.CharField(),
        help_text="An import's report, on its first event: what was odd in the "
        "file and how it is kept (.t, .TOU, config.tsh, tourney.js).",
    )
    impact = serializers.JSONField(
        allow_null=True,
        help_text="An amendment's impact as the director previewed and confirmed "
        "it (the amend preview's report); null for other events and for "
        "amendments stored before reports were kept.",
    )
