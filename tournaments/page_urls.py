"""URLs (filled in by the pages and ratings work)."""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
