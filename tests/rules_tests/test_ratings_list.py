"""A ratings body's list: read, matched to the players, and applied as PlayerEdited
corrections, refused once a division has a result."""

from __future__ import annotations

import dataclasses

import pytest
from anyascii import anyascii

from rules.ratings_list import (
    ListedRating,
    RatingsListError,
    name_key,
    rating_updates,
    read_ratings_list,
)
from rules.tournament import (
    Board,
    DivisionAdded,
    PlayerEdited,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentError,
    apply,
    replay,
)

LIST = """member id,name,rating,career games
NA001,"Able, Ann",1612,240
NA002,Ben Baker,1488,
NA003,"Cole, Cy",0,0
"""


def tournament(*players: PlayerRegistered):
    return replay(
        [
            TournamentCreated(
                name="Open", start_date="2026-01-10", end_date="2026-01-10", rounds=3
            ),
            DivisionAdded(name="A"),
            DivisionAdded(name="B"),
            *players,
        ]
    )


def test_a_list_reads_with_an_optional_header() -> None:
    rows = read_ratings_list(LIST)
    assert rows == (
        ListedRating(2, "NA001", "Able, Ann", 1612, "", 240),
        ListedRating(3, "NA002", "Ben Baker", 1488, "", None),
        ListedRating(4, "NA003", "Cole, Cy", 0, "", 0),
    )
    headless = read_ratings_list(LIST.split("\n", 1)[1])
    assert [dataclasses.replace(row, line=row.line + 1) for row in headless] == list(
        rows
    )


def test_a_list_may_use_tabs_or_semicolons() -> None:
    assert read_ratings_list("NA001\tAnn Able\t1612\t240\n")[0].rating == 1612
    assert read_ratings_list("NA001;Ann Able;1612;240\n")[0].career_games == 240


@pytest.mark.parametrize(
    ("text", "code", "line"),
    [
        ("NA001,Ann Able,1612\n", "ratings_list_syntax", 1),
        ("NA001,Ann Able,1612,240\nNA002,Ben,fifteen,3\n", "ratings_list_syntax", 2),
        ("NA001,Ann Able,1612,-4\n", "ratings_list_syntax", 1),
        ("NA001,,1612,4\n", "ratings_list_syntax", 1),
        ("NA001,Ann,1,1\nna001,Ann Able,2,2\n", "ratings_list_duplicate", 2),
        ("member id,name,rating,career games\n", "ratings_list_empty", None),
        # A field past the csv module's limit (128 KB).
        ('NA001,"' + "x" * 140_000 + '",1612,240\n', "ratings_list_syntax", 1),
    ],
)
def test_a_bad_list_is_refused_with_the_line(
    text: str, code: str, line: int | None
) -> None:
    with pytest.raises(RatingsListError) as caught:
        read_ratings_list(text)
    assert (caught.value.code, caught.value.line, caught.value.field) == (
        code,
        line,
        "file",
    )


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Able, Ann", "Ann Able"),
        ("Díaz, José", "jose DIAZ"),
        ("  Ann   Able ", "ann able"),
    ],
)
def test_names_match_either_way_round_without_accents_or_case(
    one: str, other: str
) -> None:
    assert name_key(one) == name_key(other)


def test_a_transliteration_matches_letters_without_decomposition() -> None:
    """NFKD cannot take Ł apart; a transliteration library's function can."""
    assert name_key("Żółć, Łukasz") != name_key("lukasz ZOLC")
    assert name_key("Żółć, Łukasz", anyascii) == name_key("lukasz ZOLC", anyascii)


def test_players_match_by_member_id_or_else_by_name() -> None:
    """Ann and Cy by membership id; Ben (no id) by name; Di is not on the list; Cy
    already has the list's numbers."""
    state = tournament(
        PlayerRegistered("p1", "A", "Ann Able", 1500, member_id="na001"),
        PlayerRegistered("p2", "A", "Baker, Ben", 1400),
        PlayerRegistered("p3", "B", "Cy Cole", 0, member_id="NA003", career_games=0),
        PlayerRegistered("p4", "B", "Di Dane", 1300),
    )
    updates = rating_updates(state, read_ratings_list(LIST))
    assert updates.events == (
        PlayerEdited("p1", rating=1612, rating_text="", career_games=240),
        PlayerEdited("p2", rating=1488, rating_text=""),
    )
    assert (updates.unchanged, updates.unmatched) == (("p3",), ("p4",))
    only_b = rating_updates(state, read_ratings_list(LIST), division="B")
    assert (only_b.events, only_b.unmatched) == ((), ("p4",))


def test_a_name_on_two_rows_does_not_match() -> None:
    state = tournament(PlayerRegistered("p1", "A", "Ann Able", 1500))
    listed = read_ratings_list('X1,Ann Able,1600,10\nX2,"Able, Ann",1700,20\n')
    assert rating_updates(state, listed).unmatched == ("p1",)


def test_the_corrections_set_the_pre_event_rating_and_career_games() -> None:
    """Unknown career games on the list leave the player's as they were."""
    state = tournament(
        PlayerRegistered("p1", "A", "Ann Able", 1500, member_id="NA001"),
        PlayerRegistered("p2", "A", "Ben Baker", 1400, career_games=90),
    )
    for event in rating_updates(state, read_ratings_list(LIST)).events:
        state = apply(state, event)
    ann, ben = state.players["p1"], state.players["p2"]
    assert (ann.rating, ann.career_games) == (1612, 240)
    assert (ben.rating, ben.career_games) == (1488, 90)


def test_a_list_is_refused_once_the_division_has_a_result() -> None:
    """Pairing round 1 is fine; its first result closes the pre-event ratings of
    division A, not of B."""
    players = (
        PlayerRegistered("p1", "A", "Ann Able", 1500),
        PlayerRegistered("p2", "A", "Ben Baker", 1400),
        PlayerRegistered("p3", "B", "Cy Cole", 1300),
    )
    state = tournament(
        *players, RoundPaired(division="A", round=1, games=(Board(1, "p1", "p2"),))
    )
    listed = read_ratings_list('X,"Baker, Ben",1410,5\nY,Cy Cole,1310,7\n')
    assert len(rating_updates(state, listed).events) == 2
    state = apply(state, ResultRecorded(1, "p1", "p2", 400, 350))
    with pytest.raises(TournamentError) as caught:
        rating_updates(state, listed)
    assert caught.value.code == "division_has_results"
    assert len(rating_updates(state, listed, division="B").events) == 1
