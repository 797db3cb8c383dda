"""Sudoku as a 0-1 feasibility program, solved by HiGHS (highspy) or by CBC (PuLP's binary).

One model, two backends (``encoders.support.ilp_backends``; ``cliffbench export --to mps|lp`` writes
that model, and only ``ilp-highs`` declares the exports, so the command needs no ``--solver``
to choose):

- a binary ``x[cell, d]`` per cell and digit, column ``cell * size + d - 1``, named
  ``x_R_C_D`` (row and column 0-based, digit 1..size);
- ``cell_R_C``: one digit per cell; ``row_R_D``, ``col_C_D``, ``box_B_D``: each digit once per
  unit (all ``= 1``): ``size**3`` columns, ``4 * size**2`` rows, ``4 * size**3`` nonzeros;
- a clue fixes its column by a lower bound of 1 (the other digits of its cell and of its
  units are then 0 by the rows: presolve finds that, the model stays the textbook one);
- objective 0: any integer point is the answer.

Uniqueness (``unique=True``): after the first solution, a no-good cut over its ones,
``nogood``: ``sum_{x = 1 in the solution} x <= ncells - 1``, and the program is solved again;
infeasible means one solution, another integer point two. (Every integer point has exactly
``ncells`` ones, so the cut removes exactly that grid.) HiGHS re-solves the same object with
the row added; CBC is run a second time on the PuLP problem with the constraint added.

Limits: HiGHS gets ``time_limit`` = ``budget.remaining()``, ``threads`` = ``budget.cores``,
``random_seed`` and a MIP interrupt callback at the deadline. CBC gets ``-sec`` = what is left
minus an allowance for PuLP's file writing and reading; CBC ignores SIGINT, so past that the
runner's kill (the worker's process group, CBC included) is the limit. Counters: ``rows``,
``columns``, ``nonzeros`` (of the first model), ``nodes`` summed over both solves (CBC's from
its log, "Enumerated nodes"), ``solutions``.
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
from encoders.support.ilp_backends import HIGHS_VERSION, INF, PULP_IO, Program
from encoders.support.margin import time_limit
from encoders.support.sudoku_model import answer, units
from instances.sudoku import Instance, Solution

# --- the model --------------------------------------------------------------------------------


@dataclass(kw_only=True)
class Model(Program):
    """The program of a puzzle: all rows ``= 1``, every coefficient 1, objective 0, and column
    lower bounds 1 on clues."""

    NAME: ClassVar[str] = "sudoku"
    TITLE: ClassVar[str] = "sudoku"
    OBJECTIVE: ClassVar[str] = "zero"

    box: int

    @property
    def size(self) -> int:
        return self.box * self.box


def build(instance: Instance) -> Model:
    """The 0-1 program of ``instance`` (see the module docstring)."""
    box, size = instance.box, instance.size
    digits = np.arange(size, dtype=np.int32)
    cell_rows = np.arange(size * size, dtype=np.int32)[:, None] * size + digits
    # unit_rows[u * size + d] = the columns of digit d + 1 in unit u
    unit_rows = (units(box)[:, None, :] * size + digits[None, :, None]).reshape(-1, size)
    index = np.concatenate([cell_rows, unit_rows]).ravel()
    nrows = 4 * size * size
    starts = np.arange(nrows + 1, dtype=np.int32) * size
    lower = np.zeros(size ** 3)
    for cell, clue in enumerate(instance.grid):
        if clue:
            lower[cell * size + clue - 1] = 1.0
    rc = [(r, c) for r in range(size) for c in range(size)]
    row_names = ([f"cell_{r}_{c}" for r, c in rc]
                 + [f"{kind}_{i}_{d}" for kind in ("row", "col", "box") for i in range(size)
                    for d in range(1, size + 1)])
    col_names = [f"x_{r}_{c}_{d}" for r, c in rc for d in range(1, size + 1)]
    ncols = size ** 3
    return Model(box=box, maximize=False, col_lower=lower, col_upper=np.ones(ncols),
                 cost=np.zeros(ncols), col_names=col_names, row_lower=np.ones(nrows),
                 row_upper=np.ones(nrows), row_names=row_names, starts=starts,
                 index=index.astype(np.int32), value=np.ones(len(index)))


def decode(model: Model, values: np.ndarray) -> tuple[int, ...]:
    """Per cell the digit whose column is 1 (the largest value, so a solver's 0.9999 reads
    as 1; the checker judges the grid)."""
    size = model.size
    return tuple(int(d) + 1 for d in np.asarray(values).reshape(size * size, size).argmax(1))


def nogood(model: Model, grid: tuple[int, ...]) -> np.ndarray:
    """The columns of ``grid``'s ones (the cut is their sum <= ncells - 1)."""
    size = model.size
    return np.arange(size * size, dtype=np.int32) * size + np.asarray(grid, dtype=np.int32) - 1


def finish(out: Outcome, model: Model, nodes: float, t_encode: float, t_solve: float) -> Outcome:
    out.counters = {"nodes": nodes, **out.counters}
    return backends.sized(out, model, t_encode, t_solve)


# --- HiGHS ------------------------------------------------------------------------------------


def run_highs(h: Any, model: Model, budget: Budget) -> tuple[bool | None, tuple | None, float]:
    """(feasible: True / False / None = stopped, the grid found, nodes) of one HiGHS run."""
    limit = time_limit(budget)
    if limit <= 0:
        return None, None, 0.0
    h.setOptionValue("time_limit", float(limit))
    h.run()
    nodes = float(max(0, h.getInfo().mip_node_count))
    if backends.highs_proof(h, model) is False:
        return False, None, nodes
    if backends.has_point(h):
        return True, decode(model, np.asarray(h.getSolution().col_value)), nodes
    return None, None, nodes


