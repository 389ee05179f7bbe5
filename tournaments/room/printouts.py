"""The room's printouts as PDF: pairings (by table and by name), pre-filled
scorecards, standings, the wall chart and the prize list, on A4 or US Letter.

Each printout reads what the pages read (``results.selectors``: the results
model's rows as the rules decided them) and lays it out with ReportLab's Platypus
(tables that repeat their header on every page). The QR code of a scorecard is
ReportLab's own, linking the player's scorecard page.

Usage::

    pdf = pairings_pdf(tournament, "A", 3, paper="letter")
    pdf = scorecards_pdf(tournament, "A", link=lambda pid: url, code=None)

Fonts: DejaVu Sans when the system has it (Debian's fonts-dejavu-core: Latin,
Greek and Cyrillic names), else ReportLab's bundled Vera (Latin-1).
"""

from __future__ import annotations

import io
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import reportlab
from django.utils import timezone
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import HRFlowable

from rules.records import EntryKind
from tournaments.models import Player, PlayerRound, Tournament
from tournaments.pairing import selectors as pairing_selectors
from tournaments.prizes import presenters as prizes_presenters
from tournaments.prizes import selectors as prizes_selectors
from tournaments.results import presenters as results_presenters
from tournaments.results import selectors as results_selectors

PAPERS = {"a4": A4, "letter": LETTER}


MARGIN = 12 * mm


# --- fonts -------------------------------------------------------------------------

_FONT_CANDIDATES = [
    (
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    ),
    (
        Path(reportlab.__file__).parent / "fonts" / "Vera.ttf",
        Path(reportlab.__file__).parent / "fonts" / "VeraBd.ttf",
    ),
]


FONT, BOLD = "PrintSans", "PrintSans-Bold"


def _register_fonts() -> None:
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    regular, bold = next(pair for pair in _FONT_CANDIDATES if pair[0].exists())
    pdfmetrics.registerFont(TTFont(FONT, str(regular)))
    pdfmetrics.registerFont(TTFont(BOLD, str(bold)))
    # Paragraphs look a font's bold up by its family.
    pdfmetrics.registerFontFamily(
        FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD
    )


def _style(size: float = 10, *, bold: bool = False, **more: Any) -> ParagraphStyle:
    _register_fonts()  # a paragraph reads its font's family when it is made
    return ParagraphStyle(
        f"s{size}{bold}",
        fontName=BOLD if bold else FONT,
        fontSize=size,
        leading=size * 1.25,
        **more,
    )


def _text(value: object) -> str:
    """Escape a value for a Paragraph (which reads a little markup)."""
    return str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --- the document ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Heading:
    """What every page of a printout says at its top and bottom."""

    tournament: str
    title: str
    printed: datetime


def _document(
    heading: Heading,
    story: list[Flowable],
    paper: str,
    *,
    wide: bool = False,
) -> bytes:
    """Lay `story` out on `paper` (landscape when `wide`), with the heading on
    every page; the PDF's bytes."""
    _register_fonts()
    size = PAPERS[paper]
    if wide:
        size = landscape(size)
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=size,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN + 8 * mm,
        bottomMargin=MARGIN + 4 * mm,
        title=f"{heading.title} · {heading.tournament}",
        author="Scrabble records",
        # No creation time or random id in the PDF: the same printout made twice
        # in a minute is the same bytes, one entry in the register of issued files.
        invariant=1,
    )

    def frame(canvas: Any, doc: Any) -> None:
        width, height = size
        canvas.saveState()
        canvas.setFont(BOLD, 11)
        canvas.drawString(MARGIN, height - MARGIN - 2 * mm, heading.tournament)
        canvas.setFont(FONT, 11)
        canvas.drawRightString(width - MARGIN, height - MARGIN - 2 * mm, heading.title)
        canvas.setFont(FONT, 8)
        stamp = timezone.localtime(heading.printed).strftime("%Y-%m-%d %H:%M")
        canvas.drawString(MARGIN, MARGIN, f"Printed {stamp}")
        canvas.drawRightString(width - MARGIN, MARGIN, f"Page {doc.page}")
        canvas.restoreState()

    document.build(story, onFirstPage=frame, onLaterPages=frame)
    return buffer.getvalue()


