"""Sweeps: the run grid, ladders that stop climbing, the journal, resuming after a kill."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import bench
from bench.execute.limits import pids_with_command
from bench.execute.runner import available_cpus
from bench.table.journal import Journal

from helpers import FAULTY, ROOT, cliffbench

#: Two workers where the machine (or its affinity mask) gives two cores, else one.
JOBS = min(2, len(available_cpus()))

LADDER_SUITE = """
name = "ladder-test"
timeout = 20
mem = 3000
[[solver]]
name = "dfs-restarts"
[[solver]]
name = "test-raise"
[[ladder]]
name = "tiny"
generator = "edgematch/planted"
params = { border = 2, inner = 4 }
vary = "n"
values = [3, 4, 5]
seeds = [1, 2]
"""

NOOP_SUITE = """
name = "noop"
timeout = 10
mem = 2000
[[solver]]
name = "test-noop"
params = {{ delay = {delay} }}
[[ladder]]
name = "flat"
rungs = [ {{ label = "4", instances = ["edgematch/planted:n=4,seed=1..{count}"] }} ]
"""


def write(tmp_path: Path, text: str, name: str = "suite.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_ladder_climbs_and_stops_with_skipped_rows(tmp_path, faulty):
    suite = write(tmp_path, LADDER_SUITE)
    folder = bench.run(str(suite), plugins=(faulty,), results=tmp_path / "results", jobs=JOBS,
                       progress=False)
    df = bench.load(folder)
    assert len(df) == 12  # 2 solvers x 3 rungs x 2 seeds, none lost
    dfs = df[df.solver == "dfs-restarts"]
    assert set(dfs.status) == {"solved"}
    assert dfs.verified.all()
    raised = df[df.solver == "test-raise"].sort_values("rung_index")
    assert list(raised.status) == ["error", "error", "skipped", "skipped", "skipped", "skipped"]
    assert raised.message.iloc[-1].startswith("ladder stopped climbing: test-raise solved 0/2")
    assert (folder / "manifest.json").exists()
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["runs_planned"] == 12 and manifest["ended_at"]
    assert manifest["schema_version"] >= 1 and "git_commit" in manifest
    assert df.p_n.tolist().count(3) == 4
    assert {"s_restart_unit", "p_seed", "p_border_colors"} <= set(df.columns)


def test_ladder_without_early_abort_runs_every_rung(tmp_path, faulty):
    text = LADDER_SUITE.replace("timeout = 20", "timeout = 20\nearly_abort = false")
    suite = write(tmp_path, text)
    folder = bench.run(str(suite), plugins=(faulty,), results=tmp_path / "results", jobs=JOBS,
                       progress=False, solvers=["test-raise"])
    df = bench.load(folder)
    assert list(df.sort_values("rung_index").status) == ["error"] * 6


def test_a_sweep_already_running_is_not_run_twice(tmp_path):
    """A second ``cliffbench run`` of a sweep that is still running is refused (it would run
    the pending tasks again and journal them twice), and the lock goes with the process."""
    from bench.execute.sweep import sweep_lock
    from bench.plan.suite import SuiteError

    with sweep_lock(tmp_path, "busy"):
        with pytest.raises(SuiteError, match=r"being run by another cliffbench \(pid \d+\)"):
            with sweep_lock(tmp_path, "busy"):
                pass
        holder = subprocess.run(
            [sys.executable, "-c", "import sys; from pathlib import Path; "
             "from bench.execute.sweep import sweep_lock; "
             "sweep_lock(Path(sys.argv[1]), 'busy').__enter__()", str(tmp_path)],
            capture_output=True, text=True, cwd=ROOT)
        assert holder.returncode != 0 and "being run by another" in holder.stderr
    with sweep_lock(tmp_path, "busy"):  # released
        pass


def test_early_abort_must_be_a_boolean(tmp_path):
    from bench.plan.suite import SuiteError, load_suite

    suite = write(tmp_path, LADDER_SUITE.replace("timeout = 20", "timeout = 20\nearly_abort = 0"))
    with pytest.raises(SuiteError, match="early_abort"):
        load_suite(str(suite))


def test_a_finished_sweep_refuses_to_run_again_without_resume(tmp_path, faulty):
    suite = write(tmp_path, NOOP_SUITE.format(delay=0.0, count=3))
    results = tmp_path / "results"
    bench.run(str(suite), plugins=(faulty,), results=results, progress=False)
    with pytest.raises(ValueError, match="--resume"):
        bench.run(str(suite), plugins=(faulty,), results=results, progress=False)
    folder = bench.run(str(suite), plugins=(faulty,), results=results, progress=False,
                       resume=True)
    assert len(bench.load(folder)) == 3  # nothing ran twice


def test_a_cut_journal_line_is_repaired_with_a_warning(tmp_path):
    journal = Journal(tmp_path / "journal.jsonl")
    journal.append({"key": "a", "status": "solved"})
    journal.append({"key": "b", "status": "unknown"})
    journal.close()
    with open(journal.path, "ab") as fh:
        fh.write(b'{"key": "c", "sta')
    with pytest.warns(UserWarning, match="cut mid-write"):
        rows = journal.read()
    assert [r["key"] for r in rows] == ["a", "b"]
    assert journal.path.read_bytes().endswith(b"}\n")
    assert [r["key"] for r in Journal(journal.path).read()] == ["a", "b"]


def _workers_alive() -> list[int]:
    return pids_with_command(b"bench.execute.worker", b"faulty.py")


def _journal_rows(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


def test_sigkill_and_resume_yield_every_key_exactly_once(tmp_path):
    """Kill the parent mid-sweep three times (each once a few more rows are journaled), then
    resume to the end: every key exactly once, no worker left behind."""
    count = 60
    suite = write(tmp_path, NOOP_SUITE.format(delay=0.1, count=count))
    results = tmp_path / "results"
    journal = results / "noop" / "journal.jsonl"
    args = [sys.executable, "-m", "bench.cli", "run", str(suite), "--plugin", str(FAULTY),
            "--results", str(results), "--jobs", str(JOBS)]
    for _ in range(3):
        before = _journal_rows(journal)
        proc = subprocess.Popen(args + ["--resume"], cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while _journal_rows(journal) < before + 4 and time.monotonic() < deadline:
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 10
    while _workers_alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _workers_alive() == [], "workers outlived their killed parent"
    partial = Journal(journal).read()
    assert 12 <= len(partial) < count
    done = cliffbench("run", str(suite), "--plugin", str(FAULTY), "--results", str(results),
                      "--resume", cwd=ROOT, check=True)
    assert "test-noop" in done.stdout
    df = bench.load(results / "noop")
    assert len(df) == count
    assert df.key.is_unique
    assert set(df.status) == {"unknown"}


def test_parquet_table_has_the_schema(tmp_path, faulty):
    from bench.table.schema import COLUMNS

    suite = write(tmp_path, NOOP_SUITE.format(delay=0.0, count=2))
    folder = bench.run(str(suite), plugins=(faulty,), results=tmp_path / "r", progress=False)
    df = pd.read_parquet(folder / "runs.parquet")
    assert list(df.columns[: len(COLUMNS)]) == list(COLUMNS)
    assert df.t_wall.notna().all() and (df.t_wall < 1).all()
    assert (df.budget_s == 10).all() and (df.cores == 1).all()
