"""Per-run overhead of the runner on trivial runs: the cost a sweep adds around each solve.

A solver that returns at once (``test-noop`` from tests/plugins/faulty.py) runs N times on one
worker; the time between two finished rows is one whole cycle (send the run, solve, receive,
check, classify, fsync the journal line). The overhead is that cycle minus the solve itself.

    python bench/perf/runner_overhead.py [--runs 200] [--jobs 1]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench.journal import Journal
from bench.registry import load_solvers
from bench.runner import LadderScheduler, Runner
from bench.specs import resolve
from bench.suite import SolverConfig, Task, run_key

PLUGIN = Path(__file__).resolve().parents[2] / "tests" / "plugins" / "faulty.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--spec", default="edgematch/planted:n=8,hints=5,seed=1..{runs}")
    args = parser.parse_args()
    registry = load_solvers([str(PLUGIN)])
    spec = registry["edgematch/test-noop"]
    config = SolverConfig(spec, spec.defaults(), spec.name)
    refs = resolve(args.spec.format(runs=args.runs))
    tasks = [Task(run_key(config, r.instance_id, 0, 1, 10.0, 2000, 1), r, config, 0, 1, 10.0,
                  2000, 1) for r in refs]
    arrivals: list[float] = []
    solve_times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "journal.jsonl")

        def record(row: dict) -> None:
            journal.append(row)
            arrivals.append(time.perf_counter())
            solve_times.append(row["t_wall"] or 0.0)

        runner = Runner(jobs=args.jobs, cores=1, plugins=[str(PLUGIN)], log_dir=tmp)
        start = time.perf_counter()
        runner.run(LadderScheduler(tasks, {}), "overhead", record)
        total = time.perf_counter() - start
        journal.close()
    cycles = [b - a for a, b in zip(arrivals, arrivals[1:], strict=False)]
    cycle = statistics.median(cycles)
    solve = statistics.median(solve_times)
    print(f"runs {len(arrivals)}  jobs {args.jobs}  total {total:.2f} s "
          f"(incl. worker start-up {arrivals[0] - start:.2f} s)")
    print(f"median cycle {cycle * 1e3:.2f} ms, median solve {solve * 1e3:.3f} ms, "
          f"median overhead per run {(cycle - solve) * 1e3:.2f} ms")
    print(f"p90 cycle {sorted(cycles)[int(0.9 * len(cycles))] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
