"""Where ``cliffbench run`` of a block ladder spends its time, phase by phase, differentially.

``perf/sudoku_throughput.py`` measures the whole command; this script runs the same command
in this process (``bench.cli.main``, its output swallowed) on the same one-ladder suite, on
the whole stand-in and on its first ``--first`` puzzles, with four phases timed (wall and this
process's CPU): planning (``prepare_sweep``), the runner's loop (``Runner.run``: the worker's
time shows in its wall, not in this process's CPU), compaction (``compact``) and the terminal
summary. Each phase is printed as microseconds per puzzle of the difference, so that the fixed
start-up is left out as in the throughput script (the first run is made twice, as the first
call in this process pays its imports), and so is the worker's wall time inside its blocks
(the tables' ``block_wall``): the runner's loop can go no faster than that.

    python perf/run_phases.py [--count 49158] [--first 1000] [--block 1000]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
import time
from pathlib import Path

from sudoku_throughput import SUITE, stand_in

PHASES = (("bench.execute.sweep", "prepare_sweep"), ("bench.execute.runner", "Runner.run"),
          ("bench.execute.sweep", "compact"), ("bench.views.report", "terminal_summary"))


def timed_run(suite: Path, results: Path) -> dict[str, tuple[float, float]]:
    """(wall, CPU) seconds of each phase of one ``cliffbench run`` of ``suite``, and as
    ``blocks`` the worker's wall seconds inside its blocks (each block's ``block_wall``, from
    the table; no CPU figure)."""
    import importlib

    seconds: dict[str, tuple[float, float]] = {}
    undo = []
    for module_name, attribute in PHASES:
        owner = importlib.import_module(module_name)
        *outer, name = attribute.split(".")
        for part in outer:
            owner = getattr(owner, part)
        original = getattr(owner, name)

        def phase(*args, _original=original, _name=name, **kwargs):
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return _original(*args, **kwargs)
            finally:
                seconds[_name] = (time.perf_counter() - wall, time.process_time() - cpu)

        setattr(owner, name, phase)
        undo.append((owner, name, original))
    from bench import cli

    try:  # the command's words given: run in this process, which goes on after it
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = cli.main(["run", str(suite), "--results", str(results), "--overwrite",
                             "--no-figures"])
        if code:
            raise SystemExit(f"cliffbench run {suite} ended with status {code}")
    finally:
        for owner, name, original in undo:
            setattr(owner, name, original)
    import bench

    table = bench.load(results / suite.stem)
    seconds["blocks"] = (float(table.groupby("block")["block_wall"].max().sum()), 0.0)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=49158)
    parser.add_argument("--first", type=int, default=1000)
    parser.add_argument("--block", type=int, default=1000)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cliffbench-phases-"))
    lines = stand_in(args.count)
    runs = {}  # "first" twice: its first run pays this process's imports, which "all" would not
    for name, part in (("first", lines[:args.first]), ("first", lines[:args.first]),
                       ("all", lines)):
        (folder / f"{name}.txt").write_text("\n".join(part) + "\n")
        suite = folder / f"{name}.toml"
        suite.write_text(SUITE.format(name=name, block=args.block, file=folder / f"{name}.txt"))
        runs[name] = timed_run(suite, folder / "results")
    n = args.count - args.first
    print(f"cliffbench run, {args.count} against {args.first} puzzles (block {args.block}): "
          "us a puzzle of the difference, wall / this process's CPU")
    for name, (wall, cpu) in runs["all"].items():
        first_wall, first_cpu = runs["first"][name]
        if name == "blocks":
            print(f"  the worker inside its blocks {(wall - first_wall) / n * 1e6:5.1f} (wall; "
                  "the run is the worker's pace where this is close to the run's wall)")
            continue
        print(f"  {name:18s} {(wall - first_wall) / n * 1e6:7.1f} / "
              f"{(cpu - first_cpu) / n * 1e6:7.1f}")


if __name__ == "__main__":
    main()
