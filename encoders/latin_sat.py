"""Quasigroup completion as SAT (python-sat): a Boolean per (hole, candidate symbol), two encodings.

The Boolean ``x[cell, v]`` says "hole ``cell`` holds symbol ``v``". **Given cells are
simplified away**, as the QWH literature's generator does before it writes a formula: a given
cell is no variable, and neither is a symbol a given cell of the hole's row or column shows
(``encoders.support.latin_model.candidates``); every clause is written over what is left. The
variables number the candidates ``(cell, v)`` cell-major, then symbol, from 1, so an empty
square of order ``n`` has ``n**3`` of them and a full one none.

- ``minimal``, the minimal encoding of Kautz, Ruan, Achlioptas, Gomes, Selman and Stickel
  (2001): each hole holds at least one candidate (one clause listing them), and each symbol at
  most once per row and per column (pairwise over the holes of the line that can take it).
  No model sets two symbols in a hole: a row's ``n`` cells each hold one of ``n`` symbols
  that each appear at most once, so each holds exactly one; unit propagation does not know
  this counting argument. Empty square: ``n**2 + 2 n**2 C(n, 2)`` clauses.
- ``direct``: also each hole at most one candidate (pairwise), which propagation then uses.
  Empty square: ``n**2 + 3 n**2 C(n, 2)`` clauses.
- ``full``, their extended or 3-D encoding: also each symbol a row or a column misses at least
  once in it (one clause over the line's holes that can take it). Every line of the cube,
  cell, row-symbol and column-symbol, then holds exactly one true variable. Empty square:
  ``3 n**2 + 3 n**2 C(n, 2)`` clauses. All three have the same models, one per completion;
  they differ in what propagation infers.

Simplification can leave a clause with no literal, and it is kept, so the formula is
unsatisfiable, as the instance has no completion: a hole with no candidate (its cell clause),
a symbol no hole of a line that misses it can take (its line clause, ``full`` only), and two
given cells of one line with the same symbol (their at-most-one clause, whose two literals
are both false: one empty clause per such pair, in both encodings). In ``full`` a row that
clashes misses more symbols than it has holes, and is unsatisfiable by counting as well.

A fresh solver per instance (the formula depends on the givens; nothing is shared). Counters:
``variables`` and ``clauses`` of the simplified formula (also ``model_vars`` and
``model_constraints``), the engine's ``conflicts``, ``decisions`` (also ``nodes``),
``propagations``, ``restarts``. Time limits are ``encoders.support.sat_engine``'s: the MiniSat
family stops inside the budget and answers ``unknown``; CaDiCaL (the default), Lingeling and
Kissat cannot be interrupted through pysat and the runner's watchdog kills the worker.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pysat

from bench.api import Budget, Outcome, Param, solver
from encoders.support import sat_engine
from encoders.support.latin_model import answer, completed, placements, shown
from encoders.support.margin import stop_time
from encoders.support.sat_engine import ENGINES, Cnf
from instances.latin.model import HOLE, Instance

ENCODINGS = ("minimal", "direct", "full")
DEFAULT_ENGINE, DEFAULT_ENCODING = "cadical195", "full"
PAIR_CELLS = 4_000_000  # entries of a group-by-pair table built at once (memory, not speed)


# --- the clauses ------------------------------------------------------------------------------


def pairwise(groups: np.ndarray) -> np.ndarray:
    """``-a v -b`` for every pair of nonzero entries of each row of ``groups`` (shape (g, k),
    0 where the line has no variable), row by row, pairs in index order."""
    g, k = groups.shape
    i, j = np.triu_indices(k, 1)
    if not g or not len(i):
        return np.zeros((0, 2), dtype=np.int32)
    step = max(1, PAIR_CELLS // len(i))
    out = []
    for start in range(0, g, step):
        a, b = groups[start:start + step, i], groups[start:start + step, j]
        keep = (a != 0) & (b != 0)
        out.append(-np.stack([a[keep], b[keep]], axis=1))
    return np.concatenate(out).astype(np.int32)


def at_least_one(groups: np.ndarray) -> list[list[int]]:
    """One clause per row of ``groups``: its nonzero entries (an empty clause when none)."""
    return [[int(v) for v in row[row != 0]] for row in groups]


def clash_count(instance: Instance) -> int:
    """Pairs of given cells sharing a row or a column and a symbol (each an empty clause)."""
    n, g = instance.order, instance.cells_array().reshape(instance.order, instance.order)
    total = 0
    for lines in (g, g.T):
        for line in lines:
            counts = np.bincount(line[line != HOLE], minlength=n)
            total += int((counts * (counts - 1) // 2).sum())
    return total


def encode(instance: Instance, encoding: str = DEFAULT_ENCODING) -> Cnf:
    """The simplified formula of ``instance`` (see the module docstring), clause blocks in the
    order: cell at least one, (not ``minimal``) cell at most one, row and column at most one,
    (``full``) row and column at least one, then the clashes' empty clauses."""
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding {encoding!r}: expected one of {ENCODINGS}")
    n = instance.order
    cell, symbol = placements(instance)
    var = np.zeros((n * n, n), dtype=np.int32)  # var[cell, v]: 1-based, 0 = no variable
    var[cell, symbol] = np.arange(1, len(cell) + 1, dtype=np.int32)
    cube = var.reshape(n, n, n)  # cube[r, c, v]
    by_row = cube.transpose(0, 2, 1).reshape(n * n, n)  # by_row[r * n + v] = x[(r, .), v]
    by_col = cube.transpose(1, 2, 0).reshape(n * n, n)  # by_col[c * n + v] = x[(., c), v]
    holes = np.asarray(instance.cells) == HOLE
    cnf = Cnf(nvars=len(cell))
    cnf.add(at_least_one(var[holes]))
    for groups in (var, by_row, by_col) if encoding != "minimal" else (by_row, by_col):
        cnf.add_array(pairwise(groups))
    if encoding == "full":
        in_row, in_col = shown(instance)
        cnf.add(at_least_one(by_row[~in_row.ravel()]))
        cnf.add(at_least_one(by_col[~in_col.ravel()]))
    cnf.add([[] for _ in range(clash_count(instance))])
    return cnf


