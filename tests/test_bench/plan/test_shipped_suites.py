"""Every shipped suite parses and expands to runs of registered solvers; the official clue
puzzles are solved and checked by four paradigms. A suite that reads the reference data (its
``{data_dir}/...`` specs) skips, naming the data folder, when the folder or the files it names
are absent."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest

import bench
from bench.data.fetch import FILES, absent_reason, default_data_dir, suite_patterns
from bench.execute.sweep import prepare_sweep
from bench.plan.suite import SUITES_DIR


def data_for(name: str) -> Path | None:
    """The data folder for suite ``name`` (None when it reads none); skips the test when the
    folder is absent or lacks a file the suite names."""
    patterns = suite_patterns()[name]
    if not patterns:
        return None
    folder = default_data_dir()
    if folder is None:
        pytest.skip(f"suite {name} reads the reference data: {absent_reason()}")
    absent = [p for p in patterns if not any(folder.glob(p))]
    if absent:
        mirror_only = any(e.origin == "mirror" for path, e in FILES.items()
                          if fnmatch.fnmatchcase(path, absent[0]))
        how = "cliffbench data fetch" + (" --mirror URL" if mirror_only else "")
        pytest.skip(f"suite {name} reads {absent[0]}, absent from the data folder {folder} "
                    f"(`{how}`)")
    return folder


def test_the_suites_that_read_data_are_found():
    """The scan finds the suites known to read reference files (it cannot silently miss all)."""
    reading = {name for name, patterns in suite_patterns().items() if patterns}
    assert {"games-known", "paper", "korf100", "sudoku-shootout"} <= reading
    assert "quick" not in reading


@pytest.mark.parametrize("name", sorted(p.stem for p in SUITES_DIR.glob("*.toml")))
def test_shipped_suite_expands(name):
    suite, tasks = prepare_sweep(name, data_dir=data_for(name))
    assert tasks, name
    assert len({t.key for t in tasks}) == len(tasks)
    assert suite.timeout > 0 and suite.mem > 0


def test_shared_ladder_has_the_32_boards():
    suite, tasks = prepare_sweep("edgematch-shared-ladder",
                                 data_dir=data_for("edgematch-shared-ladder"))
    boards = {t.ref.instance_id for t in tasks}
    assert len(boards) == 32
    assert all(t.ref.generated.feasible for t in tasks)
    assert [r.label for r in suite.ladders[0].rungs] == ["8", "10", "12", "14"]


@pytest.mark.data
@pytest.mark.parametrize("clue", [1, 2, 3, 4])
@pytest.mark.parametrize("solver", ["dfs-restarts", "cpsat", "sat", "xcc"])
def test_official_clue_puzzles_by_four_paradigms(shared_data, clue, solver):
    row = bench.solve(str(shared_data / "edgematch" / "clues" / f"clue{clue}.emp"), solver,
                      timeout=60)
    assert row["status"] == "solved", row["message"] or row["verdict"]
    assert row["verified"] and row["score"] == row["max_score"]


@pytest.mark.data
@pytest.mark.parametrize("solver", ["dfs-restarts", "dfs-breaks", "cpsat", "sat", "xcc",
                                    "ilp-highs", "ilp-cbc", "clique"])
def test_eternity_ii_loads_and_every_solver_runs_or_refuses(shared_data, solver):
    """On the official 256-piece board every solver either searches until its budget ends or
    refuses with a reason (the clique graph would have ~10^10 edges); none errs or lies."""
    board = shared_data / "edgematch" / "eternity2" / "eternity2_5hints.emp"
    row = bench.solve(str(board), solver, timeout=3, mem=3000)
    assert row["status"] in ("unknown", "timeout"), (row["status"], row["message"])
    if solver == "clique":
        assert '"refused_edges"' in row["counters"]
    if row["solution"]:
        assert row["verified"] is True
