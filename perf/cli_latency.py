"""How long the command line takes to answer: ``--help``, ``--version``, ``list`` and ``solve`` of
instances that take milliseconds, each in a new process, against ``python -c pass`` timed in the
same loop (the interpreter's own start-up on this machine at this moment).

Each command runs ``--repeats`` times, interleaved with the others so that a burst of load on a
shared machine hits all of them alike; the median and the fastest wall time are printed, with
the ratio of the median to the interpreter's. ``solve`` is "cold" in the sense of the issue: a
new process, which starts a worker (and its guard) and imports only the solver asked for; numba's
on-disk cache is warmed by one untimed run first (a first run on a machine compiles: that is
``compiling ... (first run on this machine)`` in a sweep, not the command's latency).

    python perf/cli_latency.py [--repeats 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CLI = [sys.executable, "-m", "bench.cli"]
TARGETS = {"--help": 0.3, "--version": 0.3, "list": 1.0}
SOLVE_TARGET = 1.5
SOLVES = {
    "solve norvig": ["solve", "sudoku/planted:box=2,clues=8,seed=1", "--solver", "norvig"],
    "solve dfs-restarts": ["solve", "edgematch/planted:n=4,seed=1", "--solver", "dfs-restarts"],
    "solve ida-manhattan": ["solve", "tiles/scramble:rows=3,cols=3,steps=20,seed=1",
                            "--solver", "ida-manhattan"],
    "solve alphabeta": ["solve", "games/tictactoe", "--solver", "alphabeta"],
}


def commands() -> dict[str, list[str]]:
    out = {"python -c pass": [sys.executable, "-c", "pass"]}
    out.update({f"cliffbench {arg}": [*CLI, arg] for arg in TARGETS})
    out.update({f"cliffbench {name}": [*CLI, *argv] for name, argv in SOLVES.items()})
    return out


def wall(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()}")
    return elapsed


def target_of(name: str) -> float | None:
    if name.startswith("cliffbench solve"):
        return SOLVE_TARGET
    return TARGETS.get(name.removeprefix("cliffbench "))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7, help="timed runs of each command")
    args = parser.parse_args()
    cwd = Path(__file__).resolve().parents[1]
    todo = commands()
    for argv in todo.values():  # warm the solver index, numba's cache and the OS's file cache
        wall(argv, cwd)
    times: dict[str, list[float]] = {name: [] for name in todo}
    for _ in range(args.repeats):
        for name, argv in todo.items():
            times[name].append(wall(argv, cwd))
    base = statistics.median(times["python -c pass"])
    print(f"{args.repeats} runs each, interleaved; {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f}")
    print(f"{'command':<34} {'median':>8} {'fastest':>8} {'x python':>9} {'target':>8}")
    for name, got in times.items():
        target = target_of(name)
        median = statistics.median(got)
        verdict = "" if target is None else ("ok" if median < target else "MISSED")
        print(f"{name:<34} {median:>7.3f}s {min(got):>7.3f}s {median / base:>8.1f}x "
              f"{'' if target is None else f'< {target:g} s':>8} {verdict}")


if __name__ == "__main__":
    main()
