"""The worker side of ``rebuild_projections --jobs N`` (a forked process)."""

from __future__ import annotations

# Shares per job for stream types of many short streams (games): enough that the
# workers finish within a share of each other.
SHARES_PER_JOB = 8


def rebuild_share(name: str, index: int, count: int) -> tuple[str, int, int]:
    """Rebuild share `index` of `count` of one stream type; (type, streams,
    events)."""
    from games import eventstore

    events = [0]

    def progress(replayed: int) -> None:
        events[0] += replayed

    counts = eventstore.rebuild_projections(
        [name], partition=(index, count), reset=False, progress=progress
    )
    return name, counts.get(name, 0), events[0]
