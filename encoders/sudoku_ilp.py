"""Sudoku as a 0-1 feasibility program, solved by HiGHS (highspy) or by CBC (PuLP's binary).

One model, two backends (and ``cliffbench export --to mps|lp`` writes that model; only
``ilp-highs`` declares the exports, so the command needs no ``--solver`` to choose):

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

import contextlib
import os
import re
import shutil
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import highspy
import numpy as np
import pulp

from bench.api import Budget, Outcome, Param, solver
from encoders.sudoku_model import answer, units
from instances.sudoku import Instance

HIGHS_VERSION = (f"{highspy.HIGHS_VERSION_MAJOR}.{highspy.HIGHS_VERSION_MINOR}."
                 f"{highspy.HIGHS_VERSION_PATCH}")
# Kept off the budget for reading the answer back, so the solver stops before the watchdog.
MARGIN_S = 0.05
# PuLP writes an MPS file before CBC's clock starts and reads the answer after: that much
# (times the problem's build time) is kept off CBC's time limit, as in encoders/edgematch_ilp.
PULP_IO = 2.0
INF = float("inf")


# --- the model --------------------------------------------------------------------------------


@dataclass
class Model:
    """The program as CSR rows (all ``= 1``) and column lower bounds (1 on clues)."""

    box: int
    col_lower: np.ndarray
    starts: np.ndarray
    index: np.ndarray
    row_names: list[str]
    col_names: list[str]

    @property
    def size(self) -> int:
        return self.box * self.box

    @property
    def ncols(self) -> int:
        return len(self.col_lower)

    @property
    def nrows(self) -> int:
        return len(self.row_names)

    @property
    def nnz(self) -> int:
        return len(self.index)

    def rows(self) -> Iterator[tuple[str, np.ndarray]]:
        for r, name in enumerate(self.row_names):
            yield name, self.index[self.starts[r]:self.starts[r + 1]]


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
    return Model(box, lower, starts, index.astype(np.int32), row_names, col_names)


def decode(model: Model, values: np.ndarray) -> tuple[int, ...]:
    """Per cell the digit whose column is 1 (the largest value, so a solver's 0.9999 reads
    as 1; the checker judges the grid)."""
    size = model.size
    return tuple(int(d) + 1 for d in np.asarray(values).reshape(size * size, size).argmax(1))


def nogood(model: Model, grid: tuple[int, ...]) -> np.ndarray:
    """The columns of ``grid``'s ones (the cut is their sum <= ncells - 1)."""
    size = model.size
    return np.arange(size * size, dtype=np.int32) * size + np.asarray(grid, dtype=np.int32) - 1


def model_counters(model: Model) -> dict[str, float]:
    return {"rows": model.nrows, "columns": model.ncols, "nonzeros": model.nnz}


def time_limit(budget: Budget) -> float:
    return budget.remaining() - min(MARGIN_S, 0.05 * budget.wall_s)


def finish(out: Outcome, model: Model, nodes: float, t_encode: float, t_solve: float) -> Outcome:
    out.counters = {**model_counters(model), "nodes": nodes, **out.counters}
    out.model_vars, out.model_constraints = model.ncols, model.nrows
    out.t_encode, out.t_solve = t_encode, t_solve
    return out


# --- HiGHS ------------------------------------------------------------------------------------


def to_highs(model: Model, names: bool = False) -> Any:
    """A silent Highs holding the model (names only when it is going to be written)."""
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = model.ncols, model.nrows
    lp.col_cost_ = np.zeros(model.ncols)
    lp.col_lower_, lp.col_upper_ = model.col_lower, np.ones(model.ncols)
    lp.row_lower_ = lp.row_upper_ = np.ones(model.nrows)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = model.ncols, model.nrows
    lp.a_matrix_.start_, lp.a_matrix_.index_ = model.starts, model.index
    lp.a_matrix_.value_ = np.ones(model.nnz)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * model.ncols
    if names:
        lp.col_names_, lp.row_names_ = model.col_names, model.row_names
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if h.passModel(lp) == highspy.HighsStatus.kError:
        raise RuntimeError("HiGHS rejected the sudoku model")
    return h


