"""The base of every input serializer: a field the endpoint does not know is a 400.

DRF ignores unknown fields by default, so a misspelt optional field
(``expected_verison``) would silently do nothing: a director would believe a command
was guarded against a concurrent change when it was not. Usage::

    class NoteInput(StrictSerializer):
        text = serializers.CharField()

    NoteInput(data={"text": "x", "colour": "red"}).is_valid()
    # errors: {"colour": ["Unknown field. Known fields: text."]}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

# Sent by HTML forms alongside their fields; it is not data.
_IGNORED = frozenset({"csrfmiddlewaretoken"})


class StrictSerializer(serializers.Serializer):
    """A serializer that refuses fields it does not declare, naming each one."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            writable = {
                name for name, field in self.fields.items() if not field.read_only
            }
            unknown = sorted(set(data) - writable - _IGNORED, key=str)
            if unknown:
                known = ", ".join(sorted(writable)) or "none"
                raise serializers.ValidationError(
                    {
                        str(name): [f"Unknown field. Known fields: {known}."]
                        for name in unknown
                    }
                )
        return super().to_internal_value(data)


class BoundedListField(serializers.ListField):
    """A list refused at once when it is over its ``max_length``, before each item
    is validated: 100,000 division names took 0.8 s to refuse one by one."""

    def to_internal_value(self, data: Any) -> Any:
        if (
            self.max_length is not None
            and isinstance(data, list)
            and len(data) > self.max_length
        ):
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)
