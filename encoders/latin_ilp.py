"""Quasigroup completion as a 0-1 feasibility program (the assignment model), by HiGHS or CBC.

One model, two backends (``encoders.support.ilp_backends``; ``cliffbench export --to mps|lp``
writes it, and only ``ilp-highs`` declares the exports):

- a binary ``x[cell, v]`` per cell and symbol, column ``cell * n + v``, named ``x_R_C_V``
  (row, column and symbol 0-based);
- ``cell_R_C``: one symbol per cell; ``row_R_V``, ``col_C_V``: each symbol once per row and
  per column (all ``= 1``): ``n**3`` columns, ``3 n**2`` rows, ``3 n**3`` nonzeros;
- a given cell fixes its column by a lower bound of 1 (the other symbols of its cell, row and
  column are then 0 by the rows: presolve finds that, and two given cells of a line with one
  symbol make the program infeasible; the model stays the textbook one);
- objective 0: any integer point is the answer.

Limits as ``encoders.sudoku_ilp``: HiGHS gets ``time_limit``, ``threads`` = ``budget.cores``,
``random_seed`` and a MIP interrupt callback at the deadline; CBC gets ``-sec`` = what is left
minus an allowance for PuLP's file writing and reading, and past that the runner's kill is the
limit. Counters: ``rows``, ``columns``, ``nonzeros``, ``nodes`` (CBC's from its log).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pulp

from bench.api import Budget, Outcome, Param, solver
from encoders.support import ilp_backends as backends
from encoders.support.ilp_backends import HIGHS_VERSION, PULP_IO, Program
from encoders.support.latin_model import answer
from encoders.support.margin import time_limit
from instances.latin.model import HOLE, Instance, Solution

# --- the model --------------------------------------------------------------------------------


@dataclass(kw_only=True)
class Model(Program):
    """The program of an instance: all rows ``= 1``, every coefficient 1, objective 0, and
    column lower bounds 1 on given cells."""

    NAME: ClassVar[str] = "latin"
    TITLE: ClassVar[str] = "latin"
    OBJECTIVE: ClassVar[str] = "zero"

    order: int


def build(instance: Instance) -> Model:
    """The 0-1 program of ``instance`` (see the module docstring)."""
    n = instance.order
    cube = np.arange(n ** 3, dtype=np.int32).reshape(n, n, n)  # cube[r, c, v] = its column
    cell_rows = cube.reshape(n * n, n)
    row_rows = cube.transpose(0, 2, 1).reshape(n * n, n)  # row_rows[r * n + v]: over c
    col_rows = cube.transpose(1, 2, 0).reshape(n * n, n)  # col_rows[c * n + v]: over r
    index = np.concatenate([cell_rows, row_rows, col_rows]).ravel()
    nrows = 3 * n * n
    lower = np.zeros(n ** 3)
    given = np.asarray(instance.cells)
    fixed = np.nonzero(given != HOLE)[0]
    lower[fixed * n + given[fixed]] = 1.0
    pairs = [(a, b) for a in range(n) for b in range(n)]
    row_names = ([f"cell_{r}_{c}" for r, c in pairs] + [f"row_{r}_{v}" for r, v in pairs]
                 + [f"col_{c}_{v}" for c, v in pairs])
    col_names = [f"x_{r}_{c}_{v}" for r, c in pairs for v in range(n)]
    return Model(order=n, maximize=False, col_lower=lower, col_upper=np.ones(n ** 3),
                 cost=np.zeros(n ** 3), col_names=col_names, row_lower=np.ones(nrows),
                 row_upper=np.ones(nrows), row_names=row_names,
                 starts=np.arange(nrows + 1, dtype=np.int32) * n,
                 index=index.astype(np.int32), value=np.ones(len(index)))


def decode(model: Model, values: Any) -> Solution:
    """Per cell the symbol whose column is 1 (the largest value, so a solver's 0.9999 reads
    as 1; the checker judges the square)."""
    n = model.order
    return Solution.from_array(n, np.asarray(values).reshape(n * n, n).argmax(axis=1))


def finish(out: Outcome, model: Model, nodes: float, t_encode: float, t_solve: float) -> Outcome:
    out.counters = {"nodes": nodes, **out.counters}
    return backends.sized(out, model, t_encode, t_solve)


def tiny() -> Instance:
    """An order-3 square with holes, for warming a backend."""
    return Instance(3, (0, -1, -1, -1, -1, -1, -1, -1, 1))


# --- HiGHS ------------------------------------------------------------------------------------


def write_mps(instance: Instance, path: Path | str, **_solver_only: Any) -> None:
    """``cliffbench export INSTANCE --to mps FILE``: the model as free MPS (givens as bounds)."""
    backends.write_model(build(instance), path, ".mps")


def write_lp(instance: Instance, path: Path | str, **_solver_only: Any) -> None:
    """``cliffbench export INSTANCE --to lp FILE``: the same model in CPLEX LP format."""
    backends.write_model(build(instance), path, ".lp")


def read_mps(instance: Instance, values: dict[Any, float], **_params: Any) -> Solution | None:
    """``reads["mps"]``: the square of another program's answer to ``write_mps``'s file (its
    column values by name or number), or None when a column is not the model's."""
    model = build(instance)
    try:
        return decode(model, backends.column_values(model, values))
    except (KeyError, IndexError):
        return None