def configure_highs(h: Any, limit: float, cores: int, seed: int, log: bool) -> None:
    """Threads, time limit, seed. HiGHS sizes one process-wide thread pool on its first solve
    and refuses another size later, so the pool is reset first (as encoders/edgematch_ilp)."""
    highspy.Highs.resetGlobalScheduler(True)
    for name, value in (("time_limit", float(limit)), ("threads", int(cores)),
                        ("random_seed", int(seed) % (2**31)), ("output_flag", bool(log))):
        h.setOptionValue(name, value)


def stop_at(h: Any, deadline: float) -> None:
    """Interrupt the MIP at its next interrupt callback after ``deadline`` (monotonic)."""

    def check(event: Any) -> None:
        if time.monotonic() >= deadline:
            event.interrupt()

    h.cbMipInterrupt.subscribe(check)


def run_highs(h: Any, model: Model, budget: Budget) -> tuple[bool | None, tuple | None, float]:
    """(feasible: True / False / None = stopped, the grid found, nodes) of one HiGHS run."""
    limit = time_limit(budget)
    if limit <= 0:
        return None, None, 0.0
    h.setOptionValue("time_limit", float(limit))
    h.run()
    status, S = h.getModelStatus(), highspy.HighsModelStatus
    info = h.getInfo()
    nodes = float(max(0, info.mip_node_count))
    if status in (S.kInfeasible, S.kUnboundedOrInfeasible):
        return False, None, nodes
    if status in (S.kLoadError, S.kModelError, S.kPresolveError, S.kSolveError,
                  S.kPostsolveError):
        raise RuntimeError(f"HiGHS failed on the sudoku model: {h.modelStatusToString(status)}")
    if info.primal_solution_status == highspy.kSolutionStatusFeasible:
        return True, decode(model, np.asarray(h.getSolution().col_value)), nodes
    return None, None, nodes


def write_model(instance: Instance, path: Path | str, suffix: str) -> None:
    """Write through HiGHS, which picks the format by the file name's suffix (a temporary
    ``.mps``/``.lp`` name, then moved to ``path``)."""
    h = to_highs(build(instance), names=True)
    folder = tempfile.mkdtemp(prefix="cliffbench-sudoku-ilp-")
    try:
        tmp = os.path.join(folder, f"model{suffix}")
        if h.writeModel(tmp) == highspy.HighsStatus.kError:
            raise RuntimeError(f"HiGHS could not write {suffix} to {path}")
        shutil.move(tmp, str(path))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write_mps(instance: Instance, path: Path | str, **_solver_only: Any) -> None:
    """``cliffbench export PUZZLE --to mps FILE``: the model as free MPS (clues as bounds)."""
    write_model(instance, path, ".mps")


def write_lp(instance: Instance, path: Path | str, **_solver_only: Any) -> None:
    """``cliffbench export PUZZLE --to lp FILE``: the same model in CPLEX LP format."""
    write_model(instance, path, ".lp")


EXPORTS: dict[str, Callable[..., None]] = {"mps": write_mps, "lp": write_lp}


def prepare_highs() -> None:
    """Load HiGHS (its banner prints once per process, here) and solve a 4x4 board."""
    from instances.sudoku import parse_line

    h = to_highs(build(parse_line("1" + "." * 15)))
    configure_highs(h, 10.0, 1, 0, False)
    h.run()


PARAMS = [
    Param("unique", True, "add a no-good cut on the first solution, solve again, and report "
          "counters['solutions'] = 0, 1 or 2"),
    Param("log", False, "print the MIP solver's log"),
]


@solver("ilp-highs", family="sudoku", paradigm="ilp", backend=f"highs-{HIGHS_VERSION}",
        params=PARAMS, prepare=prepare_highs, exports=EXPORTS)
def solve_highs(instance: Instance, budget: Budget, seed: int, unique: bool = True,
                log: bool = False) -> Outcome:
    """0-1 ILP on HiGHS: x[cell, digit], one digit per cell, each digit once per unit."""
    t0 = time.perf_counter()
    model = build(instance)
    h = to_highs(model)
    configure_highs(h, max(time_limit(budget), 0.0), budget.cores, seed or 0, log)
    stop_at(h, time.monotonic() + time_limit(budget))
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


