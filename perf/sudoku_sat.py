"""Puzzles per second of the SAT solver: one shared solver with the clues as assumptions
against a fresh solver per puzzle, minimal against extended encoding, uniqueness proved.

    taskset -c 1 python perf/sudoku_sat.py [--data-dir DIR] [--first N] [--engine E]
                                                 [--with-native]

On ``forum_hardest_1905_11plus_sample1000.txt`` and ``17clue_sample1000.txt`` (1000 puzzles
each). Every puzzle is solved in-process by ``encoders.sudoku_sat.solve`` under a fresh budget
with ``unique=True`` (the second, blocked call proves the solution unique), timed with
``perf_counter`` around the call alone; answers are checked with ``instances.sudoku.check``
after the timed loop, and a run that is not solved, not checked or not counted unique is
reported as ``bad``. The shared solver is dropped before each reuse row, so its build (the
first puzzle's ``t_encode``) is inside that row's time; ``build ms`` shows it.

The question this answers (the issue): is SAT with assumptions within 2x of the native solver
on the forum set? ``--with-native`` imports ``searches.sudoku_native`` and runs every solver it
registers (with ``unique=True`` when it takes it) on the same puzzles in the same process; the
``x native`` column is then each row's CPU time over the fastest native row's. Without it
(or when that module is absent) the column is left out.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import encoders.sudoku_sat as sat
from bench.api import REGISTRY, Budget
from instances.sudoku import check, read_file

ROOT = Path(__file__).resolve().parents[1]
SETS = ("forum_hardest_1905_11plus_sample1000.txt", "17clue_sample1000.txt")
VARIANTS = [(f"sat {enc} {'assumptions' if reuse else 'fresh'}",
             {"encoding": enc, "reuse": reuse}) for enc in sat.ENCODINGS for reuse in (True, False)]
LIMIT_S = 60.0  # per puzzle; no puzzle of these sets comes near it


@dataclass
class Row:
    """One solver variant on one set."""

    label: str
    seconds: list[float]
    cpu: list[float]
    bad: int
    counters: dict[str, list[float]]
    build_ms: float | None = None

    @property
    def total(self) -> float:
        return sum(self.seconds)

    def mean(self, name: str) -> float:
        values = self.counters.get(name)
        return statistics.fmean(values) if values else float("nan")


def timed(solve: Callable[..., Any], puzzles: list, params: dict[str, Any]) -> list[tuple]:
    """(outcome, wall seconds, CPU seconds) per puzzle: the call alone is timed, nothing is
    checked here. The CPU time is this process's (every engine here runs on one thread): on a
    core shared with other work it is the steadier of the two."""
    out = []
    for generated in puzzles:
        budget = Budget(wall_s=LIMIT_S, mem_mb=4000, cores=1,
                        deadline=time.monotonic() + LIMIT_S)
        start, cpu = time.perf_counter(), time.process_time()
        result = solve(generated.instance, budget, 1, **params)
        out.append((result, time.perf_counter() - start, time.process_time() - cpu))
    return out


def judged(label: str, puzzles: list, runs: list[tuple], counted: bool) -> Row:
    """Check every answer (outside the timed loop) and gather the counters."""
    bad, counters = 0, {}
    for generated, (result, _, _) in zip(puzzles, runs, strict=True):
        ok = (result.status == "solved" and result.solution is not None
              and check(generated.instance, result.solution).solved
              and (not counted or result.counters.get("solutions") == 1))
        bad += not ok
        for name, value in result.counters.items():
            counters.setdefault(name, []).append(float(value))
    return Row(label, [s for _, s, _ in runs], [c for _, _, c in runs], bad, counters)


def native_solvers() -> list[tuple[str, Callable[..., Any], dict[str, Any]]]:
    """Every solver ``searches.sudoku_native`` registers, with unique=True where it takes it
    (an empty list when the module does not exist yet)."""
    try:
        importlib.import_module("searches.sudoku_native")
    except ModuleNotFoundError as exc:
        print(f"(--with-native: {exc}; no native rows)")
        return []
    specs = [s for s in REGISTRY.values() if s.module == "searches.sudoku_native"]
    for spec in specs:
        if spec.prepare is not None:
            spec.prepare()  # numba compilation (or its cache) stays out of the timed loop
    return [(f"native {s.name}", s.solve,
             s.resolve({"unique": True} if "unique" in s.defaults() else {})) for s in specs]


def run_set(path: Path, first: int | None, engine: str, with_native: bool) -> list[Row]:
    puzzles = read_file(path)[:first] if first else read_file(path)
    rows = []
    for label, params in VARIANTS:
        sat.drop_shared()  # so the shared solver's build is inside this row
        runs = timed(sat.solve, puzzles, {**params, "engine": engine, "unique": True})
        row = judged(label, puzzles, runs, counted=True)
        if params["reuse"]:
            row.build_ms = 1000 * runs[0][0].t_encode
        rows.append(row)
    sat.drop_shared()
    if with_native:
        for label, solve, params in native_solvers():
            runs = timed(solve, puzzles, params)
            rows.append(judged(label, puzzles, runs, counted="unique" in params))
    return rows


def report(name: str, rows: list[Row]) -> None:
    natives = [sum(r.cpu) for r in rows if r.label.startswith("native")]
    best_native = min(natives) if natives else None
    n = len(rows[0].seconds)
    print(f"== {name} ({n} puzzles, uniqueness proved)")
    head = (f"{'solver':<28} {'puzzles/s':>10} {'cpu p/s':>8} {'mean ms':>8} {'median ms':>9} "
            f"{'max ms':>8} {'build ms':>8} {'conflicts':>9} {'decisions':>9} {'bad':>4}")
    print(head + (f" {'x native':>8}" if best_native else ""))
    for r in rows:
        ms = [1000 * s for s in r.seconds]
        build = f"{r.build_ms:8.1f}" if r.build_ms is not None else f"{'':>8}"
        line = (f"{r.label:<28} {n / r.total:>10.1f} {n / sum(r.cpu):>8.1f} "
                f"{statistics.fmean(ms):>8.3f} "
                f"{statistics.median(ms):>9.3f} {max(ms):>8.2f} {build} "
                f"{r.mean('conflicts'):>9.1f} {r.mean('decisions'):>9.1f} {r.bad:>4}")
        print(line + (f" {sum(r.cpu) / best_native:>8.2f}" if best_native else ""))
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data",
                    help="the reference data folder (default: ../shared/data of the project)")
    ap.add_argument("--first", type=int, default=None, help="only the first N puzzles of a set")
    ap.add_argument("--engine", default=sat.DEFAULT_ENGINE, choices=sat.ENGINES)
    ap.add_argument("--with-native", action="store_true",
                    help="also run searches/sudoku_native.py's solvers, for the ratio")
    args = ap.parse_args()
    sat.prepare()
    print(f"engine {args.engine}; times are per call (encode + solve + the uniqueness call)\n")
    for name in SETS:
        report(name, run_set(args.data_dir / "sudoku" / name, args.first, args.engine,
                             args.with_native))
    print("columns: puzzles/s by wall time, cpu p/s by this process's CPU time (steadier on a "
          "shared core); mean/median/max ms are wall; build ms = the shared solver's build, "
          "paid by the first puzzle (inside the row's time); conflicts/decisions = mean per "
          "puzzle, both calls; bad = not solved, rejected by the checker, or not counted unique")


if __name__ == "__main__":
    main()
