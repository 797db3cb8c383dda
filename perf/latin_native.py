"""The ``native`` Latin-square search: its node rate, and how many peak-rung squares it solves
within a budget next to the general solvers.

1. Node rate. QWH squares from the family's generator (``latin/qwh``, random holes) of each
   order (default 20 and 30) at ``--fraction`` holes (0.36: where the ``latin-phase`` suite
   puts the general solvers' peak at order 30; ``python perf/latin_phase.py --table`` prints
   it), seeds ``1..--seeds``. The
   kernel is compiled and warmed first; each setting then searches each square in one chunk,
   to the end or ``--nodes`` nodes (restarts and their re-openings inside the time, the root
   propagation outside). Settings: the solver's default (hidden singles, Luby restarts), the
   same without restarts, 3-D branching, and the plain baseline, forward checking alone with
   no restarts (``fc``/``off``: the cheapest node there is). Per setting and order: squares
   solved, nodes, fails, seconds, k nodes/s over all squares together, and the ratio of the
   rate to the baseline's, measured in the same run. A stronger node costs more: the last
   column, the seconds summed over the squares both solved, divided by the baseline's, is
   what that buys.
2. The peak rung. Order ``--order`` at ``--fraction`` holes, seeds ``1..--count``, each solver
   through ``bench.solve`` (a worker process, the budget's watchdog, the family's checker) with
   ``--budget`` seconds: ``native`` (default and ``restarts=off``) and every other registered
   Latin solver of ``--rivals`` (default every general one: ``cpsat``, ``sat``, ``xcc``,
   ``ilp-highs``, ``ilp-cbc``). Prints each one's solved count, median and largest wall time
   of the solved runs.

    python perf/latin_native.py [--orders 20 30] [--fraction 0.36] [--seeds 10]
        [--nodes 2000000] [--order 30] [--count 10] [--budget 10] [--rivals cpsat sat]
        [--skip-rate] [--skip-rung]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba

import bench
from bench.plan.registry import solver_index
from instances.latin import GENERATORS, Instance
from searches.latin_native import prepare
from searches.support.latin_kernel import SOLVED, Search

#: (label, propagation, branching, restarts): the solver's default first, the baseline last.
SETTINGS = [("hidden/luby (default)", "hidden", "cells", "luby"),
            ("hidden/off", "hidden", "cells", "off"),
            ("hidden/3d/luby", "hidden", "3d", "luby"),
            ("naked/off", "naked", "cells", "off"),
            ("fc/off (baseline)", "fc", "cells", "off")]


def square(order: int, fraction: float, seed: int) -> Instance:
    return GENERATORS["qwh"]({"order": order, "fraction": fraction}, seed).instance


def measure(instance: Instance, seed: int, nodes: int, propagation: str, branching: str,
            restarts: str) -> tuple[bool, int, int, float]:
    """(solved, nodes, fails, seconds) of one search of at most ``nodes`` nodes."""
    search = Search.start(instance.order, instance.cells_array(), seed, propagation, branching,
                          restarts)
    t = time.perf_counter()
    status = search.run(nodes)
    return status == SOLVED, search.nodes, search.fails, time.perf_counter() - t


def node_rates(args: argparse.Namespace) -> None:
    print(f"\n1. node rate: latin/qwh, {args.fraction:.0%} holes, seeds 1..{args.seeds}, at "
          f"most {args.nodes:,} nodes a square")
    for order in args.orders:
        squares = [square(order, args.fraction, seed) for seed in range(1, args.seeds + 1)]
        for seed, instance in enumerate(squares, 1):  # warm caches
            measure(instance, seed, 1000, "hidden", "cells", "luby")
        results = {}
        for label, propagation, branching, restarts in SETTINGS:
            results[label] = [measure(instance, seed, args.nodes, propagation, branching,
                                      restarts) for seed, instance in enumerate(squares, 1)]
        base_label = SETTINGS[-1][0]
        base = results[base_label]
        base_rate = sum(r[1] for r in base) / sum(r[3] for r in base)
        print(f"\norder {order}:")
        print(f"  {'setting':<22} {'solved':>6} {'nodes':>12} {'fails':>11} {'seconds':>8} "
              f"{'k nodes/s':>10} {'rate/base':>9} {'time/base':>9}")
        for label, runs in results.items():
            total_nodes, seconds = sum(r[1] for r in runs), sum(r[3] for r in runs)
            rate = total_nodes / seconds
            both = [(r[3], b[3]) for r, b in zip(runs, base, strict=True) if r[0] and b[0]]
            ratio = (f"{sum(a for a, _ in both) / sum(b for _, b in both):9.4f}" if both
                     else f"{'(none)':>9}")
            print(f"  {label:<22} {sum(r[0] for r in runs):>3}/{len(runs):<2} "
                  f"{total_nodes:>12,} {sum(r[2] for r in runs):>11,} {seconds:8.2f} "
                  f"{rate / 1e3:10.0f} {rate / base_rate:9.2f} {ratio}")
        solved_by_base = sum(b[0] for b in base)
        print(f"  (time/base: over the {solved_by_base} squares the baseline solved within the "
              "node cap)")


def peak_rung(args: argparse.Namespace) -> None:
    known = set(solver_index())
    configs: list[tuple[str, str, dict]] = [("native", "latin/native", {}),
                                            ("native restarts=off", "latin/native",
                                             {"restarts": "off"})]
    missing = []
    for rival in args.rivals:
        key = f"latin/{rival}"
        if key in known:
            configs.append((rival, key, {}))
        else:
            missing.append(key)
    print(f"\n2. the peak rung: latin/qwh order {args.order}, {args.fraction:.0%} holes, seeds "
          f"1..{args.count}, {args.budget:g} s each, through bench.solve")
    if missing:
        print(f"  not registered: {', '.join(missing)}")
    print(f"  {'solver':<22} {'solved':>6} {'median s':>9} {'max s':>8}  statuses")
    for label, key, params in configs:
        times, statuses = [], []
        for seed in range(1, args.count + 1):
            spec = f"latin/qwh:order={args.order},fraction={args.fraction},seed={seed}"
            row = bench.solve(spec, key, timeout=args.budget, seed=seed, **params)
            statuses.append(row["status"])
            if row["status"] == "solved":
                times.append(row["t_wall"])
        median = f"{statistics.median(times):9.3f}" if times else f"{'-':>9}"
        largest = f"{max(times):8.3f}" if times else f"{'-':>8}"
        tally = ", ".join(f"{s} {statuses.count(s)}" for s in sorted(set(statuses)))
        print(f"  {label:<22} {len(times):>3}/{args.count:<2} {median} {largest}  {tally}",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--orders", type=int, nargs="+", default=[20, 30])
    parser.add_argument("--fraction", type=float, default=0.36)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=2_000_000)
    parser.add_argument("--order", type=int, default=30)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--rivals", nargs="*",
                        default=["cpsat", "sat", "xcc", "ilp-highs", "ilp-cbc"])
    parser.add_argument("--skip-rate", action="store_true")
    parser.add_argument("--skip-rung", action="store_true")
    args = parser.parse_args()

    t = time.perf_counter()
    prepare()
    print(f"numba {numba.__version__}; prepare (compile or cache load) "
          f"{time.perf_counter() - t:.2f} s")
    if not args.skip_rate:
        node_rates(args)
    if not args.skip_rung:
        peak_rung(args)


if __name__ == "__main__":
    main()
