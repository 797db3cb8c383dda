"""Every shipped suite parses and expands to runs of registered solvers; the official clue
puzzles are solved and checked by four paradigms."""

from __future__ import annotations

import pytest

import bench
from bench.suite import SUITES_DIR
from bench.sweep import prepare_sweep

NEEDS_DATA = {"edgematch-shared-ladder", "sudoku-seed", "sudoku-shootout", "korf100",
              "korf24-easy"}


@pytest.mark.parametrize("name", sorted(p.stem for p in SUITES_DIR.glob("*.toml")))
def test_shipped_suite_expands(name, request):
    data = None
    if name in NEEDS_DATA:
        data = request.getfixturevalue("shared_data")
    suite, tasks = prepare_sweep(name, data_dir=data)
    assert tasks, name
    assert len({t.key for t in tasks}) == len(tasks)
    assert suite.timeout > 0 and suite.mem > 0


def test_shared_ladder_has_the_32_boards(shared_data):
    suite, tasks = prepare_sweep("edgematch-shared-ladder", data_dir=shared_data)
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
