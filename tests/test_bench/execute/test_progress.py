"""What a sweep shows while it runs, and compiling once per machine: the plain progress lines off
a terminal (every interval, every step of the runs, the estimate from run times only), the
resume message, the prepare lock and stamp, and the 'compiling' note on its way from a worker
to the progress line."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

import bench
import bench.execute.sweep
from bench.execute.runner import LadderScheduler, available_cpus
from bench.execute.sweep import Progress, prepare_sweep
from bench.execute.worker import prepare_key

from helpers import ROOT

NOOP_SUITE = """
name = "{name}"
timeout = 10
mem = 2000
[[solver]]
name = "{solver}"
params = {{ delay = {delay} }}
[[ladder]]
name = "flat"
rungs = [ {{ label = "4", instances = ["edgematch/planted:n=4,seed=1..{count}"] }} ]
"""

#: A solver whose prepare() compiles a numba kernel, logging when it starts and ends and
#: whether numba compiled the kernel or loaded it from its cache. Each test names its own (the
#: registry of this process keeps every solver a test's plugin file registered).
PREPARED_PLUGIN = '''
import os
import time

from numba import njit

from bench.api import Outcome, Param, solver


@njit(cache=True)
def kernel(x):
    return x + 1


def log(text):
    with open(os.environ["PREPARE_LOG"], "a") as fh:
        fh.write(f"{{text}} {{os.getpid()}} {{time.time():.6f}}\\n")


def prepare():
    log("start")
    time.sleep(float(os.environ.get("PREPARE_SLEEP", "0")))
    kernel(1)
    log("hit" if kernel.stats.cache_hits else "miss")


@solver("{name}", family="edgematch", paradigm="native", backend="numba-test",
        prepare=prepare, params=[Param("delay", 0.0, min=0.0)])
def solve(instance, budget, seed, delay):
    time.sleep(delay)
    return Outcome("unknown")
'''


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def row(status: str = "solved", t_wall: float | None = 1.0) -> dict:
    return {"status": status, "t_wall": t_wall}


def lines_progress(total: int, done: list[dict] | None = None, workers: int = 2):
    stream, clock = io.StringIO(), FakeClock()
    progress = Progress("s", total, done or [], workers, "lines", stream=stream, clock=clock)
    return progress, stream, clock


def printed(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


# -- the progress lines ------------------------------------------------------------------------


def test_off_a_terminal_a_line_each_step_of_the_runs():
    progress, stream, _ = lines_progress(40)  # a step is 5%: 2 runs
    try:
        assert printed(stream) == ["s: 40 runs on 2 worker(s)"]
        progress.update(row())
        assert len(printed(stream)) == 1
        progress.update(row("timeout", 11.0))
        assert printed(stream)[-1].startswith("s: 2/40 runs (5%), under 1 s elapsed | ")
        assert "solved 1, timeout 1" in printed(stream)[-1] or \
            "timeout 1, solved 1" in printed(stream)[-1]
    finally:
        progress.close()


def test_off_a_terminal_a_line_every_interval_even_without_runs():
    progress, stream, clock = lines_progress(10)
    try:
        clock.now += bench.execute.sweep.LINE_INTERVAL_S - 1
        progress.tick()
        assert len(printed(stream)) == 1
        clock.now += 1
        progress.tick()
        assert printed(stream)[-1] == "s: 0/10 runs (0%), 30 s elapsed | time left unknown"
        progress.tick()
        assert len(printed(stream)) == 2
    finally:
        progress.close()


def test_the_estimate_is_from_run_times_only():
    """Two runs of 4 s on two workers: 38 runs left take 76 s, however long the workers spent
    compiling before them."""
    progress, stream, clock = lines_progress(40)
    try:
        progress.note(["compiling tiles/ida-lc (first run on this machine)"])
        clock.now += 120  # two minutes of compilation
        progress.update(row(t_wall=4.0))
        assert progress.eta_text() == "about 1 min 18 s of runs left, plus compiling"
        progress.note([])
        progress.update(row(t_wall=4.0))
        assert printed(stream)[-1].endswith("| solved 2 | about 1 min 16 s left")
        progress.update(row("skipped", None))  # a skipped run takes no time
        assert progress.eta() == pytest.approx(37 * 4.0 / 2)
    finally:
        progress.close()


def test_a_compiling_note_is_printed_at_once_and_in_each_line():
    progress, stream, clock = lines_progress(100)
    note = "compiling tiles/ida-lc (first run on this machine)"
    try:
        progress.note([note])
        assert printed(stream)[-1].endswith(f"| {note}")
        progress.note([note])  # the same note again: no new line
        assert len(printed(stream)) == 2
        clock.now += bench.execute.sweep.LINE_INTERVAL_S
        progress.tick()
        assert printed(stream)[-1].endswith(f"| {note}") and len(printed(stream)) == 3
    finally:
        progress.close()


def test_a_resume_says_what_is_done_and_what_remains():
    progress, stream, _ = lines_progress(10, [row(t_wall=2.0)] * 3 + [row("skipped", None)])
    try:
        assert printed(stream) == ["s: resuming: 4 of 10 runs already done, 6 to run"]
        assert progress.eta() == pytest.approx(6 * 2.0 / 2)  # from the journal's run times
    finally:
        progress.close()
    assert printed(stream)[-1].startswith("s: 4/10 runs (40%)")


def test_quiet_prints_nothing():
    stream = io.StringIO()
    progress = Progress("s", 3, [row()], 1, "quiet", stream=stream)
    progress.update(row())
    progress.note(["compiling x (first run on this machine)"])
    progress.close()
    assert stream.getvalue() == ""


def test_a_sweep_off_a_terminal_prints_lines_on_stderr(tmp_path, faulty, capsys, monkeypatch):
    """A real sweep (stderr captured: not a terminal): a line when it starts, lines while a
    run goes on (a short interval here), the end; then a resume of a grown suite says how many
    runs are done and how many remain."""
    monkeypatch.setattr(bench.execute.sweep, "LINE_INTERVAL_S", 0.2)
    suite = tmp_path / "suite.toml"
    suite.write_text(NOOP_SUITE.format(name="slow", solver="test-noop", delay=1.2, count=1))
    bench.run(str(suite), plugins=(faulty,), results=tmp_path / "r", jobs=1)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "slow: 1 runs on 1 worker(s)"
    waiting = [line for line in lines if line.startswith("slow: 0/1 runs (0%)")]
    assert len(waiting) >= 3, lines
    assert lines[-1].startswith("slow: 1/1 runs (100%)") and "unknown 1" in lines[-1]
    suite.write_text(NOOP_SUITE.format(name="slow", solver="test-noop", delay=1.2, count=2))
    bench.run(str(suite), plugins=(faulty,), results=tmp_path / "r", jobs=1, resume=True)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "slow: resuming: 1 of 2 runs already done, 1 to run"
    assert lines[-1].startswith("slow: 2/2 runs (100%)")


# -- the scheduler passes over a solver being compiled ------------------------------------------


def test_the_scheduler_passes_over_a_solver_another_worker_compiles(tmp_path, faulty):
    suite = tmp_path / "suite.toml"
    suite.write_text(NOOP_SUITE.format(name="two", solver="test-noop", delay=0, count=2)
                     .replace("[[ladder]]", '[[solver]]\nname = "dfs-restarts"\n[[ladder]]'))
    _, tasks = prepare_sweep(str(suite), plugins=(faulty,))
    scheduler = LadderScheduler(tasks, {})
    dfs = next(t.config.spec for t in tasks if t.config.name == "dfs-restarts")
    scheduler.compiling = {prepare_key(dfs)}
    assert [scheduler.next_task().config.name for _ in range(2)] == ["test-noop", "test-noop"]
    assert scheduler.next_task().config.name == "dfs-restarts"  # nothing else is left


def test_one_compilation_serves_the_solvers_that_share_it():
    """Minimax and alpha-beta share a prepare; both xcc solvers compile xcover's kernels."""
    from bench.plan.registry import load_solver

    keys = {name: prepare_key(load_solver(name)) for name in
            ("games/minimax", "games/alphabeta", "tiles/ida-lc", "tiles/ida-manhattan",
             "edgematch/xcc", "sudoku/xcc")}
    assert keys["games/minimax"] == keys["games/alphabeta"]
    assert keys["tiles/ida-lc"] != keys["tiles/ida-manhattan"]
    assert keys["edgematch/xcc"] == keys["sudoku/xcc"] != keys["games/minimax"]


