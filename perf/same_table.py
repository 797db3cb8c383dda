"""Whether two sweeps' tables are the same apart from timings: the check that a restructuring
changed no row (``python perf/same_table.py BEFORE AFTER``, each a sweep folder).

Rows are matched by ``key`` (a run's identity: solver, params, instance, repeat, seed, budget).
Columns that measure the machine are left out: the clock (``started_at``, ``t_*``), memory
(``peak_rss_mb``), the host and how limits were enforced (``limits``, ``host``), the
score's time trace, and the solvers' own timers among the ``counters``. What a run found must be
equal: status, answer, verdict, counters. A run whose status depends on the clock (a ``timeout`` in
one table, an answer in the other) is listed apart, with its times, since a shared machine can push
a run over its budget.
"""

from __future__ import annotations

import argparse
import json
import sys

import pandas as pd

TIMING = ("started_at", "t_wall", "t_cpu", "t_prepare", "t_encode", "t_solve", "peak_rss_mb",
          "limits", "host", "score_trace", "sweep")
CLOCK_BOUND = {"timeout", "unknown", "memout"}
#: Counters that are clock readings (a solver's own timers), left out of ``counters`` too.
TIMER_COUNTERS = ("wall_time",)


def without_timers(counters: object) -> object:
    """A row's ``counters`` JSON without the solver's own timers (``t_*``, ``wall_time``)."""
    if not isinstance(counters, str):
        return counters
    data = json.loads(counters)
    return json.dumps({k: v for k, v in data.items()
                       if not k.startswith("t_") and k not in TIMER_COUNTERS}, sort_keys=True)


def same_table(before: str, after: str) -> int:
    from bench.table.store import load

    a = load(before, ".").set_index("key").sort_index()
    b = load(after, ".").set_index("key").sort_index()
    for table in (a, b):
        table["counters"] = table["counters"].map(without_timers)
    print(f"before: {len(a)} rows, after: {len(b)} rows")
    only = sorted(set(a.index) ^ set(b.index))
    if only:
        print(f"{len(only)} keys in one table only, e.g. {only[:3]}")
    columns = sorted((set(a.columns) | set(b.columns)) - set(TIMING))
    missing = [c for c in columns if c not in a.columns or c not in b.columns]
    if missing:
        print(f"columns in one table only: {missing}")
    keys = sorted(set(a.index) & set(b.index))
    clock, differ = [], []
    for key in keys:
        ra, rb = a.loc[key], b.loc[key]
        changed = [c for c in columns if c not in missing
                   and not (pd.isna(ra[c]) and pd.isna(rb[c])) and str(ra[c]) != str(rb[c])]
        if not changed:
            continue
        if {ra["status"], rb["status"]} & CLOCK_BOUND:
            clock.append(f"  {ra['solver']} on {ra['source']}: {ra['status']} "
                         f"({ra['t_wall']:.2f} s) vs {rb['status']} ({rb['t_wall']:.2f} s)")
        else:
            differ.append(f"  {ra['solver']} on {ra['source']}: "
                          + ", ".join(f"{c}: {ra[c]!r} -> {rb[c]!r}" for c in changed[:4]))
    print(f"{len(keys) - len(clock) - len(differ)} of {len(keys)} rows equal apart from timings")
    if clock:
        print(f"{len(clock)} rows whose status depends on the clock (a budget reached in one):")
        print("\n".join(clock))
    if differ:
        print(f"{len(differ)} rows differ:")
        print("\n".join(differ))
    return 1 if differ or only or missing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="a sweep folder (results/NAME)")
    parser.add_argument("after", help="a sweep folder (results/NAME)")
    args = parser.parse_args(argv)
    return same_table(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
