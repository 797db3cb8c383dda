"""The runner's own cost around each run: trivial runs through the real runner and workers.

A solver that returns at once (``test-noop`` of tests/plugins/faulty.py, the plugin the runner's
tests load) runs on planted 8x8 boards through ``bench.execute.runner.Runner`` with 1 or 2 workers.
Each run's latency is measured from the moment the scheduler hands it to a worker to the moment
its row is recorded (sent down the pipe, solved, sent back, checked, classified, appended to an
fsynced journal); its overhead is that latency minus the solve time the worker measured. The
first run of each worker is left out (it pays the worker's start-up and imports, a once-a-sweep
cost). Issue 7's target: a median overhead below 20 ms a run with 2 workers.

``measure_overhead`` is also what ``perf/runner_overhead.py`` prints.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

from bench.execute.runner import LadderScheduler, Runner, available_cpus
from bench.plan.registry import load_solvers
from bench.plan.specs import resolve
from bench.plan.suite import SolverConfig, Task, run_key
from bench.table.journal import Journal

#: The plugin holding ``test-noop``; benchmarks run from the checkout, so tests/ is there.
PLUGIN = Path(__file__).resolve().parents[1] / "tests" / "plugins" / "faulty.py"
SPEC = "edgematch/planted:n=8,hints=5,seed=1..{runs}"


@dataclass(frozen=True)
class Overhead:
    """What one batch of trivial runs cost, in seconds."""

    runs: int  # runs measured (each worker's first run left out)
    jobs: int
    median_overhead: float  # per run: latency minus solve time, median
    p90_overhead: float
    median_solve: float
    per_run_wall: float  # the batch's wall time per run once the workers are up (throughput)
    startup: float  # from the start to the first recorded row (worker start-up included)


class TimedScheduler(LadderScheduler):
    """The ladder scheduler, noting when each run is handed out (the runner gives the task to a
    worker right after ``next_task`` returns it)."""

    def __init__(self, tasks: list[Task]):
        super().__init__(tasks, {})
        self.given: dict[str, float] = {}
        self.order_given: list[str] = []

    def next_task(self) -> Task | None:
        task = super().next_task()
        if task is not None:
            self.given[task.key] = time.perf_counter()
            self.order_given.append(task.key)
        return task


def noop_tasks(runs: int) -> list[Task]:
    """``runs`` runs of ``test-noop`` on planted 8x8 boards (seeds 1..runs), 10 s budgets."""
    registry = load_solvers([str(PLUGIN)])
    spec = registry["edgematch/test-noop"]
    config = SolverConfig(spec, spec.defaults(), spec.name)
    return [Task(run_key(config, r.instance_id, 0, 1, 10.0, 2000, 1), r, config, 0, 1, 10.0,
                 2000, 1) for r in resolve(SPEC.format(runs=runs))]


def measure_overhead(runs: int = 200, jobs: int = 2, cpus: list[int] | None = None) -> Overhead:
    """Run ``runs`` trivial runs on ``jobs`` workers (one core each) and time them.

    ``cpus`` pins worker i to ``cpus[i]`` instead of the i-th core this process may use; a
    core may repeat (``[1, 1]``: two workers sharing core 1, which the runner itself refuses),
    for a figure on a machine whose other core is busy."""
    if cpus is None and jobs > len(available_cpus()):
        raise ValueError(f"{jobs} workers need {jobs} cores; this process may use "
                         f"{len(available_cpus())}")
    if cpus is not None and len(cpus) != jobs:
        raise ValueError(f"cpus={cpus}: one core a worker ({jobs}) expected")
    if runs <= jobs:
        raise ValueError(f"runs={runs}: more than one run a worker is needed")
    tasks = noop_tasks(runs)
    scheduler = TimedScheduler(tasks)
    arrived: dict[str, float] = {}
    solve: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="cliffbench-asv-") as tmp:
        journal = Journal(Path(tmp) / "journal.jsonl")

        def record(row: dict) -> None:
            journal.append(row)
            arrived[row["key"]] = time.perf_counter()
            solve[row["key"]] = row["t_wall"] or 0.0
            if row["status"] not in ("unknown", "solved"):
                raise RuntimeError(f"a trivial run ended {row['status']}: {row.get('message')}")

        with mock.patch("bench.execute.runner.available_cpus",
                        return_value=cpus or available_cpus()):
            runner = Runner(jobs=jobs, cores=1, plugins=[str(PLUGIN)], log_dir=tmp)
        start = time.perf_counter()
        runner.run(scheduler, "asv-overhead", record)
        journal.close()
    steady = scheduler.order_given[jobs:]  # each worker's first run pays its start-up
    overheads = sorted(arrived[k] - scheduler.given[k] - solve[k] for k in steady)
    times = sorted(arrived.values())
    first_steady = min(arrived[k] for k in steady)
    after = [t for t in times if t >= first_steady]
    return Overhead(
        runs=len(steady), jobs=jobs,
        median_overhead=statistics.median(overheads),
        p90_overhead=overheads[int(0.9 * (len(overheads) - 1))],
        median_solve=statistics.median(solve[k] for k in steady),
        per_run_wall=(after[-1] - after[0]) / max(1, len(after) - 1),
        startup=times[0] - start)


#: asv parameter -> (workers, all on one core)
WORKERS = {"1": (1, False), "2": (2, False), "2-on-1-core": (2, True)}


class RunnerOverhead:
    """Median overhead per trivial run (ms), through the real runner: 1 worker, 2 workers on
    2 cores (the issue's figure), and 2 workers sharing one core (parent included: the figure a
    machine whose other core is busy can still give).

    ``track_`` values (one batch of ``runs`` runs per asv process: the batch is the
    repetition). "2" needs 2 cores: under ``taskset -c 1`` it is skipped (asv shows n/a).
    """

    params = list(WORKERS)
    param_names = ["workers"]
    runs = 200
    timeout = 120.0

    def setup(self, workers: str) -> None:
        jobs, one_core = WORKERS[workers]
        cpus = available_cpus()
        if not one_core and jobs > len(cpus):
            raise NotImplementedError(f"{jobs} workers need {jobs} cores")
        self.result = measure_overhead(self.runs, jobs, [cpus[0]] * jobs if one_core else None)

    def track_overhead_median(self, workers: str) -> float:
        return self.result.median_overhead * 1e3

    track_overhead_median.unit = "ms"

    def track_overhead_p90(self, workers: str) -> float:
        return self.result.p90_overhead * 1e3

    track_overhead_p90.unit = "ms"

    def track_wall_per_run(self, workers: str) -> float:
        """The sweep's throughput: wall time per trivial run with every worker busy."""
        return self.result.per_run_wall * 1e3

    track_wall_per_run.unit = "ms"
