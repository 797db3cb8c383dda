"""Eternity II in score mode: an edgematch solver (dfs-breaks, lns) on the 5-hint board, one core.

Runs the solver for a given number of seconds per seed (after compiling its kernels), re-checks
every returned board with the family's checker (full, legal, hints kept, score as claimed) and
prints per seed the best score, the best score at 10/30/60... s read from the score trace, the
nodes and M nodes/s; then the mean and the range over seeds. Issue 3's target: >= 440/480 at
60 s, >= 455 at 600 s.

    python perf/eternity_score.py [--solver dfs-breaks|lns] [--seconds 60] [--seeds 1 2 3]
        [--board PATH] [--param NAME=VALUE ...] [--trace-out traces.json]

``--trace-out`` writes each seed's checked score trace as JSON (appending to the file's runs if
it exists), for ``perf/eternity_plot.py``, with its counters (for lns with restarts, its
per-run record too: ``run_scores``, ``run_times``, ``run_starts``, ``run_pinned``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from bench.api import REGISTRY, Budget
from instances.edgematch import check, read_file
from searches import edgematch_breaks, edgematch_lns  # noqa: F401  (register the solvers)

BOARD = Path(__file__).resolve().parents[2] / "shared/data/edgematch/eternity2/eternity2_5hints.emp"
MARKS = (10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0)


def score_at(trace: list[tuple[float, float]], seconds: float) -> int | None:
    """The best score reached by ``seconds`` (None before the first board)."""
    reached = [s for t, s in trace if t <= seconds]
    return int(max(reached)) if reached else None


def parse_params(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--param {item!r}: expected NAME=VALUE")
        out[name] = value
    return out


def save_trace(path: Path, run: dict) -> None:
    """Append one run to the JSON list of runs in ``path`` (written after every seed)."""
    runs = json.loads(path.read_text()) if path.exists() else []
    runs.append(run)
    path.write_text(json.dumps(runs, indent=1, default=str) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--board", type=Path, default=BOARD)
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--solver", default="dfs-breaks", help="an edgematch solver's name")
    parser.add_argument("--trace-out", type=Path, default=None, metavar="JSON")
    args = parser.parse_args()

    spec = REGISTRY[f"edgematch/{args.solver}"]
    params = spec.resolve(parse_params(args.param))
    instance = read_file(args.board)[0].instance
    t = time.perf_counter()
    spec.prepare()
    print(f"{spec.name} ({spec.backend}); prepare {time.perf_counter() - t:.2f} s; board "
          f"{args.board.name} ({instance.rows}x{instance.cols}, {len(instance.hints)} hints, "
          f"max {instance.max_score}); {args.seconds:g} s per seed; params {params}")
    marks = [m for m in MARKS if m <= args.seconds]
    bests = []
    for seed in args.seeds:
        budget = Budget(wall_s=args.seconds, mem_mb=4000, cores=1,
                        deadline=time.monotonic() + args.seconds)
        cpu = time.process_time()
        if spec.name == "lns":  # its per-run record too (restarts), beside the outcome
            out, runs = edgematch_lns.solve_runs(instance, budget, seed=seed, **params)
        else:
            out, runs = spec.solve(instance, budget, seed=seed, **params), {}
        cpu = time.process_time() - cpu
        verdict = check(instance, out.solution)
        full = out.solution is not None and out.solution.placed() == instance.ncells
        ok = verdict.legal and full and verdict.score == out.objective
        nodes = out.counters.get("nodes", 0)
        rate = nodes / max(out.t_solve or 0.0, 1e-9) / 1e6
        at = "  ".join(f"{m:g}s:{score_at(out.score_trace, m) or '-'}" for m in marks)
        print(f"seed {seed}: best {verdict.score}/{verdict.max_score}  [{at}]  {nodes:,} nodes "
              f"{rate:.1f} M nodes/s  restarts {out.counters.get('restarts')}  cpu {cpu:.0f} s  "
              f"{'checked' if ok else 'REJECTED: ' + (verdict.reason or 'score or fullness')}")
        bests.append(verdict.score)
        if args.trace_out is not None:
            save_trace(args.trace_out, {
                "solver": spec.name, "seed": seed, "seconds": args.seconds, "params": params,
                "checked": bool(ok), "score": verdict.score, "nodes": nodes, "cpu_s": round(cpu, 1),
                "counters": {**out.counters, **runs},
                "trace": [[round(t, 3), s] for t, s in out.score_trace]})
    print(f"mean {statistics.mean(bests):.1f}, min {min(bests)}, max {max(bests)} over "
          f"{len(bests)} seeds")


if __name__ == "__main__":
    main()