def decode(instance: Instance, model: list[int] | None) -> Any:
    """The square of a model: each hole's one true candidate (exactly one in every encoding;
    see the module docstring); raises if a hole has none or two (a bug, not an instance)."""
    cell, symbol = placements(instance)
    true = np.asarray(model or [], dtype=np.int64)[:len(cell)] > 0
    per_cell = np.bincount(cell[true], minlength=instance.ncells)
    holes = np.asarray(instance.cells) == HOLE
    if (per_cell[holes] != 1).any():
        bad = int(np.nonzero(holes & (per_cell != 1))[0][0])
        raise RuntimeError(f"model sets {per_cell[bad]} symbols in hole {bad}")
    return completed(instance, cell[true], symbol[true])


# --- DIMACS -----------------------------------------------------------------------------------


def write_cnf(instance: Instance, path: Path | str, encoding: str = DEFAULT_ENCODING,
              **_solver_only: Any) -> None:
    """``cliffbench export INSTANCE --to cnf FILE``: the simplified formula."""
    cnf = encode(instance, encoding)
    n, name = instance.order, " ".join(instance.name.split()) or "-"
    comments = [f"cliffbench latin SAT model (encoders/latin_sat.py), encoding={encoding}",
                f"square {instance.instance_id} {name}: order {n}, {instance.holes} holes",
                "given cells simplified away; variable k = the k-th candidate (hole, symbol), "
                "holes row-major from 0, then symbols 0..n-1 that no given cell of the hole's "
                "row or column shows"]
    with open(path, "w", encoding="ascii") as out:
        sat_engine.write_dimacs(out, comments, cnf)


def read_cnf(instance: Instance, true: set[int], **_params: Any) -> Any:
    """``reads["cnf"]``: the square of another program's answer to ``write_cnf``'s file (its
    true variables; the variable map does not depend on the encoding), or None when a hole
    gets no symbol or two."""
    try:
        return decode(instance, sat_engine.model_of(true, len(placements(instance)[0])))
    except RuntimeError:
        return None


# --- solving ----------------------------------------------------------------------------------


def prepare() -> None:
    """Load the default engine's library and solve an order-3 square with holes."""
    cnf = encode(Instance(3, (0, -1, -1, -1, -1, -1, -1, -1, 1)))
    sat = sat_engine.make_engine(DEFAULT_ENGINE, cnf, 0)
    sat.solve()
    sat.delete()


PARAMS = [
    Param("encoding", DEFAULT_ENCODING, "'minimal' (a hole at least one symbol, a symbol at "
          "most once per row and column), 'direct' (adds: a hole at most one symbol) or 'full' "
          "(adds: a symbol at least once per row and column: the 3-D encoding)",
          choices=ENCODINGS),
    Param("engine", DEFAULT_ENGINE, "pysat SAT solver; only the MiniSat family (glucose*, "
          "maple*, minisat22, ...) stops inside the budget", choices=ENGINES),
]


@solver("sat", family="latin", paradigm="sat", backend=f"pysat-{pysat.__version__}",
        params=PARAMS, prepare=prepare, exports={"cnf": write_cnf}, reads={"cnf": read_cnf})
def solve(instance: Instance, budget: Budget, seed: int, encoding: str = DEFAULT_ENCODING,
          engine: str = DEFAULT_ENGINE) -> Outcome:
    """SAT on x[hole, symbol], givens simplified away: minimal, direct or full (3-D)."""
    start = time.perf_counter()
    cnf = encode(instance, encoding)
    sat = sat_engine.make_engine(engine, cnf, seed or 0)
    try:
        t_encode = time.perf_counter() - start
        start = time.perf_counter()
        found = sat_engine.run_engine(sat, engine, stop_time(budget) - time.monotonic())
        square = decode(instance, sat.get_model()) if found else None
        t_solve = time.perf_counter() - start
        work = sat_engine.work_counters(sat_engine.engine_stats(sat))
    finally:
        sat.delete()
    out = answer(square, found is False)
    out.counters = {"variables": cnf.nvars, "clauses": cnf.nclauses, **work}
    out.model_vars, out.model_constraints = cnf.nvars, cnf.nclauses
    out.t_encode, out.t_solve = t_encode, t_solve
    return out
