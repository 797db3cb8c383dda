"""Per-run overhead of the runner on trivial runs: the cost a sweep adds around each solve.

A solver that returns at once (``test-noop`` from tests/plugins/faulty.py) runs N times on
``--jobs`` workers through the real runner. A run's latency goes from the moment the scheduler
hands it to a worker to the moment its row is recorded (send the run, solve, receive, check,
classify, fsync the journal line); its overhead is that latency minus the solve itself. Each
worker's first run (start-up, imports) is left out. The measurement is
``benchmarks.harness.measure_overhead``, the one the asv benchmark ``harness.RunnerOverhead``
tracks. Issue 7's target: median below 20 ms a run with 2 workers (2 workers need 2 cores).

    python perf/runner_overhead.py [--runs 200] [--jobs 2] [--repeats 3] [--cpus 1,1]

``--cpus 1,1`` pins the two workers to core 1 both (the runner refuses more workers than cores;
this is for a figure while the other core is busy: parent and workers then share one core).
"""

from __future__ import annotations

import argparse
import os

from benchmarks.harness import measure_overhead


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3, help="batches, each measured alone")
    parser.add_argument("--cpus", default=None, help="a core per worker, e.g. 1,1")
    args = parser.parse_args()
    cpus = [int(c) for c in args.cpus.split(",")] if args.cpus else None
    print(f"{args.runs} trivial runs a batch on {args.jobs} worker(s); cores "
          f"{cpus or sorted(os.sched_getaffinity(0))}; load average {os.getloadavg()[0]:.2f}")
    for _ in range(args.repeats):
        got = measure_overhead(args.runs, args.jobs, cpus)
        print(f"start-up {got.startup:.2f} s; {got.runs} runs measured: overhead median "
              f"{got.median_overhead * 1e3:.2f} ms, p90 {got.p90_overhead * 1e3:.2f} ms "
              f"(solve median {got.median_solve * 1e3:.3f} ms); wall per run with every "
              f"worker busy {got.per_run_wall * 1e3:.2f} ms", flush=True)


if __name__ == "__main__":
    main()
