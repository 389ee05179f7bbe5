"""Bad input to the GCG reader: arbitrary text and bytes, and real records mutated
line by line, either read cleanly or are refused with a GcgError (a RulesError) —
never another exception. Pure rules: no database."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import gcg
from rules.errors import GcgError, RulesError
from tests.reliability_tests.conftest import DERANDOMIZE

EXAMPLES = 300
COUNTS: dict[str, int] = {}

GCG_LINES = st.sampled_from(
    [
        "#player1 ann Ann Able",
        "#player2 ben Ben Baker",
        "#character-encoding UTF-8",
        "#lexicon CSW21",
        "#title fuzz",
        "#note a note",
        "#rack1 AEINRST",
        ">ann: AEINRST 8D RETAINS +66 66",
        ">ben: ?AEILNR D8 .ReLAIN +70 70",
        ">ann: DGOX -DGOX +0 66",
        ">ben: -- -70 0",
        ">ann: (challenge) +5 71",
        ">ben: EIR (EIR) +6 76",
        ">ann: -  +0 66",
        ">ben: (time) -10 60",
        ">ann: AEINRST 8H RETAINS +999999999999999999 9",
        ">ann: ",
        ">: X",
        "",
    ]
)


def _read(data: str | bytes, kind: str) -> None:
    try:
        record = gcg.read(data)
    except GcgError:
        COUNTS[kind + " refused"] = COUNTS.get(kind + " refused", 0) + 1
        return
    except RulesError:
        COUNTS[kind + " refused"] = COUNTS.get(kind + " refused", 0) + 1
        return
    assert isinstance(record, gcg.GcgRecord)
    assert len(record.events) == len(record.event_lines)
    COUNTS[kind + " read"] = COUNTS.get(kind + " read", 0) + 1


@settings(max_examples=EXAMPLES, deadline=None, derandomize=DERANDOMIZE)
@given(st.text(max_size=2000))
def test_arbitrary_text(text):
    _read(text, "text")


@settings(max_examples=EXAMPLES, deadline=None, derandomize=DERANDOMIZE)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes(data):
    _read(data, "bytes")


@settings(max_examples=EXAMPLES, deadline=None, derandomize=DERANDOMIZE)
@given(st.lists(GCG_LINES | st.text(max_size=60), max_size=40))
def test_gcg_shaped_lines(lines):
    _read("\n".join(lines), "gcg-shaped")


def _files(directory: Path) -> list[bytes]:
    return [path.read_bytes() for path in sorted(directory.glob("*.gcg"))]


@st.composite
def mutated(draw, originals: list[bytes]) -> bytes:
    """A real record with a few lines deleted, duplicated, swapped, cut or given
    random bytes, or single bytes flipped."""
    lines = draw(st.sampled_from(originals)).split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        index = draw(st.integers(0, len(lines) - 1))
        operation = draw(
            st.sampled_from(["delete", "duplicate", "swap", "cut", "replace", "flip"])
        )
        if operation == "delete":
            del lines[index]
        elif operation == "duplicate":
            lines.insert(index, lines[index])
        elif operation == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        elif operation == "cut":
            line = lines[index]
            lines[index] = line[: draw(st.integers(0, max(len(line) - 1, 0)))]
        elif operation == "replace":
            lines[index] = draw(st.binary(max_size=40))
        else:
            line = bytearray(lines[index] or b" ")
            at = draw(st.integers(0, len(line) - 1))
            line[at] = draw(st.integers(0, 255))
            lines[index] = bytes(line)
    return b"\n".join(lines)


@pytest.fixture(scope="module")
def originals(shared_gcg_dir) -> list[bytes]:
    files = _files(shared_gcg_dir)
    assert files
    return files


def test_mutated_real_records(originals):
    @settings(
        max_examples=EXAMPLES * 2,
        deadline=None,
        derandomize=DERANDOMIZE,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(mutated(originals))
    def check(data):
        _read(data, "mutated")

    check()
    for data in originals:
        _read(data, "real")
    print(f"\nFIGURES gcg-fuzz: {dict(sorted(COUNTS.items()))}")


def test_a_line_that_is_only_a_hash_is_ignored_like_an_unknown_pragma():
    """A bare "#" names no pragma; like an unknown pragma it is ignored (it once
    crashed the reader with a ValueError, found by this fuzzing)."""
    record = gcg.read("#player1 a A\n#\n#player2 b B\n# \n>a: AB 8H AB +8 8\n")
    assert record.state.scores == (8, 0)
    with pytest.raises(GcgError):
        gcg.read("#")  # refused for naming no players, not a crash
