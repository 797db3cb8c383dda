"""Throughput of ``native`` through ``cliffbench run`` on a block ladder, against its batch
kernel, on the 17-clue set (issue 20: the harness at >= 50% of the kernel's rate).

Three measurements, the last two in one command:

1. the batch kernel (``sudoku_band9.batch9``, counting to 2) on every puzzle of the file in one
   numba call, in this process, pinned to the core the sweeps' worker gets (best of
   ``--repeats``);
2. ``cliffbench run`` (a new process, as a user runs it: planning, the worker, every answer
   checked by the family's checker, the journal, the Parquet table, the summary; no figures)
   of a suite with
   one ladder, ``block = --block``, ``native`` only, on the whole file, each run a new sweep
   in a new results folder as a user's first run of a suite is, or with ``--overwrite``
   each run over the last one's sweep, as a rerun is (the old sweep set aside meanwhile);
   either way its worker boots and loads the solver's compiled code while the parent plans
   (bench/execute/early.py);
3. the same on the file's first ``--first`` puzzles.

The harness's rate is differential, so that the fixed start-up (imports, numba's cache load,
the worker's start, the table's first write) is left out: (N - first) / (t_all - t_first),
each time the median of ``--rounds`` runs made in turn (a single pair's difference moves by
several microseconds a puzzle with the start-up's noise). The plan is made while the worker
boots and loads its solver: as long as it is the shorter of the two (on this machine, up to
somewhat more than this file's size), the plan's per-puzzle cost is part of neither run's
wall time and so not of the differential, which then measures the runs, the table and the
summary. So the script also times the plan alone (``prepare_sweep`` of both suites, in turn,
in a process of its own) and prints the differential with the plan's added, as it is once a
file's plan outlasts the worker's start.
Every run's row must be ``solved`` and ``verified`` (read back from both tables), else the
script stops. The printed ratio is harness rate / kernel rate. The CPU of the command's
processes is split, also differentially, into the worker's chunks (the rows' ``t_cpu``: the
batch call and the columns it sends) and the rest, mostly the command's own process, whose
per-puzzle work bounds the rate once it exceeds the worker's.

The full list of 49,158 17-clue puzzles is not in the reference data (it holds every 49th:
``sudoku/17clue_sample1000.txt``). Give it with ``--file`` where you have it (tdoku's
``puzzles2_17_clue``: ``#`` lines are dropped). Without it, the script writes a stand-in of
the same size into a temporary folder: the 1,000 sampled puzzles, then 48,158 images of them
under the Sudoku symmetries (digit relabelling, rows within bands, bands, columns within
stacks, stacks, transposition; seeded: the same file every time), each with one solution
as its original has, and as hard for a search up to the order of its branching ties. Its first
1,000 are the sample itself.

``--baseline DIR`` times another checkout of cliffbench (a git worktree of the commit to
compare with) in the same rounds, the two taking turns to go first (on this machine the
command run first in a round gains up to a microsecond a puzzle), and prints its rate too and
the ratio of the two differential times: a change's effect measured in one command.

    python perf/sudoku_throughput.py [--file PUZZLES] [--count 49158] [--first 1000]
        [--block 1000] [--repeats 3] [--rounds 3] [--keep DIR] [--baseline DIR]
        [--overwrite]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku"
SAMPLE = DATA / "17clue_sample1000.txt"


def puzzle_lines(path: Path) -> list[str]:
    """The 81-character puzzles of a file (``#`` comment and blank lines dropped)."""
    lines = path.read_text().replace("\r", "").split("\n")
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def symmetric_image(grid: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One random image of a (81,) grid under the Sudoku symmetries (validity and the number of
    solutions are kept)."""
    board = grid.reshape(9, 9)
    rows = np.concatenate([3 * b + rng.permutation(3) for b in rng.permutation(3)])
    cols = np.concatenate([3 * s + rng.permutation(3) for s in rng.permutation(3)])
    board = board[rows][:, cols]
    if rng.integers(2):
        board = board.T
    relabel = np.concatenate([[0], 1 + rng.permutation(9)])
    return relabel[board].ravel()


def stand_in(count: int, seed: int = 20) -> list[str]:
    """The sample, then symmetric images of its puzzles in turn, ``count`` in all."""
    sample = puzzle_lines(SAMPLE)
    grids = [np.array([0 if c == "." else int(c) for c in line]) for line in sample]
    rng = np.random.Generator(np.random.PCG64(seed))
    out = list(sample[:count])
    while len(out) < count:
        grid = symmetric_image(grids[len(out) % len(grids)], rng)
        out.append("".join("." if v == 0 else str(v) for v in grid))
    return out


def kernel_rate(lines: list[str], repeats: int) -> float:
    """Puzzles per second of one batch9 call over all of them (best CPU time of ``repeats``),
    every count checked to be 1."""
    import searches.sudoku_native as native
    from searches.support import sudoku_band9 as band9
    from searches.support import sudoku_modes as modes

    native.prepare()
    grids = np.array([[0 if c == "." else int(c) for c in line] for line in lines],
                     dtype=np.int64)
    n = len(lines)
    best = float("inf")
    for _ in range(repeats):
        out = np.zeros_like(grids)
        counts, guesses, nodes = (np.zeros(n, dtype=np.int64) for _ in range(3))
        c = time.process_time()
        band9.batch9(grids, 2, modes.SUBSETS, out, counts, guesses, nodes)
        best = min(best, time.process_time() - c)
        if not (counts == 1).all():
            raise SystemExit("the kernel found a puzzle without exactly one solution")
    return n / best


SUITE = """name = "{name}"
timeout = 10
jobs = 1
[[solver]]
name = "native"
[[ladder]]
name = "throughput"
block = {block}
rungs = [ {{ label = "17", instances = ["{file}"] }} ]
"""


def children_cpu() -> float:
    """CPU seconds (user + system) of this process's waited-for descendants so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


#: The checkout this script belongs to (its ``cliffbench run`` is the one measured).
ROOT = Path(__file__).resolve().parents[1]


def harness_run(folder: Path, name: str, file: Path, block: int, root: Path = ROOT,
                overwrite: bool = False) -> tuple[float, float, float]:
    """Wall seconds and CPU seconds (the command's processes, the worker's included) of
    ``cliffbench run`` of the one-ladder suite on ``file`` (no report) with the code of the
    checkout ``root``, and the worker's CPU seconds in its chunks (the sum of the rows'
    ``t_cpu``: the solver call and the columns it sends), every row checked to be solved and
    verified.

    The sweep is a new one, in a results folder of its own (removed once read), as a user's
    first run of a suite: its worker boots while the sweep is planned (bench/execute/early.py).
    ``overwrite``: the run goes over the sweep of the same name in ``folder/results`` with
    ``--overwrite``, as a user's rerun does (the old sweep set aside while the worker boots
    and the new one is planned, deleted once it is)."""
    suite = folder / f"{name}.toml"
    suite.write_text(SUITE.format(name=name, block=block, file=file))
    results = folder / "results" if overwrite else Path(tempfile.mkdtemp(dir=folder)) / "results"
    cmd = [sys.executable, "-m", "bench.cli", "run", str(suite), "--results", str(results),
           *(["--overwrite"] if overwrite else []), "--no-figures"]
    env = {**os.environ, "PYTHONPATH": str(root)}
    t, cpu = time.perf_counter(), children_cpu()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=root, env=env)
    wall, cpu = time.perf_counter() - t, children_cpu() - cpu
    import bench

    table = bench.load(results / name)
    if not overwrite:
        shutil.rmtree(results.parent)
    if not ((table["status"] == "solved") & table["verified"].fillna(False)).all():
        raise SystemExit(f"{name}: a row is not solved and verified")
    return wall, cpu, float(table["t_cpu"].sum())


PLAN_TIMER = """
import gc, statistics, sys, time
from bench.execute.sweep import prepare_sweep
first, full, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
gc.disable()  # no collection walks a plan: a sweep keeps its plan out of them
prepare_sweep(first)  # the imports and the solver index: not the plan's
seconds = {first: [], full: []}
for _ in range(rounds):
    for suite in (first, full):
        t = time.perf_counter()
        prepare_sweep(suite)
        seconds[suite].append(time.perf_counter() - t)
print(statistics.median(seconds[first]), statistics.median(seconds[full]))
"""


def plan_seconds(folder: Path, root: Path, rounds: int) -> tuple[float, float]:
    """Median wall seconds of the plan alone (``prepare_sweep`` of the first and the all
    suite, in turn, ``rounds`` times each) with the code of the checkout ``root``, in a
    process of its own after a first plan (its imports left out), cyclic collections off
    (``run_sweep`` keeps its plan out of them; a plan made alone is walked by the next one)."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", PLAN_TIMER, str(folder / "first.toml"),
                          str(folder / "all.toml"), str(rounds)], check=True, cwd=root,
                         env=env, capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--file", type=Path, default=None)
    parser.add_argument("--count", type=int, default=49158, help="puzzles of the stand-in")
    parser.add_argument("--first", type=int, default=1000)
    parser.add_argument("--block", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3,
                        help="runs of each command, alternating (the medians are compared)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the sweeps here")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout of cliffbench, timed in the same rounds")
    parser.add_argument("--overwrite", action="store_true",
                        help="each run over the last one's sweep (--overwrite), not a new one")
    args = parser.parse_args()
    if args.baseline is not None and not (args.baseline / "bench" / "cli.py").is_file():
        parser.error(f"--baseline {args.baseline}: not a checkout of cliffbench "
                     "(no bench/cli.py)")
    folder = args.keep or Path(tempfile.mkdtemp(prefix="cliffbench-throughput-"))
    folder.mkdir(parents=True, exist_ok=True)
    lines = puzzle_lines(args.file) if args.file else stand_in(args.count)
    what = str(args.file) if args.file else f"stand-in of {len(lines)} (sample + symmetric images)"
    full, first = folder / "all.txt", folder / "first.txt"
    full.write_text("\n".join(lines) + "\n")
    first.write_text("\n".join(lines[:args.first]) + "\n")
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, [cpus[0]])  # the core the sweep's one worker is pinned to
    rate = kernel_rate(lines, args.repeats)
    os.sched_setaffinity(0, cpus)
    print(f"{what}: {len(lines)} puzzles; block {args.block}; "
          + ("each run over the last one's sweep (--overwrite)" if args.overwrite else
             "each run a new sweep")
          + " (its worker boots and loads the solver while the sweep is planned: the plan's "
          "cost is left out while it is the shorter)")
    print(f"batch kernel (batch9, one call, core {cpus[0]}): {rate:,.0f} puzzles/s (cpu, best "
          f"of {args.repeats})")
    trees = {"this checkout": ROOT, **({"baseline": args.baseline} if args.baseline else {})}
    rounds: dict[str, list[Any]] = {label: [] for label in trees}
    for number in range(args.rounds):
        labels = list(trees)[number % len(trees):] + list(trees)[:number % len(trees)]
        for label in labels:  # each tree first in its turn
            rounds[label].append(tuple(
                harness_run(folder, name, file, args.block, trees[label], args.overwrite)
                for name, file in (("first", first), ("all", full))))
    n = len(lines) - args.first
    plans = {label: plan_seconds(folder, root, args.rounds) for label, root in trees.items()}
    times = {label: report(label, root, rounds[label], len(lines), args.first, rate,
                           plans[label])
             for label, root in trees.items()}
    if args.baseline is not None:
        print(f"this checkout / baseline, differential time a puzzle: "
              f"{times['this checkout'] / times['baseline']:.3f} "
              f"({1e6 * times['this checkout'] / n:.1f} against "
              f"{1e6 * times['baseline'] / n:.1f} us)")


def report(label: str, root: Path, rounds: list[Any], count: int, first: int, rate: float,
           plan: tuple[float, float]) -> float:
    """Print one checkout's figures from its rounds and its plan's seconds (first, all);
    return its differential wall seconds."""
    print(f"{label} ({root}):")
    if len(rounds) > 1:
        print(f"{len(rounds)} rounds, wall s: first "
              f"{' '.join(f'{f[0]:.2f}' for f, _ in rounds)}, all "
              f"{' '.join(f'{a[0]:.2f}' for _, a in rounds)} (medians compared)")
    (t_first, cpu_first, chunks_first), (t_all, cpu_all, chunks_all) = (
        tuple(statistics.median(run[k] for run in runs) for k in range(3))
        for runs in zip(*rounds, strict=True))
    n = count - first
    harness = n / (t_all - t_first)
    harness_cpu = n / (cpu_all - cpu_first)
    print(f"cliffbench run: {count} puzzles {t_all:.2f} s, first {first} "
          f"{t_first:.2f} s; differential {harness:,.0f} puzzles/s "
          f"({1e6 / harness:.1f} us a puzzle), every row solved and verified")
    print(f"  CPU of all its processes: {cpu_all:.2f} s, first {cpu_first:.2f} s; "
          f"differential {harness_cpu:,.0f} puzzles per CPU second "
          f"({1e6 / harness_cpu:.1f} us a puzzle); load average {os.getloadavg()[0]:.2f}")
    chunks = (chunks_all - chunks_first) / n
    print(f"    of which the worker's chunks (its rows' t_cpu): {1e6 * chunks:.1f} us a puzzle; "
          f"the rest (this command's own process: planning, checking, journal, table, "
          f"summary; the worker between chunks): {1e6 / harness_cpu - 1e6 * chunks:.1f}")
    print(f"ratio harness / kernel: {harness / rate:.1%} (wall); {harness_cpu / rate:.1%} "
          "(CPU: both cores' work for the harness against one core's for the kernel)")
    planned = (plan[1] - plan[0]) / n
    counted = n / (t_all - t_first + plan[1] - plan[0])
    print(f"  the plan alone (prepare_sweep, a process of its own): {plan[1]:.3f} s, first "
          f"{plan[0]:.3f} s, {1e6 * planned:.1f} us a puzzle of the difference, made while "
          f"the worker starts (out of the wall times above while it is the shorter); added "
          f"to them, as once a file's plan outlasts that start: {1e6 / counted:.1f} us a "
          f"puzzle, {counted / rate:.1%} of the kernel")
    return t_all - t_first


if __name__ == "__main__":
    main()
