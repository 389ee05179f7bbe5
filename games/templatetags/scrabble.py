"""Template tags for the game pages: the board as an accessible grid, racks, scores.

Usage::

    {% load scrabble %}
    {% board_grid rows highlight=last_squares caption="Board after turn 12" %}
    {% rack_tiles "AEJNOSV" unknown=0 %}
    {{ turn.score|signed }}

Tiles show what is printed on them and their value in the game's tile set
(``tile_set=state.tile_set``; English by default): a tile of several letters, such as
Spanish CH, is one tile with its letters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games import formatting
from games.formatting import escape
from rules.board import CENTER, COLUMNS, SIZE, STANDARD_LAYOUT, parse_square
from rules.tiles import ENGLISH, TileSet, tile_values

register = template.Library()


def url_prefix(name: str, *args: object, last: object = 0) -> str:
    """The URL `name` with `args`, up to its last argument: the long tables link
    every row, and reversing a URL per row cost more than the row. `last` is any
    value the last argument accepts; the URL must end with it and a slash."""
    url = reverse(name, args=[*args, last])
    tail = f"{last}/"
    if not url.endswith(tail):
        raise ValueError(f"{name} does not end with its last argument: {url}")
    return url[: -len(tail)]


# RULES.md, "Equipment": T triple word, D double word, t triple letter, d double letter.
PREMIUMS = {
    "T": ("tw", "triple word", "TW"),
    "D": ("dw", "double word", "DW"),
    "t": ("tl", "triple letter", "TL"),
    "d": ("dl", "double letter", "DL"),
}
VALUES = tile_values(ENGLISH)


def _square_parts(index: int) -> tuple[str, str, str, str]:
    """A square's name, its CSS classes, the start of its label (name, premium,
    centre) and what an empty one shows."""
    row, column = divmod(index, SIZE)
    name = f"{COLUMNS[column]}{row + 1}"
    premium = PREMIUMS.get(STANDARD_LAYOUT[row][column])
    css, words, short = premium if premium else ("", "", "")
    label = name + (f" {words}" if words else "")
    classes = "sq" + (f" {css}" if css else "")
    if index == CENTER:
        label += ", centre"
        short = "★"
    return name, classes, label, short


# What never changes from board to board: 225 squares' names, premiums and labels,
# and the markup of each square while it is empty.
_SQUARES = tuple(_square_parts(index) for index in range(SIZE * SIZE))
# Every square takes the focus by the arrow keys (site.js), one at a time: the
# board is one stop in the tab order, a grid inside it (WAI-ARIA's grid pattern).
_EMPTY_CELLS = tuple(
    f'<td role="gridcell" tabindex="-1"'
    f' class="{classes}{" centre" if index == CENTER else ""}"'
    f' aria-label="{escape(label)}, empty" data-square="{name}">'
    + (f'<span class="prem" aria-hidden="true">{short}</span>' if short else "")
    + "</td>"
    for index, (name, classes, label, short) in enumerate(_SQUARES)
)


def _filled_cell(index: int, tile: str, last: bool, tile_set: TileSet = ENGLISH) -> str:
    name, classes, label, _ = _SQUARES[index]
    blank = tile.islower()
    letter = tile_set.label(tile.upper()) if tile_set is not ENGLISH else tile.upper()
    label += f", blank as {letter}" if blank else f", {letter}"
    classes += " filled"
    if last:
        classes += " last"
        label += ", last play"
    if index == CENTER:
        classes += " centre"
    values = VALUES if tile_set is ENGLISH else tile_values(tile_set)
    value = "" if blank else values.get(tile, "")
    sub = f"<sub>{escape(value)}</sub>" if value != "" else ""
    inner = (
        f'<span class="tile{" blank" if blank else ""}" aria-hidden="true">'
        f"{escape(letter)}{sub}</span>"
    )
    return (
        f'<td role="gridcell" tabindex="-1" class="{classes}"'
        f' aria-label="{escape(label)}" data-square="{name}">{inner}</td>'
    )


_HEAD = "".join(
    f'<th scope="col" class="coord">{escape(column)}</th>' for column in COLUMNS
)


@register.simple_tag
def board_grid(
    rows: Sequence[str],
    highlight: Iterable[str] = (),
    caption: str = "Board",
    tile_set: TileSet = ENGLISH,
) -> SafeString:
    """Render a board (15 strings, lower case = blank) as a labelled grid.

    Built in Python, not by a template: 225 squares through the template engine
    took most of a game page's time (about 8 ms), and a national event's players
    open thousands of different games. Empty squares are the same on every board,
    so their markup is made once.
    """
    marked = set(highlight)
    # The square the board's tab stop is on: the last play's first, else H8.
    entry = min((parse_square(name) for name in marked), default=CENTER)
    body = []
    for row_index in range(SIZE):
        row = rows[row_index] if row_index < len(rows) else ""
        cells = [f'<tr><th scope="row" class="coord">{row_index + 1}</th>']
        for column in range(SIZE):
            index = row_index * SIZE + column
            tile = row[column] if column < len(row) else "."
            if tile == ".":
                cell = _EMPTY_CELLS[index]
            else:
                last = _SQUARES[index][0] in marked
                cell = _filled_cell(index, tile, last, tile_set)
            if index == entry:
                cell = cell.replace('tabindex="-1"', 'tabindex="0"', 1)
            cells.append(cell)
        cells.append("</tr>")
        body.append("".join(cells))
    # Every value above is escaped or the module's own text.
    return mark_safe(
        f'<table class="board" role="grid" aria-label="{escape(caption)}">'
        f'<thead><tr><td class="corner" aria-hidden="true"></td>{_HEAD}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )


@register.simple_tag
def sheet_rows(
    lines: Sequence[Any], game_id: Any, index: int, tile_set: TileSet = ENGLISH
) -> SafeString:
    """The score sheet's rows (the start line, then one per turn), linked to the
    board after each turn. Built in Python for the same reason as the board."""
    prefix = url_prefix("game-turn", game_id)
    current = ' aria-current="step"'
    start = f"{prefix}0/"
    rows = [
        f'<tr class="{"" if index else "current"}"><td class="num">'
        f'<a class="turn-link" href="{start}"{"" if index else current}>0</a></td>'
        f'<td colspan="6"><a class="turn-link muted" href="{start}">Start of the game'
        "</a></td></tr>"
    ]
    for line in lines:
        url = f"{prefix}{line.index}/"
        here = line.index == index
        css = "current" if here else ""
        if line.main_word and any(kind == "phony" for kind, _ in line.badges):
            css += " is-withdrawn"
        if line.main_word:
            main = tile_labels(line.main_word, tile_set)
            words = f'<span class="word">{escape(main)}</span>'
        else:
            words = f'<span class="muted">{escape(line.what)}</span>'
        if line.other_words:
            others = ", ".join(tile_labels(word, tile_set) for word in line.other_words)
            words += f'<span class="others">{escape(others)}</span>'
        words += "".join(
            f' <span class="badge {escape(kind)}">{escape(text)}</span>'
            for kind, text in line.badges
        )
        if line.notes:
            count = len(line.notes)
            plural = "" if count == 1 else "s"
            words += (
                f' <span class="badge" title="{count} note{plural}">✎ {count}</span>'
            )
        rows.append(
            f'<tr id="turn-{line.index}" class="{css}">'
            f'<td class="num"><a class="turn-link" href="{url}"'
            f"{current if here else ''}>{line.index}</a></td>"
            f'<td class="hide-phone">{escape(line.player_name)}</td>'
            f'<td class="rackcell hide-phone">'
            f"{escape(tile_labels(line.rack, tile_set))}</td>"
            f"<td>{escape(line.position)}</td>"
            f'<td><a class="turn-link" href="{url}">{words}</a></td>'
            f'<td class="num">{signed(line.score)}</td>'
            f'<td class="num">{line.cumulative}</td></tr>'
        )
    # Every value above is escaped or the module's own text.
    return mark_safe("".join(rows))


@register.simple_tag
def rack_tiles(
    tiles: str | None,
    unknown: int = 0,
    label: str = "",
    tile_set: TileSet = ENGLISH,
) -> SafeString:
    """Render rack tiles as small tiles (? is a blank) plus unknown ones.

    Built in Python like the board: three racks through a template took a tenth of
    a game page's time."""
    tiles = tiles or ""
    unknown = unknown or 0
    values = VALUES if tile_set is ENGLISH else tile_values(tile_set)
    parts = [
        f'<span class="rack" role="img" '
        f'aria-label="{escape(label or _rack_label(tiles, unknown, tile_set))}">'
    ]
    for tile in tiles:
        if tile == "?":
            parts.append('<span class="tile blank-tile">&nbsp;</span>')
        else:
            parts.append(
                f'<span class="tile">{escape(tile_labels(tile, tile_set))}'
                f"<sub>{values.get(tile, '')}</sub></span>"
            )
    parts.append('<span class="tile unknown"></span>' * unknown)
    if not tiles and not unknown:
        parts.append('<span class="muted">—</span>')
    parts.append("</span>")
    # Every value above is escaped or the module's own text.
    return mark_safe("".join(parts))


