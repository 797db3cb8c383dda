"""Shared fixtures: the misbehaving-solver plugin and the reference data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import FAULTY, data_dir


@pytest.fixture
def shared_data() -> Path:
    found = data_dir()
    if found is None:
        pytest.skip("reference data ../shared/data is absent (set CLIFFBENCH_DATA to use it)")
    return found


@pytest.fixture
def faulty() -> str:
    return str(FAULTY)
