"""ASGI entry point: uvicorn (``manage.py serve``) and gunicorn's uvicorn worker
(``gunicorn -c config/gunicorn.conf.py config.asgi:application``).

The live feed is followed on the event loop, every other request runs in Django's
WSGI application on ``WEB_THREADS`` threads a process (games/feedserver.py says
why), and under gunicorn every unsafe request (a write) in the writer process
(config/writer.py, started by config/gunicorn.conf.py).
"""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

_wsgi = get_wsgi_application()

from django.conf import settings  # noqa: E402  (after Django is set up)

from games.feedserver import site_application  # noqa: E402

application = site_application(
    _wsgi, threads=settings.WEB_THREADS, writer_socket=settings.WEB_WRITER_SOCKET
)