@register.simple_tag
def unseen_tiles(tiles: str | None, tile_set: TileSet = ENGLISH) -> SafeString:
    """Render unseen tiles once per kind, as printed with its value and how many
    (``[CH]₅×2``): a tile of several letters stays one tile."""
    counts: dict[str, int] = {}
    for tile in tiles or "":
        counts[tile] = counts.get(tile, 0) + 1
    if not counts:
        return mark_safe('<span class="unseen">none</span>')
    values = VALUES if tile_set is ENGLISH else tile_values(tile_set)
    parts = []
    for tile, count in counts.items():
        label = "?" if tile == "?" else escape(tile_labels(tile, tile_set))
        value = "" if tile == "?" else f"<sub>{values.get(tile, '')}</sub>"
        times = f"×{count}" if count > 1 else ""
        parts.append(f'<span class="pool">{label}{value}{times}</span>')
    # Every value above is escaped or the module's own text.
    return mark_safe(f'<span class="unseen">{" ".join(parts)}</span>')


def _rack_label(tiles: str, unknown: int, tile_set: TileSet = ENGLISH) -> str:
    if not tiles and not unknown:
        return "no tiles"
    text = " ".join(
        "blank" if tile == "?" else tile_labels(tile, tile_set) for tile in tiles
    )
    if unknown:
        text = f"{text} and {unknown} unrecorded" if text else f"{unknown} unrecorded"
    return text


