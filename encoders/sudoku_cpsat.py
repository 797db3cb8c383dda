"""Sudoku as a CP-SAT model: an integer per cell, AllDifferent per unit, clues fixed.

The textbook CP model: ``v[cell]`` in 1..size, a clue's variable fixed to it (domain {clue}),
one AllDifferent per row, column and box. CP-SAT's presolve and AllDifferent propagation do
the rest; there is no objective.

Uniqueness (``unique=True``) solves twice: after the first solution, a constraint excludes it
(a Boolean per blank cell ``b[cell] => v[cell] != value``, and ``OR b``) and the same model is
solved again: infeasible means one solution, a second grid two. Chosen over
``enumerate_all_solutions`` with a callback that stops at 2, because enumeration needs one
worker and turns off presolve reductions that could lose solutions: it would time another
search. Here the first solve is exactly the ``unique=False`` run (same workers, same presolve),
and the proof of uniqueness is an ordinary infeasibility proof. The cost is a second presolve.

``cliffbench export PUZZLE --to mzn FILE`` writes the same model in MiniZinc (``write_mzn``):
``grid[row, col]`` in 1..size (1-based rows and columns), a clue's cell constrained to it, one
AllDifferent (``distinct``: ``encoders.support.minizinc``) per row, column and box, ``solve
satisfy``, the grid printed row-major. A 9x9 puzzle: 81 variables, 27 AllDifferent and one
equation per clue. ``read_mzn`` decodes a
program's ``grid`` values (``bench.tools``: the ``gecode`` tool runs MiniZinc on the file). The
export is the first solve only: no second solution is looked for, whatever ``unique`` says.

Both solves get ``num_workers`` = ``budget.cores`` (or the ``workers`` parameter), the time
left as ``max_time_in_seconds``, the memory budget, and the run's seed. Counters: ``branches``
and ``conflicts`` summed over both solves, ``solutions``; ``model_vars``/``model_constraints``
of the first model (the exclusion adds one Boolean per blank cell and as many constraints + 1).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import ortools

from bench.api import Budget, Outcome, Param, solver
from encoders.support import minizinc
from encoders.support.margin import time_limit
from encoders.support.sudoku_model import answer, units
from instances.common import InstanceError
from instances.sudoku import Instance, Solution


def build(instance: Instance) -> tuple[Any, list[Any]]:
    """The model and its cell variables (see the module docstring)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    size = instance.size
    cells = [model.new_int_var(clue or 1, clue or size, f"v{cell}")
             for cell, clue in enumerate(instance.grid)]
    for unit in units(instance.box).tolist():
        model.add_all_different([cells[c] for c in unit])
    return model, cells


def exclude(model: Any, instance: Instance, cells: list[Any], grid: tuple[int, ...]) -> None:
    """Forbid ``grid``: some blank cell differs from it."""
    differs = []
    for cell, clue in enumerate(instance.grid):
        if not clue:
            b = model.new_bool_var(f"d{cell}")
            model.add(cells[cell] != grid[cell]).only_enforce_if(b)
            differs.append(b)
    model.add_bool_or(differs)


MZN_MODEL = (
    "array[1..size, 1..size] of var 1..size: grid :: add_to_output;",
    "constraint forall(r, c in 1..size where clues[r, c] > 0)(grid[r, c] = clues[r, c]);",
    "constraint forall(r in 1..size)(distinct([grid[r, c] | c in 1..size]));",
    "constraint forall(c in 1..size)(distinct([grid[r, c] | r in 1..size]));",
    "constraint forall(br, bc in 0..box - 1)(distinct(",
    "    [grid[br * box + i, bc * box + j] | i, j in 1..box]));",
    "solve satisfy;",
)


def write_mzn(instance: Instance, path: Path | str, **_solver_only: Any) -> None:
    """``cliffbench export PUZZLE --to mzn FILE``: the model in MiniZinc, clues inline (see the
    module docstring; ``workers``, ``unique`` and ``log`` are CP-SAT's own)."""
    size = instance.size
    rows = [instance.grid[r * size:(r + 1) * size] for r in range(size)]
    comments = ["cliffbench sudoku CP model (encoders/sudoku_cpsat.py): grid[row, col] in "
                "1..size,", "AllDifferent (distinct) per row, column and box, clues fixed",
                f"puzzle {instance.instance_id} {minizinc.comment_safe(instance.name)}: "
                f"{size}x{size}, {instance.clues} clues"]
    data = [f"int: box = {instance.box};", "int: size = box * box;",
            "% clues[row, col]: the clue, 0 for a blank",
            minizinc.assign("array[1..size, 1..size] of 0..size: clues",
                            minizinc.array2d(rows))]
    minizinc.write_model(path, minizinc.model_text(comments, data, MZN_MODEL, ["grid"]))


