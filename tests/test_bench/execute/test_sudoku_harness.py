"""Sudoku through the harness: workers found by entry points, one name in two families, the
uniqueness column, file specs of the reference sets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bench
from bench.execute.runner import available_cpus
from bench.plan.specs import resolve
from instances.sudoku import GENERATORS

from helpers import cliffbench

JOBS = min(2, len(available_cpus()))

TWO_FAMILIES = """
name = "two-families"
timeout = 30
mem = 3000
[[solver]]
name = "sat"
[[solver]]
name = "native"
[[ladder]]
name = "sudoku"
rungs = [ { label = "4x4", instances = ["sudoku/planted:box=2,clues=6,seed=1..2"] },
          { label = "9x9", instances = ["sudoku/planted:box=3,clues=24,seed=1..2"] } ]
[[ladder]]
name = "edgematch"
rungs = [ { label = "4", instances = ["edgematch/planted:n=4,seed=1"] } ]
"""


def test_one_suite_runs_sat_of_both_families_and_records_uniqueness(tmp_path):
    suite = tmp_path / "suite.toml"
    suite.write_text(TWO_FAMILIES)
    folder = bench.run(str(suite), results=tmp_path / "results", jobs=JOBS, progress=False)
    df = bench.load(folder)
    # sat meets 4 puzzles and 1 board, native only the 4 puzzles
    assert sorted(df.groupby(["family", "solver"]).size().items()) == [
        (("edgematch", "sat"), 1), (("sudoku", "native"), 4), (("sudoku", "sat"), 4)]
    assert set(df.status) == {"solved"} and df.verified.all()
    sudoku = df[df.family == "sudoku"]
    assert set(sudoku.solutions) == {"1"}
    assert df[df.family == "edgematch"].solutions.isna().all()
    assert {"p_clues_reached", "p_guesses", "s_encoding"} <= set(df.columns)


def test_solve_picks_the_solver_of_the_instance_family(tmp_path):
    gen = GENERATORS["planted"]({"box": 3, "clues": 26}, 3)
    path = tmp_path / "one.sdk"
    path.write_text(gen.instance.to_line() + "\n")
    out = json.loads(cliffbench("solve", str(path), "--solver", "xcc", "--json",
                                check=True).stdout)
    assert out["status"] == "solved" and out["counters"]["solutions"] == 1
    assert out["solution"]["grid"] == gen.secret.to_line()
    proc = cliffbench("solve", str(path), "--solver", "dfs-restarts")
    assert proc.returncode == 2 and "is for edgematch, the instance is sudoku" in proc.stderr


@pytest.mark.data
def test_the_reference_sets_read_as_sudoku(shared_data: Path):
    counts = {name: len(resolve(str(shared_data / "sudoku" / f"{name}.txt")))
              for name in ("easy50", "top95", "hardest", "top1465", "17clue_sample1000",
                           "forum_hardest_1905_11plus_sample1000")}
    assert counts == {"easy50": 50, "top95": 95, "hardest": 11, "top1465": 1465,
                      "17clue_sample1000": 1000, "forum_hardest_1905_11plus_sample1000": 1000}
    (ref,) = resolve(str(shared_data / "sudoku" / "17clue_sample1000.txt") + ":7")
    assert ref.instance.clues == 17 and ref.family == "sudoku"
