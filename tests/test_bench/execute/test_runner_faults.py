"""The runner's promises, one failure class at a time: every fault becomes the right status."""

from __future__ import annotations

import json
import time
from pathlib import Path

import bench
from bench.execute.limits import pids_with_command

SMALL = "edgematch/planted:n=4,seed=1"


def run(solver: str, faulty: str, **kw):
    return bench.solve(SMALL, solver, plugins=(faulty,), **kw)


def test_timeout_kills_a_solver_that_ignores_its_budget(faulty):
    start = time.monotonic()
    row = run("test-sleep", faulty, timeout=1.0)
    assert row["status"] == "timeout"
    assert 1.0 <= row["t_wall"] <= 3.0
    assert time.monotonic() - start < 20


def test_memout_kills_a_solver_that_allocates_past_its_budget(faulty):
    row = run("test-alloc", faulty, timeout=30, mem=400, mb=2000)
    assert row["status"] == "memout"
    # the watch saw it past 400 MB resident, or the kernel killed it at its group's limit first
    assert max(row["peak_rss_mb"], row.get("peak_cgroup_mb") or 0) > 400


def test_abort_is_a_crash_and_the_message_says_which_signal(faulty):
    row = run("test-abort", faulty, timeout=10)
    assert row["status"] == "crash"
    assert "SIGABRT" in row["message"]


def test_an_exception_is_an_error_with_its_message(faulty):
    row = run("test-raise", faulty, timeout=10)
    assert row["status"] == "error"
    assert "deliberate failure" in row["message"]


def test_a_corrupted_board_is_wrong(faulty):
    row = run("test-corrupt", faulty, timeout=10)
    assert row["status"] == "wrong"
    assert row["claimed"] == "solved"
    assert row["verified"] is False
    assert "used twice" in row["verdict"]


def test_infeasible_on_a_planted_instance_is_wrong(faulty):
    row = run("test-infeasible", faulty, timeout=10)
    assert row["status"] == "wrong"
    assert "known to have a solution" in row["verdict"]


def test_no_worker_is_left_behind(faulty):
    row = run("test-sleep", faulty, timeout=0.5)
    assert row["status"] == "timeout"
    # no worker (nor its guard) of this checkout's test plugin is alive anywhere: not in this
    # process's session, not in the worker's own (another checkout's tests running beside
    # these, from the same shell, have a plugin path of their own)
    assert pids_with_command(b"bench.execute.worker", faulty.encode()) == []


def test_what_a_killed_solver_left_in_its_temporary_folder_goes_with_it(faulty, tmp_path):
    report = tmp_path / "litter.txt"
    row = run("test-litter", faulty, timeout=1.0, report=str(report))
    assert row["status"] == "timeout"
    litter = Path(report.read_text())
    assert litter.parent.name.startswith("scratch"), litter  # the worker's own TMPDIR
    assert not litter.exists() and not litter.parent.exists()


def test_a_good_solver_is_solved_and_verified():
    row = bench.solve("edgematch/planted:n=5,hints=1,seed=2", "dfs-restarts", timeout=30)
    assert row["status"] == "solved"
    assert row["verified"] is True
    assert row["score"] == row["max_score"] == 40


MODULES_PLUGIN = '''
import sys

from bench.api import Outcome, solver


@solver("test-modules", family="edgematch", paradigm="native", backend="python")
def which_modules(instance, budget, seed):
    """Says whether the worker imported another solver's module (or numba) to run it."""
    return Outcome("unknown", counters={
        "cpsat_imported": "encoders.edgematch_cpsat" in sys.modules,
        "numba_imported": "numba" in sys.modules})
'''


def test_a_worker_imports_only_the_module_of_the_solver_it_runs(tmp_path):
    plugin = tmp_path / "modules_plugin.py"
    plugin.write_text(MODULES_PLUGIN)
    row = bench.solve(SMALL, "test-modules", plugins=(str(plugin),), timeout=30)
    assert row["status"] == "unknown", row["message"]
    assert json.loads(row["counters"]) == {"cpsat_imported": 0.0, "numba_imported": 0.0}


def test_a_guard_root_is_killed_without_being_stopped(monkeypatch):
    """The runner never stops a worker's guard: had the runner died between its freeze and its
    kill, a stopped guard would have held the frozen tree stopped forever (seen once in the
    chaos test that SIGKILLs ``cliffbench run`` at random moments)."""
    import signal
    import subprocess
    import sys

    from bench.execute import limits

    root = subprocess.Popen([sys.executable, "-c", "import subprocess, time; "
                             "subprocess.Popen(['sleep', '60']); time.sleep(60)"],
                            start_new_session=True)
    for _ in range(200):  # until its child is there
        if len(limits.run_processes(root.pid, limits.process_table())) >= 2:
            break
        time.sleep(0.02)
    members = limits.run_processes(root.pid, limits.process_table())
    assert len(members) >= 2
    sent: list[tuple[int, int]] = []
    real = limits._signal
    monkeypatch.setattr(limits, "_signal", lambda pid, sig: (sent.append((pid, sig)),
                                                             real(pid, sig)))
    limits.kill_tree(root.pid, freeze_root=False)
    root.wait(timeout=10)
    assert (root.pid, signal.SIGSTOP) not in sent
    assert any(sig == signal.SIGSTOP for pid, sig in sent if pid != root.pid)
    for _ in range(100):
        alive = [pid for pid in members if _running(pid)]
        if not alive:
            break
        time.sleep(0.05)
    assert not alive


def _running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return False
