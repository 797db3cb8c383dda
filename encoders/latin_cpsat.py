"""Quasigroup completion as a CP-SAT model: an integer per hole, AllDifferent per row and column.

The textbook CP model: ``v[cell]`` for each hole, its domain the symbols no given cell of its
row or column shows (``encoders.support.latin_model.candidates``); one AllDifferent per row and
per column over the line's hole variables and its given symbols as constants (so two given
cells of a line with one symbol make the model infeasible, as the instance is). A hole left
without a candidate has no variable (CP-SAT refuses an empty domain): an empty ``BoolOr``, which
no assignment satisfies, stands for it. CP-SAT's presolve and AllDifferent propagation do the
rest; there is no objective.

``cliffbench export SQUARE --to mzn FILE`` writes the textbook model in MiniZinc
(``write_mzn``): ``square[row, col]`` in 0..n-1 (1-based rows and columns, 0-based symbols as
in the family), a given cell constrained to its symbol, one AllDifferent (``distinct``:
``encoders.support.minizinc``) per row and per column, ``solve satisfy``, the square printed
row-major. The holes' domains are not narrowed to their candidates in the file: the given
cells fix their variables and AllDifferent removes their symbols from the holes before any
search, which is the same reduction. Order n: ``n**2`` variables, ``2 n`` AllDifferent and one
equation per given cell. ``read_mzn``
decodes a program's ``square`` values (``bench.tools``: the ``gecode`` tool runs MiniZinc on
it).

The solve gets ``num_workers`` = ``budget.cores`` (or the ``workers`` parameter), the time left
as ``max_time_in_seconds``, the memory budget and the run's seed. Counters: ``branches`` and
``conflicts``; ``model_vars``/``model_constraints`` are the model's.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import ortools

from bench.api import Budget, Outcome, Param, solver
from encoders.support import minizinc
from encoders.support.latin_model import answer, candidates
from encoders.support.margin import time_limit
from instances.latin.model import HOLE, Instance, Solution


def build(instance: Instance) -> tuple[Any, dict[int, Any]]:
    """The model and its hole variables by cell (see the module docstring)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    n, allowed = instance.order, candidates(instance)
    cells: dict[int, Any] = {}
    for cell, given in enumerate(instance.cells):
        if given != HOLE:
            continue
        symbols = [int(v) for v in allowed[cell].nonzero()[0]]
        if symbols:
            domain = cp_model.Domain.from_values(symbols)
            cells[cell] = model.new_int_var_from_domain(domain, f"v{cell}")
        else:
            model.add_bool_or([])  # a hole with no candidate: no completion
    for line in range(n):
        for step, start in ((1, line * n), (n, line)):
            members = [start + k * step for k in range(n)]
            model.add_all_different([cells[c] if c in cells else instance.cells[c]
                                     for c in members
                                     if c in cells or instance.cells[c] != HOLE])
    return model, cells


MZN_MODEL = (
    "array[1..n, 1..n] of var 0..n - 1: square :: add_to_output;",
    "constraint forall(r, c in 1..n where given[r, c] >= 0)(square[r, c] = given[r, c]);",
    "constraint forall(r in 1..n)(distinct([square[r, c] | c in 1..n]));",
    "constraint forall(c in 1..n)(distinct([square[r, c] | r in 1..n]));",
    "solve satisfy;",
)


def write_mzn(instance: Instance, path: Path | str, **_solver_only: Any) -> None:
    """``cliffbench export SQUARE --to mzn FILE``: the model in MiniZinc, the given cells
    inline (see the module docstring; ``workers`` and ``log`` are CP-SAT's own)."""
    n = instance.order
    rows = [instance.cells[r * n:(r + 1) * n] for r in range(n)]
    comments = ["cliffbench latin CP model (encoders/latin_cpsat.py): square[row, col] in "
                "0..n-1,", "AllDifferent (distinct) per row and column, given cells fixed",
                f"square {instance.instance_id} {minizinc.comment_safe(instance.name)}: "
                f"order {n}, {instance.holes} holes"]
    data = [f"int: n = {n};", "% given[row, col]: the given symbol, -1 for a hole",
            minizinc.assign("array[1..n, 1..n] of -1..n - 1: given", minizinc.array2d(rows))]
    minizinc.write_model(path, minizinc.model_text(comments, data, MZN_MODEL, ["square"]))


def read_mzn(instance: Instance, values: dict[str, list[int]],
             **_params: Any) -> Solution | None:
    """``reads["mzn"]``: the square of a program's answer to ``write_mzn``'s model (its
    ``square`` values, row-major), or None when there is no such square: missing, short, a
    symbol out of 0..n-1."""
    n = instance.order
    square = minizinc.ints_of(values, "square", n * n, 0, n - 1)
    return None if square is None else Solution(n, tuple(square))


def _configure(cp_solver: Any, budget: Budget, seed: int, workers: int, log: bool) -> None:
    params = cp_solver.parameters
    params.num_workers = workers or budget.cores
    params.max_memory_in_mb = max(1, int(budget.mem_mb))
    params.random_seed = int(seed) % (2**31)
    params.log_search_progress = log


def prepare() -> None:
    """Import CP-SAT and solve an order-3 square, so that no timed run pays the import."""
    from ortools.sat.python import cp_model

    model, _ = build(Instance(3, (0, -1, -1, -1, -1, -1, -1, -1, 1)))
    cp_solver = cp_model.CpSolver()
    cp_solver.parameters.num_workers = 1
    cp_solver.solve(model)


PARAMS = [
    Param("workers", 0, "CP-SAT num_workers; 0 means the run's cores (budget.cores)", min=0),
    Param("log", False, "print CP-SAT's search log"),
]


@solver("cpsat", family="latin", paradigm="cpsat", backend=f"ortools-{ortools.__version__}",
        params=PARAMS, prepare=prepare, exports={"mzn": write_mzn}, reads={"mzn": read_mzn})
def solve(instance: Instance, budget: Budget, seed: int, workers: int = 0,
          log: bool = False) -> Outcome:
    """CP-SAT: an integer per hole over its candidates, AllDifferent per row and column."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    model, cells = build(instance)
    proto = model.proto
    nvars, nconstraints = len(proto.variables), len(proto.constraints)
    t_encode = time.perf_counter() - start
    start = time.perf_counter()
    cp_solver = cp_model.CpSolver()
    _configure(cp_solver, budget, seed or 0, workers, log)
    status, square, work = None, None, {"branches": 0.0, "conflicts": 0.0}
    limit = time_limit(budget)
    if limit > 0:
        cp_solver.parameters.max_time_in_seconds = limit
        status = cp_solver.solve(model)
        work = {"branches": float(cp_solver.num_branches),
                "conflicts": float(cp_solver.num_conflicts)}
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the latin model: {model.validate()}")
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            filled = list(instance.cells)
            for cell, var in cells.items():
                filled[cell] = int(cp_solver.value(var))
            square = Solution(instance.order, tuple(filled))
    out = answer(square, status == cp_model.INFEASIBLE)
    out.counters = work
    out.t_encode, out.t_solve = t_encode, time.perf_counter() - start
    out.model_vars, out.model_constraints = nvars, nconstraints
    return out
