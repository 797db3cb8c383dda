"""Sudoku as SAT (python-sat): one Boolean per (cell, digit), two encodings, two ways to give clues.

Variables ``x[cell, d]`` = ``cell * size + d`` (``encoders.support.sudoku_model.var``), nothing
else. Clauses (Lynce and Ouaknine 2006, "Sudoku as a SAT problem"):

- ``minimal``: each cell holds at least one digit (one clause of ``size`` literals per cell);
  each unit (row, column, box) holds each digit at most once (pairwise binary clauses).
  9x9: 81 + 8748 = 8829 clauses. A pair of cells sharing a row and a box gets its binary clause
  twice, as in the paper's counts.
- ``extended`` adds the redundant halves: each cell holds at most one digit (pairwise), and
  each unit holds each digit at least once. 9x9: 11988 clauses. Same models, more propagation.

**Decoding the minimal encoding.** The minimal encoding does not say "at most one digit per
cell", yet every one of its models sets exactly one: in any row, each of the ``size`` cells has
at least one true digit, so the row has at least ``size`` true literals; each digit is true at
most once in the row, so it has at most ``size``. Hence exactly ``size``, and every cell exactly
one (and every digit exactly once per unit). The two encodings have the same models, so a
decoded grid is the model's true literals, and uniqueness is counted the same way in both.
``decode`` still checks the count and raises if a cell has none or two (a bug, not a puzzle).

**Clues.** ``reuse=False``: a fresh solver per puzzle, clues as unit clauses. ``reuse=True``
(default): one solver per (box, encoding, engine) in a module-level cache, built on first use
(its build time is that run's ``t_encode``; later runs report 0), and the clues passed as
*assumptions*, so nothing of a puzzle stays in the solver. What it learns is implied by the
base clauses alone and carries over to the next puzzle. The shared solver is configured with
the seed of the run that built it.

**Uniqueness** (``unique=True``): after the first model, block the decoded grid (a clause
``OR -x[cell, grid[cell]]`` over the blank cells: clues are fixed anyway) and solve again:
unsatisfiable means one solution, satisfiable two (the count stops there). On a fresh solver
the clause is added as is. On the shared solver it would cut that grid out of every later
puzzle, so it is guarded by a fresh activation variable ``a``, ``(-a v blocking)``, with ``a``
among the assumptions of the second call only; afterwards the unit ``-a`` retires it for good.

Counters: ``variables``, ``clauses`` (of the model this run solved: the base clauses, plus the
clue units on a fresh solver), ``assumptions``, the engine's ``conflicts``, ``decisions``
(also as ``nodes``), ``propagations``, ``restarts`` of this run only (the shared solver's
statistics are cumulative, so they are read before and after), and ``solutions``.

Time limits are ``encoders.support.sat_engine``'s: the MiniSat family (glucose*, maple*, minisat22,
...) is interrupted by a timer at the budget and answers ``unknown``; CaDiCaL, Lingeling and
Kissat cannot be interrupted through pysat and the runner's watchdog kills the worker (which
takes the shared solver with it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pysat

from bench.api import Budget, Outcome, Param, solver
from encoders.support import sat_engine
from encoders.support.margin import stop_time
from encoders.support.sat_engine import ENGINES, Cnf
from encoders.support.sudoku_model import answer, units, var
from instances.sudoku import Instance, Solution

ENCODINGS = ("minimal", "extended")
DEFAULT_ENGINE, DEFAULT_ENCODING = "cadical195", "extended"


# --- the clauses ------------------------------------------------------------------------------


def pairwise(groups: np.ndarray) -> np.ndarray:
    """``-a v -b`` for every pair of literals of each row of ``groups`` (shape (g, k))."""
    i, j = np.triu_indices(groups.shape[1], 1)
    return -np.stack([groups[:, i], groups[:, j]], axis=2).reshape(-1, 2)


def encode(box: int, encoding: str = DEFAULT_ENCODING) -> Cnf:
    """The clue-free clauses of a ``box`` board (see the module docstring), as int32 blocks
    (each block's clauses have one length): far smaller than lists on 25x25 boards."""
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding {encoding!r}: expected one of {ENCODINGS}")
    size = box * box
    digits = np.arange(1, size + 1, dtype=np.int32)
    cell_digits = (np.arange(size * size, dtype=np.int32)[:, None] * size + digits)  # x[c, :]
    # unit_digits[u, d - 1, k] = x[k-th cell of unit u, d]
    unit_digits = (units(box)[:, None, :] * size + digits[None, :, None]).reshape(-1, size)
    blocks = [cell_digits, pairwise(unit_digits)]
    if encoding == "extended":
        blocks += [pairwise(cell_digits), unit_digits]
    cnf = Cnf(nvars=box ** 6)
    for block in blocks:
        cnf.add_array(block)
    return cnf


def clue_literals(instance: Instance) -> list[int]:
    size = instance.size
    return [var(size, cell, d) for cell, d in enumerate(instance.grid) if d]


def decode(instance: Instance, model: list[int]) -> tuple[int, ...]:
    """The grid of a model: each cell's one true digit (see the module docstring for why there
    is exactly one, in either encoding)."""
    size, n = instance.size, instance.ncells
    true = (np.asarray(model[:n * size]) > 0).reshape(n, size)
    per_cell = true.sum(axis=1)
    if (per_cell != 1).any():
        cell = int(np.nonzero(per_cell != 1)[0][0])
        raise RuntimeError(f"model sets {per_cell[cell]} digits in cell {cell}")
    return tuple(int(d) + 1 for d in true.argmax(axis=1))


def blocking_clause(instance: Instance, grid: tuple[int, ...]) -> list[int]:
    """``OR -x[cell, grid[cell]]`` over the blank cells: not this grid again."""
    size = instance.size
    return [-var(size, cell, grid[cell]) for cell, clue in enumerate(instance.grid) if not clue]


# --- DIMACS -----------------------------------------------------------------------------------


def write_cnf(instance: Instance, path: Path | str, encoding: str = DEFAULT_ENCODING,
              **_solver_only: Any) -> None:
    """``cliffbench export PUZZLE --to cnf FILE``: the model with the clues as unit clauses
    (``reuse`` and ``engine`` do not change it)."""
    cnf = encode(instance.box, encoding)
    clues = clue_literals(instance)
    size, name = instance.size, " ".join(instance.name.split()) or "-"
    comments = [f"cliffbench sudoku SAT model (encoders/sudoku_sat.py), encoding={encoding}",
                f"puzzle {instance.instance_id} {name}: {size}x{size}, {len(clues)} clues",
                f"variable cell*{size} + d = x[cell, d], cell row-major from 0, digit d 1..{size}"]
    with open(path, "w", encoding="ascii") as out:
        sat_engine.write_dimacs(out, comments, cnf, clues)


def read_cnf(instance: Instance, true: set[int], **_params: Any) -> Any:
    """``reads["cnf"]``: the grid of another program's answer to ``write_cnf``'s file (its true
    variables), or None when a cell gets no digit or two."""
    try:
        grid = decode(instance, sat_engine.model_of(true, instance.ncells * instance.size))
    except RuntimeError:
        return None
    return Solution.from_array(instance.box, grid)


# --- the shared solvers -----------------------------------------------------------------------


@dataclass
class Shared:
    """A solver kept across puzzles, and its highest variable (activation variables grow it)."""

    sat: Any
    cnf: Cnf
    top: int


SHARED: dict[tuple[int, str, str], Shared] = {}


def shared_solver(box: int, encoding: str, engine: str, seed: int) -> tuple[Shared, bool]:
    """The cached solver of (box, encoding, engine), and whether this call built it."""
    key = (box, encoding, engine)
    if key in SHARED:
        return SHARED[key], False
    cnf = encode(box, encoding)
    SHARED[key] = Shared(sat_engine.make_engine(engine, cnf, seed), cnf, cnf.nvars)
    return SHARED[key], True


def drop_shared() -> None:
    """Delete every cached solver (tests, benchmarks)."""
    for shared in SHARED.values():
        shared.sat.delete()
    SHARED.clear()


# --- solving ----------------------------------------------------------------------------------


def prepare() -> None:
    """Load the default engine's library and solve a 4x4 board on a throwaway solver (the
    shared solvers are not built here: their build is the first run's t_encode)."""
    sat = sat_engine.make_engine(DEFAULT_ENGINE, encode(2), 0)
    sat.solve(assumptions=[1])
    sat.delete()


PARAMS = [
    Param("encoding", DEFAULT_ENCODING, "'minimal' (cell at least one digit, unit at most one "
          "of each) or 'extended' (adds cell at most one, unit at least one)", choices=ENCODINGS),
    Param("reuse", True, "one solver per (box, encoding, engine) kept across puzzles, clues as "
          "assumptions; False: a fresh solver per puzzle, clues as unit clauses"),
    Param("engine", DEFAULT_ENGINE, "pysat SAT solver; only the MiniSat family (glucose*, "
          "maple*, minisat22, ...) stops inside the budget", choices=ENGINES),
    Param("unique", True, "look for a second solution (blocking clause) and report "
          "counters['solutions'] = 0, 1 or 2"),
]


def _search(instance: Instance, sat: Any, engine: str, budget: Budget, assumptions: list[int],
            guard: Any, unique: bool) -> tuple[tuple[int, ...] | None, bool, bool | None]:
    """(first grid, proved, second exists) on a loaded solver; ``guard()`` gives the blocking
    clause's activation literal (0: add the clause unguarded)."""
    stop = stop_time(budget)

    def run(assume: list[int]) -> bool | None:
        return sat_engine.run_engine(sat, engine, stop - time.monotonic(), assume)

    first = run(assumptions)
    if not first:
        return None, first is False, None
    grid = decode(instance, sat.get_model())
    if not unique:
        return grid, True, None
    block = blocking_clause(instance, grid)
    if not block:
        return grid, True, False  # the clues fill the grid: it is the only solution
    act = guard()
    if not act:
        sat.add_clause(block)
        return grid, True, run(assumptions)
    sat.add_clause([-act, *block])
    try:
        return grid, True, run([*assumptions, act])
    finally:
        sat.add_clause([-act])  # retired for good: the shared solver forgets this grid


@solver("sat", family="sudoku", paradigm="sat", backend=f"pysat-{pysat.__version__}",
        params=PARAMS, prepare=prepare, exports={"cnf": write_cnf}, reads={"cnf": read_cnf})
def solve(instance: Instance, budget: Budget, seed: int, encoding: str = DEFAULT_ENCODING,
          reuse: bool = True, engine: str = DEFAULT_ENGINE, unique: bool = True) -> Outcome:
    """SAT on x[cell, digit]: minimal or extended encoding, clues as assumptions or units."""
    start = time.perf_counter()
    clues = clue_literals(instance)
    if reuse:
        shared, built = shared_solver(instance.box, encoding, engine, seed or 0)
        sat, cnf, assumptions = shared.sat, shared.cnf, clues

        def guard() -> int:
            shared.top += 1
            return shared.top
    else:
        built, cnf, assumptions = True, encode(instance.box, encoding), []
        sat = sat_engine.make_engine(engine, cnf, seed or 0)
        sat.append_formula([[lit] for lit in clues])

        def guard() -> int:
            return 0
    try:
        t_encode = time.perf_counter() - start if built else 0.0
        before = sat_engine.engine_stats(sat)
        start = time.perf_counter()
        grid, proved, second = _search(instance, sat, engine, budget, assumptions, guard, unique)
        t_solve = time.perf_counter() - start
        after = sat_engine.engine_stats(sat)
    finally:
        if not reuse:
            sat.delete()
    out = answer(instance.box, grid, proved, second, unique)
    nclauses = cnf.nclauses + (0 if reuse else len(clues))
    work = sat_engine.work_counters(after, before)
    out.counters = {"variables": cnf.nvars, "clauses": nclauses,
                    "assumptions": len(assumptions), **work, **out.counters}
    out.model_vars, out.model_constraints = cnf.nvars, nclauses
    out.t_encode, out.t_solve = t_encode, t_solve
    return out
