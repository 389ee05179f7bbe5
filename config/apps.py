"""The site's configuration as an app, so that its system checks are registered."""

from __future__ import annotations

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "config"
    label = "site"
    verbose_name = "Site configuration"

    def ready(self) -> None:
        from config import checks  # noqa: F401  (registers them)