@contextlib.contextmanager
def quiet_pulp() -> Iterator[None]:
    """PuLP >= 3.3 warns (DeprecationWarning) on APIs it drops in 4.0; they work until then."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def to_pulp(model: Model) -> tuple[Any, list[Any]]:
    """A PuLP problem of the model (zero objective) and its variables, in column order."""
    with quiet_pulp():
        prob = pulp.LpProblem("sudoku", pulp.LpMinimize)
        xs = [pulp.LpVariable(name, lo, 1, cat=pulp.LpBinary if lo == 0 else pulp.LpInteger)
              for name, lo in zip(model.col_names, model.col_lower.tolist(), strict=True)]
        prob += pulp.LpAffineExpression([]), "zero"
        for name, cols in model.rows():
            expr = pulp.LpAffineExpression([(xs[i], 1.0) for i in cols.tolist()])
            prob += pulp.LpConstraint(expr, pulp.LpConstraintEQ, name, 1.0)
    return prob, xs


NODES = re.compile(r"Enumerated nodes:\s+(\d+)")


def run_cbc(prob: Any, xs: list[Any], model: Model, limit: float, cores: int, seed: int,
            log: bool) -> tuple[bool | None, tuple | None, float]:
    """(feasible: True / False / None = stopped, the grid found, nodes) of one CBC run; the
    node count is read from CBC's log, which PuLP writes to a file."""
    if limit <= 0:
        return None, None, 0.0
    folder = tempfile.mkdtemp(prefix="cliffbench-sudoku-cbc-")
    try:
        log_path = os.path.join(folder, "cbc.log")
        with quiet_pulp():
            prob.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=limit,
                                         threads=cores if cores > 1 else None,
                                         logPath=log_path,
                                         options=[f"randomCbcSeed {int(seed) % (2**31)}"]))
        text = Path(log_path).read_text(errors="replace") if os.path.exists(log_path) else ""
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if log:
        print(text)
    found = NODES.search(text)
    nodes = float(found.group(1)) if found else 0.0
    if prob.status == pulp.LpStatusInfeasible:
        return False, None, nodes
    if prob.sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible):
        return True, decode(model, np.asarray([x.varValue or 0.0 for x in xs])), nodes
    return None, None, nodes


def prepare_cbc() -> None:
    """Check that PuLP's bundled CBC runs, on a 4x4 board."""
    from instances.sudoku import parse_line

    with quiet_pulp():
        if not pulp.PULP_CBC_CMD().available():
            raise RuntimeError("PuLP's bundled CBC is not available on this machine")
    model = build(parse_line("1" + "." * 15))
    prob, xs = to_pulp(model)
    run_cbc(prob, xs, model, 10.0, 1, 0, False)


@solver("ilp-cbc", family="sudoku", paradigm="ilp", backend=f"cbc-pulp-{pulp.__version__}",
        params=PARAMS, prepare=prepare_cbc)
def solve_cbc(instance: Instance, budget: Budget, seed: int, unique: bool = True,
              log: bool = False) -> Outcome:
    """0-1 ILP on CBC (PuLP's bundled binary): the same model as ilp-highs."""
    t0 = time.perf_counter()
    model = build(instance)
    prob, xs = to_pulp(model)
    t_encode = time.perf_counter() - t0
    allowance = PULP_IO * t_encode
    feasible, grid, nodes = run_cbc(prob, xs, model, time_limit(budget) - allowance,
                                    budget.cores, seed or 0, log)
    second = None
    if grid is not None and unique:
        cut = nogood(model, grid)
        with quiet_pulp():
            prob += pulp.LpConstraint(pulp.LpAffineExpression([(xs[i], 1.0) for i in
                                                               cut.tolist()]),
                                      pulp.LpConstraintLE, "nogood", model.size ** 2 - 1.0)
        second, _, more = run_cbc(prob, xs, model, time_limit(budget) - allowance,
                                  budget.cores, seed or 0, log)
        nodes += more
    out = answer(instance.box, grid, feasible is False, second, unique)
    return finish(out, model, nodes, t_encode, time.perf_counter() - t0 - t_encode)
