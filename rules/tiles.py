"""Tile sets as data, and the multiset arithmetic on strings of tiles.

A tile is one character: an upper-case letter, or ``?`` for a blank. A blank placed on
the board is written as the lower-case form of the letter it was declared as. A rack,
a draw or a bag is a string of tiles; order carries no meaning, and the engine keeps
its own strings sorted so that equal multisets compare equal.

A tile set is data (letters, counts, values), so another language is a new
:class:`TileSet`, not new code. Its letters must be single cased characters so that a
blank's declared letter can be written in lower case. A tile of several letters
(Spanish CH, Catalan L·L) has a one-character stand-in as its letter inside the engine
and keeps the letters printed on it as its ``text``: :meth:`TileSet.read_tiles` and
:meth:`TileSet.write_tiles` convert between the two. The sets of the languages played
are in :mod:`rules.tilesets`.

Usage::

    >>> ENGLISH.total
    100
    >>> tile_values(ENGLISH)["Q"]
    10
    >>> remove_tiles("AEINRST", "TAN")
    'EIRS'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache

from rules.errors import InvalidTileSetError

BLANK = "?"


@dataclass(frozen=True, slots=True)
class TileKind:
    """One letter of a tile set: how many tiles carry it and what each is worth.

    ``text`` is what is printed on the tile when that is not ``letter`` itself (a
    tile of several letters, whose ``letter`` is a one-character stand-in).
    """

    letter: str
    count: int
    value: int
    text: str = ""

    @property
    def label(self) -> str:
        """What is printed on the tile."""
        return self.text or self.letter


@dataclass(frozen=True, slots=True)
class TileSet:
    """The tiles a game is played with; the blank is the letter ``?``."""

    name: str
    kinds: tuple[TileKind, ...]

    def __hash__(self) -> int:
        # The engine's caches (spelling, values, score limits) are keyed by tile
        # set, looked up several times an event: the generated hash walked all
        # 28 kinds each time (a quarter of reading a GCG file). Equal sets have
        # equal names, so this agrees with equality.
        return hash(self.name)

    @property
    def total(self) -> int:
        """The number of tiles in the set."""
        return sum(kind.count for kind in self.kinds)

    @property
    def letters(self) -> str:
        """The letters of the set in order, the blank included."""
        return "".join(kind.letter for kind in self.kinds)

    def tiles(self) -> str:
        """Every tile of the set, as one sorted string."""
        return "".join(sorted("".join(kind.letter * kind.count for kind in self.kinds)))

    def value(self, tile: str) -> int:
        """The value of one tile (a lower-case letter is a blank: 0).

        Raises ``KeyError`` when the tile is not in the set.
        """
        return tile_values(self)[tile]

    def label(self, tile: str) -> str:
        """What is printed on ``tile`` (lower case for a blank's declared letter).

        Raises ``KeyError`` when the tile is not in the set.
        """
        return _spelling(self).labels[tile]

    def write_tiles(self, tiles: str) -> str:
        """Tiles as a record writes them: each tile's label, ``.`` and ``?`` kept.

        Raises ``KeyError`` when a tile is not in the set.
        """
        if _spelling(self).plain:
            return tiles
        labels = _spelling(self).labels
        return "".join(labels[tile] for tile in tiles)

    def read_tiles(self, text: str) -> str | None:
        """Tiles as the engine holds them, from a record's text (the inverse of
        :meth:`write_tiles`); None when the text is not made of this set's tiles.

        The longest label that matches is taken first (Catalan ``L·L`` before
        ``L``); a label not in upper case is a blank declared as that letter (as
        Macondo reads it); ``.`` (a tile on the board) and ``?`` (a blank on a
        rack) are kept.
        """
        spelling = _spelling(self)
        if spelling.plain and text.isascii():
            return text if all(ch in spelling.labels for ch in text) else None
        tiles: list[str] = []
        index = 0
        while index < len(text):
            for length in range(min(spelling.longest, len(text) - index), 0, -1):
                piece = text[index : index + length]
                tile = spelling.tiles.get(piece)
                if tile is None:
                    tile = spelling.tiles.get(piece.upper())
                    if tile is None or not tile.isupper():
                        continue
                    tile = tile.lower()
                tiles.append(tile)
                index += length
                break
            else:
                return None
        return "".join(tiles)

    def validate(self) -> None:
        """Check the set can be played with.

        Raises :class:`InvalidTileSetError` when a letter repeats, is not a single
        upper-case character (or ``?``), or has a negative count or value.
        """
        seen: set[str] = set()
        for kind in self.kinds:
            letter = kind.letter
            if letter in seen:
                raise InvalidTileSetError(
                    f"The letter {letter} appears twice in {self}"
                )
            seen.add(letter)
            if letter != BLANK and not (
                len(letter) == 1 and letter.isupper() and letter.lower() != letter
            ):
                raise InvalidTileSetError(
                    f"Tile {letter!r} of tile set {self.name} is not a single "
                    "upper-case letter"
                )
            if kind.text and (
                not kind.text.isupper() or "." in kind.text or BLANK in kind.text
            ):
                raise InvalidTileSetError(
                    f"The text {kind.text!r} of tile {letter} of tile set {self.name} "
                    "is not upper-case letters"
                )
            if kind.count < 0 or kind.value < 0:
                raise InvalidTileSetError(
                    f"Tile {letter} of tile set {self.name} has a negative count "
                    "or value"
                )

        labels = [kind.label for kind in self.kinds]
        if len(set(labels)) != len(labels):
            raise InvalidTileSetError(f"Two tiles of {self} are written alike")

    def __str__(self) -> str:
        return f"tile set {self.name}"


def _english() -> TileSet:
    # RULES.md, "Equipment": count × value, 100 tiles in all.
    table = (
        "A 9 1, B 2 3, C 2 3, D 4 2, E 12 1, F 2 4, G 3 2, H 2 4, I 9 1, J 1 8, "
        "K 1 5, L 4 1, M 2 3, N 6 1, O 8 1, P 2 3, Q 1 10, R 6 1, S 4 1, T 6 1, "
        "U 4 1, V 2 4, W 2 4, X 1 8, Y 2 4, Z 1 10, ? 2 0"
    )
    kinds = []
    for item in table.split(", "):
        letter, count, value = item.split()
        kinds.append(TileKind(letter, int(count), int(value)))
    return TileSet("english", tuple(kinds))


ENGLISH = _english()


@dataclass(frozen=True, slots=True)
class _Spelling:
    """How a tile set's tiles are written: label of each tile, tile of each label."""

    labels: dict[str, str]
    tiles: dict[str, str]
    longest: int
    plain: bool  # every label is the tile's own letter


