"""Eternity II score against time, one line per (solver, seed), from the score traces that
``perf/eternity_score.py --trace-out`` writes.

    python perf/eternity_plot.py TRACES.json [MORE.json ...] --out eternity_score.png

Each trace is a step function (the best score so far, from the first board to the end of the
run); methods (a solver, with the parameters that differ between its runs drawn) get a colour
each, seeds a line style each. Time is on a log axis so the first
seconds and the last minutes both show; grey lines mark issue 20's targets (458 at 600 s, 460
at 3600 s).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)), (0, (8, 2)))
COLOURS = ("tab:blue", "tab:red", "tab:green", "tab:purple", "tab:orange")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("traces", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=Path("eternity_score.png"))
    parser.add_argument("--ymin", type=float, default=440.0)
    args = parser.parse_args()
    runs = [run for path in args.traces for run in json.loads(path.read_text())]
    methods = [method(run, runs) for run in runs]
    solvers = list(dict.fromkeys(methods))
    fig, ax = plt.subplots(figsize=(8, 4.8))
    for run, name in zip(runs, methods, strict=True):
        trace = [(t, s) for t, s in run["trace"] if s >= args.ymin]
        if not trace:
            continue
        times = [max(t, 0.1) for t, _ in trace] + [run["seconds"]]
        scores = [s for _, s in trace] + [trace[-1][1]]
        colour = COLOURS[solvers.index(name) % len(COLOURS)]
        seed = int(run["seed"])
        ax.step(times, scores, where="post", color=colour, linestyle=STYLES[seed % len(STYLES)],
                label=f"{name} seed {seed}: {run['score']} at {run['seconds']:g} s"
                      f"{'' if run.get('checked', True) else ' (REJECTED)'}")
    for score, what in ((458, "issue 20 target at 600 s"), (460, "target at 3600 s")):
        ax.axhline(score, color="grey", linewidth=0.8, linestyle=(0, (2, 4)))
        ax.text(0.12, score + 0.15, f"{score}: {what}", color="grey", fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("seconds (wall clock, one process)")
    ax.set_ylabel("matched joins (of 480)")
    ax.set_title("Eternity II, 5 hints, score mode: best board so far")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out} ({len(runs)} runs)")


def method(run: dict, runs: list[dict]) -> str:
    """A run's method: its solver, and the parameters whose values differ between the runs
    of that solver drawn (so that two settings of one solver are told apart)."""
    same = [r["params"] for r in runs if r["solver"] == run["solver"]]
    varied = sorted(k for k in run["params"] if len({repr(p.get(k)) for p in same}) > 1)
    return " ".join([run["solver"], *(f"{k}={run['params'][k]}" for k in varied)])


if __name__ == "__main__":
    main()
