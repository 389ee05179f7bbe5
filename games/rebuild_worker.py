"""The worker side of ``rebuild_projections --jobs N`` (a forked process)."""

from __future__ import annotations

# Shares per job for stream types of many short streams (games): enough that the
# workers finish within a share of each other.
SHARES_PER_JOB = 8


def rebuild_share(name: str, index: int, count: int) -> tuple[str, int]:
    """Rebuild share `index` of `count` of one stream type; (type, streams)."""
    from games import eventstore

    counts = eventstore.rebuild_projections(
        [name], partition=(index, count), reset=False
    )
    return name, counts.get(name, 0)
