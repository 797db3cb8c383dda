"""Issue 18 point 4: a run's process tree in a control group of its own (bench/execute/cgroups.py).

The group's own promises first (CPU time of processes nobody waits for, a kill that reaches a
process that left the session and ignores SIGTERM, the kernel's memory limit and its count, the
peak), then the harness's: the row names the mechanism, a kernel kill at the limit is a
``memout`` even when the resident-size watch never looked, a program's orphan's CPU counts in
``t_cpu``, and ``CLIFFBENCH_LIMITS=process`` chooses the process-tree mechanism. Skipped where
this process cannot make a control group (not root, no delegated cgroup v2 subtree).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

import pytest

import bench
import bench.execute.slot as slot_module
from bench.execute.cgroups import ENV_CHOICE, PREFIX, open_group

from helpers import FAULTY

SMALL = "edgematch/planted:n=4,seed=1"
PLANTED = "latin/qwh:order=7,fraction=0.5,seed=3"


def _probe() -> str:
    group = open_group("probe")
    if group is None:
        return ""
    group.remove()
    return group.mechanism


MECHANISM = _probe()
pytestmark = pytest.mark.skipif(
    not MECHANISM, reason="this process cannot make a control group with memory and CPU "
                          "counters here (root with cgroup v1 memory and cpuacct, or a "
                          "delegated cgroup v2 subtree, is needed)")


@pytest.fixture
def group():
    made = open_group("test")
    assert made is not None
    yield made
    made.remove()


def start_in(group, code: str, **popen) -> subprocess.Popen:
    """A Python process that joins ``group`` first, then runs ``code``."""
    prologue = (f"from bench.execute.cgroups import join\njoin({group.procs_files()!r})\n")
    return subprocess.Popen([sys.executable, "-c", prologue + textwrap.dedent(code)], **popen)


def test_the_group_counts_the_cpu_of_a_process_nobody_waits_for(group):
    """A double fork: the spinning grandchild is nobody's waited-for child."""
    before = group.cpu_seconds()
    proc = start_in(group, """
        import os, time
        if os.fork() == 0:
            if os.fork() == 0:
                end = time.process_time() + 0.4
                while time.process_time() < end:
                    pass
            os._exit(0)
    """)
    proc.wait()
    deadline = time.monotonic() + 10
    while group.pids() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not group.pids()
    assert group.cpu_seconds() - before >= 0.35


def test_the_kill_ends_a_process_that_left_the_session_and_ignores_sigterm(group):
    proc = start_in(group, """
        import os, signal, subprocess, sys, time
        subprocess.Popen([sys.executable, "-c",
                          "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                          "time.sleep(600)"], start_new_session=True)
        time.sleep(600)
    """)
    deadline = time.monotonic() + 10
    while len(group.pids()) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    members = group.pids()
    assert len(members) == 2 and proc.pid in members
    assert group.kill() >= 2
    proc.wait(timeout=10)
    assert not group.pids()
    group.remove()
    assert not any(folder.exists() for folder in group.dirs)


def test_the_kernel_kills_past_the_limit_and_counts_it(group):
    group.set_memory_limit(100)  # + HEADROOM_MB
    group.reset_peak()
    before = group.oom_kills()
    proc = start_in(group, """
        blocks = [bytearray(20 * 1024 * 1024) for _ in range(40)]
    """)
    assert proc.wait(timeout=30) == -9
    assert group.oom_kills() == before + 1
    assert group.peak_mb() >= 100


def test_the_peak_starts_afresh_at_each_reset(group):
    """The reset waits for the child's word that the blocks are freed, not for the peak alone:
    the peak reaches 200 MB before ``del`` runs, and a reset then would keep the blocks."""
    proc = start_in(group, """
        import time
        blocks = [bytearray(10 * 1024 * 1024) for _ in range(20)]
        del blocks
        print("freed", flush=True)
        time.sleep(600)
    """, stdout=subprocess.PIPE)
    assert proc.stdout.readline().strip() == b"freed"
    assert group.peak_mb() >= 200
    if group.reset_peak():  # v1, or v2 on Linux 6.12 and later
        assert group.peak_mb() < 150
    group.kill()
    proc.wait(timeout=10)
    proc.stdout.close()


def test_a_row_names_the_control_group_that_held_its_limits():
    row = bench.solve(SMALL, "dfs-restarts", timeout=10)
    assert row["status"] == "solved"
    assert row["limits_by"] == MECHANISM
    assert MECHANISM in row["limits"] and "kernel memory limit" in row["limits"]
    assert row["peak_cgroup_mb"] > 0 and row["t_cpu"] > 0


def test_a_kill_at_the_kernel_limit_is_a_memout_when_the_watch_never_looked(monkeypatch):
    monkeypatch.setattr(slot_module.Slot, "watch_memory", lambda self, table: None)  # no watch
    row = bench.solve(SMALL, "test-alloc", plugins=(str(FAULTY),), timeout=30, mem=300,
                      mb=2000)
    assert row["status"] == "memout", row
    assert "the kernel killed" in row["message"] and MECHANISM in row["message"]
    assert row["peak_cgroup_mb"] >= 300