GRID = TableStyle(
    [
        ("FONT", (0, 0), (-1, -1), FONT, 10),
        ("FONT", (0, 0), (-1, 0), BOLD, 10),
        ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
        ("INNERGRID", (0, 1), (-1, -1), 0.25, colors.grey),
        ("BOX", (0, 0), (-1, -1), 0.5, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        (
            "ROWBACKGROUNDS",
            (0, 1),
            (-1, -1),
            [colors.white, colors.HexColor("#f0f0f0")],
        ),
    ]
)


def _table(
    rows: Sequence[Sequence[Any]],
    widths: Sequence[float] | None = None,
    *,
    numeric: Iterable[int] = (),
    size: float = 10,
) -> Table:
    table = Table(list(rows), colWidths=widths, repeatRows=1)
    style = [*GRID.getCommands(), ("FONTSIZE", (0, 0), (-1, -1), size)]
    style += [("ALIGN", (col, 0), (col, -1), "RIGHT") for col in numeric]
    table.setStyle(TableStyle(style))
    return table


def _heading(tournament: Tournament, title: str) -> Heading:
    return Heading(tournament.name, title, timezone.now())


def _share(amount: str, shared_with: int) -> str:
    """A winner's share as the prize page shows it: "(shared by N)" for a tie, on
    a line of its own so it stays inside the narrow Share column."""
    return amount if shared_with < 2 else f"{amount}\n(shared by {shared_with})"


def _who(name: str, number: int) -> str:
    return f"{name} (#{number})"


def _side(side: pairing_selectors.Side) -> str:
    """A player of a pairing: name, number, and the mark of a Gibsonized one."""
    return _who(side.name, side.number) + (" · Gibsonized" if side.gibsonized else "")


# --- pairings ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableLine:
    """A player's line of "find your table": where they sit, against whom."""

    name: str
    number: int
    board: int | None
    opponent: str
    seat: str  # "first", "second" or the badge of a round alone ("bye", …)


def find_your_table(boards: Sequence[pairing_selectors.Board]) -> list[TableLine]:
    """Every player of the round's boards by name, with their table."""
    lines = []
    for board in boards:
        line = results_presenters.board_line(None, board, None)
        if board.second is None:
            side = board.first
            lines.append(TableLine(side.name, side.number, None, "", line.badge))
            continue
        for side, other, seat in (
            (board.first, board.second, "first"),
            (board.second, board.first, "second"),
        ):
            lines.append(
                TableLine(
                    side.name,
                    side.number,
                    board.board,
                    _who(other.name, other.number),
                    line.badge or seat,
                )
            )
    return sorted(lines, key=lambda line: (line.name.casefold(), line.number))


def pairings_pdf(
    tournament: Tournament, division: str, round_: int, *, paper: str = "a4"
) -> bytes:
    """The round's pairings by table, then every player by name ("find your
    table"), each list starting a page."""
    boards = pairing_selectors.round_boards(tournament.tournament_id, division, round_)
    title = f"Division {division} · Round {round_} pairings"
    by_table: list[list[Any]] = [["Table", "First (starts)", "Second"]]
    for board in boards:
        line = results_presenters.board_line(None, board, None)
        if board.second is None:
            by_table.append(["–", _side(board.first), line.badge])
        else:
            by_table.append(
                [
                    board.board,
                    _side(board.first),
                    _side(board.second) + (f" · {line.badge}" if line.badge else ""),
                ]
            )
    by_name: list[list[Any]] = [["Player", "Table", "Opponent", "Seat"]]
    for line in find_your_table(boards):
        by_name.append(
            [
                _who(line.name, line.number),
                line.board or "–",
                line.opponent,
                line.seat,
            ]
        )
    width = PAPERS[paper][0] - 2 * MARGIN
    story: list[Flowable] = [
        Paragraph(f"{_text(title)}: by table", _style(16, bold=True)),
        Spacer(0, 4 * mm),
        _table(by_table, [20 * mm, (width - 20 * mm) / 2, (width - 20 * mm) / 2]),
        PageBreak(),
        Paragraph(f"{_text(title)}: find your table", _style(16, bold=True)),
        Spacer(0, 4 * mm),
        _table(by_name, [0.38 * width, 18 * mm, 0.38 * width, None], numeric=[1]),
    ]
    if not boards:
        story = [Paragraph(f"Round {round_} is not paired yet.", _style(12))]
    return _document(_heading(tournament, title), story, paper)


# --- standings ---------------------------------------------------------------------


def standings_pdf(tournament: Tournament, division: str, *, paper: str = "a4") -> bytes:
    """The division's latest standings."""
    shown, rows = results_selectors.standings(tournament.tournament_id, division, None)
    title = (
        f"Division {division} · Standings after round {shown}"
        if shown
        else f"Division {division} · Standings before round 1"
    )
    table = [["Rank", "Player", "Won–lost", "Spread", "Total", "Rating"]]
    for row in rows:
        table.append(
            [
                row["rank"] or "–",
                _who(row["name"], row["number"]),
                row["record"],
                results_presenters.signed_spread(row["spread"]),
                row["total_score"],
                row["rating"],
            ]
        )
    width = PAPERS[paper][0] - 2 * MARGIN
    story: list[Flowable] = [
        Paragraph(_text(title), _style(16, bold=True)),
        Spacer(0, 4 * mm),
        _table(
            table,
            [14 * mm, width - 94 * mm, 22 * mm, 20 * mm, 20 * mm, 18 * mm],
            numeric=[0, 2, 3, 4, 5],
        ),
    ]
    return _document(_heading(tournament, title), story, paper)


# --- scorecards --------------------------------------------------------------------

QR_SIZE = 26 * mm


def qr_drawing(url: str, size: float = QR_SIZE) -> Drawing:
    """A QR code of `url`, `size` wide."""
    widget = QrCodeWidget(url)
    left, bottom, right, top = widget.getBounds()
    drawing = Drawing(size, size)
    drawing.add(widget)
    drawing.scale(size / (right - left), size / (top - bottom))
    drawing.width = drawing.height = size
    return drawing


def _scorecard(
    tournament: Tournament,
    player: Player,
    link: str,
    code: Callable[[str, int], str] | None,
    width: float,
    foretold: Mapping[int, str],
) -> list[Flowable]:
    lines = results_selectors.scorecard_lines(
        tournament.tournament_id, player.player_id, player.division
    )
    played = [line for line in lines if line.has_result]
    last = played[-1] if played else None
    carried = (
        f"After round {last.round}: {last.record}, spread "
        f"{results_presenters.signed_spread(last.running_spread)}"
        if last
        else "No round played yet."
    )
    start = (last.round + 1) if last else 1
    rows = _scorecard_rows(
        lines,
        range(start, tournament.rounds_of(player.division) + 1),
        player,
        code,
        foretold,
    )
    note = "Write both scores after each game; both players sign the result slip." + (
        " With self-entry, type your round's code on your phone." if code else ""
    )
    return [
        _scorecard_top(player, carried, link, width),
        Spacer(0, 3 * mm),
        _scorecard_table(rows, width, with_code=code is not None),
        Spacer(0, 2 * mm),
        Paragraph(note, _style(8)),
    ]


def _scorecard_rows(
    lines: list[results_selectors.ScorecardLine],
    rounds: range,
    player: Player,
    code: Callable[[str, int], str] | None,
    foretold: Mapping[int, str] | None = None,
) -> list[list[Any]]:
    """The header and a row per remaining round: opponent and seat as paired; a
    round-robin round not paired yet shows the opponent its table gives
    (``foretold``: by round, "bye" for the bye)."""
    by_round = {line.round: line for line in lines}
    header = ["Round", "Table", "Opponent", "Seat", "Your score", "Opp. score"]
    header += ["Spread", "Won–lost"] + (["Code"] if code else [])
    rows: list[list[Any]] = [header]
    for round_ in rounds:
        line = by_round.get(round_)
        if line is None:
            opponent, table, seat = (foretold or {}).get(round_, ""), "", ""
        elif line.opponent_id:
            opponent = line.opponent_name
            table = line.board or ""
            seat = "first" if line.went_first else "second"
        else:
            opponent, table = (
                results_presenters.kind_badge(line.kind, line.round_spread),
                "",
            )
            seat = ""
        row = [round_, table, opponent, seat, "", "", "", ""]
        if code:
            row.append(code(player.player_id, round_))
        rows.append(row)
    return rows


def _scorecard_table(rows: list[list[Any]], width: float, *, with_code: bool) -> Table:
    fixed = [16 * mm, 14 * mm, None, 15 * mm, 22 * mm, 22 * mm, 18 * mm, 20 * mm]
    if with_code:
        fixed.append(18 * mm)
    free = width - sum(w for w in fixed if w)
    widths = [w if w else free for w in fixed]
    table = _table(rows, widths, numeric=[0, 1])
    # Boxes tall enough to write a score in.
    table.setStyle(
        TableStyle(
            [
                ("TOPPADDING", (0, 1), (-1, -1), 7),
                ("BOTTOMPADDING", (0, 1), (-1, -1), 7),
            ]
        )
    )
    return table


def _scorecard_top(player: Player, carried: str, link: str, width: float) -> Table:
    """The player, their record so far and the QR code of their scorecard page."""
    who = Paragraph(
        f"{_text(player.name)} <font size=12>#{player.number} · Division "
        f"{_text(player.division)} · rating {player.rating}</font>",
        _style(18, bold=True),
    )
    about = Paragraph(
        f"{_text(carried)}<br/><font size=8>Your scorecard online: "
        f"{_text(link)}</font>",
        _style(10),
    )
    top = Table(
        [[[who, Spacer(0, 2 * mm), about], qr_drawing(link)]],
        colWidths=[width - QR_SIZE - 4 * mm, QR_SIZE + 4 * mm],
    )
    top.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return top


def scorecards_pdf(
    tournament: Tournament,
    division: str,
    *,
    link: Callable[[str], str],
    code: Callable[[str, int], str] | None = None,
    player_ids: Sequence[str] | None = None,
    paper: str = "a4",
) -> bytes:
    """A pre-filled scorecard per player (of `player_ids`, else the whole
    division), one a page: the remaining rounds with their opponents as paired
    (a round robin's rounds not paired yet: as its table gives them),
    boxes for the scores, and a QR code of ``link(player_id)``; ``code(player_id,
    round)`` is printed on each round when the tournament has self-entry."""
    players = Player.objects.filter(tournament=tournament, division=division)
    if player_ids is not None:
        players = players.filter(player_id__in=player_ids)
    width = PAPERS[paper][0] - 2 * MARGIN
    story: list[Flowable] = []
    foretold = foretold_rounds(tournament, division)
    for player in players.order_by("number"):
        if story:
            story.append(PageBreak())
        story.extend(
            _scorecard(
                tournament,
                player,
                link(player.player_id),
                code,
                width,
                foretold.get(player.player_id, {}),
            )
        )
    if not story:
        story = [Paragraph("No player is registered yet.", _style(12))]
    title = f"Division {division} · Scorecards"
    return _document(_heading(tournament, title), story, paper)


def foretold_rounds(tournament: Tournament, division: str) -> dict[str, dict[int, str]]:
    """Each player's round-robin rounds not paired yet, by round: the opponent
    the table gives ("name (#number)") or "bye" (the whole schedule on the card)."""
    foretold = pairing_selectors.foretold_opponents(tournament.tournament_id, division)
    if not foretold:
        return {}
    names = {
        p.player_id: _who(p.name, p.number)
        for p in Player.objects.filter(tournament=tournament, division=division)
    }
    return {
        player_id: {
            round_: names.get(opponent, "") if opponent else "bye"
            for round_, opponent in rounds.items()
        }
        for player_id, rounds in foretold.items()
    }


# --- the wall chart ----------------------------------------------------------------

ROUNDS_PER_SHEET = 10


@dataclass(frozen=True, slots=True)
class WallCell:
    """A player's round on the wall chart: result, scores, opponent's number."""

    outcome: str  # "W", "L", "T", or "" (to play); a bye or forfeit's badge
    scores: str
    opponent: int | None


@dataclass(frozen=True, slots=True)
class WallLine:
    number: int
    name: str
    cells: dict[int, WallCell]
    record: str
    running_spread: int


_OUTCOME = {"win": "W", "loss": "L", "draw": "T"}


def wall_chart(tournament_id: uuid.UUID, division: str) -> tuple[int, list[WallLine]]:
    """Every player (by number) against every paired round: the rounds' results
    as the rules decided them, and the totals after the last."""
    rows = PlayerRound.objects.filter(
        tournament_id=tournament_id, division=division, round__gt=0
    ).order_by("number", "round")
    numbers = dict(
        Player.objects.filter(
            tournament_id=tournament_id, division=division
        ).values_list("player_id", "number")
    )
    lines: dict[str, WallLine] = {}
    last = 0
    for row in rows:
        last = max(last, row.round)
        line = lines.get(row.player_id)
        if line is None:
            line = lines[row.player_id] = WallLine(row.number, row.name, {}, "", 0)
        badge = results_presenters.kind_badge(row.kind, row.round_spread)
        if row.kind == EntryKind.GAME:
            outcome = _OUTCOME.get(row.outcome, "")
            scores = f"{row.own_score}–{row.opponent_score}" if row.has_result else ""
        else:
            outcome, scores = (
                badge,
                results_presenters.signed_spread(row.counted_spread),
            )
        line.cells[row.round] = WallCell(
            outcome, scores, numbers.get(row.opponent_id) if row.opponent_id else None
        )
        lines[row.player_id] = WallLine(
            line.number, line.name, line.cells, row.record, row.running_spread
        )
    return last, sorted(lines.values(), key=lambda line: line.number)


def _cell_text(cell: WallCell | None) -> str:
    if cell is None:
        return ""
    against = f"v #{cell.opponent}" if cell.opponent else ""
    return "\n".join(
        part for part in (f"{cell.outcome} {cell.scores}".strip(), against) if part
    )


def wall_chart_pdf(
    tournament: Tournament, division: str, *, paper: str = "a4"
) -> bytes:
    """The cross-table, landscape: ten rounds a sheet, the names on each."""
    last, lines = wall_chart(tournament.tournament_id, division)
    title = f"Division {division} · Wall chart"
    width = landscape(PAPERS[paper])[0] - 2 * MARGIN
    story: list[Flowable] = []
    rounds = list(range(1, last + 1))
    sheets = [
        rounds[i : i + ROUNDS_PER_SHEET]
        for i in range(0, len(rounds), ROUNDS_PER_SHEET)
    ]
    for sheet in sheets or [[]]:
        header = ["#", "Player", *(f"R{r}" for r in sheet), "Won–lost", "Spread"]
        table: list[list[Any]] = [header]
        for line in lines:
            table.append(
                [
                    line.number,
                    line.name,
                    *(_cell_text(line.cells.get(r)) for r in sheet),
                    line.record,
                    results_presenters.signed_spread(line.running_spread),
                ]
            )
        fixed = 10 * mm + 50 * mm + 18 * mm + 16 * mm
        each = (width - fixed) / max(len(sheet), 1)
        widths = [10 * mm, 50 * mm, *([each] * len(sheet)), 18 * mm, 16 * mm]
        if story:
            story.append(PageBreak())
        if sheet:
            story.append(
                Paragraph(f"Rounds {sheet[0]}–{sheet[-1]}", _style(12, bold=True))
            )
            story.append(Spacer(0, 2 * mm))
        story.append(_table(table, widths, numeric=[0, len(header) - 1], size=8))
    return _document(_heading(tournament, title), story, paper, wide=True)


# --- the prize list ----------------------------------------------------------------


def prize_list_pdf(tournament: Tournament, *, paper: str = "a4") -> bytes:
    """The prize list: per division, each prize of its table with its winners on
    the results so far (``selectors.prize_board``, as the prize page shows it)."""
    title = "Prize list"
    width = PAPERS[paper][0] - 2 * MARGIN
    story: list[Flowable] = [Paragraph(title, _style(16, bold=True)), Spacer(0, 4 * mm)]
    for division in tournament.divisions:
        board = prizes_selectors.prize_board(tournament.tournament_id, division)
        heading = Paragraph(f"Division {_text(division)}", _style(13, bold=True))
        if board.table is None:
            story += [heading, Paragraph("No prize table is set.", _style(9))]
            story.append(Spacer(0, 5 * mm))
            continue
        table = _table(
            _prize_rows(prizes_presenters.prize_lines(board)),
            [width - 126 * mm, 22 * mm, 50 * mm, 32 * mm, 22 * mm],
            numeric=[1, 4],
        )
        story.append(KeepTogether([heading, Spacer(0, 2 * mm), table]))
        story.append(Spacer(0, 5 * mm))
    story.append(HRFlowable(width="100%"))
    return _document(_heading(tournament, title), story, paper)


def _prize_rows(lines: list[dict[str, Any]]) -> list[list[Any]]:
    rows: list[list[Any]] = [["Prize", "Amount", "Won by", "With", "Share"]]
    for line in lines:
        if not line["winners"]:
            rows.append([line["title"], line["amount"], "nobody yet", "", ""])
        for i, won in enumerate(line["winners"]):
            winner = won["winner"]
            rows.append(
                [
                    line["title"] if i == 0 else "",
                    line["amount"] if i == 0 else "",
                    _who(winner.name, winner.number),
                    won["figure"],
                    _share(won["amount"], winner.shared_with),
                ]
            )
    return rows