EXPORTS: dict[str, Callable[..., None]] = {"mps": write_mps, "lp": write_lp}
READS: dict[str, Callable[..., Any]] = {"mps": read_mps}


def prepare_highs() -> None:
    """Load HiGHS (its banner prints once per process, here) and solve an order-3 square."""
    backends.warm_highs(build(tiny()))


PARAMS = [Param("log", False, "print the MIP solver's log")]


@solver("ilp-highs", family="latin", paradigm="ilp", backend=f"highs-{HIGHS_VERSION}",
        params=PARAMS, prepare=prepare_highs, exports=EXPORTS, reads=READS)
def solve_highs(instance: Instance, budget: Budget, seed: int, log: bool = False) -> Outcome:
    """0-1 ILP on HiGHS: x[cell, symbol], one symbol per cell, each symbol once per line."""
    t0 = time.perf_counter()
    model = build(instance)
    h = backends.to_highs(model)
    backends.configure_highs(h, max(time_limit(budget), 0.0), budget.cores, seed or 0, log)
    backends.stop_at(h, time.monotonic() + time_limit(budget))
    t_encode = time.perf_counter() - t0
    square, proved, nodes = None, False, 0.0
    limit = time_limit(budget)
    if limit > 0:
        h.setOptionValue("time_limit", float(limit))
        h.run()
        nodes = float(max(0, h.getInfo().mip_node_count))
        proved = backends.highs_proof(h, model) is False
        if not proved and backends.has_point(h):
            square = decode(model, h.getSolution().col_value)
    out = answer(square, proved)
    return finish(out, model, nodes, t_encode, time.perf_counter() - t0 - t_encode)


# --- CBC through PuLP -------------------------------------------------------------------------


def prepare_cbc() -> None:
    """Check that PuLP's bundled CBC runs, on an order-3 square."""
    backends.warm_cbc(build(tiny()))


@solver("ilp-cbc", family="latin", paradigm="ilp", backend=f"cbc-pulp-{pulp.__version__}",
        params=PARAMS, prepare=prepare_cbc)
def solve_cbc(instance: Instance, budget: Budget, seed: int, log: bool = False) -> Outcome:
    """0-1 ILP on CBC (PuLP's bundled binary): the same model as ilp-highs."""
    t0 = time.perf_counter()
    model = build(instance)
    prob, xs = backends.to_pulp(model)
    t_encode = time.perf_counter() - t0
    limit = time_limit(budget) - PULP_IO * t_encode
    square, proved, nodes = None, False, 0.0
    if limit > 0:
        text, _ = backends.run_cbc(prob, limit, budget.cores, seed or 0, log)
        nodes = backends.parse_cbc_log(text, False)[0].get("nodes", 0.0)
        proved = backends.cbc_proved_infeasible(prob, text, limit)
        if not proved and backends.cbc_found(prob):
            square = decode(model, [x.varValue or 0.0 for x in xs])
    out = answer(square, proved)
    return finish(out, model, nodes, t_encode, time.perf_counter() - t0 - t_encode)
