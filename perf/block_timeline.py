"""Who paces a block sweep: the worker's and the parent's time during ``cliffbench run`` of a
block ladder, from their event stamps (bench/execute/timeline.py).

Runs ``cliffbench run`` (a new process, no figures) of the one-ladder suite of
``perf/sudoku_throughput.py`` (``native``, ``block = --block``) on the 49,158-puzzle stand-in
with ``CLIFFBENCH_TIMELINE`` set, merges the parent's and the worker's stamps (one clock), and
prints, in microseconds per puzzle over the run (from the worker's second block, which begins
after the first block's preparation, to its last rows):

- the worker: solving its chunks (the solver's batch call and the columns it makes), reading
  a block (the JSON line and the instances), sending the last rows of a block, waiting for its
  next block, the rest (between chunks);
- the parent: making, checking and journaling the rows of the chunks, converting the table's
  chunks ahead (bench/table/ahead.py, in what would be its waits), reading the worker's
  messages and giving out blocks, waiting (in ``select``).

Whichever waits less paces the run: the parent's waiting is slack where the worker paces it, and
the worker's waiting is the parent's lateness where the parent does. Planning, compaction and
the summary are outside this span (``perf/run_phases.py`` times them).

    python perf/block_timeline.py [--count 49158] [--block 1000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from sudoku_throughput import SUITE, stand_in


def read_stamps(folder: Path, role: str) -> list[tuple[float, str]]:
    """The stamps of every process of a role, in time order."""
    stamps = []
    for path in folder.glob(f"{role}-*.tl"):
        for line in path.read_text().splitlines():
            clock, event = line.split(" ", 1)
            stamps.append((float(clock), event))
    return sorted(stamps)


def spans(stamps: list[tuple[float, str]], begin: str, end: str, since: float, until: float
          ) -> float:
    """Seconds spent between each ``begin`` and the next ``end`` (clipped to the window)."""
    total, opened = 0.0, None
    for clock, event in stamps:
        if event == begin:
            opened = clock
        elif event == end and opened is not None:
            total += max(0.0, min(clock, until) - max(opened, since))
            opened = None
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=49158)
    parser.add_argument("--block", type=int, default=1000)
    parser.add_argument("--keep", type=Path, default=None, help="keep the sweep and stamps here")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="cliffbench-timeline-"))
    stamps = folder / "stamps"
    stamps.mkdir(parents=True, exist_ok=True)
    for old in stamps.glob("*.tl"):
        old.unlink()
    lines = stand_in(args.count)
    (folder / "all.txt").write_text("\n".join(lines) + "\n")
    suite = folder / "all.toml"
    suite.write_text(SUITE.format(name="all", block=args.block, file=folder / "all.txt"))
    subprocess.run([sys.executable, "-m", "bench.cli", "run", str(suite), "--results",
                    str(folder / "results"), "--overwrite", "--no-figures"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={**os.environ, "CLIFFBENCH_TIMELINE": str(stamps)})
    worker, parent = read_stamps(stamps, "worker"), read_stamps(stamps, "parent")
    blocks = [clock for (clock, event), (_, then) in zip(worker, worker[1:], strict=False)
              if event == "line" and then == "instances"]  # not the solvers prepared ahead
    ends = [clock for clock, event in worker if event == "send>"]
    if len(blocks) < 3 or not ends:
        raise SystemExit("too few blocks stamped: give a larger --count or a smaller --block")
    since, until = blocks[1], ends[-1]
    counted = sum(1 for clock in blocks[1:] if clock <= until)
    n = args.count - min(args.block, args.count)  # the first block is left out
    per = 1e6 / n
    span = until - since
    solving = spans(worker, "chunk<", "chunk>", since, until)
    reading = spans(worker, "line", "instances", since, until)
    sending = spans(worker, "send<", "send>", since, until)
    waiting = spans(worker, "send>", "line", since, until)
    rows = spans(parent, "given", "recorded", since, until)
    idle = spans(parent, "wait<", "wait>", since, until)
    ahead = spans(parent, "idle<", "idle>", since, until)
    print(f"{n} puzzles in {counted} blocks of {args.block} (the first left out): the run "
          f"{span * per:.1f} us a puzzle, from the worker's second block to its last rows")
    print(f"  worker: solving chunks {solving * per:.1f}, reading blocks {reading * per:.1f}, "
          f"sending last rows {sending * per:.1f}, waiting for a block {waiting * per:.1f}, "
          f"the rest {(span - solving - reading - sending - waiting) * per:.1f}")
    print(f"  parent: rows (check, classify, journal) {rows * per:.1f}, converting the table "
          f"ahead {ahead * per:.1f}, reading messages and giving out blocks "
          f"{(span - rows - ahead - idle) * per:.1f}, waiting {idle * per:.1f}")
    pace = "the worker" if waiting < idle else "the parent"
    print(f"paced by {pace} (it waits less)")


if __name__ == "__main__":
    main()
