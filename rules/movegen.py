"""Move generation: every legal placement that forms only words of a word list.

This is the Appel–Jacobson algorithm ("The World's Fastest Scrabble Program", 1988)
over a DAWG, the minimal acyclic automaton of the word list:

- **Anchors** are the empty squares next to a tile (on an empty board, H8 only). Every
  play covers at least one, and a play is generated once, from its leftmost anchor.
- **Cross-checks**: for each empty square with a tile above or below it, the letters
  that make the vertical run through it a word. A square without such neighbours
  accepts any letter.
- **Left part + extend right**: left of an anchor, either the tiles already there (when
  the square before the anchor is occupied) or up to as many rack tiles as there are
  empty non-anchor squares before it (those squares have no neighbours, so no
  cross-checks); then the word is extended rightwards through the anchor over board
  tiles and cross-checked rack tiles, and recorded whenever the DAWG accepts it at an
  empty square or the edge.

Down plays are the across plays of the transposed board. A one-tile play that forms a
word in both directions is found by both passes; it is reported once, as across when
it forms an across word of 2+ letters (else down).

Only the standard library is used, and nothing from the rest of ``rules``: the caller
adapts its own board and rack to the plain strings taken here.

Board: 15 strings of 15 characters, ``.`` or a space for an empty square, an uppercase
letter for a natural tile, a lowercase letter for a blank designated as that letter.
Rack: up to 7 characters, ``A``-``Z`` and ``?`` for a blank.

Usage::

    graph = WordGraph.from_words(["CAT", "CATS", "AT"])
    plays = generate(board, "STAC?EE", graph)
    plays[0].gcg_position(), plays[0].gcg_word()
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from rules.errors import RulesError

__all__ = [
    "BLANK",
    "BOARD_SIZE",
    "CENTRE",
    "RACK_SIZE",
    "MoveGenError",
    "Placement",
    "WordGraph",
    "generate",
    "words_formed",
]

BOARD_SIZE = 15
CENTRE = 7  # H8, 0-based, on both axes
RACK_SIZE = 7
BLANK = "?"
COLUMNS = "ABCDEFGHIJKLMNO"

_EMPTY = "."
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_SQUARES = _LETTERS | {letter.lower() for letter in _LETTERS} | {_EMPTY}

# A DAWG node maps a letter to the index of the next node in the graph's node list;
# the key "" marks the end of a word (its value means nothing). A plain dict keeps a
# step to one ``dict.get``, the cheapest pure Python has, and the marker is always
# the first key. Indices rather than nested dicts: a dict holding only strings and
# ints is not tracked by the garbage collector, so the graph's 100k+ nodes add
# nothing to the collector's full passes (which otherwise cost ~130 ms each).
_Node: TypeAlias = dict[str, int]
_END = ""


class MoveGenError(RulesError):
    """Raised when a board, rack, placement or word-list option is malformed.

    ``code`` is stable (``bad_board``, ``bad_rack``, ``bad_tiles``, ``bad_option``);
    the message says what to fix.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# The word graph --------------------------------------------------------------------


