"""Shared fixtures. Pure rules tests use none of these and touch no database."""

from __future__ import annotations

from pathlib import Path

import pytest

# ../shared beside the project root holds real games; tests read them in place.
SHARED_DIR = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture(scope="session")
def shared_gcg_dir() -> Path:
    """The folder of real GCG games (never copied into the project)."""
    path = SHARED_DIR / "gcg"
    assert path.is_dir(), f"{path} is missing: ../shared must sit beside the project"
    return path
