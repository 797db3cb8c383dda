"""Do the limits bind? Overshoot of the wall-clock limit and of the memory budget, measured.

Wall: ``--runs`` runs of ``chaos-hang`` (bench/execute/chaos.py: ignores SIGTERM and its budget;
half sleep, half spin on the CPU), and ``--runs`` more of ``chaos-program-stubborn`` (a shell
program that ignores SIGTERM, bench/execute/chaos_programs.toml), under a budget of ``--budget``
seconds on ``--jobs`` workers. Two
overshoots per run: the watchdog's (``t_wall - budget``: from the solve's start to the kill
decision) and the row's (from the run's start, ``started_at``, to the moment its row reached
``on_row``, i.e. after the process tree was killed and the row checked). Issue 8's promise: a
run ends within budget + 2 s.

Memory: ``--mem-runs`` runs of ``chaos-memory`` under ``--mem`` MB, half allocating 50 MB blocks,
half one burst of 3x the budget, and one burst past the address-space backstop, and as many of
``chaos-program-memory`` (a program holding ever more): each must end as ``memout`` (never a
dead sweep), and the memory at the kill (resident, or charged to the worker's control group when
the kernel killed it) says by how much the budget was overshot between two polls of the watch.
Each block names the mechanism that held the limits (the rows' ``limits_by``; run with
``CLIFFBENCH_LIMITS=process`` for the process-tree one where control groups are possible).

    python perf/limits_overshoot.py [--runs 100] [--budget 1] [--jobs 2] [--mem-runs 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from datetime import datetime
from pathlib import Path

from bench.execute.chaos import survivors
from bench.execute.runner import LadderScheduler, Runner
from bench.execute.sweep import prepare_sweep

CHAOS = Path(__file__).resolve().parents[1] / "bench" / "execute" / "chaos.py"
PROGRAMS = CHAOS.with_name("chaos_programs.toml")

SUITE = """
name = "limits"
timeout = {budget}
mem = {mem}
early_abort = false
plugins = ["{chaos}", "{programs}"]
{solvers}
[[ladder]]
name = "boards"
rungs = [ {{ label = "4", instances = ["edgematch/planted:n=4,seed=1..{count}"] }} ]
"""


def solver_block(configs: list[tuple[str, str, dict]]) -> str:
    out = []
    for name, label, params in configs:
        values = ", ".join(f"{k} = {json.dumps(v)}" for k, v in params.items())
        out.append(f'[[solver]]\nname = "{name}"\nlabel = "{label}"\nparams = {{ {values} }}\n')
    return "\n".join(out)


def sweep(folder: Path, configs: list[tuple[str, str, dict]], count: int, budget: float,
          mem: int, jobs: int) -> list[tuple[dict, float]]:
    """Run the configs on ``count`` boards each; (row, wall clock when the row came)."""
    path = folder / f"limits-{time.monotonic_ns()}.toml"
    path.write_text(SUITE.format(budget=budget, mem=mem, chaos=CHAOS, programs=PROGRAMS,
                                 count=count,
                                 solvers=solver_block(configs)))
    suite, tasks = prepare_sweep(str(path))
    rows: list[tuple[dict, float]] = []
    runner = Runner(jobs=jobs, plugins=suite.plugins, log_dir=folder / "workers")
    runner.run(LadderScheduler(tasks, {}, suite.abort_fraction), "limits",
               lambda row: rows.append((row, time.time())))
    return rows


def quantiles(values: list[float]) -> str:
    values = sorted(values)
    q = statistics.quantiles(values, n=100, method="inclusive")
    return (f"min {values[0]:.3f}  p50 {q[49]:.3f}  p90 {q[89]:.3f}  p99 {q[98]:.3f}  "
            f"max {values[-1]:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--mem", type=int, default=1000)
    parser.add_argument("--mem-runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cliffbench-limits-") as tmp:
        measure(args, Path(tmp))
    print(f"processes left behind: {len(survivors())}")


def measure(args: argparse.Namespace, folder: Path) -> None:
    """Both measurements, their sweeps in ``folder``."""
    half = max(1, args.runs // 2)
    rows = sweep(folder, [("chaos-hang", "sleep", {"spin": False}),
                          ("chaos-hang", "spin", {"spin": True})], half, args.budget, 2000,
                 args.jobs)
    wall_report(f"{len(rows)} runs of chaos-hang (sleep and spin)", rows, args)
    rows = sweep(folder, [("chaos-program-stubborn", "program", {})], args.runs, args.budget,
                 2000, args.jobs)
    wall_report(f"{len(rows)} runs of chaos-program-stubborn", rows, args)
    mem_half = max(1, args.mem_runs // 2)
    rows = sweep(folder, [("chaos-memory", "blocks", {"factor": 3.0, "chunk_mb": 50}),
                          ("chaos-memory", "burst", {"factor": 3.0, "chunk_mb": 3 * args.mem}),
                          ("chaos-memory", "past-backstop",
                           {"factor": 40.0, "chunk_mb": 40 * args.mem})],
                 mem_half, 30.0, args.mem, args.jobs)
    rows += sweep(folder, [("chaos-program-memory", "program", {})], mem_half, 30.0, args.mem,
                  args.jobs)
    print(f"memory limit: budget {args.mem} MB, {args.jobs} workers, limits by "
          f"{sorted({r['limits_by'] for r, _ in rows})}")
    chunks = {"blocks": 50, "burst": 3 * args.mem, "past-backstop": 40 * args.mem}
    for label in ("blocks", "burst", "past-backstop", "program"):
        program = label == "program"
        mine = [r for r, _ in rows if (r["solver"] == "chaos-program-memory") == program
                and (program or r.get("s_chunk_mb") == chunks[label])]
        peaks = [max(r["peak_rss_mb"] or 0.0, r.get("peak_cgroup_mb") or 0.0) for r in mine]
        kernel = sum("the kernel killed" in (r["message"] or "") for r in mine)
        print(f"  {label:<13} {len(mine)} runs, statuses {sorted({r['status'] for r in mine})}; "
              f"memory at the kill / budget: min {min(peaks) / args.mem:.2f}, "
              f"median {statistics.median(peaks) / args.mem:.2f}, max {max(peaks) / args.mem:.2f}"
              f"; ended after {statistics.median(r['t_wall'] or 0 for r in mine):.2f} s median; "
              f"{kernel} killed by the kernel")


def wall_report(what: str, rows: list[tuple[dict, float]], args: argparse.Namespace) -> None:
    statuses = sorted({r["status"] for r, _ in rows})
    watchdog = [r["t_wall"] - r["budget_s"] for r, _ in rows]
    ended = [at - datetime.fromisoformat(r["started_at"]).timestamp() - r["budget_s"]
             for r, at in rows]
    print(f"wall limit: {what}, budget {args.budget:g} s, {args.jobs} workers; statuses "
          f"{statuses}; limits by {sorted({r['limits_by'] for r, _ in rows})}")
    print(f"  watchdog overshoot (t_wall - budget):        {quantiles(watchdog)}")
    print(f"  row overshoot (row recorded - start - budget): {quantiles(ended)}")
    print(f"  runs past budget + 2 s: {sum(e > 2.0 for e in ended)}")


if __name__ == "__main__":
    main()
