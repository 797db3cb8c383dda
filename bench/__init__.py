"""cliffbench's harness. From Python:

    import bench
    row = bench.solve("edgematch/planted:n=6,seed=1", "dfs-restarts", timeout=10)
    folder = bench.run("quick")          # a suite name or a TOML path
    df = bench.load("quick")             # the results table (pandas)

Everything goes through the same runner and checker as the command line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def load(path_or_sweep: str | Path, results: str | Path = "results") -> Any:
    """The results table of a sweep (a folder, or a name under ``results``), as a DataFrame.

    Imported on first use: ``python -m bench.execute.guard`` and the workers import ``bench`` and
    must not pay for pandas."""
    from bench.table.store import load as load_table

    return load_table(path_or_sweep, results)


def solve(instance: Any, solver: str, *, timeout: float = 60.0, mem: int = 4000,
          cores: int = 1, seed: int = 1, plugins: tuple[str, ...] = (),
          data_dir: str | Path | None = None, **params: Any) -> dict[str, Any]:
    """Run one solver on one instance (a spec string, or an Instance object) in a worker,
    check the answer, and return the run's row (the columns of the results table)."""
    from bench.plan.specs import InstanceRef, resolve_one
    from instances.common import Generated

    if isinstance(instance, str):
        ref = resolve_one(instance, data_dir)
    else:
        family = instance.to_json()["family"]
        ref = InstanceRef(family, Generated(instance), source="python")
    from bench.execute.sweep import solve_one

    return solve_one(ref, solver, timeout=timeout, mem=mem, cores=cores, seed=seed,
                     params=params, plugins=plugins)


def run(suite: str, **options: Any) -> Path:
    """Run a suite (see ``bench.execute.sweep.run_sweep`` for the options); returns its folder."""
    from bench.execute.sweep import run_sweep

    return run_sweep(suite, **options)


__all__ = ["load", "run", "solve"]
