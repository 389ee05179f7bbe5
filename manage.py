#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

from __future__ import annotations

import os
import sys


def main() -> None:
    """Run administrative tasks; a bad environment variable is one line, not a trace."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    from config.env import EnvError

    try:
        execute_from_command_line(sys.argv)
    except EnvError as error:
        sys.stderr.write(f"configuration error: {error}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
