"""Word lists: loading them and looking words up."""

from __future__ import annotations

from rules.lexicon import Lexicon, load_lexicon


def test_lexicon_from_lines_ignores_case_blanks_comments_and_definitions():
    """One word per line; only the first token counts; lookups ignore case."""
    lexicon = Lexicon.from_lines(
        ["cat", "  DOGS  a canine, plural", "", "# a comment", "Qi"], name="tiny"
    )
    assert lexicon.words == frozenset({"CAT", "DOGS", "QI"})
    assert "dogs" in lexicon
    assert "DOG" not in lexicon
    assert 5 not in lexicon
    assert len(lexicon) == 3
    assert lexicon.name == "tiny"


def test_lexicon_from_text():
    """A whole text can be given instead of lines."""
    assert "ZA" in Lexicon.from_lines("QI\nZA\n")


def test_invalid_lists_unknown_words_once_in_order():
    """invalid() names the words not in the list, upper case, without repeats."""
    lexicon = Lexicon.from_lines(["CAT"])
    assert lexicon.invalid(["cat", "xyz", "abc", "XYZ"]) == ("XYZ", "ABC")


def test_load_lexicon_reads_a_file(tmp_path):
    """A word list file is read as UTF-8 and named after the file."""
    path = tmp_path / "NWL-mini.txt"
    path.write_text("ÉTÉ\nCAT\n", encoding="utf-8")
    lexicon = load_lexicon(path)
    assert lexicon.name == "NWL-mini.txt"
    assert "été" in lexicon
    assert load_lexicon(path, name="mini").name == "mini"