def test_the_cpu_of_a_programs_unwaited_child_counts_in_t_cpu(tmp_path):
    """The program forks a child that spins 0.5 s of CPU and never waits for it (it only reads
    a pipe the child writes when done, however long the machine's load makes that): only the
    group's counter sees that time (the worker's rusage counts waited-for children only)."""
    program = tmp_path / "spinner.py"
    program.write_text(textwrap.dedent("""
        import os, time
        done_r, done_w = os.pipe()
        if os.fork() == 0:
            end = time.process_time() + 0.5
            while time.process_time() < end:
                pass
            os.write(done_w, b"done")
            os._exit(0)
        os.read(done_r, 4)
        print("s UNKNOWN")
    """))
    tools = tmp_path / "spinner.toml"
    tools.write_text(f'''[[tool]]
name = "spinner"
executable = {sys.executable!r}
paradigm = "sat"
input = "cnf"
output = "sat-competition"
command = ["{{executable}}", {str(program)!r}, "{{input}}"]
sources = ["encoders.latin_sat:latin/sat"]
''')
    row = bench.solve(PLANTED, "latin/spinner", plugins=(str(tools),), timeout=10)
    assert row["status"] == "unknown", row
    assert row["limits_by"] == MECHANISM
    assert row["t_cpu"] >= 0.45


def test_the_process_tree_mechanism_by_choice(monkeypatch):
    monkeypatch.setenv(ENV_CHOICE, "process")
    row = bench.solve(SMALL, "dfs-restarts", timeout=10)
    assert row["status"] == "solved"
    assert row["limits_by"] == "process-tree"
    assert row["peak_cgroup_mb"] is None or row["peak_cgroup_mb"] != row["peak_cgroup_mb"]
    assert "RLIMIT_AS backstop" in row["limits"]


def test_an_empty_group_of_a_harness_that_died_is_removed_at_the_next_open(group):
    """A harness killed by SIGKILL cannot remove its groups; the next one does."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = [folder.parent / f"{PREFIX}{dead.pid}-0-0" for folder in group.dirs]
    for folder in stale:
        folder.mkdir()
    again = open_group("again")
    try:
        assert not any(folder.exists() for folder in stale)
    finally:
        again.remove()


def test_a_worker_that_failed_before_its_first_run_started_is_still_alive_for_the_next(tmp_path):
    """A result that comes before any run started (a solver the worker does not know) ends no
    process of the group but what the run left: the worker and its guard serve the next run."""
    from bench.execute.slot import Slot, run_one
    from bench.plan.specs import resolve_one

    instance = resolve_one(SMALL).instance.to_json()
    payload = {"solver": "edgematch/dfs-restarts", "params": {}, "instance": instance,
               "seed": 1, "budget_s": 10.0, "mem_mb": 2000, "cores": 1}
    slot = Slot(index="t", cpus=[], plugins=[], log_dir=tmp_path)
    try:
        bad = run_one(slot, {**payload, "id": 1, "solver": "edgematch/no-such-solver"})
        assert bad["kind"] == "error" and bad["limits_by"] == MECHANISM
        good = run_one(slot, {**payload, "id": 2})
        assert good["kind"] == "outcome" and good["claimed"] == "solved", good
    finally:
        slot.stop()


def test_the_limit_follows_each_runs_budget_up_and_down(group):
    """cgroup v1 keeps memory plus swap at or above memory at every step."""
    for budget in (500, 2000, 300, 1000):
        group.set_memory_limit(budget)
        name = "memory.limit_in_bytes" if group.version == 1 else "memory.max"
        assert int((group.memory / name).read_text()) == (budget + 64) * 1024 * 1024


def test_a_worker_holding_more_than_the_next_runs_limit_is_replaced(tmp_path):
    """A run of 2000 MB leaves its worker holding 600 MB; the next run's budget is 300 MB: the
    kernel refuses that limit on the old group, so the run gets a fresh worker."""
    from bench.execute.slot import Slot, run_one
    from bench.plan.registry import load_plugin
    from bench.plan.specs import resolve_one

    load_plugin(FAULTY)
    instance = resolve_one(SMALL).instance.to_json()
    payload = {"params": {}, "instance": instance, "seed": 1, "cores": 1}
    slot = Slot(index="r", cpus=[], plugins=[str(FAULTY)], log_dir=tmp_path)
    try:
        held = run_one(slot, {**payload, "id": 1, "solver": "edgematch/test-hold",
                              "budget_s": 10.0, "mem_mb": 2000})
        assert held["kind"] == "outcome", held
        first = slot.proc.pid
        good = run_one(slot, {**payload, "id": 2, "solver": "edgematch/dfs-restarts",
                              "budget_s": 10.0, "mem_mb": 300})
        assert good["kind"] == "outcome" and good["claimed"] == "solved", good
        assert slot.proc.pid != first
    finally:
        slot.stop()
