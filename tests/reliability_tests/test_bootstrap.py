"""The install step of ./run.sh and ./test.sh (config/bootstrap.sh) on a laptop
with no internet: one sentence saying what to do, not pip's traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.reliability_tests.conftest import PROJECT_DIR

# No index to reach: a local port nothing listens on (the discard port), no pip
# configuration of this machine (its find-links), no cache, no retries.
OFFLINE = {
    "PIP_CONFIG_FILE": os.devnull,
    "PIP_INDEX_URL": "http://127.0.0.1:9/simple",
    "PIP_NO_CACHE_DIR": "1",
    "PIP_RETRIES": "0",
    "PIP_TIMEOUT": "2",
    "PIP_FIND_LINKS": "",
    "BOOTSTRAP_EXTRAS": "",
}


def _copy(tmp_path: Path) -> Path:
    """The files the install step reads, in a project of its own (its own .venv)."""
    (tmp_path / "config").mkdir()
    shutil.copy(PROJECT_DIR / "config" / "bootstrap.sh", tmp_path / "config")
    shutil.copy(PROJECT_DIR / "pyproject.toml", tmp_path)
    return tmp_path


def test_without_the_index_the_install_step_says_what_to_do(tmp_path: Path) -> None:
    project = _copy(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(OFFLINE)

    done = subprocess.run(
        ["bash", "-c", "source config/bootstrap.sh"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert done.returncode == 1
    assert "the package index is out of reach (no internet?)" in done.stderr
    assert '"At the venue without internet"' in done.stderr
    # pip's own words are kept in a file, not thrown at the director.
    assert "Traceback" not in done.stderr
    assert "ERROR:" not in done.stderr
    assert "No matching distribution" in (project / ".venv/pip-install.log").read_text()
    # Nothing claims the install happened: the next run tries again.
    assert not list((project / ".venv").glob(".installed-*"))