class WordGraph:
    """A word list as a DAWG (minimal acyclic automaton), built once and shared.

    Build it with ``WordGraph.from_words``. ``word in graph`` is case-insensitive and
    costs one step per letter; ``len(graph)`` is the number of words kept.
    """

    __slots__ = ("_count", "_nodes")

    def __init__(self, nodes: list[_Node], count: int) -> None:
        # Private: the nodes must come from ``from_words`` (a minimised DAWG, root
        # first, never mutated afterwards).
        self._nodes = nodes
        self._count = count

    @classmethod
    def from_words(
        cls, words: Iterable[str], *, min_length: int = 2, max_length: int = BOARD_SIZE
    ) -> WordGraph:
        """Build the graph of ``words``, uppercased, keeping only A-Z words whose
        length is within ``[min_length, max_length]``; anything else is skipped.

        ``min_length`` is at least 2: the rules make only runs of two or more tiles
        words, and a one-letter word would let a lone tile count as a play.
        """
        if min_length < 2:
            raise MoveGenError(
                "bad_option", f"min_length must be >= 2, not {min_length}"
            )
        if max_length < min_length:
            raise MoveGenError(
                "bad_option",
                f"max_length {max_length} is below min_length {min_length}",
            )
        kept = sorted(
            {
                word.upper()
                for word in words
                if min_length <= len(word) <= max_length
                and word.isascii()
                and word.isalpha()
            }
        )
        return cls(_build_dawg(kept), len(kept))

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        node = _walk(self._nodes, self._nodes[0], word.upper())
        return node is not None and _END in node

    def __len__(self) -> int:
        return self._count

    @property
    def node_count(self) -> int:
        """Nodes in the minimised graph (a measure of its memory)."""
        return len(self._nodes)

    def __iter__(self) -> Iterator[str]:
        """The words, in alphabetical order."""
        stack: list[tuple[int, str]] = [(0, "")]
        while stack:
            index, prefix = stack.pop()
            # Reversed so that the stack pops children in alphabetical order.
            for letter, child in reversed(self._nodes[index].items()):
                if letter == _END:
                    yield prefix
                else:
                    stack.append((child, prefix + letter))

    def __repr__(self) -> str:
        return f"<WordGraph {self._count} words, {len(self._nodes)} nodes>"


def _build_dawg(words: list[str]) -> list[_Node]:
    """The nodes of the minimal DAWG of ``words`` (sorted, distinct), root first.

    Daciuk et al.'s incremental algorithm for sorted input: once the next word leaves
    a branch, no later word can enter it, so the branch is minimised right away,
    deepest node first, by replacing each node with an equal one already registered.
    """
    nodes: list[_Node] = [{}]
    # A finished node's items are its signature: its children are finished (and
    # canonical) before it, so equal items mean equal sub-automata.
    register: dict[tuple[tuple[str, int], ...], int] = {}
    # The path of the last word: (parent, letter, child) with the child unfinished,
    # so not yet entered in its parent. Entering children as they are finished keeps
    # each node's keys in alphabetical order, since sorted words finish branches in
    # that order.
    unchecked: list[tuple[_Node, str, _Node]] = []

    def minimise(down_to: int) -> None:
        while len(unchecked) > down_to:
            parent, letter, child = unchecked.pop()
            signature = tuple(child.items())
            index = register.get(signature)
            if index is None:
                index = register[signature] = len(nodes)
                nodes.append(child)
            parent[letter] = index

    previous = ""
    for word in words:
        common = 0
        shortest = min(len(word), len(previous))
        while common < shortest and word[common] == previous[common]:
            common += 1
        minimise(common)
        node = unchecked[-1][2] if unchecked else nodes[0]
        for letter in word[common:]:
            child: _Node = {}
            unchecked.append((node, letter, child))
            node = child
        node[_END] = 0
        previous = word
    minimise(0)
    return nodes


def _walk(nodes: list[_Node], node: _Node | None, letters: str) -> _Node | None:
    """The node reached from ``node`` along ``letters``, or None."""
    for letter in letters:
        if node is None:
            return None
        index = node.get(letter)
        node = None if index is None else nodes[index]
    return node


# Plays -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placement:
    """A legal play: where it goes, the main word, the new tiles and the cross words.

    ``row`` and ``col`` (0-based) are the main word's first square. ``word`` is the
    whole main word, board tiles included: uppercase for natural tiles, lowercase for
    blanks. ``tiles`` holds ``(row, col, letter)`` for each new tile, in board order,
    lowercase for a blank. ``cross_words`` are the perpendicular words the new tiles
    form, uppercase, in tile order.
    """

    row: int
    col: int
    across: bool
    word: str
    tiles: tuple[tuple[int, int, str], ...]
    cross_words: tuple[str, ...]

    def gcg_position(self) -> str:
        """GCG coordinates: ``8D`` (row 8 from column D) across, ``D8`` down."""
        column, number = COLUMNS[self.col], self.row + 1
        return f"{number}{column}" if self.across else f"{column}{number}"

    def gcg_word(self) -> str:
        """The main word in GCG form: ``.`` for each square that was occupied."""
        new = {(row, col) for row, col, _ in self.tiles}
        step_row, step_col = (0, 1) if self.across else (1, 0)
        return "".join(
            letter
            if (self.row + i * step_row, self.col + i * step_col) in new
            else _EMPTY
            for i, letter in enumerate(self.word)
        )

    def rack_tiles(self) -> str:
        """The rack tiles this play uses: its letters, ``?`` for each blank."""
        return "".join(
            BLANK if letter.islower() else letter for _, _, letter in self.tiles
        )

    def words(self) -> tuple[str, ...]:
        """Every word formed, uppercase: the main word, then the cross words."""
        return (self.word.upper(), *self.cross_words)


