"""The room's printouts: each PDF renders on A4 and on US Letter with the names,
tables and scores the room needs, read back from the PDF's text."""

from __future__ import annotations

import io
from html.parser import HTMLParser

import pytest
from pypdf import PdfReader

from rules.division_rules import Prize, PrizeKind, PrizeTable
from tournaments.prizes.services import prize_table_set
from tournaments.room import printouts

# Page sizes in points, portrait.
SIZES = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def pdf_text(response) -> tuple[str, list[tuple[float, float]]]:
    assert response.status_code == 200, response.content[:200]
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    sizes = [
        (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2))
        for page in reader.pages
    ]
    return "\n".join(page.extract_text() for page in reader.pages), sizes


def assert_paper(sizes, paper, *, wide=False):
    width, height = SIZES[paper]
    expected = (height, width) if wide else (width, height)
    assert set(sizes) == {expected}


@pytest.mark.django_db
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_pairings_list_the_tables_and_every_player_by_name(
    client, club_night, paper
):
    tid, _ = club_night
    text, sizes = pdf_text(
        client.get(
            f"/tournaments/{tid}/divisions/A/rounds/2/pairings.pdf?paper={paper}"
        )
    )
    assert_paper(sizes, paper)
    assert "Round 2 pairings: by table" in text
    assert "Zoë Zane (#4)" in text
    by_name = text[text.index("find your table") :]
    # The title, the header, then one cell a line: player, table, opponent, seat.
    lines = by_name.splitlines()
    rows = [lines[at : at + 4] for at in range(5, len(lines), 4)]
    assert [row[0] for row in rows] == [
        "Ann Able (#1)",
        "Ben Baker (#2)",
        "Cy Cole (#3)",
        "Zoë Zane (#4)",
    ]
    assert rows[0] == ["Ann Able (#1)", "1", "Zoë Zane (#4)", "second"]


@pytest.mark.django_db
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_standings_wall_chart_and_prizes(client, club_night, paper):
    tid, _ = club_night
    text, sizes = pdf_text(
        client.get(f"/tournaments/{tid}/divisions/A/standings.pdf?paper={paper}")
    )
    assert_paper(sizes, paper)
    assert "Standings after round 2" in text
    assert text.index("Zoë Zane") < text.index("Cy Cole")
    chart, sizes = pdf_text(
        client.get(f"/tournaments/{tid}/divisions/A/wallchart.pdf?paper={paper}")
    )
    assert_paper(sizes, paper, wide=True)
    assert "R1" in chart
    assert "R2" in chart
    assert "W 420–380" in chart
    assert "L 350–402" in chart
    prizes, sizes = pdf_text(client.get(f"/tournaments/{tid}/prizes.pdf?paper={paper}"))
    assert_paper(sizes, paper)
    assert "Prize list" in prizes
    assert "No prize table is set." in prizes


def set_prizes(tid, director):
    prize_table_set(
        tournament_id=tid,
        division="A",
        table=PrizeTable(
            (Prize(PrizeKind.PLACE, 10000), Prize(PrizeKind.HIGH_GAME, 2000))
        ),
        user=director,
    )


@pytest.mark.django_db
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_prize_list_prints_the_prize_tables_winners(
    client, director, club_night, paper
):
    tid, _ = club_night
    set_prizes(tid, director)
    text, sizes = pdf_text(client.get(f"/tournaments/{tid}/prizes.pdf?paper={paper}"))
    assert_paper(sizes, paper)
    # After round 1 Zoë leads (1-0, +52); Ann's 420 is the high game.
    first = text.index("1st place")
    assert text.index("Zoë Zane (#4)", first) < text.index("High game")
    assert "100.00" in text
    high = text[text.index("High game") :]
    assert "Ann Able (#1)" in high
    assert "420" in high


@pytest.mark.django_db
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_scorecards_are_prefilled_for_the_remaining_rounds(
    client, director, club_night, paper
):
    tid, ids = club_night
    client.force_login(director)
    text, sizes = pdf_text(
        client.get(f"/tournaments/{tid}/divisions/A/scorecards.pdf?paper={paper}")
    )
    assert_paper(sizes, paper)
    assert len(sizes) == 4  # a page a player
    ann = text[text.index("Ann Able") : text.index("Ben Baker")]
    assert "After round 1: 1-0, spread +40" in ann
    assert f"http://testserver/tournaments/{tid}/players/{ids[1]}/" in ann
    rows = ann[ann.index("Your score") :]
    assert "Zoë Zane" in rows  # round 2, as paired
    assert "second" in rows
    assert "Round" in rows
    for round_ in ("2", "3", "4"):
        assert f"\n{round_} " in rows or f"\n{round_}\n" in rows
    one, _ = pdf_text(
        client.get(f"/tournaments/{tid}/divisions/A/scorecards.pdf?player={ids[4]}")
    )
    assert "Zoë Zane" in one
    assert "Ann Able" in one  # her round-2 opponent
    assert "Ben Baker" not in one


