"""manage.py import_gcg: a report per file, bad files refused with their lines."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from games.models import GameProjection


@pytest.mark.django_db
def test_importing_the_real_games_reports_each(recorder, shared_gcg_dir, capsys):
    files = sorted(shared_gcg_dir.glob("*.gcg"))
    call_command("import_gcg", *map(str, files), user="rita")
    out = capsys.readouterr().out
    assert out.count("imported as game") == len(files)
    assert "451 – 345" in out  # doug_v_emely
    assert GameProjection.objects.count() == len(files)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("event", "code"),
    [
        (">a: ABC 8A CAB +7 7", "first_play_center"),
        # Issue 21: a score of 2**31 is a line's problem, not a traceback.
        (">a: DINNVWY 8D WINDY +2147483648 2147483648", "impossible_score"),
    ],
)
def test_a_bad_file_is_reported_with_its_line_and_not_stored(
    recorder, tmp_path, capsys, event, code
):
    bad = tmp_path / "bad.gcg"
    bad.write_text(f"#player1 a A\n#player2 b B\n{event}\n")
    with pytest.raises(CommandError, match="1 of 1"):
        call_command("import_gcg", str(bad), user="rita")
    err = capsys.readouterr().err
    assert "line 3:" in err
    assert f"[{code}]" in err
    assert GameProjection.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("head", "event", "listed"),
    [
        (
            "#player1 a A\n#player2 b B\n",
            ">a: DINNVWY 8D WINDY +30 30",
            "line 3: score recorded 30, the rules give 32 (kept as recorded)",
        ),
        (
            "#player1 x Ann\n#player2 x Bob\n",
            ">x: DINNVWY 8D WINDY +32 32",
            "line 2: warning: Both players have the nick 'x': each line is given "
            "to a player by the order of play [duplicate_nick]",
        ),
    ],
)
def test_score_mistakes_and_warnings_are_listed(
    recorder, tmp_path, capsys, head, event, listed
):
    sheet = tmp_path / "sheet.gcg"
    sheet.write_text(f"{head}{event}\n")
    call_command("import_gcg", str(sheet), user="rita")
    assert listed in capsys.readouterr().out
