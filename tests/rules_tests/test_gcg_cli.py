"""The command line: ``python -m rules.gcg check FILE...``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.gcg import main
from tests.rules_tests.support import GAME_FILES, GAMES

ROOT = Path(__file__).resolve().parents[2]

BROKEN = "#player1 ann Ann\n#player2 bob Bob\n>carl: ABC 8D CAB +14 14\n"
UNFINISHED = (
    "#player1 ann Ann Smith\n#player2 bob Bob\n"
    ">ann: DINNVWY 8D WINDY +30 30\n>bob: ADEEGIL E7 A.E +3 3\n"
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(list(args))
    return status, capsys.readouterr().out


def test_ok_files_print_final_scores_and_exit_zero(capsys):
    """Every real game is ok, with each player's final score."""
    status, out = run(capsys, "check", *map(str, GAME_FILES))
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == len(GAME_FILES)
    assert (
        f"{GAMES / 'doug_v_emely.gcg'}: ok (doug 451, emely 345; winner doug)" in lines
    )


def test_problems_are_listed_with_their_lines_and_exit_one(tmp_path, capsys):
    """A file with an error prints every problem with its line; the status is 1."""
    broken = tmp_path / "broken.gcg"
    broken.write_text(BROKEN, encoding="latin-1")
    status, out = run(capsys, "check", str(GAMES / "josh2.gcg"), str(broken))
    assert status == 1
    assert f"{broken}: 1 problem" in out
    assert "  line 3: unknown_nick: Unknown nick 'carl'" in out


def test_json_prints_one_object_per_file_on_one_line(tmp_path, capsys):
    """--json prints one JSON object per file with the documented keys."""
    unfinished = tmp_path / "unfinished.gcg"
    unfinished.write_text(UNFINISHED, encoding="latin-1")
    broken = tmp_path / "broken.gcg"
    broken.write_text(BROKEN, encoding="latin-1")
    status, out = run(
        capsys,
        "check",
        "--json",
        str(GAMES / "success_six_pass.gcg"),
        str(unfinished),
        str(broken),
    )
    assert status == 1
    lines = out.splitlines()
    assert len(lines) == 3
    six, open_game, bad = (json.loads(line) for line in lines)
    keys = {
        "file",
        "ok",
        "players",
        "winner",
        "end_reason",
        "errors",
        "warnings",
        "discrepancies",
    }
    assert set(six) == set(open_game) == set(bad) == keys
    assert six["ok"] is True
    assert six["players"] == [
        {
            "nick": "Marlon_Hill",
            "name": "Marlon Hill",
            "final_score": -6,
            "score_before_adjustments": 0,
        },
        {
            "nick": "Ben_Schoenbrun",
            "name": "Ben Schoenbrun",
            "final_score": -16,
            "score_before_adjustments": 0,
        },
    ]
    assert six["winner"] == "Marlon_Hill"
    assert six["end_reason"] == "scoreless_turns"
    assert open_game["ok"] is True
    assert [p["final_score"] for p in open_game["players"]] == [30, 3]
    assert open_game["winner"] is None
    assert open_game["end_reason"] is None
    assert open_game["discrepancies"] == [{"line": 3, "recorded": 30, "computed": 32}]
    assert open_game["warnings"] == []
    assert bad["ok"] is False
    assert bad["errors"] == [
        {
            "line": 3,
            "code": "unknown_nick",
            "message": "Unknown nick 'carl': the players are ann, bob",
        }
    ]


def test_rules_option_chooses_the_ruleset(capsys):
    """--rules overrides inference: josh2's bonuses are wrong under double."""
    status, out = run(capsys, "check", "--rules", "naspa", str(GAMES / "josh2.gcg"))
    assert status == 1
    assert "challenges_not_allowed" in out
    status, _ = run(capsys, "check", "--rules", "wespa", str(GAMES / "josh2.gcg"))
    assert status == 0


def test_unreadable_file_is_an_error(tmp_path, capsys):
    """A file that cannot be read is reported at line 0."""
    status, out = run(capsys, "check", "--json", str(tmp_path / "missing.gcg"))
    assert status == 1
    report = json.loads(out)
    assert report["errors"][0]["code"] == "unreadable"


@pytest.mark.parametrize(
    "args",
    [[], ["check"], ["frobnicate", "x.gcg"], ["check", "--rules", "scrabble", "x.gcg"]],
)
def test_bad_usage_exits_two(args, capsys):
    """Missing files, an unknown command or ruleset are bad usage: status 2."""
    assert main(args) == 2


def test_module_runs_from_the_command_line():
    """python -m rules.gcg check runs the same command."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "rules.gcg",
            "check",
            "--json",
            str(GAMES / "josh2.gcg"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert json.loads(result.stdout)["players"][0]["final_score"] == 397


def test_warnings_are_printed_with_their_lines_and_exit_zero(tmp_path, capsys):
    """A record read leniently is ok; each warning is printed with its line."""
    shared = tmp_path / "shared.gcg"
    shared.write_text(
        "#player1 NoName Ann\n#player2 NoName Bob\n"
        ">NoName: DINNVWY 8D WINDY +32 32\n>NoName: ADEEGIL E7 A.E +3 3\n",
        encoding="latin-1",
    )
    status, out = run(capsys, "check", str(shared))
    assert status == 0
    assert f"{shared}: ok (NoName 32, NoName 3; unfinished, 1 warning)" in out
    assert "  line 2: warning: duplicate_nick: Both players have the nick" in out
    status, out = run(capsys, "check", "--json", str(shared))
    assert json.loads(out)["warnings"][0]["line"] == 2