class _Enough(Exception):
    """Raised inside the search when ``limit`` plays have been found, to unwind it."""


def generate(
    board: Sequence[str],
    rack: str,
    graph: WordGraph,
    *,
    limit: int | None = None,
    blanks: bool = True,
) -> list[Placement]:
    """Every legal play of ``rack`` on ``board`` that forms only words of ``graph``.

    Legal: the tiles come from the rack, lie in one line without gaps, cover H8 with
    2+ tiles on an empty board or else touch a board tile, and every run of 2+ tiles
    they form, along and across, is in ``graph``. Each play appears once.

    The order is deterministic: across plays before down plays; within each, by line
    (row, or column, in board order), then by anchor left to right (top to bottom),
    then in the search's own order (rack letters alphabetically before blanks).
    ``limit`` stops after that many plays, giving a prefix of the full list.
    ``blanks=False`` leaves blanks on the rack unplayed (each blank multiplies the
    work by up to 26).
    """
    letters, shown = _parse_board(board)
    counts = _parse_rack(rack)
    if not blanks:
        counts[BLANK] = 0
    if limit is not None and limit <= 0:
        return []
    found: list[Placement] = []
    if sum(counts.values()) == 0:
        return found
    nodes = graph._nodes
    empty = all(line == _EMPTY * BOARD_SIZE for line in letters)
    letters_down = _transpose(letters)
    shown_down = _transpose(shown)
    try:
        _search(letters, shown, nodes, counts, empty, True, limit, found)
        _search(letters_down, shown_down, nodes, counts, empty, False, limit, found)
    except _Enough:
        pass
    return found


def _parse_board(board: Sequence[str]) -> tuple[list[str], list[str]]:
    """The board as uppercase lines (for the word graph) and as shown (blanks
    lowercase, for ``Placement.word``), ``.`` for empty squares in both."""
    if len(board) != BOARD_SIZE:
        raise MoveGenError("bad_board", f"the board has {len(board)} rows, not 15")
    letters: list[str] = []
    shown: list[str] = []
    for number, line in enumerate(board, start=1):
        if len(line) != BOARD_SIZE:
            raise MoveGenError("bad_board", f"row {number} has {len(line)} squares")
        line = line.replace(" ", _EMPTY)
        # Checked before uppercasing: some non-ASCII letters uppercase to two.
        if any(square not in _SQUARES for square in line):
            raise MoveGenError("bad_board", f"row {number} has a bad square: {line!r}")
        letters.append(line.upper())
        shown.append(line)
    return letters, shown


def _parse_rack(rack: str) -> dict[str, int]:
    """Tile counts by letter, ``?`` included."""
    if len(rack) > RACK_SIZE:
        raise MoveGenError("bad_rack", f"a rack holds at most 7 tiles: {rack!r}")
    counts = dict.fromkeys(sorted(_LETTERS), 0)
    counts[BLANK] = 0
    for tile in rack:
        if tile not in counts:
            raise MoveGenError("bad_rack", f"{tile!r} is not a tile (A-Z or ?)")
        counts[tile] += 1
    return counts


def _transpose(lines: list[str]) -> list[str]:
    return ["".join(line[col] for line in lines) for col in range(BOARD_SIZE)]


