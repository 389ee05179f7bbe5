"""The worker side of ``rebuild_projections --jobs N`` (a spawned process).

Importable before Django is set up: the pool unpickles these functions by name
before the initializer runs, so nothing here imports models at module level.
"""

from __future__ import annotations

import os

# Shares per job for stream types of many short streams (games): enough that the
# workers finish within a share of each other.
SHARES_PER_JOB = 8


def start(database_url: str) -> None:
    """Set up Django in a fresh worker process, on the coordinator's database."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def rebuild_share(name: str, index: int, count: int) -> tuple[str, int]:
    """Rebuild share `index` of `count` of one stream type; (type, streams)."""
    from games import eventstore

    counts = eventstore.rebuild_projections(
        [name], partition=(index, count), reset=False
    )
    return name, counts.get(name, 0)