# -- compiling once per machine ------------------------------------------------------------------


@dataclass
class Prepared:
    plugin: Path
    name: str

    @property
    def note(self) -> str:
        return f"compiling edgematch/{self.name} (first run on this machine)"


@pytest.fixture
def prepared(tmp_path, monkeypatch, request) -> Prepared:
    """The plugin above, with a fresh numba cache and user cache (prepare stamps) and a log."""
    name = "test-prepared-" + hashlib.sha256(request.node.name.encode()).hexdigest()[:8]
    plugin = tmp_path / "prepared_plugin.py"
    plugin.write_text(PREPARED_PLUGIN.format(name=name))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("PREPARE_LOG", str(tmp_path / "prepare.log"))
    return Prepared(plugin, name)


def prepare_log(tmp_path: Path) -> list[tuple[str, int, float]]:
    entries = []
    for line in (tmp_path / "prepare.log").read_text().splitlines():
        what, pid, when = line.split()
        entries.append((what, int(pid), float(when)))
    return entries


PREPARE_ONE = """
import json, sys
from bench.plan.registry import load_solver
from bench.execute.worker import prepare_once
spec = load_solver("edgematch/" + sys.argv[2], [sys.argv[1]])
prepare_once(spec, lambda message: print(json.dumps(message), flush=True))
"""