def _cross_checks(
    letters: list[str], nodes: list[_Node]
) -> tuple[list[list[frozenset[str] | None]], list[list[tuple[str, str] | None]]]:
    """Per square, the letters allowed by the vertical run through it (None: any,
    because no tile is above or below) and that run's parts above and below."""
    allowed: list[list[frozenset[str] | None]] = []
    parts: list[list[tuple[str, str] | None]] = []
    for row in range(BOARD_SIZE):
        row_allowed: list[frozenset[str] | None] = [None] * BOARD_SIZE
        row_parts: list[tuple[str, str] | None] = [None] * BOARD_SIZE
        for col in range(BOARD_SIZE):
            if letters[row][col] != _EMPTY:
                continue
            top = row
            while top > 0 and letters[top - 1][col] != _EMPTY:
                top -= 1
            bottom = row
            while bottom < BOARD_SIZE - 1 and letters[bottom + 1][col] != _EMPTY:
                bottom += 1
            if top == bottom:
                continue
            above = "".join(letters[r][col] for r in range(top, row))
            below = "".join(letters[r][col] for r in range(row + 1, bottom + 1))
            node = _walk(nodes, nodes[0], above)
            ok: set[str] = set()
            if node is not None:
                for letter, child in node.items():
                    if letter != _END:
                        end = _walk(nodes, nodes[child], below)
                        if end is not None and _END in end:
                            ok.add(letter)
            row_allowed[col] = frozenset(ok)
            row_parts[col] = (above, below)
        allowed.append(row_allowed)
        parts.append(row_parts)
    return allowed, parts


def _anchors(letters: list[str], empty: bool) -> list[list[int]]:
    """Per row, the anchor columns in order: empty squares beside a tile."""
    if empty:
        return [[CENTRE] if row == CENTRE else [] for row in range(BOARD_SIZE)]
    result: list[list[int]] = []
    last = BOARD_SIZE - 1
    for row in range(BOARD_SIZE):
        line = letters[row]
        above = letters[row - 1] if row > 0 else None
        below = letters[row + 1] if row < last else None
        result.append(
            [
                col
                for col in range(BOARD_SIZE)
                if line[col] == _EMPTY
                and (
                    (col > 0 and line[col - 1] != _EMPTY)
                    or (col < last and line[col + 1] != _EMPTY)
                    or (above is not None and above[col] != _EMPTY)
                    or (below is not None and below[col] != _EMPTY)
                )
            ]
        )
    return result


@dataclass(frozen=True, slots=True)
class _Line:
    """One row of the (possibly transposed) board, with what the search needs."""

    row: int
    letters: str
    shown: str
    allowed: list[frozenset[str] | None]
    parts: list[tuple[str, str] | None]
    anchors: list[int]
    across: bool


def _search(
    letters: list[str],
    shown: list[str],
    nodes: list[_Node],
    counts: dict[str, int],
    empty: bool,
    across: bool,
    limit: int | None,
    found: list[Placement],
) -> None:
    """Append to ``found`` the plays along the rows of ``letters`` (the real rows
    when ``across``, else the transposed board's, i.e. the columns)."""
    allowed, parts = _cross_checks(letters, nodes)
    anchors = _anchors(letters, empty)
    # Rack letters in a fixed order, so the search order (and the output) is stable.
    rack_letters = [letter for letter in sorted(_LETTERS) if counts[letter]]
    rack_total = sum(counts.values())

    for row, row_anchors in enumerate(anchors):
        if row_anchors:
            _search_line(
                _Line(
                    row=row,
                    letters=letters[row],
                    shown=shown[row],
                    allowed=allowed[row],
                    parts=parts[row],
                    anchors=row_anchors,
                    across=across,
                ),
                nodes,
                counts,
                rack_letters,
                rack_total,
                limit,
                found,
            )


def _search_line(
    spec: _Line,
    nodes: list[_Node],
    counts: dict[str, int],
    rack_letters: list[str],
    rack_total: int,
    limit: int | None,
    found: list[Placement],
) -> None:
    """Append to ``found`` the plays whose main word lies in this line."""
    _LineSearch(spec, nodes, counts, rack_letters, limit, found).run(rack_total)


