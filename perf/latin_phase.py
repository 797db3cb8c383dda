"""A small phase sweep of quasigroups with holes: where each Latin solver's peak and cliff lie,
next to the QWH literature's peak.

Runs, through ``bench.run`` (the real runner and checker), the ladder ``latin/qwh`` of one order
(default 20) over hole fractions ``--lo`` to ``--hi`` in steps of ``--step`` (0.30..0.70 by
0.04), ``--seeds`` instances a rung (3), every registered Latin solver at its defaults (or
``--solvers``), every rung run (no early abort), a short budget (``--timeout``, 2 s). Then,
per solver config:

- the peaks: the rung of the largest median over every run made of ``work_nodes`` (where the
  config counts nodes; a failed run's count is a lower bound), and of the wall time (a failure
  counted at the budget), ``flat`` when every rung's median is the same. A solver whose nodes
  are its decisions makes one per hole it does not fill by propagation, so its work grows with
  the holes even where no rung is hard: read the work peak beside the time peak;
- the cliff: the first rung solved on fewer than half of its runs (the report's cliff,
  ``bench.views.stats.cliffs``), ``never`` when it never falls;
- the peak above the trend: the rung where the median time stands highest above the straight
  line (log scale) from the first rung's median to the last one's, as a multiple of that line.
  The time of a solver whose model grows with the holes rises towards the top rung whatever
  the hardness; its hardness bump stands out against the line;

each as the hole fraction and as holes / n^1.55 (n the order), the scaling of the number of
holes with the order under which Achlioptas, Gomes, Kautz and Selman (AAAI 2000, "Generating
satisfiable problem instances") found the hardness peaks of different orders to line up. Two
reference lines are printed the same two ways:

- a peak at 42% holes at order 33, i.e. 0.42 * 33^0.45 = 2.03 in holes / n^1.55, as the QWH
  peak is often quoted; it could not be checked against the paper's figures here (only the
  abstracts were at hand), so it is a reference line, not a published measurement. Under a
  constant holes / n^1.55 it sits at the fraction 2.03 / n^0.45 at order n (52.6% at n = 20,
  43.8% at n = 30, 39.7% at n = 40);
- the hole counts of the sample QWH instances that ship with lsencode, the QWH/QCP
  generator of Gomes et al. (``qwh.order30.holes316.pls`` and so on, orders 30 to 40), which
  are real files: 1.62 to 1.84 in holes / n^1.55.

The sweep's table is in a temporary folder (``--keep DIR`` keeps it). ``--table DIR`` runs
nothing and reports a sweep already made (the shipped suite's, ``cliffbench run latin-phase``),
one ladder at a time.

    python perf/latin_phase.py [--order 20] [--lo 0.30] [--hi 0.70] [--step 0.04] [--seeds 3]
                               [--timeout 2] [--jobs 2] [--solvers native,sat] [--keep DIR]
    python perf/latin_phase.py --table results/latin-phase
"""

from __future__ import annotations

import argparse
import math
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

import bench
from bench.plan.registry import solver_index
from bench.views.stats import cliffs, normalize

FAMILY = "latin"
#: The quoted peak (a reference line; see the module docstring): the hole fraction, the order
#: it is quoted at, and the exponent of the order by which the number of holes scales
#: (Achlioptas, Gomes, Kautz and Selman 2000).
PUBLISHED_FRACTION = 0.42
PUBLISHED_ORDER = 33
SCALING_EXPONENT = 1.55
#: lsencode's sample QWH files of orders 30 to 40 (random holes): order -> their hole counts.
LSENCODE_SAMPLES = {30: (316, 320), 33: (381,), 35: (405,), 40: (560,)}


def scaled(fraction: float, order: int) -> float:
    """Holes / n^1.55 for a hole fraction of an order-n square."""
    return fraction * order ** 2 / order ** SCALING_EXPONENT


def published_constant() -> float:
    """The published peak in holes / n^1.55."""
    return scaled(PUBLISHED_FRACTION, PUBLISHED_ORDER)


def fractions(lo: float, hi: float, step: float) -> list[float]:
    """lo, lo + step, ..., hi (rounded to the step's decimals, hi included when on the grid)."""
    count = int(math.floor((hi - lo) / step + 1e-9)) + 1
    decimals = max(0, -math.floor(math.log10(step)) + 1)
    return [round(lo + i * step, decimals) for i in range(count)]