def test_two_workers_prepare_one_at_a_time_and_the_second_loads_the_cache(tmp_path, prepared,
                                                                         monkeypatch):
    monkeypatch.setenv("PREPARE_SLEEP", "1.0")
    procs = [subprocess.Popen([sys.executable, "-c", PREPARE_ONE, str(prepared.plugin),
                               prepared.name], cwd=ROOT, stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    outputs = [proc.communicate(timeout=120)[0] for proc in procs]
    assert all(proc.returncode == 0 for proc in procs)
    log = prepare_log(tmp_path)
    assert [what for what, _, _ in log] == ["start", "miss", "start", "hit"]
    assert log[0][1] == log[1][1] and log[2][1] == log[3][1]  # one process, then the other
    assert log[2][2] >= log[1][2]  # the second began once the first had ended
    for output in outputs:  # both looked before the stamp was written: both said so
        assert f'"note": "{prepared.note}"' in output


def test_the_compiling_note_reaches_the_progress_and_only_on_a_first_run(tmp_path, prepared,
                                                                        capsys):
    """A sweep whose worker compiles prints the note; the next sweep's fresh worker loads the
    cache and says nothing; once numba's cache is gone it compiles, and says so, again."""
    suite = tmp_path / "suite.toml"

    def sweep(name: str) -> str:
        suite.write_text(NOOP_SUITE.format(name=name, solver=prepared.name, delay=0, count=2))
        bench.run(str(suite), plugins=(str(prepared.plugin),), results=tmp_path / "r", jobs=1)
        return capsys.readouterr().err

    assert prepared.note in sweep("first")
    assert prepared.note not in sweep("second")
    shutil.rmtree(tmp_path / "numba")
    assert prepared.note in sweep("third")
    assert [what for what, _, _ in prepare_log(tmp_path)] == \
        ["start", "miss", "start", "hit", "start", "miss"]


@pytest.mark.skipif(len(available_cpus()) < 2, reason="needs two cores for two workers")
def test_two_workers_of_a_sweep_compile_a_solver_once(tmp_path, prepared, monkeypatch):
    monkeypatch.setenv("PREPARE_SLEEP", "0.5")
    suite = tmp_path / "suite.toml"
    suite.write_text(NOOP_SUITE.format(name="pair", solver=prepared.name, delay=0.5, count=4))
    folder = bench.run(str(suite), plugins=(str(prepared.plugin),), results=tmp_path / "r",
                       jobs=2, progress=False)
    log = prepare_log(tmp_path)
    assert [what for what, _, _ in log] == ["start", "miss", "start", "hit"]
    assert len({pid for _, pid, _ in log}) == 2
    assert len(bench.load(folder)) == 4


def test_a_worker_started_early_loads_a_compiled_solver_while_the_sweep_is_planned(
        tmp_path, prepared, monkeypatch):
    """The first sweep compiles at its first run (nothing is prepared ahead of a first
    compilation); the next one's early worker loads the cache while the sweep is still
    planned (here: planning held until the worker says it loaded, or for 30 s on a machine
    too busy for that: then the load comes after and the test fails), and the first run's
    row still carries the seconds it took."""
    from bench.execute import sweep as sweep_module

    suite = tmp_path / "suite.toml"
    planned_at: list[float] = []
    plan = sweep_module.prepare_sweep

    def slow_plan(*args, **kwargs):
        made = plan(*args, **kwargs)
        deadline = time.monotonic() + (30.0 if planned_at else 0.2)
        while time.monotonic() < deadline and "hit" not in [
                what for what, _, _ in ((tmp_path / "prepare.log").exists()
                                        and prepare_log(tmp_path) or [])]:
            time.sleep(0.02)
        planned_at.append(time.time())
        return made

    monkeypatch.setattr(sweep_module, "prepare_sweep", slow_plan)
    monkeypatch.setenv("PREPARE_SLEEP", "0.2")

    def sweep(name: str) -> pd.DataFrame:
        suite.write_text(NOOP_SUITE.format(name=name, solver=prepared.name, delay=0, count=2))
        folder = bench.run(str(suite), plugins=(str(prepared.plugin),),
                           results=tmp_path / "r", jobs=1, progress=False)
        return bench.load(folder)

    first = sweep("first")
    log = prepare_log(tmp_path)
    assert [what for what, _, _ in log] == ["start", "miss"]
    assert log[0][2] > planned_at[0]  # compiled at the first run, after planning
    second = sweep("second")
    log = prepare_log(tmp_path)
    assert [what for what, _, _ in log] == ["start", "miss", "start", "hit"]
    assert log[3][2] < planned_at[1]  # loaded while the sweep was planned
    for rows in (first, second):
        times = rows["t_prepare"].tolist()
        assert sorted(times)[-1] >= 0.2 and sorted(times)[0] == 0.0  # the first run's only


def test_the_first_solvers_of_a_suite_are_told_from_its_file(tmp_path):
    from bench.execute.early import first_solvers
    from bench.plan.suite import suite_first_runs

    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join(["." * 81] * 3) + "\n")
    suite = tmp_path / "s.toml"
    suite.write_text('name = "s"\n[[solver]]\nname = "norvig"\n[[solver]]\nname = "cpsat"\n'
                     '[[ladder]]\nname = "files"\nrungs = [ { label = "a", instances = '
                     f'["{puzzles}:1..2"] }} ]\n'
                     '[[ladder]]\nname = "boards"\ngenerator = "edgematch/planted"\n'
                     'vary = "n"\nvalues = [4]\n')
    assert suite_first_runs(str(suite)) == (["norvig", "cpsat"], ["sudoku", "edgematch"])
    assert first_solvers(str(suite), None, [], None) == \
        ["sudoku/norvig", "sudoku/cpsat", "edgematch/cpsat"]
    assert first_solvers(str(suite), ["cpsat"], [], None) == ["sudoku/cpsat", "edgematch/cpsat"]
    assert first_solvers(str(tmp_path / "missing.toml"), None, [], None) == []


def test_preparing_ahead_stops_when_a_run_comes_and_skips_what_does_not_load(
        tmp_path, prepared):
    from bench.execute.worker import Worker

    worker = Worker([str(prepared.plugin)], 1)
    key = f"edgematch/{prepared.name}"
    worker.prepare_ahead([key], lambda: True)  # a run waits: nothing is prepared
    worker.prepare_ahead(["edgematch/no-such-solver", key], lambda: False)
    assert not worker.prepared  # the unknown one skipped; the other's first compilation left
    run = Worker([str(prepared.plugin)], 1)
    assert run.prepare(run.solver(key), lambda message: None) > 0  # compiled: cached now
    worker.prepare_ahead(["edgematch/no-such-solver", key], lambda: False)
    assert worker.prepared == {key}
    seconds = worker.prepared_ahead[key]
    assert seconds > 0
    spec = worker.solver(key)
    assert worker.prepare(spec, lambda message: None) == seconds  # the first run's row's
    assert worker.prepare(spec, lambda message: None) == 0.0


def test_a_worker_sees_a_waiting_line_in_its_pipe_or_its_reader():
    from bench.execute.worker import readable

    read, write = os.pipe()
    with os.fdopen(read, "rb") as inbox, os.fdopen(write, "wb", buffering=0) as outbox:
        assert not readable(inbox)
        outbox.write(b'{"op": "prepare"}\n{"op": "run"}\n')
        assert readable(inbox)  # in the pipe
        assert inbox.readline() == b'{"op": "prepare"}\n'
        assert readable(inbox)  # in the reader's buffer: the pipe is empty
        assert inbox.readline() == b'{"op": "run"}\n'
        assert not readable(inbox)
        outbox.write(b"x\n")
        assert readable(inbox) and inbox.readline() == b"x\n"


def test_the_prepare_folder_follows_the_user_cache(tmp_path, monkeypatch):
    from bench.execute.worker import prepare_folder

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert prepare_folder() == tmp_path / "cache" / "cliffbench" / "prepare"
    assert prepare_folder().is_dir()
    assert os.access(prepare_folder(), os.W_OK)
