"""Adaptive ladders against the full grid: the same cliff, within its interval, for fewer runs?

    XDG_CACHE_HOME=... python perf/adaptive_ladders.py [--jobs 2] [--timeout 2] [--seeds 6]
        [--runs-share 0.4] [--width W] [--only edgematch|sudoku] [--results DIR]

For each of two ladders -- edge-matching (``edgematch/planted``, no hints, vary ``n`` 5..12) and
Sudoku (``sudoku/planted`` 16x16, vary ``clues`` 140 down to 108) -- this runs two real sweeps
of the same candidates: the full grid (every rung, every seed, ``early_abort = false``) and the
adaptive ladder (``adaptive = { runs = share x the grid's runs per config, width = W }``). Both
tables go through the report's cliffs (bench/views/stats.py: the fitted 50% crossing with its
seeded bootstrap interval). Printed per config: runs used (adaptive / full, and the ratio), both
fitted cliffs with their intervals, why the adaptive stream stopped, and whether the full grid's
fitted cliff lies inside the adaptive interval. Every run is a real solver run under the
harness, so a run near the budget may go either way between the two sweeps.
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import time
from pathlib import Path

import pandas as pd

from bench.execute.sweep import run_sweep
from bench.table.store import load
from bench.views import stats

LADDERS = {
    "edgematch": {
        # no hints: at 2 s sat falls off near n = 9, dfs-restarts later
        "generator": "edgematch/planted", "params": "{ border = 5, inner = 17, hints = 0 }",
        "vary": "n", "values": [5, 6, 7, 8, 9, 10, 11, 12], "solvers": ["dfs-restarts", "sat"],
        "width": 1.0,
    },
    # 16x16: plain backtracking (no propagation) falls off between 120 and 110 clues at 2 s.
    # A falling ladder: the report and the scheduler both fit it on the clue values. Width 8
    # (two rungs): the full grid's own interval with 6 seeds is about 4.4 clues wide, so 4
    # cannot be reached with 40% of its runs (with --width 4 the stream stops on its budget).
    "sudoku": {
        "generator": "sudoku/planted", "params": "{ box = 4 }",
        "vary": "clues", "values": [140, 136, 132, 128, 124, 120, 116, 112, 108],
        "solvers": ["norvig-noprop"], "width": 8.0,
    },
}


def suite_text(name: str, ladder: dict, seeds: int, timeout: float,
               adaptive: str | None) -> str:
    solvers = "".join(f'[[solver]]\nname = "{s}"\n' for s in ladder["solvers"])
    extra = f"adaptive = {adaptive}\n" if adaptive else ""
    return (f'name = "{name}"\ntimeout = {timeout}\nmem = 3000\nearly_abort = false\n'
            f'{solvers}[[ladder]]\nname = "{name}"\ngenerator = "{ladder["generator"]}"\n'
            f'params = {ladder["params"]}\nvary = "{ladder["vary"]}"\n'
            f'values = {ladder["values"]}\nseeds = {list(range(1, seeds + 1))}\n{extra}')


def fmt(x: object) -> str:
    if x is None or pd.isna(x):
        return "outside"
    try:
        return f"{float(x):.2f}"
    except (TypeError, ValueError):
        return "outside"


def cliffs_of(directory: Path) -> dict[str, dict]:
    """The report's cliffs per config, with its run count; positions in ``vary``'s units (a
    falling ladder, such as clues, is fitted on its values too)."""
    df = load(directory)
    table = stats.cliffs(df)
    runs = df.groupby("solver").size()
    out = {}
    for row in table.to_dict("records"):
        assert row["fit_axis"] == "rung", row
        row["runs"] = int(runs[row["solver"]])
        out[row["config"]] = row
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--runs-share", type=float, default=0.4)
    parser.add_argument("--width", type=float, default=None,
                        help="the interval width to stop at (default: per ladder, 1 board "
                             "side for edge matching, 8 clues for Sudoku)")
    parser.add_argument("--only", choices=sorted(LADDERS), action="append")
    parser.add_argument("--results", type=Path, default=None)
    args = parser.parse_args()
    results = args.results or Path(tempfile.mkdtemp(prefix="adaptive-ladders-"))
    results.mkdir(parents=True, exist_ok=True)
    print(f"results in {results}; timeout {args.timeout:g} s, {args.seeds} seeds, "
          f"{args.jobs} jobs, budget {args.runs_share:.0%} of the grid")
    for key in args.only or list(LADDERS):
        ladder = LADDERS[key]
        per_config = len(ladder["values"]) * args.seeds
        budget = math.floor(args.runs_share * per_config)
        spec = f"{{ runs = {budget}, width = {args.width or ladder['width']} }}"
        outs = {}
        for kind, adaptive in (("full", None), ("adaptive", spec)):
            name = f"{key}-{kind}"
            path = results / f"{name}.toml"
            path.write_text(suite_text(name, ladder, args.seeds, args.timeout, adaptive))
            start = time.monotonic()
            outs[kind] = run_sweep(str(path), results=results, jobs=args.jobs, progress=False,
                                   overwrite=True)
            print(f"{name}: {time.monotonic() - start:.0f} s wall")
        full, adap = (cliffs_of(outs[k]) for k in ("full", "adaptive"))
        manifest = json.loads((outs["adaptive"] / "manifest.json").read_text())
        why = {s["config"]: s for s in manifest["adaptive"]}
        print(f"\n{key}: {ladder['generator']} {ladder['params']}, vary {ladder['vary']} "
              f"{ladder['values']}, adaptive = {spec}")
        for config in sorted(full):
            f, a = full[config], adap.get(config, {})
            runs_a, runs_f = int(a.get("runs", 0)), int(f["runs"])
            low, high = a.get("fit_cliff_low"), a.get("fit_cliff_high")
            inside = (not any(v is None or pd.isna(v) for v in (low, high, f["fit_cliff"]))
                      and low <= f["fit_cliff"] <= high)
            print(f"  {config}: runs {runs_a}/{runs_f} = {runs_a / runs_f:.0%}; "
                  f"full cliff {fmt(f['fit_cliff'])} [{fmt(f['fit_cliff_low'])}, "
                  f"{fmt(f['fit_cliff_high'])}] ({f['fit_where']}); adaptive cliff "
                  f"{fmt(a.get('fit_cliff'))} [{fmt(a.get('fit_cliff_low'))}, "
                  f"{fmt(a.get('fit_cliff_high'))}] ({a.get('fit_where')}); full inside "
                  f"adaptive interval: {'yes' if inside else 'no'}; stopped: "
                  f"{why.get(config, {}).get('stopped')}; runs per rung "
                  f"{why.get(config, {}).get('runs_per_rung')}")


if __name__ == "__main__":
    main()
