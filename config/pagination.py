"""The API's default pagination: limit/offset with a ceiling on the limit."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """Limit/offset pages of at most 1,000 rows (a larger limit is cut to that)."""

    default_limit = 100
    max_limit = 1000