class _LineSearch:
    """Appel and Jacobson's search along one line: for each anchor, every left part
    the rack can make before it, each extended rightwards through the anchor.

    ``word`` and ``fresh`` are the main word so far (as shown) and, parallel to it,
    whether each letter is placed by this play; the rack's ``counts`` are taken and
    given back as the search goes down and up.
    """

    __slots__ = (
        "anchor",
        "counts",
        "found",
        "fresh",
        "limit",
        "nodes",
        "rack_letters",
        "spec",
        "word",
    )

    def __init__(
        self,
        spec: _Line,
        nodes: list[_Node],
        counts: dict[str, int],
        rack_letters: list[str],
        limit: int | None,
        found: list[Placement],
    ) -> None:
        self.spec = spec
        self.nodes = nodes
        self.counts = counts
        self.rack_letters = rack_letters
        self.limit = limit
        self.found = found
        self.word: list[str] = []
        self.fresh: list[bool] = []
        self.anchor = 0

    def run(self, rack_total: int) -> None:
        line, nodes = self.spec.letters, self.nodes
        is_anchor = [False] * BOARD_SIZE
        for col in self.spec.anchors:
            is_anchor[col] = True
        for anchor in self.spec.anchors:
            self.anchor = anchor
            if anchor > 0 and line[anchor - 1] != _EMPTY:
                # The left part is the board tiles before the anchor, all of them.
                start = anchor - 1
                while start > 0 and line[start - 1] != _EMPTY:
                    start -= 1
                node = _walk(nodes, nodes[0], line[start:anchor])
                if node is None:
                    continue
                self.word.extend(self.spec.shown[start:anchor])
                self.fresh.extend([False] * (anchor - start))
                self._extend(node, anchor, start)
                del self.word[:], self.fresh[:]
            else:
                # Rack tiles on the empty squares before the anchor that are not
                # anchors themselves (an earlier anchor's plays cover those),
                # keeping one tile for the anchor.
                room = 0
                col = anchor - 1
                while col >= 0 and line[col] == _EMPTY and not is_anchor[col]:
                    room += 1
                    col -= 1
                self._left_part(nodes[0], min(room, rack_total - 1))

    def _record(self, start: int) -> None:
        spec, word = self.spec, self.word
        row, across, row_parts = spec.row, spec.across, spec.parts
        tiles: list[tuple[int, int, str]] = []
        crosses: list[str] = []
        for i, is_new in enumerate(self.fresh):
            if is_new:
                col = start + i
                letter = word[i]
                tiles.append((row, col, letter) if across else (col, row, letter))
                part = row_parts[col]
                if part is not None:
                    crosses.append(part[0] + letter.upper() + part[1])
        if not across and len(tiles) == 1 and crosses:
            return  # a lone tile forming an across word: the across pass has it
        self.found.append(
            Placement(
                row=row if across else start,
                col=start if across else row,
                across=across,
                word="".join(word),
                tiles=tuple(tiles),
                cross_words=tuple(crosses),
            )
        )
        if self.limit is not None and len(self.found) >= self.limit:
            raise _Enough

    def _extend(self, node: _Node, col: int, start: int) -> None:
        if col < BOARD_SIZE:
            letter = self.spec.letters[col]
            if letter != _EMPTY:
                # A board tile: the word must go through it.
                child = node.get(letter)
                if child is not None:
                    self._step(self.spec.shown[col], False, child, col, start)
                return
        # Past the anchor, at an empty square or the edge: a word may end here.
        if col > self.anchor and _END in node:
            self._record(start)
        if col < BOARD_SIZE:
            self._extend_from_rack(node, col, start)

    def _extend_from_rack(self, node: _Node, col: int, start: int) -> None:
        """Place each rack tile (and the blank as each letter) the square allows."""
        counts, ok = self.counts, self.spec.allowed[col]
        for letter in self.rack_letters:
            if counts[letter] and (ok is None or letter in ok):
                child = node.get(letter)
                if child is not None:
                    counts[letter] -= 1
                    self._step(letter, True, child, col, start)
                    counts[letter] += 1
        if counts[BLANK]:
            counts[BLANK] -= 1
            for letter, child in node.items():
                if letter != _END and (ok is None or letter in ok):
                    self._step(letter.lower(), True, child, col, start)
            counts[BLANK] += 1

    def _step(self, shown: str, is_new: bool, child: int, col: int, start: int) -> None:
        """Extend the word by one letter and search on from the next square."""
        self.word.append(shown)
        self.fresh.append(is_new)
        self._extend(self.nodes[child], col + 1, start)
        self.word.pop()
        self.fresh.pop()

    def _left_part(self, node: _Node, room: int) -> None:
        # The left part so far ends just before the anchor.
        self._extend(node, self.anchor, self.anchor - len(self.word))
        if room == 0:
            return
        counts = self.counts
        for letter in self.rack_letters:
            if counts[letter]:
                child = node.get(letter)
                if child is not None:
                    counts[letter] -= 1
                    self._left_step(letter, child, room)
                    counts[letter] += 1
        if counts[BLANK]:
            counts[BLANK] -= 1
            for letter, child in node.items():
                if letter != _END:
                    self._left_step(letter.lower(), child, room)
            counts[BLANK] += 1

    def _left_step(self, shown: str, child: int, room: int) -> None:
        self.word.append(shown)
        self.fresh.append(True)
        self._left_part(self.nodes[child], room - 1)
        self.word.pop()
        self.fresh.pop()


