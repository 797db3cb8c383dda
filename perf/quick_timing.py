"""Wall time of ``cliffbench run quick``, cold and warm, and where it went.

The cold run compiles everything a fresh clone compiles: numba's cache is a fresh temporary
``NUMBA_CACHE_DIR`` (numba then neither reads nor writes the ``__pycache__`` folders beside the
sources, where an editable install keeps it, so this checkout's own caches are left alone for
whoever else uses them), the pattern databases a fresh ``CLIFFBENCH_PDB_CACHE``, the user cache
(solver index, prepare locks and stamps) a fresh ``XDG_CACHE_HOME``. The warm run is the same
command again with those caches as the cold run left them. Each run is the README's command (a
fresh interpreter: the report and the PNG figures included) into its own temporary results
folder; the install a fresh clone also pays is not timed here.

For each run it prints the wall seconds, split into start-up (to the manifest's start), the
sweep (manifest start to end) and what follows (compaction, report, figures), then the rows'
statuses, the sums of ``t_prepare`` and ``t_wall``, the runs that hit the budget (``timeout``
and ``unknown``) and the time they took, and the solvers and rungs that cost most.

    python perf/quick_timing.py [--suite quick] [--jobs N] [--skip-cold] [--keep DIR]
                                      [-- more cliffbench run options, e.g. --timeout 5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import pandas as pd


def fresh_caches(root: Path) -> dict[str, str]:
    """The environment of both runs: numba's, the PDB and the user cache under ``root``."""
    return {**os.environ, "NUMBA_CACHE_DIR": str(root / "numba"),
            "CLIFFBENCH_PDB_CACHE": str(root / "pdb"), "XDG_CACHE_HOME": str(root / "xdg")}


def timed_run(suite: str, results: Path, env: dict[str, str], extra: list[str],
              log: Path) -> tuple[float, float]:
    """Run ``cliffbench run SUITE`` (output to ``log``); its (start, end) in epoch seconds."""
    cmd = [sys.executable, "-m", "bench.cli", "run", suite, "--results", str(results),
           "--overwrite", *extra]
    with open(log, "w") as out:
        start = time.time()
        proc = subprocess.run(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
        end = time.time()
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}); see {log}")
    return start, end


def epoch(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def phases(folder: Path, start: float, end: float) -> str:
    """Start-up, sweep, and what followed it, from the manifest's times."""
    manifest = json.loads((folder / "manifest.json").read_text())
    began, ended = epoch(manifest["started_at"]), epoch(manifest["ended_at"])
    return (f"start-up {began - start:.1f} s, sweep {ended - began:.1f} s, compaction + report "
            f"+ figures {end - ended:.1f} s")


def budget_bound(table: pd.DataFrame) -> pd.DataFrame:
    """The runs that took their whole budget: killed (``timeout``) or stopped at it
    (``unknown`` past 90% of the budget)."""
    near = table.t_wall.fillna(0) >= 0.9 * table.budget_s
    return table[(table.status == "timeout") | ((table.status == "unknown") & near)]


def costliest(table: pd.DataFrame, by: list[str], column: str, count: int = 5) -> str:
    sums = table.groupby(by)[column].sum().sort_values(ascending=False).head(count)
    return ", ".join(f"{'/'.join(map(str, key)) if isinstance(key, tuple) else key} "
                     f"{seconds:.1f} s" for key, seconds in sums.items() if seconds > 0)


def describe(label: str, folder: Path, start: float, end: float) -> None:
    table = pd.read_parquet(folder / "runs.parquet")
    statuses = ", ".join(f"{s} {n}" for s, n in table.status.value_counts().items())
    bound = budget_bound(table)
    print(f"{label}: {end - start:.1f} s wall ({phases(folder, start, end)})")
    print(f"  {len(table)} rows: {statuses}")
    print(f"  sum t_wall {table.t_wall.sum():.1f} s, sum t_prepare {table.t_prepare.sum():.1f} s;"
          f" {len(bound)} runs at the budget ({(bound.status == 'timeout').sum()} timeouts) "
          f"took {bound.t_wall.sum():.1f} s of t_wall")
    print(f"  t_prepare by solver: {costliest(table, ['family', 'solver'], 't_prepare')}")
    print(f"  t_wall by solver: {costliest(table, ['family', 'solver'], 't_wall')}")
    print(f"  t_wall by rung: {costliest(table, ['ladder', 'rung'], 't_wall')}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--suite", default="quick")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--skip-cold", action="store_true",
                        help="time only a warm run (the caches of --keep DIR, if given)")
    parser.add_argument("--keep", default=None,
                        help="keep the caches, results and logs in DIR (default: a temporary "
                             "folder, removed at the end)")
    parser.add_argument("extra", nargs="*", help="more options for cliffbench run (after --)")
    args = parser.parse_args()
    extra = [*args.extra, *(["--jobs", str(args.jobs)] if args.jobs else [])]
    keep = Path(args.keep) if args.keep else None
    with tempfile.TemporaryDirectory(prefix="quick-timing-") as scratch:
        root = keep or Path(scratch)
        root.mkdir(parents=True, exist_ok=True)
        env = fresh_caches(root)
        print(f"{' '.join([args.suite, *extra])}: {os.cpu_count()} cores, load average "
              f"{os.getloadavg()[0]:.2f}; caches and logs in {root}", flush=True)
        for label in ("warm",) if args.skip_cold else ("cold", "warm"):
            results = root / f"results-{label}"
            start, end = timed_run(args.suite, results, env, extra, root / f"{label}.log")
            (folder,) = [p for p in results.iterdir() if p.is_dir()]
            describe(label, folder, start, end)
        print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