def read_mzn(instance: Instance, values: dict[str, list[int]],
             **_params: Any) -> Solution | None:
    """``reads["mzn"]``: the grid of a program's answer to ``write_mzn``'s model (its ``grid``
    values, row-major), or None when there is no such grid: missing, short, a digit out of
    1..size."""
    grid = minizinc.ints_of(values, "grid", instance.ncells, 1, instance.size)
    if grid is None:
        return None
    try:
        return Solution.from_array(instance.box, grid)
    except InstanceError:
        return None


def _configure(cp_solver: Any, budget: Budget, seed: int, workers: int, log: bool) -> None:
    params = cp_solver.parameters
    params.num_workers = workers or budget.cores
    params.max_memory_in_mb = max(1, int(budget.mem_mb))
    params.random_seed = int(seed) % (2**31)
    params.log_search_progress = log


def _run(cp_solver: Any, model: Any, budget: Budget, work: dict[str, float]) -> Any:
    """One solve within what is left of the budget; its status (None: no time left)."""
    from ortools.sat.python import cp_model

    limit = time_limit(budget)
    if limit <= 0:
        return None
    cp_solver.parameters.max_time_in_seconds = limit
    status = cp_solver.solve(model)
    work["branches"] += cp_solver.num_branches
    work["conflicts"] += cp_solver.num_conflicts
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError(f"CP-SAT rejected the sudoku model: {model.validate()}")
    return status


def prepare() -> None:
    """Import CP-SAT and solve a 4x4 board, so that no timed run pays the import."""
    from ortools.sat.python import cp_model

    from instances.sudoku import parse_line

    model, _ = build(parse_line("1" + "." * 15))
    cp_solver = cp_model.CpSolver()
    cp_solver.parameters.num_workers = 1
    cp_solver.solve(model)


PARAMS = [
    Param("workers", 0, "CP-SAT num_workers; 0 means the run's cores (budget.cores)", min=0),
    Param("unique", True, "solve again with the first grid excluded and report "
          "counters['solutions'] = 0, 1 or 2"),
    Param("log", False, "print CP-SAT's search log"),
]


@solver("cpsat", family="sudoku", paradigm="cpsat", backend=f"ortools-{ortools.__version__}",
        params=PARAMS, prepare=prepare, exports={"mzn": write_mzn}, reads={"mzn": read_mzn})
def solve(instance: Instance, budget: Budget, seed: int, workers: int = 0, unique: bool = True,
          log: bool = False) -> Outcome:
    """CP-SAT: an integer per cell, AllDifferent per row, column and box, clues fixed."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    model, cells = build(instance)
    proto = model.proto
    sizes = {"model_vars": len(proto.variables), "model_constraints": len(proto.constraints)}
    t_encode = time.perf_counter() - start
    start = time.perf_counter()
    cp_solver = cp_model.CpSolver()
    _configure(cp_solver, budget, seed or 0, workers, log)
    work = {"branches": 0.0, "conflicts": 0.0}
    found = (cp_model.OPTIMAL, cp_model.FEASIBLE)
    status = _run(cp_solver, model, budget, work)
    grid, second = None, None
    if status in found:
        grid = tuple(int(cp_solver.value(v)) for v in cells)
        if unique:
            exclude(model, instance, cells, grid)
            again = _run(cp_solver, model, budget, work)
            second = True if again in found else False if again == cp_model.INFEASIBLE else None
    out = answer(instance.box, grid, status == cp_model.INFEASIBLE, second, unique)
    out.counters = {**work, **out.counters}
    out.t_encode, out.t_solve = t_encode, time.perf_counter() - start
    out.model_vars, out.model_constraints = sizes["model_vars"], sizes["model_constraints"]
    return out
