"""Time the ``cpsat`` edge-matching solver on planted boards; prints one JSON line per run.

    python perf/cpsat_edgematch.py --sizes 8 10 11 --workers 1 2 --channels table element

Each answer is re-checked with ``instances.edgematch.check``. This is a quick look, not a sweep:
the harness (runner, budgets, journal) is the way to measure for real.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import encoders.edgematch_cpsat  # noqa: F401  (registers "cpsat")
from bench.api import REGISTRY, Budget
from instances.edgematch import GENERATORS, check


def run_one(instance, workers: int, channel: str, symmetry: str, limit: float) -> dict:
    """One solve under a fresh budget, with its verdict."""
    spec = REGISTRY["edgematch/cpsat"]
    params = spec.resolve({"channel": channel, "symmetry": symmetry})
    budget = Budget(wall_s=limit, mem_mb=4000, cores=workers,
                    deadline=time.monotonic() + limit)
    start = time.monotonic()
    out = spec.solve(instance, budget, seed=1, **params)
    wall = time.monotonic() - start
    ok = out.status == "solved" and check(instance, out.solution).solved
    return {"status": out.status, "verified": ok, "t": round(wall, 3),
            "t_encode": round(out.t_encode or 0.0, 3), "nodes": out.counters.get("nodes"),
            "conflicts": out.counters.get("conflicts")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[8, 10, 11])
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..SEEDS per size")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--channels", nargs="+", default=["table"], choices=["table", "element"])
    ap.add_argument("--symmetry", default="hints", choices=["hints", "none"])
    ap.add_argument("--border", type=int, default=5)
    ap.add_argument("--inner", type=int, default=17)
    ap.add_argument("--hints", type=int, default=5)
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per run")
    args = ap.parse_args()
    REGISTRY["edgematch/cpsat"].prepare()
    times: dict[tuple, list[float]] = {}
    for n in args.sizes:
        for seed in range(1, args.seeds + 1):
            gen = GENERATORS["planted"]({"n": n, "border": args.border, "inner": args.inner,
                                         "hints": args.hints}, seed)
            for workers in args.workers:
                for channel in args.channels:
                    row = run_one(gen.instance, workers, channel, args.symmetry, args.limit)
                    row = {"n": n, "seed": seed, "workers": workers, "channel": channel, **row}
                    print(json.dumps(row), flush=True)
                    if row["verified"]:
                        times.setdefault((n, workers, channel), []).append(row["t"])
    for (n, workers, channel), ts in sorted(times.items()):
        print(f"# n={n} workers={workers} channel={channel}: solved {len(ts)}/{args.seeds}, "
              f"median {statistics.median(ts):.2f}s, max {max(ts):.2f}s")


if __name__ == "__main__":
    main()
