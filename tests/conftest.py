"""Shared test fixtures: where the real data files are."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
REALDATA = REPO.parent / "shared" / "realdata"


@pytest.fixture(scope="session")
def realdata() -> Path:
    """../shared/realdata: real files written by other programs (never copied into the repo).

    Their absence is a failure, not a skip: CI runs with shared/ beside the clone.
    """
    assert REALDATA.is_dir(), f"real data files not found at {REALDATA}"
    return REALDATA
