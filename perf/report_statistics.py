"""What the report's statistics cost: seconds per table of ``build_report`` on a finished sweep.

    python perf/report_statistics.py quick [--results results] [--copies 1 4] [--repeat 3]

Loads the sweep's table once, and for each ``--copies`` K builds a table K times as long (each
copy's runs given seeds and instances of their own, so every copy adds rungs' runs, pairs and
survival curves rather than duplicates) and times, best of ``--repeat``, each step of
:func:`bench.views.stats.build_report`: normalising the rows, the summary (with its Wilson and
bootstrap intervals), the cliffs (with the fitted logistic and its bootstrap), the virtual best,
the paired comparisons, the run-time distributions' tails and the single-witness check, then the
whole build. One JSON line per (copies, step); the last line per K is the whole build with rows
per second. CPU seconds of this process are printed beside wall seconds (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from bench.table.store import load
from bench.views import paired, stats, tails, witnesses


def copies_of(df: pd.DataFrame, k: int) -> pd.DataFrame:
    """``df`` K times, copy j's seeds shifted by j * 10**6, instance ids and keys suffixed."""
    parts = []
    for j in range(k):
        part = df.copy()
        if j:
            part["seed"] = part["seed"] + j * 10**6
            for column in ("instance_id", "key"):
                part[column] = part[column].astype(str) + f"#{j}"
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def best_of(repeat: int, step: Callable[[], object]) -> tuple[float, float]:
    """(wall, cpu) seconds of the fastest of ``repeat`` calls."""
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        step()
        best = min(best, (time.perf_counter() - wall, time.process_time() - cpu))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sweep")
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    base = load(args.results / args.sweep)
    for k in args.copies:
        df = copies_of(base, k)
        data = stats.normalize(df)
        summary = stats.summarize(df)
        steps: list[tuple[str, Callable[[], object]]] = [
            ("normalize", lambda df=df: stats.normalize(df)),
            ("summary", lambda data=data: stats._summarize(data)),
            ("cliffs", lambda summary=summary: stats._cliffs_from_summary(summary)),
            ("virtual_best", lambda data=data: stats._virtual_best(data)),
            ("paired", lambda data=data: paired.compare(data)),
            ("tails", lambda data=data: tails.tail_table(data)),
            ("witnesses", lambda data=data: witnesses.single_witnesses(data)),
            ("build_report", lambda df=df: stats.build_report(df)),
        ]
        for name, step in steps:
            wall, cpu = best_of(args.repeat, step)
            line = {"sweep": args.sweep, "copies": k, "rows": len(df), "step": name,
                    "seconds": round(wall, 4), "cpu_seconds": round(cpu, 4)}
            if name == "build_report":
                line["rows_per_second"] = round(len(df) / wall)
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
