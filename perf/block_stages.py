"""Where a block ladder's time goes, stage by stage, in microseconds per puzzle.

``perf/sudoku_throughput.py`` measures ``cliffbench run`` end to end; this script takes the
same path apart, in one process, on the same kind of suite (one ladder of the 17-clue stand-in,
``block = --block``, ``native``): each stage is timed on its own over every block, and printed
as seconds and as microseconds per puzzle, so that the stage to work on next is the one on top.

The stages, in the order a sweep meets them:

1. ``plan``: the suite read, the file parsed, the run grid built (instance ids, run keys);
2. ``payload``: a block's message to the worker (every instance serialised);
3. ``worker``: the worker's ``run_block`` on it (instances read back, the batch entry, the
   outcomes described, every message encoded as it is sent: bench/execute/wire.py);
4. ``parse``: the parent decoding those messages;
5. ``rows``: the parent's rows, as a chunk's columns (every answer checked by the family's
   ``check_many``, every claim judged, the run and instance columns);
6. ``journal``: the chunks appended (packed, encoded, written, fsynced);
7. ``compact``: the journal's columns (kept in memory by the journal that wrote them), the
   typed Arrow table, the Parquet file (``bench.table.store.compact``).

No worker process, no watchdog and no summary: the process boundary's own cost is what
``perf/sudoku_throughput.py`` shows beyond these. Times are this process's CPU time (a stage
waiting on the disk's fsync shows only its CPU), so other work on the machine does not
inflate them.

    python perf/block_stages.py [--count 20000] [--block 1000]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import types
from pathlib import Path

from sudoku_throughput import SUITE, stand_in


class Stages:
    """Seconds per stage, added up."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def timed(self, name: str, work, *args):
        t = time.process_time()
        out = work(*args)
        self.seconds[name] = self.seconds.get(name, 0.0) + time.process_time() - t
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--block", type=int, default=1000)
    args = parser.parse_args()
    from bench.execute import wire
    from bench.execute.blocks import Block, BlockRuns, block_payload
    from bench.execute.sweep import prepare_sweep
    from bench.execute.worker import Worker
    from bench.table import store
    from bench.table.journal import Journal

    folder = Path(tempfile.mkdtemp(prefix="cliffbench-stages-"))
    puzzles = folder / "puzzles.txt"
    puzzles.write_text("\n".join(stand_in(args.count)) + "\n")
    suite = folder / "stages.toml"
    suite.write_text(SUITE.format(name="stages", block=args.block, file=puzzles))
    stages = Stages()
    worker = Worker([], 1)
    sent: list[str] = []

    def send(*messages):  # as the worker's main sends them
        sent.extend(wire.encode(m) for m in messages)

    prepare_sweep(str(suite))  # imports and the solver index: not a stage
    _, tasks = stages.timed("plan", prepare_sweep, str(suite))
    worker.run_block(block_payload(Block(tasks[:50]), 0), send)  # numba's cache loaded
    slot = types.SimpleNamespace(started_iso="2026-01-01T00:00:00", limits_note=lambda: "",
                                 limits_by="process-tree", t_prepare=0.0)
    journal = Journal(folder / "journal.jsonl")
    for first in range(0, len(tasks), args.block):
        block = Block(tasks[first:first + args.block])
        sent.clear()
        payload = stages.timed("payload", lambda b: json.dumps(block_payload(b, 1)), block)
        stages.timed("worker", worker.run_block, json.loads(payload), send)
        messages = stages.timed("parse", lambda: [wire.decode(m) for m in sent])
        runs = BlockRuns(block, 1.0)
        for message in messages:
            if message.get("op") == "rows":
                chunk = stages.timed("rows", runs.chunk, message, slot, "stages")
                if not all(status == "solved" and verified for status, verified in
                           zip(chunk.column("status"), chunk.column("verified"), strict=True)):
                    raise SystemExit("a row is not solved and verified")
                stages.timed("journal", journal.append_columns, chunk.same, chunk.varying,
                             len(chunk.tasks))
    journal.close()

    def compact():
        store.compact(folder, journal)

    compact()  # pandas' and pyarrow's first use: not a stage
    stages.timed("compact", compact)
    n = len(tasks)
    total = sum(stages.seconds.values())
    print(f"{n} puzzles (17-clue stand-in), block {args.block}: {total:.2f} s of CPU in these "
          f"stages, {total / n * 1e6:.1f} us a puzzle")
    for name, seconds in sorted(stages.seconds.items(), key=lambda kv: -kv[1]):
        print(f"  {name:8s} {seconds:7.3f} s  {seconds / n * 1e6:7.1f} us a puzzle "
              f"({seconds / total:5.1%})")


if __name__ == "__main__":
    main()
