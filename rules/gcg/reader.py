"""Reading a GCG record: ``read`` parses, infers and builds the events.

Usage::

    record = read(path.read_bytes())
    record.events, record.state.final_scores, record.discrepancies
"""

from __future__ import annotations

from rules.errors import (
    GcgError,
    RulesError,
)
from rules.gcg.builder import _Builder
from rules.gcg.inference import _infer_ruleset, _to_tiles
from rules.gcg.parser import _decode, _Parser
from rules.gcg.values import GcgRecord
from rules.ruleset import (
    Ruleset,
    ruleset,
)
from rules.tiles import TileSet


def read(
    text: str | bytes,
    *,
    rules: str | Ruleset | None = None,
    tile_set: TileSet | None = None,
) -> GcgRecord:
    """Read a GCG record.

    ``text`` may be bytes: ISO-8859-1 unless the first line is
    ``#character-encoding UTF-8``. ``rules`` is a preset name or a ruleset; without
    one it is the record's ``#ruleset`` pragma, or else inferred from the record
    (see the module notes). ``tile_set`` is the set the game must be played with
    (a tournament division's): a record that names none is read with it, and one
    whose pragma or lexicon names another is refused at that line.

    Raises :class:`GcgError` listing every syntax problem of the file, or the first
    rule the game breaks, each with its line number.
    """
    problems: list[tuple[int, str, str]] = []
    decoded = _decode(text, problems)
    parser = _Parser(problems)
    parser.read(decoded)
    tiles = parser.tile_set(tile_set)
    lines, racks_at_end = _to_tiles(parser, tiles)
    if problems:
        raise GcgError(sorted(problems, key=lambda problem: problem[0]))
    if isinstance(rules, Ruleset):
        chosen = rules
    elif rules is not None:
        try:
            chosen = ruleset(rules)
        except RulesError as error:
            raise GcgError([(0, error.code, error.message)]) from None
    elif parser.ruleset is not None:
        chosen = parser.ruleset
    else:
        chosen = _infer_ruleset(lines, tiles)
    builder = _Builder(lines, parser.metadata(), chosen, tiles, racks_at_end)
    builder.warnings.extend(parser.warnings)
    builder.run(parser.start_line)
    assert builder.state is not None
    return GcgRecord(
        events=builder.events,
        event_lines=builder.event_lines,
        metadata=builder.metadata,
        discrepancies=builder.discrepancies,
        state=builder.state,
        ruleset=chosen,
        warnings=sorted(builder.warnings, key=lambda warning: warning.line),
    )
