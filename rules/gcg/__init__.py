"""GCG, the annotated game record format: reading, writing and checking records.

:func:`read` turns a GCG text into the game's events, with its metadata, the source
line of every event, and every recorded score that differs from the rules' score
(kept as recorded). :func:`write` turns events back into GCG; reading what it wrote
gives the same events. The format is described in ``shared/GCG.md``.

GCG has no draw lines: the reader infers each draw from the player's rack at their
next line (tiles drawn = that rack less the tiles kept). When a rack is partial or
empty, or the tiles kept are not all known, it records how many tiles were drawn
but not which. Only the board is certain: when a recorded rack or an inferred draw
clashes with tiles that were only inferred (the other player's rack, the letters of
an exchange typed as placeholders), the reader warns, drops that inference and
reads on, as Macondo and MAGPIE do. :attr:`GcgRecord.warnings` lists every such
lenient reading with its line.

The tile set is the one ``#tile-distribution`` (as Macondo and MAGPIE write it) or
``#letterdist`` names, or else the one of the ``#lexicon``'s language
(:mod:`rules.tilesets`), or else, with a warning, the only set with every letter
the record uses; English by default. Tiles of several letters are written as
Macondo writes them (Spanish ``[CH]``, Catalan ``L·L``).

The ruleset is the one ``rules=`` gives, or else the record's ``#ruleset`` pragma
(which :func:`write` adds when the winner depends on it), or else it is inferred
from the record: ``naspa`` (what published GCG files use), five- or ten-point
challenges from ``(challenge)`` bonuses (then ``wespa``), ±1× going-out lines when
the opponent's own-rack line follows the going-out line, and the classic "all pass
twice" ending when only that rule ends the game where the record ends it.

Command line::

    python -m rules.gcg check FILE... [--json] [--rules classic|naspa|wespa]

The package holds one module per step: ``values`` (the record's values),
``parser`` (text to lines), ``inference`` (tiles and ruleset from the lines),
``builder`` (lines to events), ``reader`` (``read``), ``writer`` (``write``) and
``cli`` (the command line, run by ``python -m rules.gcg``). This module re-exports
their public names.

Usage::

    record = read(path.read_bytes())
    record.state.final_scores, record.discrepancies
    text = write(record.events, record.metadata)
"""

from __future__ import annotations

from rules.errors import GcgError
from rules.gcg.cli import check_file, main
from rules.gcg.reader import read
from rules.gcg.values import (
    GcgDiscrepancy,
    GcgMetadata,
    GcgPlayer,
    GcgRecord,
    GcgWarning,
)
from rules.gcg.writer import nick, write

__all__ = [
    "GcgDiscrepancy",
    "GcgError",
    "GcgMetadata",
    "GcgPlayer",
    "GcgRecord",
    "GcgWarning",
    "check_file",
    "main",
    "nick",
    "read",
    "write",
]