def suite_text(order: int, values: list[float], seeds: int, timeout: float,
               solvers: list[str]) -> str:
    """The sweep as a suite file."""
    entries = "".join(f'[[solver]]\nname = "{FAMILY}/{name}"\n\n' for name in solvers)
    return (f'name = "latin-phase-perf"\ndescription = "perf/latin_phase.py"\n'
            f"timeout = {timeout}\nmem = 3000\ncores = 1\nearly_abort = false\n\n{entries}"
            f'[[ladder]]\nname = "qwh-n{order}"\ngenerator = "{FAMILY}/qwh"\n'
            f'params = {{ order = {order}, pattern = "random" }}\nvary = "fraction"\n'
            f"values = {values}\nseeds = {list(range(1, seeds + 1))}\n")


def peak(rows: pd.DataFrame, column: str, unit: str) -> str:
    """Where the median of ``column`` over a config's runs peaks: the rung's hole fraction (both
    ways) and the median, the first such rung on a tie; ``flat`` when every rung's median is
    the same (a ladder no harder anywhere: no peak to place)."""
    medians = rows.groupby("rung_index")[column].median().dropna()
    if medians.empty:
        return "n/a"
    if medians.max() == medians.min():
        return f"flat ({medians.max():.3g} {unit})"
    best = medians.idxmax()
    fraction = float(rows.loc[rows["rung_index"] == best, "p_fraction"].iloc[0])
    return f"{describe(fraction, int(rows['p_order'].iloc[0]))}: {medians[best]:.3g} {unit}"


def bump(rows: pd.DataFrame, column: str) -> str:
    """Where the median of ``column`` stands highest above the ladder's end-to-end trend: the
    straight line in log scale from the first rung's median to the last one's. A solver whose
    cost also grows with the model (more holes, more variables) peaks at the top rung in plain
    medians; against the trend its hardness bump shows. The rung, and its median as a multiple
    of the trend there; ``none`` when no rung is above the trend."""
    medians = rows.groupby("rung_index")[column].median().dropna()
    medians = medians[medians > 0]
    if len(medians) < 3:
        return "n/a"
    logs = np.log(medians.to_numpy(float))
    where = medians.index.to_numpy(float)
    trend = logs[0] + (logs[-1] - logs[0]) * (where - where[0]) / (where[-1] - where[0])
    excess = logs - trend
    best = int(np.argmax(excess))
    if excess[best] <= 0:
        return "none"
    fraction = float(rows.loc[rows["rung_index"] == medians.index[best], "p_fraction"].iloc[0])
    return f"{describe(fraction, int(rows['p_order'].iloc[0]))}: x{math.exp(excess[best]):.3g}"


def peaks(df: pd.DataFrame) -> pd.DataFrame:
    """Per config: runs made and solved, the peak of its median work (``work_nodes``, where it
    counts nodes) and of its median time (a failure at the budget), and the time's bump above
    the ladder's trend (``bump``)."""
    data = normalize(df)
    data = data[data["status"] != "skipped"]
    nodes = pd.to_numeric(data["work_nodes"], errors="coerce")
    seconds = pd.to_numeric(data["t_wall"], errors="coerce").where(data["_ok"],
                                                                     data["budget_s"])
    out = []
    for config, rows in data.assign(_nodes=nodes, _seconds=seconds).groupby("config"):
        counted = bool((rows["_nodes"] > 0).any())
        out.append({"config": config, "solved": f"{int(rows['_ok'].sum())}/{len(rows)}",
                    "work": peak(rows, "_nodes", "nodes") if counted else "no count",
                    "time": peak(rows, "_seconds", "s"),
                    "bump": bump(rows, "_seconds")})
    return pd.DataFrame(out)


def cliff_fractions(df: pd.DataFrame) -> dict[str, float]:
    """Per config: the hole fraction of its cliff, NaN when it never falls."""
    data = normalize(df)
    by_rung = data.groupby("rung")["p_fraction"].first()
    found = {}
    for row in cliffs(df).itertuples(index=False):
        rung = row.cliff_rung
        found[row.config] = math.nan if pd.isna(rung) else float(by_rung[rung])
    return found


def describe(fraction: float, order: int) -> str:
    if math.isnan(fraction):
        return "never"
    return f"{fraction:.2f} ({scaled(fraction, order):.2f} n^{SCALING_EXPONENT})"


