"""Seed 002's benchmark of Norvig's solver, and what each propagation rule is worth.

    taskset -c 1 python perf/sudoku_norvig.py [--data-dir DIR] [--limit SECONDS]

Part 1 reproduces the notebook's benchmark: the first 20 puzzles of Norvig's easy set
(``easy50.txt``; the notebook's ``Sudoku_Easy51.txt`` with ``max_puzzles=20``) and the 11 of
``hardest.txt``; the notebook measured 20/20 at 3.30 ms each and 11/11 at 4.45 ms each.
Part 2 compares the three solvers (no propagation, the essay, the essay plus hidden singles and
naked pairs) on ``top95.txt`` and ``hardest.txt``.

Every solve is called in-process under a fresh budget of ``--limit`` seconds (wall clock, so on
a busy core norvig-noprop's count of unknowns on top95 moves by one or two), timed with
``perf_counter`` and ``process_time`` (parsing included, as in the notebook; the CPU time is the
number to compare when other work shares the core), and its answer re-checked with
``instances.sudoku.check``; an answer the checker rejects is counted as ``wrong``. A quick look,
not a sweep: the harness (``cliffbench run sudoku-seed``) is the way to measure for real.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import searches.sudoku_norvig as norvig
from bench.api import Budget
from instances.sudoku import check, read_file

ROOT = Path(__file__).resolve().parents[1]
SOLVERS = {
    "norvig-noprop": norvig.solve_noprop,
    "norvig": norvig.solve_norvig,
    "norvig+hidden-singles+naked-pairs": norvig.solve_with_rules,
}
SEED_SETS = (("easy50.txt", 20, "easy (first 20)", "20/20, 3.30 ms"),
             ("hardest.txt", None, "hardest", "11/11, 4.45 ms"))
RULE_SETS = (("top95.txt", None, "top95"), ("hardest.txt", None, "hardest"))


@dataclass
class Tally:
    """What one solver did on one set of puzzles."""

    total: int = 0
    solved: int = 0
    unknown: int = 0
    wrong: int = 0
    ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    counters: dict[str, list[float]] = field(default_factory=dict)

    def add(self, status: str, verified: bool, ms: float, cpu_ms: float,
            counters: dict[str, float]) -> None:
        self.total += 1
        self.ms.append(ms)
        self.cpu_ms.append(cpu_ms)
        if status == "solved" and verified:
            self.solved += 1
        elif status == "unknown":
            self.unknown += 1
        else:
            self.wrong += 1
        for name, value in counters.items():
            self.counters.setdefault(name, []).append(value)

    def mean(self, name: str) -> float:
        return statistics.fmean(self.counters.get(name, [0.0]))


def run_set(solve, puzzles: list, limit: float) -> Tally:
    """Solve each puzzle under a fresh budget and check every answer."""
    tally = Tally()
    for generated in puzzles:
        instance = generated.instance
        budget = Budget(wall_s=limit, mem_mb=2000, deadline=time.monotonic() + limit)
        start, start_cpu = time.perf_counter(), time.process_time()
        out = solve(instance, budget, 1)
        ms = (time.perf_counter() - start) * 1000
        cpu_ms = (time.process_time() - start_cpu) * 1000
        verified = out.solution is not None and check(instance, out.solution).solved
        tally.add(out.status, verified, ms, cpu_ms, out.counters)
    return tally


def load(data_dir: Path, name: str, first: int | None) -> list:
    puzzles = read_file(data_dir / "sudoku" / name)
    return puzzles[:first] if first else puzzles


def seed_benchmark(data_dir: Path, limit: float) -> None:
    print("== seed 002's benchmark (the notebook: easy 20/20 at 3.30 ms, hardest 11/11 at 4.45 ms)")
    print(f"{'set':<18} {'solver':<34} {'solved':>7} {'mean ms':>9} {'cpu ms':>9} "
          f"{'max ms':>9} {'mean calls':>11}   notebook")
    for name, first, label, seed_said in SEED_SETS:
        puzzles = load(data_dir, name, first)
        for solver_name, solve in SOLVERS.items():
            t = run_set(solve, puzzles, limit)
            said = seed_said if solver_name == "norvig" else ""
            print(f"{label:<18} {solver_name:<34} {t.solved:>3}/{t.total:<3} "
                  f"{statistics.fmean(t.ms):>9.2f} {statistics.fmean(t.cpu_ms):>9.2f} "
                  f"{max(t.ms):>9.2f} {t.mean('search_calls'):>11.1f}   {said}")
    print()


def rule_values(data_dir: Path, limit: float) -> None:
    print(f"== what each rule is worth (per puzzle; limit {limit:g} s; an unknown run counts "
          "its time and calls up to the limit)")
    print(f"{'set':<8} {'solver':<34} {'solved':>7} {'unknown':>7} {'mean ms':>9} "
          f"{'cpu ms':>9} {'median ms':>9} {'max ms':>9} {'mean calls':>11} {'max calls':>9} "
          f"{'backtracks':>10} {'pairs elim':>10} {'hidden':>6}")
    for name, first, label in RULE_SETS:
        puzzles = load(data_dir, name, first)
        for solver_name, solve in SOLVERS.items():
            t = run_set(solve, puzzles, limit)
            calls = t.counters["search_calls"]
            pairs = t.counters.get("naked_pair_eliminations")
            hidden = t.counters.get("hidden_single_assignments")
            print(f"{label:<8} {solver_name:<34} {t.solved:>3}/{t.total:<3} {t.unknown:>7} "
                  f"{statistics.fmean(t.ms):>9.2f} {statistics.fmean(t.cpu_ms):>9.2f} "
                  f"{statistics.median(t.ms):>9.2f} "
                  f"{max(t.ms):>9.1f} {statistics.fmean(calls):>11.1f} {max(calls):>9.0f} "
                  f"{t.mean('backtracks'):>10.1f} "
                  f"{statistics.fmean(pairs) if pairs else float('nan'):>10.1f} "
                  f"{sum(hidden) if hidden else float('nan'):>6.0f}")
        print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data",
                    help="the reference data folder (default: ../shared/data of the project)")
    ap.add_argument("--limit", type=float, default=10.0,
                    help="seconds per puzzle (norvig-noprop needs it on top95)")
    ap.add_argument("--skip-rules", action="store_true", help="only the seed's benchmark")
    args = ap.parse_args()
    norvig.prepare()
    seed_benchmark(args.data_dir, args.limit)
    if not args.skip_rules:
        rule_values(args.data_dir, args.limit)
    print("columns: ms = wall time of the solve call (parsing included); cpu ms = its process "
          "CPU time (the fair number on a shared core); mean calls = search calls (= nodes); "
          "pairs elim = digits removed by naked pairs; hidden = squares fixed by the "
          "hidden-singles pass (in total)")


if __name__ == "__main__":
    main()