def write_mps(instance: Instance, path: Path | str, **_solver_only: Any) -> None:
    """``cliffbench export PUZZLE --to mps FILE``: the model as free MPS (clues as bounds)."""
    backends.write_model(build(instance), path, ".mps")


def write_lp(instance: Instance, path: Path | str, **_solver_only: Any) -> None:
    """``cliffbench export PUZZLE --to lp FILE``: the same model in CPLEX LP format."""
    backends.write_model(build(instance), path, ".lp")


def read_mps(instance: Instance, values: dict[Any, float], **_params: Any) -> Any:
    """``reads["mps"]``: the grid of another program's answer to ``write_mps``'s file (its
    column values by name or number), or None when a column is not the model's."""
    model = build(instance)
    try:
        return Solution.from_array(instance.box, decode(model, backends.column_values(model,
                                                                                      values)))
    except (KeyError, IndexError):
        return None


EXPORTS: dict[str, Callable[..., None]] = {"mps": write_mps, "lp": write_lp}
READS: dict[str, Callable[..., Any]] = {"mps": read_mps}


def prepare_highs() -> None:
    """Load HiGHS (its banner prints once per process, here) and solve a 4x4 board."""
    from instances.sudoku import parse_line

    backends.warm_highs(build(parse_line("1" + "." * 15)))


PARAMS = [
    Param("unique", True, "add a no-good cut on the first solution, solve again, and report "
          "counters['solutions'] = 0, 1 or 2"),
    Param("log", False, "print the MIP solver's log"),
]


@solver("ilp-highs", family="sudoku", paradigm="ilp", backend=f"highs-{HIGHS_VERSION}",
        params=PARAMS, prepare=prepare_highs, exports=EXPORTS, reads=READS)
def solve_highs(instance: Instance, budget: Budget, seed: int, unique: bool = True,
                log: bool = False) -> Outcome:
    """0-1 ILP on HiGHS: x[cell, digit], one digit per cell, each digit once per unit."""
    t0 = time.perf_counter()
    model = build(instance)
    h = backends.to_highs(model)
    backends.configure_highs(h, max(time_limit(budget), 0.0), budget.cores, seed or 0, log)
    backends.stop_at(h, time.monotonic() + time_limit(budget))
    t_encode = time.perf_counter() - t0
    feasible, grid, nodes = run_highs(h, model, budget)
    second = None
    if grid is not None and unique:
        cut = nogood(model, grid)
        h.addRow(-INF, model.size ** 2 - 1.0, len(cut), cut, np.ones(len(cut)))
        second, _, more = run_highs(h, model, budget)
        nodes += more
    out = answer(instance.box, grid, feasible is False, second, unique)
    return finish(out, model, nodes, t_encode, time.perf_counter() - t0 - t_encode)


# --- CBC through PuLP -------------------------------------------------------------------------


def run_cbc(prob: Any, xs: list[Any], model: Model, limit: float, cores: int, seed: int,
            log: bool) -> tuple[bool | None, tuple | None, float]:
    """(feasible: True / False / None = stopped, the grid found, nodes) of one CBC run; the
    node count is read from CBC's log, which PuLP writes to a file."""
    if limit <= 0:
        return None, None, 0.0
    text, _ = backends.run_cbc(prob, limit, cores, seed, log)
    nodes = backends.parse_cbc_log(text, False)[0].get("nodes", 0.0)
    if backends.cbc_proved_infeasible(prob, text):
        return False, None, nodes
    if backends.cbc_found(prob):
        return True, decode(model, np.asarray([x.varValue or 0.0 for x in xs])), nodes
    return None, None, nodes


def prepare_cbc() -> None:
    """Check that PuLP's bundled CBC runs, on a 4x4 board."""
    from instances.sudoku import parse_line

    backends.warm_cbc(build(parse_line("1" + "." * 15)))


@solver("ilp-cbc", family="sudoku", paradigm="ilp", backend=f"cbc-pulp-{pulp.__version__}",
        params=PARAMS, prepare=prepare_cbc)
def solve_cbc(instance: Instance, budget: Budget, seed: int, unique: bool = True,
              log: bool = False) -> Outcome:
    """0-1 ILP on CBC (PuLP's bundled binary): the same model as ilp-highs."""
    t0 = time.perf_counter()
    model = build(instance)
    prob, xs = backends.to_pulp(model)
    t_encode = time.perf_counter() - t0
    allowance = PULP_IO * t_encode
    feasible, grid, nodes = run_cbc(prob, xs, model, time_limit(budget) - allowance,
                                    budget.cores, seed or 0, log)
    second = None
    if grid is not None and unique:
        cut = nogood(model, grid)
        with backends.quiet_pulp():
            prob += pulp.LpConstraint(pulp.LpAffineExpression([(xs[i], 1.0) for i in
                                                               cut.tolist()]),
                                      pulp.LpConstraintLE, "nogood", model.size ** 2 - 1.0)
        second, _, more = run_cbc(prob, xs, model, time_limit(budget) - allowance,
                                  budget.cores, seed or 0, log)
        nodes += more
    out = answer(instance.box, grid, feasible is False, second, unique)
    return finish(out, model, nodes, t_encode, time.perf_counter() - t0 - t_encode)
