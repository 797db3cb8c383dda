"""Shared fixtures: the misbehaving-solver plugin and the reference data folder.

The data folder is the one the suites read (``bench.specs.default_data_dir``): ``$CLIFFBENCH_DATA``
(a folder that does not exist hides the data: ``CLIFFBENCH_DATA=/nonexistent pytest`` runs the
tests as a fresh clone would), else ``../shared/data``, else the folder ``cliffbench data fetch``
filled. A test that needs it skips with a reason when there is none, and when it fails on a
registered file that this folder lacks (a folder fetched without a mirror has no copy of the
mirror-only files), it is reported as skipped, naming the file.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

import pytest

from bench import data
from bench.specs import default_data_dir

from helpers import FAULTY


@pytest.fixture
def shared_data() -> Path:
    found = default_data_dir()
    if found is None:
        pytest.skip(data.absent_reason())
    return found


def missing_files_named(text: str, folder: Path) -> list[str]:
    """The registered files absent from ``folder`` that ``text`` (an error) names by their path
    or by a glob pattern such as ``games/*.tsv``."""
    missing = [path for path in data.FILES if not (folder / path).is_file()]
    patterns = [p for p in re.findall(r"[\w./-]*\*[\w.*/-]*", text) if "/" in p]
    return [path for path in missing
            if path in text or any(fnmatch.fnmatchcase(path, p) for p in patterns)]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """A test on the data folder that fails on a registered file the folder lacks is skipped,
    naming the file (any other failure stays a failure)."""
    try:
        return (yield)
    except Exception as exc:
        folder = getattr(item, "funcargs", {}).get("shared_data")
        named = missing_files_named(f"{exc} {getattr(exc, 'filename', '')}",
                                    Path(folder)) if folder else []
        if not named:
            raise
        how = ("only a mirror of the data folder has it: `cliffbench data fetch --mirror URL`"
               if data.FILES[named[0]].origin == "mirror" else "`cliffbench data fetch` gets it")
        pytest.skip(f"reference file {named[0]} is absent from {folder} ({how})")


@pytest.fixture
def faulty() -> str:
    return str(FAULTY)