# Checking a placement (tests and callers that want words without a graph) ---------


def words_formed(
    board: Sequence[str], tiles: Iterable[tuple[int, int, str]]
) -> list[str]:
    """The words (uppercase) that placing ``tiles`` on ``board`` forms: the main word,
    then each new tile's cross word, runs of 2+ tiles only.

    A lone tile's main word is across when it forms an across run of 2+ tiles, else
    down, as ``generate`` reports it. Word validity and connection are not checked;
    the placement's shape is: tiles on empty squares of the board, in one line, with
    no gap.
    """
    letters, _ = _parse_board(board)
    grid = [list(line) for line in letters]
    placed = list(tiles)
    if not placed:
        raise MoveGenError("bad_tiles", "a placement needs at least one tile")
    squares: set[tuple[int, int]] = set()
    for row, col, letter in placed:
        if not (0 <= row < BOARD_SIZE and 0 <= col < BOARD_SIZE):
            raise MoveGenError("bad_tiles", f"({row}, {col}) is off the board")
        if len(letter) != 1 or letter.upper() not in _LETTERS:
            raise MoveGenError("bad_tiles", f"{letter!r} is not a letter")
        if grid[row][col] != _EMPTY or (row, col) in squares:
            raise MoveGenError("bad_tiles", f"({row}, {col}) is already occupied")
        squares.add((row, col))
        grid[row][col] = letter.upper()

    def run(row: int, col: int, step_row: int, step_col: int) -> tuple[int, str]:
        # The maximal run through (row, col): its first index along the step, text.
        while (
            row - step_row >= 0
            and col - step_col >= 0
            and grid[row - step_row][col - step_col] != _EMPTY
        ):
            row, col = row - step_row, col - step_col
        first = row if step_row else col
        found: list[str] = []
        while row < BOARD_SIZE and col < BOARD_SIZE and grid[row][col] != _EMPTY:
            found.append(grid[row][col])
            row, col = row + step_row, col + step_col
        return first, "".join(found)

    rows = {row for row, _, _ in placed}
    cols = {col for _, col, _ in placed}
    first_row, first_col, _ = min(placed)
    if len(placed) == 1:
        across = len(run(first_row, first_col, 0, 1)[1]) >= 2
    elif len(rows) == 1:
        across = True
    elif len(cols) == 1:
        across = False
    else:
        raise MoveGenError("bad_tiles", "the tiles are not in one line")
    step_row, step_col = (0, 1) if across else (1, 0)
    start, main = run(first_row, first_col, step_row, step_col)
    last_row, last_col, _ = max(placed)
    if (last_col if across else last_row) >= start + len(main):
        raise MoveGenError("bad_tiles", "the tiles leave a gap")
    words = [main] if len(main) >= 2 else []
    for row, col, _ in sorted(placed):
        cross = run(row, col, step_col, step_row)[1]
        if len(cross) >= 2:
            words.append(cross)
    return words
