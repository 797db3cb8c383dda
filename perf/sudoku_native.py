"""Puzzles per second of the ``native`` sudoku solver, proving uniqueness (counting to 2).

For each file (default: the 17-clue and the forum-hardest samples of ../shared/data/sudoku), one
process measures, on the same puzzles:

- the batch kernels: one numba call loops over an (n, 81) array of puzzles, so Python's cost per
  puzzle is not what is measured: ``band9`` (the 9x9 band-word kernel, the solver's default)
  and ``cells`` (the per-cell kernel of every box size), at each deduction level (``subsets``:
  the solver's default; ``locked``; ``singles``) with weighted MRV branching, and the plain
  baseline: singles and plain MRV (the first cell with the fewest candidates), i.e. the same
  kernel with everything else switched off;
- the registered ``solve()`` call, puzzle by puzzle (allocation, Python and all), for honesty.

Every count must be 1 and every first solution must pass ``instances.sudoku.check`` (both
checked after the timed region: a wrong answer stops the script). Times: each measurement is
repeated; the best and the median are printed, as wall time and as the process's CPU time.
Run it pinned to one core (``taskset -c 1``); when other processes share that core, wall time
counts their slices too and the CPU time is the figure of the solver alone.

guesses/puzzle is tdoku's measure (binary branching decisions; see searches/sudoku_native.py);
tdoku's own figures are printed beside it (its README: 0.61 on 17-clue, 64.95 on
forum_hardest_1905_11+, at 317k and 19.7k puzzles/s on a GCE c2 core).

    taskset -c 1 python perf/sudoku_native.py [--files F ...] [--repeats 5]
        [--solve-calls 1000] [--skip-cells]
"""

from __future__ import annotations

import argparse
import statistics
import time
from functools import partial
from pathlib import Path

import numba
import numpy as np

import searches.sudoku_native as native
from bench.api import Budget, lookup
from instances.sudoku import Instance, Solution, check, read_file
from searches.support import sudoku_band9 as band9
from searches.support import sudoku_general as general
from searches.support import sudoku_modes as modes

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku"
FILES = ["17clue_sample1000.txt", "forum_hardest_1905_11plus_sample1000.txt"]
TDOKU = {"17clue": 0.61, "forum_hardest": 64.95}  # guesses/puzzle in tdoku's README


# (label, kernel mode): the solver's default first, the plain baseline last
CONFIGS = [("subsets", modes.SUBSETS), ("locked", modes.LOCKED), ("singles", modes.SINGLES),
           ("plain", modes.SINGLES | modes.FIRST_MRV)]


def run_batch(kind: str, grids: np.ndarray, mode: int) -> tuple[np.ndarray, ...]:
    """One call of a batch kernel over all puzzles: counts, guesses, nodes, first solutions."""
    n = grids.shape[0]
    out = np.zeros_like(grids)
    counts, guesses, nodes = (np.zeros(n, dtype=np.int64) for _ in range(3))
    if kind == "band9":
        band9.batch9(grids, 2, mode, out, counts, guesses, nodes)
    else:
        general.batch_general(grids, 2, mode, out, counts, guesses, nodes,
                             *general.general_scratch(3), *general.general_tables(3))
    return counts, guesses, nodes, out


def verify(instances: list[Instance], counts: np.ndarray, out: np.ndarray, what: str) -> None:
    """Every puzzle proved unique and its solution accepted by the family's checker."""
    if not (counts == 1).all():
        bad = np.flatnonzero(counts != 1)
        raise SystemExit(f"{what}: puzzle {bad[0]} has count {counts[bad[0]]}, not 1")
    for i, instance in enumerate(instances):
        verdict = check(instance, Solution.from_array(3, out[i]))
        if not verdict.solved:
            raise SystemExit(f"{what}: puzzle {i} wrong: {verdict.reason}")


def timed(fn, repeats: int) -> tuple[list[float], list[float], object]:
    """Wall and CPU seconds of ``repeats`` calls, and the last result."""
    walls, cpus, result = [], [], None
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        result = fn()
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - w)
    return walls, cpus, result


