"""What a record's parsed lines imply: their tiles in the record's tile set, and
the ruleset when the record names none (the reader's module notes list the clues).

Usage::

    lines, racks_at_end = _to_tiles(parser, tiles)
    chosen = _infer_ruleset(lines, tiles)
"""

from __future__ import annotations

from rules.gcg.parser import _Parser
from rules.gcg.values import _END_KINDS, _RACK_SIZE, _Kind, _Line
from rules.ruleset import (
    ChallengeRule,
    GoingOutRule,
    Ruleset,
    ScorelessRule,
    ruleset,
)
from rules.tiles import TileSet, tile_values


def _to_tiles(
    parser: _Parser, tile_set: TileSet
) -> tuple[list[_Line], dict[int, tuple[str, int]]]:
    """The lines and final racks with their tiles as the engine holds them (one
    character a tile); every text that is not of the tile set is a problem."""

    def tiles(text: str, number: int, code: str, what: str) -> str:
        read = tile_set.read_tiles(text)
        if read is None:
            parser.problem(
                number, code, f"{what} {text!r} is not made of the tiles of {tile_set}"
            )
            return ""
        return read

    def rack(text: str, number: int) -> str:
        held = tiles(text, number, "bad_rack", "The rack")
        if len(held) > _RACK_SIZE:
            parser.problem(number, "bad_rack", f"The rack {text} has more than 7 tiles")
        return held

    for line in parser.lines:
        number = line.number
        line.rack = rack(line.rack, number)
        if line.kind is _Kind.PLACEMENT:
            line.word = tiles(
                line.word,
                number,
                "bad_word",
                "The word (lower case for a blank, '.' for a tile on the board)",
            )
        elif line.kind is _Kind.EXCHANGE and not line.count:
            exchanged = tiles(line.tiles, number, "bad_exchange", "The exchange of")
            if not 1 <= len(exchanged) <= _RACK_SIZE or "." in exchanged:
                parser.problem(
                    number,
                    "bad_exchange",
                    f"'-{line.tiles}' is not an exchange (-TILES or -N)",
                )
            line.tiles, line.count = exchanged, len(exchanged)
        elif line.kind in (_Kind.GOING_OUT, _Kind.OWN_RACK):
            line.tiles = tiles(line.tiles, number, "bad_event", "The rack counted")
    racks_at_end = {
        player: (rack(text, number), number)
        for player, (text, number) in parser.racks_at_end.items()
    }
    return parser.lines, racks_at_end


def _infer_ruleset(lines: list[_Line], tile_set: TileSet) -> Ruleset:
    """Infer the ruleset a record was played under (see the module notes)."""
    bonuses = [line.score for line in lines if line.kind is _Kind.CHALLENGE]
    if any(bonuses):
        # A bonus that is not a multiple of 10 can only be five-point.
        challenge = (
            ChallengeRule.FIVE_POINT
            if any(bonus % 10 for bonus in bonuses)
            else ChallengeRule.TEN_POINT
        )
        chosen = ruleset("wespa", challenge=challenge)
    elif bonuses:
        # Only "(challenge) +0" lines: valid plays challenged at no cost.
        chosen = ruleset("naspa", challenge=ChallengeRule.SINGLE)
    else:
        chosen = ruleset("naspa")
    values = tile_values(tile_set)
    for start, end in _end_groups(lines):
        group = lines[start:end]
        going_out = [line for line in group if line.kind is _Kind.GOING_OUT]
        if going_out:
            goer = going_out[0]
            others_deducted = any(
                line.kind is _Kind.OWN_RACK and line.player != goer.player
                for line in group
            )
            value = sum(values.get(tile, 0) for tile in goer.tiles)
            single = value > 0 and goer.score == value
            if others_deducted or single:
                chosen = chosen.replace(going_out=GoingOutRule.PLUS_MINUS)
        else:
            six, passes = _scoreless_runs(lines[:start])
            if six < 6 and passes >= 4:
                chosen = chosen.replace(scoreless_end=ScorelessRule.ALL_PASS_TWICE)
    return chosen


def _end_groups(lines: list[_Line]) -> list[tuple[int, int]]:
    groups = []
    index = 0
    while index < len(lines):
        if lines[index].kind in _END_KINDS:
            end = index
            while end < len(lines) and lines[end].kind in _END_KINDS:
                end += 1
            groups.append((index, end))
            index = end
        else:
            index += 1
    return groups


def _scoreless_runs(lines: list[_Line]) -> tuple[int, int]:
    """The scoreless run at the end of ``lines`` counted both ways: (naspa, classic)."""
    six = passes = 0
    saved = (0, 0)
    for line in lines:
        if line.kind is _Kind.PLACEMENT:
            saved = (six, passes)
            six = passes = 0
        elif line.kind is _Kind.PHONY:
            six, passes = saved[0] + 1, saved[1] + 1
        elif line.kind is _Kind.PASS:
            six += 1
            passes += 1
        elif line.kind is _Kind.EXCHANGE:
            six += 1
            passes = 0
    return six, passes