def test_the_qr_code_encodes_the_scorecard_link():
    url = "https://example.org/tournaments/x/players/y/"
    drawing = printouts.qr_drawing(url)
    (widget,) = drawing.contents
    assert widget.value == url
    assert round(drawing.width) == round(printouts.QR_SIZE)


@pytest.mark.django_db
def test_scorecards_are_for_the_team_and_paper_is_checked(
    client, club_night, other_user
):
    tid, _ = club_night
    url = f"/tournaments/{tid}/divisions/A/scorecards.pdf"
    assert client.get(url).status_code == 403
    client.force_login(other_user)
    assert client.get(url).status_code == 403
    response = client.get(f"/tournaments/{tid}/divisions/A/standings.pdf?paper=a3")
    assert response.status_code == 400
    assert response.content == b"paper: a4 or letter."
    assert (
        client.get(f"/tournaments/{tid}/divisions/A/rounds/3/pairings.pdf").status_code
        == 404
    )


@pytest.mark.django_db
def test_the_pages_print_find_your_table_the_wall_chart_and_prizes(
    client, director, club_night
):
    tid, _ = club_night
    tables = client.get(f"/tournaments/{tid}/divisions/A/rounds/2/tables/")
    page = tables.content.decode()
    players = [
        page.index(f'<td class="who">{name}')
        for name in ("Ann Able", "Ben Baker", "Cy Cole", "Zoë Zane")
    ]
    assert players == sorted(players)
    chart = client.get(f"/tournaments/{tid}/divisions/A/wallchart/").content.decode()
    assert "W 420–380" in chart
    prizes = client.get(f"/tournaments/{tid}/prizes/").content.decode()
    assert "No prize table is set" in prizes
    set_prizes(tid, director)
    prizes = client.get(f"/tournaments/{tid}/prizes/").content.decode()
    assert "Zoë Zane" in prizes
    assert "High game" in prizes


@pytest.mark.django_db
def test_the_print_page_lists_every_printout_for_the_team(client, director, club_night):
    tid, _ = club_night
    assert client.get(f"/tournaments/{tid}/manage/print/").status_code == 403
    client.force_login(director)
    page = client.get(f"/tournaments/{tid}/manage/print/").content.decode()
    for url in (
        f"/tournaments/{tid}/divisions/A/rounds/2/pairings.pdf?paper=letter",
        f"/tournaments/{tid}/divisions/A/scorecards.pdf?paper=a4",
        f"/tournaments/{tid}/divisions/A/standings.pdf",
        f"/tournaments/{tid}/divisions/A/wallchart.pdf",
        f"/tournaments/{tid}/prizes.pdf",
        f"/tournaments/{tid}/divisions/A/display/",
    ):
        assert url in page


class _PrizeRows(HTMLParser):
    """The prize page's winners' rows: each row's cells' text."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


@pytest.mark.django_db
def test_the_prize_page_and_the_printed_list_agree(client, director, club_night):
    """Issue 32: the page and the PDF list the same winners, amounts and shares, in
    the same order. After round 1 Zoë (1-0 +52) is 1st and Ann (1-0 +40) 2nd; both
    have one win, so most wins (split, as the golden tables' ties) is shared by 2."""
    tid, _ = club_night
    prize_table_set(
        tournament_id=tid,
        division="A",
        table=PrizeTable(
            (
                Prize(PrizeKind.PLACE, 10000, place=1, exclusive="cash"),
                Prize(PrizeKind.PLACE, 6000, place=2, exclusive="cash"),
                Prize(PrizeKind.MOST_WINS, 3000),
                Prize(PrizeKind.HIGH_GAME, 2000),
            )
        ),
        user=director,
    )
    parser = _PrizeRows()
    parser.feed(client.get(f"/tournaments/{tid}/prizes/").content.decode())
    # A winner's row ends with: who ("Name #n"), what with, amount (and share).
    page = [
        (row[-3], row[-1]) for row in parser.rows if len(row) >= 3 and "#" in row[-3]
    ]
    assert page == [
        ("Zoë Zane #4", "100.00"),
        ("Ann Able #1", "60.00"),
        ("Ann Able #1", "15.00 (shared by 2)"),
        ("Zoë Zane #4", "15.00 (shared by 2)"),
        ("Ann Able #1", "20.00"),
    ]
    text, _ = pdf_text(client.get(f"/tournaments/{tid}/prizes.pdf"))
    at = text.index("Prize list")
    for who, amount in page:
        name, number = who.rsplit(" #", 1)
        at = text.index(f"{name} (#{number})", at)
        share, _, shared = amount.partition(" (")
        at = text.index(share, at)
        if shared:
            at = text.index(f"({shared}", at)