@register.filter
def tile_labels(tiles: str, tile_set: TileSet | None = None) -> str:
    """Tiles as printed on them in ``tile_set`` (Spanish CH as ``[CH]``); tiles the
    set does not have are shown as they are."""
    if tile_set is None or tile_set is ENGLISH:
        return tiles
    labels = []
    for tile in tiles:
        try:
            labels.append(tile_set.label(tile))
        except KeyError:
            labels.append(tile)
    return "".join(labels)


@register.filter
def signed(value: Any) -> str:
    """A score change with its sign (+32, −24, 0)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return ""
    return formatting.signed(number)


# Every time the site shows, with its zone (settings.TIME_ZONE): "14 Nov 2026,
# 10:31 UTC".
TIMESTAMP_FORMAT = "j M Y, H:i T"


@register.filter
def timestamp(moment: Any) -> SafeString:
    """A moment as a <time> element: its date, time and time zone, and the
    machine-readable instant."""
    if moment is None:
        return mark_safe("")
    local = timezone.localtime(moment)
    return format_html(
        '<time datetime="{}">{}</time>',
        local.isoformat(timespec="seconds"),
        date_format(local, TIMESTAMP_FORMAT),
    )


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``mapping[key]`` in a template (None when missing)."""
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def words(value: Any) -> str:
    """A stored code in words (``five_point`` → ``five point``)."""
    return str(value or "").replace("_", " ")
