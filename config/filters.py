"""Query-parameter filters shared by the list endpoints.

``UtcDateTimeFilter`` reads an ISO 8601 time as ``IsoDateTimeFilter`` does and turns
it into UTC before it reaches a query: PostgreSQL refuses a time-zone offset beyond
±15:59 (a 500 when the value went through as given), while the instant itself is
fine. A time that has no UTC form within years 1-9999 is a 400 naming the field.
"""

from __future__ import annotations

import datetime
from typing import Any

import django_filters
from django.core.exceptions import ValidationError
from django_filters.fields import IsoDateTimeField


class UtcIsoDateTimeField(IsoDateTimeField):
    """An ISO 8601 date and time, returned in UTC."""

    def to_python(self, value: Any) -> datetime.datetime | None:
        result = super().to_python(value)
        if result is None:
            return None
        try:
            return result.astimezone(datetime.UTC)
        except OverflowError:
            raise ValidationError(
                "Give a time whose UTC date lies between the years 1 and 9999.",
                code="invalid",
            ) from None


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    """``IsoDateTimeFilter`` whose value reaches the query in UTC."""

    field_class = UtcIsoDateTimeField
