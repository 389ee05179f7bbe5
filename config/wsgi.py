"""WSGI entry point: the Django application that config.asgi serves (pages on a
thread pool), and what a WSGI server runs (``gunicorn --worker-class gthread
config.wsgi``, the benchmark's anchor; the tests' live server)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
