"""The tile sets of the languages played, and how a record names them.

Each set is data: its letters with their counts and values as the language's
national association publishes them (the same figures as Macondo's letter
distributions). A tile of several letters has a one-character stand-in inside the
engine and is written with its letters, the way Macondo writes it in GCG: Spanish
``[CH]``, ``[LL]``, ``[RR]`` (brackets included), Catalan ``L·L``, ``NY``, ``QU``.

A record names its tile set by name (``#tile-distribution spanish`` in a GCG, as
Macondo and MAGPIE write it) or through its lexicon, whose name starts with the
word list's family (``OSPS…`` is Polish, ``FRA…`` French, ``FILE…`` Spanish).

Usage::

    >>> tile_set("polish").total
    100
    >>> tile_set_for_lexicon("FILE2017").name
    'spanish'
    >>> SPANISH.write_tiles(SPANISH.read_tiles("[CH]E"))
    '[CH]E'
"""

from __future__ import annotations

from rules.errors import UnknownTileSetError
from rules.tiles import ENGLISH, TileKind, TileSet

__all__ = [
    "CATALAN",
    "DUTCH",
    "ENGLISH",
    "FRENCH",
    "GERMAN",
    "POLISH",
    "SPANISH",
    "TILE_SETS",
    "tile_set",
    "tile_set_for_letters",
    "tile_set_for_lexicon",
]


def _table(name: str, table: str, texts: dict[str, str] | None = None) -> TileSet:
    """A tile set from ``"A 9 1, B 2 3, …"`` (letter, count, value); ``texts``
    gives the letters printed on a tile whose letter is a stand-in."""
    texts = texts or {}
    kinds = []
    for item in table.split(","):
        letter, count, value = item.split()
        kinds.append(TileKind(letter, int(count), int(value), texts.get(letter, "")))
    tiles = TileSet(name, tuple(kinds))
    tiles.validate()
    return tiles


POLISH = _table(
    "polish",
    "A 9 1, Ą 1 5, B 2 3, C 3 2, Ć 1 6, D 3 2, E 7 1, Ę 1 5, F 1 5, G 2 3, H 2 3, "
    "I 8 1, J 2 3, K 3 2, L 3 2, Ł 2 3, M 3 2, N 5 1, Ń 1 7, O 6 1, Ó 1 5, P 3 2, "
    "R 4 1, S 4 1, Ś 1 5, T 3 2, U 2 3, W 4 1, Y 4 2, Z 5 1, Ź 1 9, Ż 1 5, ? 2 0",
)
FRENCH = _table(
    "french",
    "A 9 1, B 2 3, C 2 3, D 3 2, E 15 1, F 2 4, G 2 2, H 2 4, I 8 1, J 1 8, K 1 10, "
    "L 5 1, M 3 2, N 6 1, O 6 1, P 2 3, Q 1 8, R 6 1, S 6 1, T 6 1, U 6 1, V 2 4, "
    "W 1 10, X 1 10, Y 1 10, Z 1 10, ? 2 0",
)
# The stand-ins are letters no Spanish word uses: Č for CH, Ŀ for LL, Ř for RR.
SPANISH = _table(
    "spanish",
    "A 12 1, B 2 3, C 4 3, Č 1 5, D 5 2, E 12 1, F 1 4, G 2 2, H 2 4, I 6 1, J 1 8, "
    "L 4 1, Ŀ 1 8, M 2 3, N 5 1, Ñ 1 8, O 9 1, P 2 3, Q 1 5, R 5 1, Ř 1 8, S 6 1, "
    "T 4 1, U 5 1, V 1 4, X 1 8, Y 1 4, Z 1 10, ? 2 0",
    {"Č": "[CH]", "Ŀ": "[LL]", "Ř": "[RR]"},
)
GERMAN = _table(
    "german",
    "A 5 1, Ä 1 6, B 2 3, C 2 4, D 4 1, E 15 1, F 2 4, G 3 2, H 4 2, I 6 1, J 1 6, "
    "K 2 4, L 3 2, M 4 3, N 9 1, O 3 2, Ö 1 8, P 1 4, Q 1 10, R 6 1, S 7 1, T 6 1, "
    "U 6 1, Ü 1 6, V 1 6, W 1 3, X 1 8, Y 1 10, Z 1 3, ? 2 0",
)
DUTCH = _table(
    "dutch",
    "A 6 1, B 2 3, C 2 5, D 5 2, E 18 1, F 2 4, G 3 3, H 2 4, I 4 1, J 2 4, K 3 3, "
    "L 3 3, M 3 3, N 10 1, O 6 1, P 2 3, Q 1 10, R 5 2, S 5 2, T 5 2, U 3 4, V 2 4, "
    "W 2 5, X 1 8, Y 1 8, Z 2 4, ? 2 0",
)
# Ŀ is Unicode's own L·L; Ɲ (the palatal nasal, the sound of NY) and Ꝗ stand in for
# NY and QU.
CATALAN = _table(
    "catalan",
    "A 12 1, B 2 3, C 3 2, Ç 1 10, D 3 2, E 13 1, F 1 4, G 2 3, H 1 8, I 8 1, J 1 8, "
    "L 4 1, Ŀ 1 10, M 3 2, N 6 1, Ɲ 1 10, O 5 1, P 2 3, Ꝗ 1 8, R 8 1, S 8 1, T 5 1, "
    "U 4 1, V 1 4, X 1 10, Z 1 8, ? 2 0",
    {"Ŀ": "L·L", "Ɲ": "NY", "Ꝗ": "QU"},
)

TILE_SETS: dict[str, TileSet] = {
    tiles.name: tiles
    for tiles in (ENGLISH, POLISH, FRENCH, SPANISH, GERMAN, DUTCH, CATALAN)
}

# The lexicon families of each language (the start of a word list's name, as the
# lists are published: NWL2023, CSW24, OSPS49, FRA24, FILE2017, RD28, DSW, DISC2).
_LEXICON_FAMILIES = (
    ("english", ("NWL", "NSWL", "TWL", "OWL", "CSW", "SOWPODS", "ECWL", "CEL")),
    ("polish", ("OSPS",)),
    ("french", ("FRA", "ODS")),
    ("spanish", ("FILE", "FISE")),
    ("german", ("RD", "DEUTSCH")),
    ("dutch", ("DSW", "NL")),
    ("catalan", ("DISC",)),
)


def tile_set(name: str) -> TileSet:
    """The tile set called ``name`` (any case).

    Raises :class:`UnknownTileSetError` naming the sets there are.
    """
    found = TILE_SETS.get(name.strip().lower())
    if found is None:
        raise UnknownTileSetError(
            f"Unknown tile set {name!r}: choose one of {', '.join(TILE_SETS)}"
        )
    return found


def tile_set_for_lexicon(lexicon: str) -> TileSet | None:
    """The tile set a lexicon's language is played with, or None when the lexicon's
    name is not one of the known families."""
    upper = lexicon.strip().upper()
    for name, prefixes in _LEXICON_FAMILIES:
        if upper.startswith(prefixes):
            return TILE_SETS[name]
    return None


def tile_set_for_letters(text: str) -> TileSet | None:
    """The one tile set whose tiles can spell every letter of ``text``, when the
    letters rule out every other set but English does not have them; else None."""
    letters = {ch.upper() for ch in text if ch.isalpha()}
    if all(ENGLISH.read_tiles(letter) for letter in letters):
        return None
    fitting = [
        tiles
        for tiles in TILE_SETS.values()
        if all(tiles.read_tiles(letter) is not None for letter in letters)
    ]
    return fitting[0] if len(fitting) == 1 else None
