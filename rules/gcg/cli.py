"""The command line: ``python -m rules.gcg check FILE...`` reads each file and
reports its players, scores, discrepancies and warnings (text or ``--json``).

Usage::

    python -m rules.gcg check game.gcg --rules naspa --json
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from rules.errors import (
    GcgError,
)
from rules.gcg.reader import read
from rules.gcg.values import GcgPlayer
from rules.state import GameState


def check_file(path: str, rules: str | None = None) -> dict[str, object]:
    """Check one GCG file; return the report the ``check`` command prints."""
    report: dict[str, object] = {
        "file": path,
        "ok": False,
        "players": [],
        "winner": None,
        "end_reason": None,
        "errors": [],
        "warnings": [],
        "discrepancies": [],
    }
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        report["errors"] = [
            {
                "line": 0,
                "code": "unreadable",
                "message": f"Cannot read the file: {error.strerror}",
            }
        ]
        return report
    try:
        record = read(data, rules=rules)
    except GcgError as error:
        report["errors"] = [
            {"line": line, "code": code, "message": message}
            for line, code, message in error.problems
        ]
        state = error.state
        if isinstance(state, GameState):
            report["players"] = _players(
                state, [GcgPlayer(nick, nick) for nick in state.players]
            )
        return report
    state = record.state
    players = list(record.metadata.players)
    report["ok"] = True
    report["players"] = _players(state, players)
    report["winner"] = players[state.winner].nick if state.winner is not None else None
    report["end_reason"] = state.end_reason.value if state.end_reason else None
    report["warnings"] = [
        {"line": item.line, "code": item.code, "message": item.message}
        for item in record.warnings
    ]
    report["discrepancies"] = [
        {"line": item.line, "recorded": item.recorded, "computed": item.computed}
        for item in record.discrepancies
    ]
    return report


def _players(state: GameState, players: list[GcgPlayer]) -> list[dict[str, object]]:
    return [
        {
            "nick": players[index].nick,
            "name": players[index].name,
            # An unfinished record's final score is its current score.
            "final_score": state.scores[index],
            "score_before_adjustments": state.scores_before_adjustments[index],
        }
        for index in range(len(state.players))
    ]


def _print_text(report: dict[str, object]) -> None:
    players = report["players"]
    assert isinstance(players, list)
    if report["ok"]:
        scores = ", ".join(
            f"{entry['nick']} {entry['final_score']}" for entry in players
        )
        if report["end_reason"] is None:
            verdict = "unfinished"
        elif report["winner"] is None:
            verdict = "draw"
        else:
            verdict = f"winner {report['winner']}"
        warnings = report["warnings"]
        assert isinstance(warnings, list)
        warned = f", {len(warnings)} warning{'s' if len(warnings) != 1 else ''}"
        print(f"{report['file']}: ok ({scores}; {verdict}{warned if warnings else ''})")
        for item in warnings:
            print(f"  line {item['line']}: warning: {item['code']}: {item['message']}")
        discrepancies = report["discrepancies"]
        assert isinstance(discrepancies, list)
        for item in discrepancies:
            print(
                f"  line {item['line']}: recorded {item['recorded']}, "
                f"computed {item['computed']} (kept as recorded)"
            )
        return
    errors = report["errors"]
    assert isinstance(errors, list)
    print(f"{report['file']}: {len(errors)} problem{'s' if len(errors) != 1 else ''}")
    for item in errors:
        print(f"  line {item['line']}: {item['code']}: {item['message']}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 errors, 2 bad usage)."""
    parser = argparse.ArgumentParser(
        prog="python -m rules.gcg", description="Check GCG game records."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "check", help="check records: final scores, or every problem with its line"
    )
    check.add_argument("files", nargs="+", metavar="FILE")
    check.add_argument("--json", action="store_true", help="one JSON object per file")
    check.add_argument(
        "--rules",
        choices=("classic", "naspa", "wespa"),
        help="the ruleset (default: inferred from the record)",
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    status = 0
    for path in args.files:
        report = check_file(path, args.rules)
        if not report["ok"]:
            status = 1
        if args.json:
            print(json.dumps(report, ensure_ascii=False))
        else:
            _print_text(report)
    return status
