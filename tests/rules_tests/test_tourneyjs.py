"""rules.tourneyjs: tsh's serialisation of the newt object, its reading into the
.t import's players, the notes an import reports, and tsh's free-text dates."""

from __future__ import annotations

import pytest

from rules.records import (
    DivisionRecord,
    EntryKind,
    PlayerRecord,
    RoundEntry,
    TournamentRecord,
)
from rules.tourneyjs import (
    UNDEFINED,
    event_dates,
    newt_object,
    read_newt,
    to_javascript,
    write_tourney_js,
)
from rules.tsh import TshError


def game(round_: int, opponent: int, own: int | None, other: int | None, first: bool):
    return RoundEntry(
        round=round_,
        kind=EntryKind.GAME,
        opponent=opponent,
        own_score=own,
        opponent_score=other,
        went_first=first,
        result=None if own is None else float(own > other) if own != other else 0.5,
        board=1,
    )


def record() -> TournamentRecord:
    ann = PlayerRecord(
        number=1,
        name="Ames, Ann",
        rating=1600,
        rounds=(game(1, 2, 400, 350, True), game(2, 2, None, None, False)),
        ranks=(1, 1, 1),
        extensions=(("class", "A"), ("lifeg", "80")),
        career_games=80,
    )
    bo = PlayerRecord(
        number=2,
        name="Bell, Bo",
        rating=1600,
        rounds=(game(1, 1, 350, 400, False), game(2, 1, None, None, True)),
        ranks=(1, 2, 2),
    )
    return TournamentRecord(
        name="Two Player Test",
        date="2026-07-04",
        divisions=(DivisionRecord(name="A", players=(ann, bo)),),
        rounds=2,
    )


def test_values_are_written_as_tshs_serialiser_writes_them():
    assert to_javascript({"b": [1, None], "a": 'x"y', "c": UNDEFINED}) == (
        '{"a":"x\\"y","b":[1,undefined],"c":undefined}'
    )
    assert to_javascript(-0.5) == "-0.5"


def test_the_file_is_newt_assigned_and_ends_with_a_semicolon():
    text = write_tourney_js(record(), new_ratings={"A": {1: [1611]}})
    assert text.startswith('newt={"config":{"_termdict":undefined,')
    assert text.endswith("};\n")
    assert '"players":[undefined,{' in text


def test_a_player_holds_the_t_columns_and_the_fields_tsh_keeps_in_etc():
    newt = newt_object(record(), new_ratings={"A": {1: [1611], 2: [1589]}})
    division = newt["divisions"][0]  # type: ignore[index]
    assert (division["maxr"], division["maxrp"], division["seeds"]) == (1, 0, [1, 1])
    ann = division["players"][1]
    assert (ann["pairings"], ann["scores"]) == ([2, 2], [400])
    assert ann["etc"] == {
        "board": [1, 1],
        "class": ["A"],
        "lifeg": [80],
        "newr": [1611],
        "p12": [1, 2],
        "rrank": [1, 1],
    }


def test_reading_gives_the_t_import_its_players_and_notes():
    newt = read_newt(
        {
            "config": {"event_name": "X", "max_rounds": 2, "gibson": 1},
            "divisions": [
                {
                    "name": "a",
                    "maxr": 1,
                    "players": [
                        None,
                        {
                            "id": 1,
                            "name": "Ames, Ann",
                            "rating": 1600.5,
                            "pairings": [2, 0],
                            "scores": [400, -50, None],
                            "etc": {
                                "p12": [1, 0],
                                "excwins": [0.75],
                                "seat": {"r1": 3},
                            },
                        },
                        {
                            "id": 2,
                            "name": "Bell, Bo",
                            "rating": "0+0+0",
                            "pairings": [1, 0],
                            "scores": [350, 50],
                        },
                    ],
                }
            ],
        }
    )
    (division,) = newt.divisions
    ann, bo = division.tfile.players
    assert (division.name, division.rounds) == ("A", 2)
    assert (ann.rating, ann.rating_text, ann.scores) == (1600, "1600.5", (400, -50))
    assert ann.field("excwins") == ("0.75",)
    assert (bo.rating, bo.rating_text) == (0, "0+0+0")
    assert newt.not_taken == (("gibson", "1"),)
    assert ann.field("seat") is None
    assert {(n.code, n.player, n.round) for n in newt.notes} == {
        ("forfeit", 1, 2),
        ("bye", 2, 2),
        ("config_not_taken", None, None),
        ("player_field_not_kept", None, None),
    }


def test_a_file_with_more_rounds_than_its_config_says_keeps_them():
    player = {"name": "N", "pairings": [0, 0, 0], "scores": [50, 50, 50]}
    newt = read_newt(
        {
            "config": {"max_rounds": 2},
            "divisions": [{"name": "A", "players": [None, player]}],
        }
    )
    assert newt.settings["max_rounds"] == 3
    assert "max_rounds" in {note.code for note in newt.notes}


def test_the_bye_spread_this_system_writes_reads_back_as_byes():
    player = {"name": "N", "pairings": [0, 0], "scores": [100, 50]}
    newt = read_newt(
        {
            "config": {"bye_spread": 100},
            "divisions": [{"name": "A", "players": [None, player]}],
        }
    )
    assert newt.settings["bye_spread"] == 100
    assert [(n.code, n.round) for n in newt.notes] == [("bye", 1), ("credit", 2)]


@pytest.mark.parametrize(
    ("obj", "path"),
    [
        ({"divisions": []}, "divisions"),
        ({"divisions": [{"name": "A", "players": [None, {"id": 1}]}]}, "name"),
        (
            {"divisions": [{"name": "A", "players": [None, {"name": "N", "id": 2}]}]},
            "divisions[0].players",
        ),
        (
            {
                "divisions": [
                    {"name": "A", "players": [None, {"name": "N", "scores": [1, 2.5]}]}
                ]
            },
            "divisions[0].players[1].scores[1] (round 2)",
        ),
    ],
)
def test_what_cannot_be_read_names_its_path(obj, path):
    with pytest.raises(TshError) as raised:
        read_newt(obj)
    assert raised.value.code == "tourney_js_shape"
    assert path in raised.value.message


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("2026-07-04", ("2026-07-04", "2026-07-04")),
        ("July 4, 2024", ("2024-07-04", "2024-07-04")),
        ("July 4-7, 2024", ("2024-07-04", "2024-07-07")),
        ("Jul 30 - Aug 2, 2024", ("2024-07-30", "2024-08-02")),
        ("4 July 2024", ("2024-07-04", "2024-07-04")),
        ("next weekend", None),
        ("February 30, 2024", None),
    ],
)
def test_tshs_free_text_event_dates(text, days):
    assert event_dates(text) == days
