"""Shared fixtures: the misbehaving-solver plugin and the reference data folder.

The folders mirror the code: ``test_instances/`` (the families), ``test_searches/`` and
``test_encoders/`` (the solvers), ``test_bench/<layer>/`` (``plan``, ``data``, ``execute``,
``views``, ``cli``, ``conformance``); the project-wide checks (layers, README, docs, asv) are
here at the top. The folders are not named like the packages they test: ``tests/`` is on
``sys.path`` (for ``helpers``), where a folder ``bench/`` would shadow the package.

The data folder is the one the suites read (``bench.data.fetch.default_data_dir``):
``$CLIFFBENCH_DATA`` (a folder that does not exist hides the data: ``CLIFFBENCH_DATA=/nonexistent
pytest`` runs the tests as a fresh clone would), else ``../shared/data``, else the folder
``cliffbench data fetch`` filled. A test that needs it skips with a reason when there is none, and
when it fails on a registered file that this folder lacks (a folder fetched without a mirror has no
copy of the mirror-only files), it is reported as skipped, naming the file.

Run in parallel (pytest-xdist, ``-n 2 --dist loadgroup``), the tests are dealt to the workers a
group at a time (``group_of``): a module's tests together, and every module that compiles the
sliding-tile kernels (``KERNEL_MODULES``) in one group, so that no two workers compile the same
kernel. A test marked ``serial`` (every test of ``SERIAL_MODULES``, and those marked in their
module) runs alone: it waits for the other workers' current tests to end, and they start no test
until it and the serial tests that follow it on its worker have ended (``Turns``). Those are the
tests of limits, kills and classification under load (timeouts, memouts, overshoots, sweeps on two
cores) and those that look for processes machine-wide.
"""

from __future__ import annotations

import fcntl
import fnmatch
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from bench.data import fetch as data
from bench.data.fetch import default_data_dir
from bench.plan.registry import solver_index

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


# --- running in parallel (pytest-xdist) -----------------------------------------------------

#: Modules that compile the sliding-tile kernels (IDA*, A*, pattern databases): one group.
KERNEL_MODULES = {"test_asv_benchmarks.py", "test_fuzz_pdb.py", "test_tiles_pdb.py",
                  "test_tiles_pdb_encode.py", "test_tiles_pdb_search.py", "test_tiles_pdb_store.py",
                  "test_tiles_quotient.py", "test_tiles_search.py"}
#: Modules whose every test is ``serial``: limits and kills timed under load, sweeps on two
#: cores, Dask clusters, searches for processes machine-wide (chaos-orphan's, faulty workers).
SERIAL_MODULES = {"test_chaos.py", "test_dask_executor.py", "test_progress.py",
                  "test_runner_faults.py", "test_sweep.py"}


LOCKS_ENV = "CLIFFBENCH_TEST_LOCKS"  # the folder of the workers' lock files (``Turns``)


def pytest_configure(config: pytest.Config) -> None:
    """The ``serial`` mark; in the parent of a parallel run, the folder of the workers' locks.

    In the first process (the parent of a parallel run), before any test imports a solver
    module: the solver index, if it is not there yet. bench/plan/registry.py builds it in whatever
    process first needs it, and one that has imported a solver module already leaves that
    module's solvers out; whichever test came first (a worker's, in a parallel run) decided
    whether the command-line tests after it found ``cpsat`` and the figures their defaults."""
    config.addinivalue_line("markers", "serial: runs alone when the tests run in parallel "
                                       "(limits, kills and timings under load)")
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        solver_index()
    if in_parallel(config) and not os.environ.get("PYTEST_XDIST_WORKER"):
        os.environ[LOCKS_ENV] = tempfile.mkdtemp(prefix="cliffbench-tests-")


def pytest_unconfigure(config: pytest.Config) -> None:
    """A worker closes its lock files; the parent removes their folder."""
    while _TURNS:
        _TURNS.pop().close()
    if in_parallel(config) and not os.environ.get("PYTEST_XDIST_WORKER"):
        shutil.rmtree(os.environ.pop(LOCKS_ENV, ""), ignore_errors=True)


def in_parallel(config: pytest.Config) -> bool:
    """Whether this run deals its tests to xdist workers (``-n N`` with N > 0)."""
    return bool(config.pluginmanager.hasplugin("xdist") and getattr(config.option, "numprocesses",
                                                                    None))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of ``SERIAL_MODULES`` serial."""
    for item in items:
        if item.path.name in SERIAL_MODULES:
            item.add_marker(pytest.mark.serial)


def group_of(nodeid: str) -> str:
    """The group a test is dealt in: ``tiles-kernels`` for ``KERNEL_MODULES``, else its module."""
    module = nodeid.split("::", 1)[0]
    return "tiles-kernels" if Path(module).name in KERNEL_MODULES else module


@pytest.hookimpl(optionalhook=True)  # a hook of xdist's: none without it
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """With ``--dist loadgroup``, deal the tests a ``group_of`` at a time (xdist's own
    loadgroup reads ``xdist_group`` marks from node ids that pytest 9.2 no longer lets it
    rename: pytest-xdist issue 1386); any other ``--dist``, xdist's scheduler."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    return GroupScheduling(config, log)


class Turns:
    """A readers-writer lock across the xdist workers of one run, the writer first: ordinary
    tests share it, a serial test holds it alone. A serial test closes the gate (no ordinary
    test starts past it), then waits for the tests already running to end."""

    def __init__(self, folder: Path) -> None:
        self.gate = open(folder / "gate", "a+b")  # open for the session
        self.room = open(folder / "room", "a+b")
        self.alone = False

    def share(self) -> None:
        fcntl.flock(self.gate, fcntl.LOCK_SH)
        fcntl.flock(self.room, fcntl.LOCK_SH)
        fcntl.flock(self.gate, fcntl.LOCK_UN)

    def take(self) -> None:
        if not self.alone:
            fcntl.flock(self.gate, fcntl.LOCK_EX)
            fcntl.flock(self.room, fcntl.LOCK_EX)
            self.alone = True

    def leave(self) -> None:
        fcntl.flock(self.room, fcntl.LOCK_UN)
        fcntl.flock(self.gate, fcntl.LOCK_UN)
        self.alone = False

    def close(self) -> None:
        self.room.close()
        self.gate.close()


_TURNS: list[Turns] = []


def _turns() -> Turns | None:
    """This worker's ``Turns``, or None outside the workers of a parallel run."""
    folder = os.environ.get(LOCKS_ENV)
    if not folder or not os.environ.get("PYTEST_XDIST_WORKER"):
        return None
    if not _TURNS:
        _TURNS.append(Turns(Path(folder)))
    return _TURNS[0]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    """Setup, call and teardown of a serial test with no other test running; of any other test
    with no serial test running. A worker keeps the lock through a run of serial tests."""
    turns = _turns()
    if turns is None:
        return (yield)
    serial = item.get_closest_marker("serial") is not None
    if serial:
        turns.take()
    else:
        turns.share()
    try:
        return (yield)
    finally:
        if not serial or nextitem is None or nextitem.get_closest_marker("serial") is None:
            turns.leave()