@cache
def _spelling(tile_set: TileSet) -> _Spelling:
    labels = {".": ".", BLANK: BLANK}
    for kind in tile_set.kinds:
        if kind.letter != BLANK:
            labels[kind.letter] = kind.label
            labels[kind.letter.lower()] = kind.label.lower()
    # Read by the upper-case label; any other case of it is a blank (read_tiles).
    tiles = {label: tile for tile, label in labels.items() if not tile.islower()}
    return _Spelling(
        labels=labels,
        tiles=tiles,
        longest=max(len(label) for label in labels.values()),
        plain=all(tile == label for tile, label in labels.items()),
    )


@cache
def tile_values(tile_set: TileSet) -> dict[str, int]:
    """Map every tile, and every blank's lower-case letter, to its value.

    Cached per tile set: the engine looks values up on every scored square.
    """
    values = {kind.letter: kind.value for kind in tile_set.kinds}
    for kind in tile_set.kinds:
        if kind.letter != BLANK:
            values[kind.letter.lower()] = 0
    return values


def as_tiles(letters: str) -> str:
    """Turn letters as written on the board into the rack tiles they came from.

    A lower-case letter is a blank, so ``"CAt"`` becomes ``"CA?"``.
    """
    return "".join(BLANK if ch.islower() else ch for ch in letters)


def sort_tiles(tiles: str) -> str:
    """Return the tiles in the engine's canonical (sorted) order."""
    return "".join(sorted(tiles))


def remove_tiles(rack: str, tiles: str) -> str | None:
    """Return ``rack`` without ``tiles`` (multisets); None when a tile is missing."""
    for tile in tiles:
        index = rack.find(tile)
        if index < 0:
            return None
        rack = rack[:index] + rack[index + 1 :]
    return rack


def split_known(rack: str, tiles: str) -> tuple[str, str]:
    """Split ``tiles`` into the part found on ``rack`` and the part that is not.

    Returns ``(rack_left, missing)``: ``rack`` with the found tiles removed, and the
    tiles of ``tiles`` that were not on it.
    """
    missing = []
    for tile in tiles:
        index = rack.find(tile)
        if index < 0:
            missing.append(tile)
        else:
            rack = rack[:index] + rack[index + 1 :]
    return rack, "".join(missing)


def difference(tiles: str, other: str) -> str:
    """Return the tiles of ``tiles`` that remain after taking away ``other``."""
    left = Counter(tiles)
    left.subtract(other)
    return "".join(sorted(tile * n for tile, n in left.items() if n > 0))


def rack_value(tiles: str, values: dict[str, int]) -> int:
    """The sum of the values of tiles left on a rack (blanks count 0)."""
    return sum(values[tile] for tile in tiles)
