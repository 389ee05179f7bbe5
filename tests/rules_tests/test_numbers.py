"""Issue 30, items 7 and 10: every number the rules read from text goes through
``rules.numbers``, and ``config.tsh`` is read in time linear in its lines.

``"²".isdigit()`` is True and ``int("²")`` raises: a file reader that tested with
``isdigit`` then called ``int`` stopped with a ValueError (a 500 above it)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rules.board import parse_square
from rules.errors import GcgError, InvalidPositionError, InvalidRulesetError
from rules.gcg import read
from rules.numbers import MAX_DIGITS, NumberError, is_whole_number, whole_number
from rules.ratings_list import RatingsListError, read_ratings_list
from rules.ruleset import ruleset_from_text
from rules.tou import TouError, read_tou
from rules.tournament import (
    MAX_RATING,
    PlayerEdited,
    PlayerRegistered,
    TournamentError,
    admit,
)
from rules.tsh import MAX_LINE_CHARS, TshError, read_config, read_t, t_to_events

PROJECT = Path(__file__).resolve().parents[2]
ODD = ["²", "１", "٣", "1_000", "+5", " ", "", "1.5", "0x10", "9" * 5000]


@pytest.mark.parametrize("text", ODD)
def test_only_ascii_digits_are_a_whole_number(text):
    assert not is_whole_number(text)
    with pytest.raises(NumberError) as caught:
        whole_number(text)
    assert caught.value.message == "a whole number"


def test_a_whole_number_within_its_bounds():
    assert whole_number(" 12 ") == 12
    assert whole_number("-3") == -3
    assert whole_number("0007", low=0) == 7
    assert whole_number("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)
    for text, bounds, expected in (
        ("-1", {"low": 0}, "a whole number, 0 or more"),
        ("41", {"low": 1, "high": 40}, "a whole number from 1 to 40"),
        ("9" * (MAX_DIGITS + 1), {}, "a whole number"),
        ("5", {"high": 4}, "a whole number, 4 or less"),
    ):
        with pytest.raises(NumberError) as caught:
            whole_number(text, **bounds)
        assert caught.value.message == expected
    assert is_whole_number("-3", signed=True)
    assert not is_whole_number("-3")


def test_a_square_with_a_superscript_row_is_no_square():
    for name in ("H²", "H１", "A" + "1" * 5000):
        with pytest.raises(InvalidPositionError):
            parse_square(name)


HEAD = "#player1 ann Ann Smith\n#player2 bob Bob Jones\n"


def test_a_gcg_exchange_or_player_of_odd_digits_is_a_problem_on_its_line():
    with pytest.raises(GcgError) as caught:
        read(HEAD + ">ann: DINNVWY 8D WINDY +32 32\n>bob: ADEEGIL -² +0 0\n")
    assert {line for line, _, _ in caught.value.problems} == {4}
    with pytest.raises(GcgError) as caught:
        read("#player1 ann Ann\n#player2 bob Bob\n#player" + "9" * 5000 + " cy Cy\n")
    assert (3, "bad_pragma") in [(p[0], p[1]) for p in caught.value.problems]


def test_a_ruleset_number_of_odd_digits_is_refused():
    for value in ("²", "１", "9" * 5000):
        with pytest.raises(InvalidRulesetError):
            ruleset_from_text(f"classic rack_size={value}")


@pytest.mark.parametrize("rating", ["１５００", "9" * 5000])
def test_a_t_file_rating_of_odd_digits_is_a_syntax_error_on_its_line(rating):
    with pytest.raises(TshError) as caught:
        read_t(f"Ann Able 1500 2; 400\nBen Baker {rating} 1; 300\n")
    assert (caught.value.code, caught.value.line) == ("tsh_syntax", 2)


def test_t_file_fields_of_odd_digits_are_read_as_absent():
    text = "Ann Able 1500 2; 400; board ²; lifeg ²\nBen Baker 1400 1; 300; lifeg ９\n"
    events = t_to_events(read_t(text), "A")
    registered = [e for e in events if isinstance(e, PlayerRegistered)]
    assert [e.career_games for e in registered] == [None, None]


def test_a_tou_score_of_odd_digits_is_refused_naming_the_line():
    text = (
        "*M21.11.2026 Odd Open\n*A\nAnn Able            ４00  2\n*** END OF FILE ***\n"
    )
    with pytest.raises(TouError) as caught:
        read_tou(text)
    assert caught.value.line == 3


@pytest.mark.parametrize(
    ("rating", "games"), [("1" + "0" * 30, "3"), ("²", "3"), ("3501", "3"), ("5", "²")]
)
def test_a_ratings_list_number_out_of_range_names_its_line(rating, games):
    text = (
        f"member,name,rating,games\nM1,Ann Able,1500,3\nM2,Ben Baker,{rating},{games}\n"
    )
    with pytest.raises(RatingsListError) as caught:
        read_ratings_list(text)
    assert (caught.value.code, caught.value.line) == ("ratings_list_syntax", 3)


def test_a_rating_past_the_ceiling_is_not_admitted():
    with pytest.raises(TournamentError) as caught:
        admit(
            None,
            PlayerRegistered(
                player_id="p1", division="A", name="Ann", rating=MAX_RATING + 1
            ),
        )
    assert caught.value.field == "rating"
    with pytest.raises(TournamentError) as caught:
        admit(None, PlayerEdited(player_id="p1", career_games=10**30))
    assert caught.value.field == "career_games"
    admit(
        None,
        PlayerRegistered(player_id="p1", division="A", name="Ann", rating=MAX_RATING),
    )


# --- config.tsh: linear ---------------------------------------------------------------


def test_config_values_read_as_before():
    config = read_config(
        "config max_rounds = -3 ;\n"
        "config spread_cap = [ 1 , -2 ,]\n"
        "config bye_spread = []\n"
        'config rating_system = ""\n'
    )
    assert config.settings == {
        "max_rounds": -3,
        "spread_cap": [1, -2],
        "bye_spread": [],
        "rating_system": "",
    }
    # A quoted value may hold spaces (an event's name), never its own quote.
    assert read_config("config event_name = 'Riverside Open'\n").settings == {
        "event_name": "Riverside Open"
    }
    for bad in ("[1,,2]", "[1 2]", "'a'b'", "'a\"", "[- 1]", "１", "[²]"):
        with pytest.raises(TshError) as caught:
            read_config(f"division a a.t\nconfig spread_cap = {bad}\n")
        assert (caught.value.code, caught.value.line) == ("tsh_config_value", 2), bad


# The old list pattern took cubic time on "[" and spaces: 2,000 spaces 7.5 s, 4,000
# spaces 88 s; a line at the cap (20,000) would hold a CPU for hours. Run in a child
# process so that today's code fails by its timeout instead of hanging the suite;
# the linear reader takes milliseconds, so the bound is generous on a busy machine.
ADVERSARIAL = textwrap.dedent(
    """
    import sys
    from rules.tsh import MAX_LINE_CHARS, TshError, read_config
    prefix = "config spread_cap = ["
    for tail in ("x", "]x", " ,x"):
        line = prefix + " " * (MAX_LINE_CHARS - len(prefix) - len(tail)) + tail
        try:
            read_config("division a a.t\\n" + line + "\\n")
        except TshError as error:
            assert (error.code, error.line) == ("tsh_config_value", 2), error
        else:
            sys.exit("accepted")
    """
)


def test_an_adversarial_config_line_at_the_cap_is_read_in_linear_time():
    subprocess.run(
        [sys.executable, "-c", ADVERSARIAL], cwd=PROJECT, check=True, timeout=20
    )


def test_a_254_kb_config_line_is_refused_naming_its_line():
    line = "config spread_cap = [" + " " * (254 * 1024) + "x"
    with pytest.raises(TshError) as caught:
        read_config("division a a.t\n" + line + "\n")
    assert (caught.value.code, caught.value.line) == ("tsh_line_too_long", 2)
    assert f"{MAX_LINE_CHARS}" in caught.value.message
