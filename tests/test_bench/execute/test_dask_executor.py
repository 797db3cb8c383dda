"""The Dask executors: the same seeded suite gives the same rows with ``local`` and with
``dask-local`` (all but timings, hosts and how limits were enforced); faults are classified the
same way and never take a Dask worker down; ``--executor dask --scheduler`` reaches a running
cluster."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import bench
from bench.execute.chaos import EXPECTED
from bench.execute.runner import available_cpus

from helpers import ROOT, cliffbench

distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed "
                                                        "(pip install 'cliffbench[dask]')")

JOBS = min(2, len(available_cpus()))
CHAOS = ROOT / "bench" / "execute" / "chaos.py"

SUITE = f"""
name = "same-rows"
timeout = 2
mem = 2000
early_abort = false
plugins = ["{CHAOS}"]
[[solver]]
name = "dfs-restarts"
[[solver]]
name = "cpsat"
[[solver]]
name = "native"
[[solver]]
name = "ida-manhattan"
[[solver]]
name = "alphabeta"
[[solver]]
name = "chaos-abort"
[[solver]]
name = "chaos-wrong"
[[solver]]
name = "chaos-hang"
[[solver]]
name = "chaos-orphan"
[[ladder]]
name = "faults"
solvers = ["chaos-abort", "chaos-wrong", "chaos-hang", "chaos-orphan"]
rungs = [ {{ label = "4", instances = ["edgematch/planted:n=4,seed=1..2"] }} ]
[[ladder]]
name = "edgematch"
solvers = ["dfs-restarts", "cpsat"]
generator = "edgematch/planted"
params = {{ border = 2, inner = 4 }}
vary = "n"
values = [3, 4, 5]
seeds = [1, 2]
[[ladder]]
name = "sudoku"
rungs = [ {{ label = "4x4", instances = ["sudoku/planted:box=2,clues=6,seed=1..2"] }},
          {{ label = "9x9", instances = ["sudoku/planted:box=3,clues=26,seed=1..2"] }} ]
[[ladder]]
name = "tiles"
rungs = [ {{ label = "8", instances = ["tiles/random:rows=3,cols=3,seed=1..2"] }} ]
[[ladder]]
name = "games"
rungs = [ {{ label = "trees", instances = ["games/tree:depth=4,arity=4,seed=1..2"] }},
          {{ label = "tictactoe", instances = ["games/tictactoe"] }} ]