def reference(name: str) -> str:
    for key, value in TDOKU.items():
        if name.startswith(key):
            return f"{value:.2f}"
    return "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", nargs="+", default=[str(DATA / f) for f in FILES])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--solve-calls", type=int, default=1000,
                        help="puzzles of each file solved through solve() (0: skip)")
    parser.add_argument("--skip-cells", action="store_true", help="only the band9 kernel")
    args = parser.parse_args()

    t = time.perf_counter()
    native.prepare()
    probe = np.zeros((1, 81), dtype=np.int64)
    for kind in ("band9", "cells"):
        run_batch(kind, probe, modes.SUBSETS)
    print(f"numba {numba.__version__}; compile or cache load {time.perf_counter() - t:.1f} s; "
          f"{args.repeats} repeats, best (median) puzzles/s; counting to 2 solutions")
    kinds = ["band9"] if args.skip_cells else ["band9", "cells"]
    head = (f"{'file':<26} {'kernel':<6} {'mode':<8} {'cpu p/s':>17} {'wall p/s':>17} "
            f"{'us/puzzle':>9} {'guesses':>8} {'tdoku':>6} {'nodes':>7} {'no_guess':>8}")
    spec = lookup("native", family="sudoku")
    for path in args.files:
        generated = read_file(path)
        instances = [g.instance for g in generated]
        grids = np.asarray([inst.grid for inst in instances], dtype=np.int64)
        n, name = len(instances), Path(path).name
        print(f"\n{name}: {n} puzzles\n{head}")
        rates = {}
        for kind in kinds:
            for label, mode in CONFIGS:
                run_batch(kind, grids[:10], mode)  # warm
                batch = partial(run_batch, kind, grids, mode)
                walls, cpus, (counts, guesses, nodes, out) = timed(batch, args.repeats)
                verify(instances, counts, out, f"{name} {kind} {label}")
                rates[kind, label] = n / min(cpus)
                cpu = f"{n / min(cpus):>8.0f} ({n / statistics.median(cpus):>6.0f})"
                wall = f"{n / min(walls):>8.0f} ({n / statistics.median(walls):>6.0f})"
                ref = reference(name) if mode == modes.SUBSETS else ""
                print(f"{name[:26]:<26} {kind:<6} {label:<8} {cpu:>17} {wall:>17} "
                      f"{min(cpus) / n * 1e6:>9.1f} {guesses.mean():>8.2f} {ref:>6} "
                      f"{nodes.mean():>7.1f} {(guesses == 0).mean():>8.1%}")
        for kind in kinds:
            best = rates[kind, "subsets"]
            print(f"  {kind}: subsets / plain = {best / rates[kind, 'plain']:.2f}x, "
                  f"subsets / singles = {best / rates[kind, 'singles']:.2f}x (cpu, best)")
        if args.solve_calls:
            subset = instances[:args.solve_calls]
            params = spec.defaults()
            outcomes, per = [], []
            c0, w0 = time.process_time(), time.perf_counter()
            for instance in subset:
                budget = Budget(wall_s=60.0, mem_mb=2000, deadline=time.monotonic() + 60.0)
                t = time.perf_counter()
                outcomes.append(spec.solve(instance, budget, 0, **params))
                per.append(time.perf_counter() - t)
            cpu, wall = time.process_time() - c0, time.perf_counter() - w0
            for instance, outcome in zip(subset, outcomes, strict=True):
                if outcome.counters.get("solutions") != 1 or not check(
                        instance, outcome.solution).solved:
                    raise SystemExit(f"{name}: solve() wrong on {instance.to_line()}")
            print(f"  solve() one call per puzzle ({len(subset)} puzzles, all checked, unique): "
                  f"{len(subset) / cpu:.0f}/s cpu, {len(subset) / wall:.0f}/s wall; "
                  f"median {statistics.median(per) * 1e6:.1f} us, "
                  f"mean {statistics.fmean(per) * 1e6:.1f} us per call (wall)")


if __name__ == "__main__":
    main()
