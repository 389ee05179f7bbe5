"""System checks of the site's settings (Django's check framework): shown by
``manage.py check``, and at every start, since the run command and deployments run
``migrate``, which runs them first.

- ``site.W001``: in production (DEBUG off) no mail server is configured
  (``EMAIL_URL`` or ``EMAIL_HOST``), so password-reset mail goes to an SMTP server on
  localhost:25 that is usually not there: the reset form says "sent" and nothing
  arrives (Django logs the failure).
- ``site.W002``: in production mail would be sent from ``webmaster@localhost``
  (``DEFAULT_FROM_EMAIL`` unset), which mail servers refuse or file as spam.
- ``site.E001``: the key that signs issued files (``FILE_SIGNING_KEY``) is not
  set in production, or it (or a retired key of ``FILE_SIGNING_OLD_KEYS``) cannot
  be read as an Ed25519 key: every export would fail to be signed.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks

from tournaments.issued import signing

NO_MAIL_SERVER = checks.Warning(
    "No mail server is configured: password-reset mail cannot be sent.",
    hint="Set EMAIL_URL (e.g. smtp+tls://user:password@mail.example.org:587) or "
    "EMAIL_HOST and its EMAIL_* variables; see README, Configuration.",
    id="site.W001",
)
NO_SENDER = checks.Warning(
    "DEFAULT_FROM_EMAIL is not set: mail would come from webmaster@localhost.",
    hint="Set DEFAULT_FROM_EMAIL to an address of your domain.",
    id="site.W002",
)


@checks.register()
def mail_is_configured(
    app_configs: Any = None, **kwargs: Any
) -> list[checks.CheckMessage]:
    if settings.DEBUG:
        return []
    problems = []
    if not settings.EMAIL_CONFIGURED:
        problems.append(NO_MAIL_SERVER)
    if settings.DEFAULT_FROM_EMAIL == "webmaster@localhost":
        problems.append(NO_SENDER)
    return problems


@checks.register()
def file_signing_key(
    app_configs: Any = None, **kwargs: Any
) -> list[checks.CheckMessage]:
    """The signing key is required in production and must load wherever it is
    set (tournaments.issued.signing)."""
    if not settings.FILE_SIGNING_KEY and not settings.FILE_SIGNING_KEY_FROM_SECRET:
        return [
            checks.Error(
                "FILE_SIGNING_KEY is not set: issued files cannot be signed.",
                hint="openssl genpkey -algorithm ed25519 -out /etc/scrabble/"
                "signing.pem, then FILE_SIGNING_KEY=/etc/scrabble/signing.pem "
                "(docs/RELIABILITY.md, 'Signed files').",
                id="site.E001",
            )
        ]
    try:
        signing.public_keys()
    except (signing.SignatureError, OSError) as error:
        return [checks.Error(str(error), id="site.E001")]
    return []