"""

#: What may differ between executors: when and where a run happened and what it cost (the
#: times inside counters, messages and score traces are set aside below).
VOLATILE = {"started_at", "t_wall", "t_cpu", "t_prepare", "t_encode", "t_solve", "peak_rss_mb",
            "peak_cgroup_mb",
            "host", "limits", "sweep"}


def _untimed(counters: object) -> object:
    """A run's counters without the solver's own clock readings (CP-SAT's wall_time)."""
    if not isinstance(counters, str):
        return counters
    return {k: v for k, v in json.loads(counters).items() if "time" not in k}


def _table(tmp_path, executor: str):
    suite = tmp_path / "same.toml"
    suite.write_text(SUITE)
    folder = bench.run(str(suite), results=tmp_path / executor, jobs=JOBS, executor=executor,
                       progress=False)
    return bench.load(folder).sort_values("key").reset_index(drop=True)


def test_local_and_dask_local_give_the_same_rows(tmp_path):
    local = _table(tmp_path, "local")
    dask = _table(tmp_path, "dask-local")
    assert len(local) == len(dask) == 33
    assert list(local.key) == list(dask.key)
    same = sorted(set(local.columns) - VOLATILE)
    for table in (local, dask):
        table["counters"] = table["counters"].astype(object).map(_untimed)
        table["score_trace"] = table["score_trace"].astype(object).map(
            lambda trace: [score for _, score in json.loads(trace)] if isinstance(trace, str)
            else trace)
        table["message"] = table["message"].str.replace(r"killed at [0-9.]+ s", "killed at T s",
                                                        regex=True)
    for column in same:
        pd.testing.assert_series_equal(local[column], dask[column], obj=column)
    faults = dask[dask.solver.isin(list(EXPECTED))]
    assert (faults.status == faults.solver.map(EXPECTED)).all()
    assert set(dask.status) >= {"solved", "crash", "wrong", "timeout", "unknown"}
    assert dask.limits.str.startswith("executor dask-local").all()
    assert local.limits.str.startswith("executor local").all()


def test_a_crash_or_a_kill_never_takes_a_dask_worker_down(tmp_path):
    from distributed import Client, LocalCluster

    from bench.execute.dask_executor import DaskRunner
    from bench.execute.runner import LadderScheduler
    from bench.execute.sweep import prepare_sweep

    suite = tmp_path / "faults.toml"
    suite.write_text(SUITE.replace('"chaos-orphan"', '"chaos-segfault"'))
    _, tasks = prepare_sweep(str(suite), solvers=["chaos-abort", "chaos-segfault",
                                                  "chaos-hang"])
    assert len(tasks) == 6
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, memory_limit=0,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        before = {w["id"]: w["pid"] if "pid" in w else None
                  for w in client.scheduler_info()["workers"].values()}
        pids = set(client.run(lambda: __import__("os").getpid()).values())
        rows: list[dict] = []
        DaskRunner(client, (str(CHAOS),), tmp_path / "workers").run(
            LadderScheduler(tasks, {}, float("inf")), "faults", rows.append)
        assert set(client.run(lambda: __import__("os").getpid()).values()) == pids
        assert len(client.scheduler_info()["workers"]) == len(before)
    assert len(rows) == len(tasks)
    assert {r["status"] for r in rows if r["solver"] != "chaos-hang"} == {"crash"}
    assert {r["status"] for r in rows if r["solver"] == "chaos-hang"} == {"timeout"}


def test_executor_dask_reaches_a_running_scheduler(tmp_path):
    from distributed import LocalCluster

    suite = tmp_path / "small.toml"
    suite.write_text(SUITE)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, memory_limit=0,
                      dashboard_address=None) as cluster:
        done = cliffbench("run", str(suite), "--solvers", "dfs-restarts,chaos-wrong",
                          "--executor", "dask", "--scheduler", cluster.scheduler_address,
                          "--results", str(tmp_path / "r"), "--no-figures", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    table = bench.load(tmp_path / "r" / "same-rows")
    assert len(table) == 8
    assert set(table.status) == {"solved", "wrong"}
    assert table.limits.str.startswith("executor dask;").all()


def test_scheduler_without_dask_executor_is_refused(tmp_path):
    done = cliffbench("run", "quick", "--scheduler", "tcp://nowhere:1", "--results",
                      str(tmp_path), cwd=ROOT)
    assert done.returncode != 0
    assert "--scheduler" in done.stderr and "Traceback" not in done.stderr


def test_a_first_run_compilation_note_reaches_the_progress_from_dask(tmp_path, monkeypatch,
                                                                    capsys):
    """The worker's note travels as a Dask event from the Dask worker to the progress line."""
    from test_progress import NOOP_SUITE, PREPARED_PLUGIN

    name = "test-prepared-dask"
    plugin = tmp_path / "prepared_plugin.py"
    plugin.write_text(PREPARED_PLUGIN.format(name=name))
    for var, value in (("NUMBA_CACHE_DIR", tmp_path / "numba"), ("XDG_CACHE_HOME",
                       tmp_path / "xdg"), ("PREPARE_LOG", tmp_path / "prepare.log"),
                       ("PREPARE_SLEEP", "1.0")):
        monkeypatch.setenv(var, str(value))
    suite = tmp_path / "suite.toml"
    suite.write_text(NOOP_SUITE.format(name="notes", solver=name, delay=0, count=2))
    folder = bench.run(str(suite), plugins=(str(plugin),), results=tmp_path / "r", jobs=1,
                       executor="dask-local")
    assert len(bench.load(folder)) == 2
    assert f"compiling edgematch/{name} (first run on this machine)" in capsys.readouterr().err