def published_lines(n: int) -> list[str]:
    """The two reference lines, and what the quoted peak is at order ``n`` both ways."""
    constant = published_constant()
    samples = [holes / order ** SCALING_EXPONENT for order, counts in LSENCODE_SAMPLES.items()
               for holes in counts]
    return [f"quoted peak (QWH, Achlioptas, Gomes, Kautz, Selman, AAAI 2000; not checked "
            f"against the paper): a hole fraction {PUBLISHED_FRACTION:.2f} at order "
            f"{PUBLISHED_ORDER} = {constant:.2f} n^{SCALING_EXPONENT} holes",
            f"  at order {n}: a fraction {PUBLISHED_FRACTION:.2f} is "
            f"{scaled(PUBLISHED_FRACTION, n):.2f} n^{SCALING_EXPONENT} holes; {constant:.2f} "
            f"n^{SCALING_EXPONENT} holes is a fraction "
            f"{constant / n ** (2 - SCALING_EXPONENT):.3f}",
            f"lsencode's sample QWH files, orders {min(LSENCODE_SAMPLES)}-{max(LSENCODE_SAMPLES)}:"
            f" {min(samples):.2f}-{max(samples):.2f} n^{SCALING_EXPONENT} holes, at order {n} "
            f"a fraction {min(samples) / n ** 0.45:.3f}-{max(samples) / n ** 0.45:.3f}"]


def report(df: pd.DataFrame) -> list[str]:
    """The peaks and cliffs of each config, one block per ladder of the table (by order, then
    name: a ladder holds one order and one hole pattern)."""
    lines: list[str] = []
    heads = {"config": "config", "solved": "solved", "work": "peak of median work",
             "time": "peak of median time", "bump": "peak above the trend", "cliff": "cliff"}
    orders = pd.to_numeric(df["p_order"], errors="coerce")
    ladders = df.assign(_order=orders).groupby("ladder")["_order"].first().dropna()
    for ladder, n in sorted(ladders.items(), key=lambda item: (item[1], item[0])):
        n = int(n)
        part = df[df["ladder"] == ladder]
        found = cliff_fractions(part)
        table = peaks(part).sort_values("config")
        table["cliff"] = [describe(found.get(c, math.nan), n) for c in table["config"]]
        widths = {k: max(len(v), *(len(str(x)) for x in table[k])) for k, v in heads.items()}
        pattern = part["p_pattern"].dropna().iloc[0] if "p_pattern" in part else "random"
        lines += ["", f"{ladder}: order {n}, {pattern} holes", *published_lines(n)]
        for line in [heads, *table.to_dict("records")]:
            lines.append("  ".join(f"{line[k]:<{w}}" for k, w in widths.items()).rstrip())
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--order", type=int, default=20)
    parser.add_argument("--lo", type=float, default=0.30)
    parser.add_argument("--hi", type=float, default=0.70)
    parser.add_argument("--step", type=float, default=0.04)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--solvers", help="comma-separated Latin solver names (default: all)")
    parser.add_argument("--keep", type=Path, help="run the sweep into this results folder")
    parser.add_argument("--table", type=Path, help="report this sweep folder; run nothing")
    args = parser.parse_args()
    if args.table:
        df = bench.load(args.table)
        print(f"{args.table}: {len(df)} rows")
        print("\n".join(report(df)))
        return
    registered = sorted(key.split("/", 1)[1] for key in solver_index()
                        if key.startswith(f"{FAMILY}/"))
    solvers = args.solvers.split(",") if args.solvers else registered
    if not solvers:
        raise SystemExit(f"no {FAMILY} solver is registered (cliffbench list)")
    values = fractions(args.lo, args.hi, args.step)
    n = args.order
    runs = len(values) * args.seeds * len(solvers)
    print(f"QWH order {n}: hole fractions {values[0]:.2f}..{values[-1]:.2f} step {args.step}, "
          f"{args.seeds} seeds, {len(solvers)} solvers ({', '.join(solvers)}), "
          f"{args.timeout:g} s budget: {runs} runs, at most "
          f"{runs * args.timeout / args.jobs:.0f} s on {args.jobs} jobs")
    with tempfile.TemporaryDirectory() as tmp:
        results = args.keep or Path(tmp)
        suite = Path(tmp) / "latin-phase-perf.toml"
        suite.write_text(suite_text(n, values, args.seeds, args.timeout, solvers))
        folder = bench.run(str(suite), results=results, jobs=args.jobs, overwrite=True,
                           progress=False)
        df = bench.load(folder)
    print("\n".join(report(df)))


if __name__ == "__main__":
    main()
