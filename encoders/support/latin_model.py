"""What the Latin-square encoders (sat, xcc, cpsat, ilp) share: candidates, clashes, answers.

Cells are row-major (``cell = row * order + col``), symbols ``0 .. order-1``, ``-1`` a hole,
as in ``instances.latin``. Nothing here comes from the family's checker, which must share
nothing with the solvers.

A hole's *candidates* are the symbols no given cell of its row or column shows; every model
offers a hole only those (the reduction the QWH literature's generator makes before encoding).
A *clash* is two given cells of one row or column with the same symbol: such a partial square
has no completion, and each model says so in its own terms (an empty clause, two equal
constants under one AllDifferent, an item no option can cover, a row no point meets).

``answer`` is the one claim every encoder makes: ``solved`` with the completed square,
``infeasible`` when the search proved there is none, ``unknown`` when the budget stopped it.
"""

from __future__ import annotations

import numpy as np

from bench.api import Outcome
from instances.latin.model import HOLE, Instance, Solution


def grid(instance: Instance) -> np.ndarray:
    """The cells as an (order, order) int32 array, ``-1`` a hole."""
    n = instance.order
    return instance.cells_array().reshape(n, n)


def shown(instance: Instance) -> tuple[np.ndarray, np.ndarray]:
    """``(in_row, in_col)``: ``in_row[r, v]`` when a given cell of row ``r`` holds ``v``,
    ``in_col[c, v]`` the same for column ``c`` (shape (order, order), bool)."""
    n, g = instance.order, grid(instance)
    in_row, in_col = np.zeros((n, n), dtype=bool), np.zeros((n, n), dtype=bool)
    rows, cols = np.nonzero(g != HOLE)
    in_row[rows, g[rows, cols]] = True
    in_col[cols, g[rows, cols]] = True
    return in_row, in_col


def candidates(instance: Instance) -> np.ndarray:
    """``allowed[cell, v]`` (shape (order**2, order), bool): ``cell`` is a hole and no given
    cell of its row or column holds ``v``. A given cell has no candidate (it is no variable)."""
    n, g = instance.order, grid(instance)
    in_row, in_col = shown(instance)
    allowed = (g == HOLE)[:, :, None] & ~in_row[:, None, :] & ~in_col[None, :, :]
    return allowed.reshape(n * n, n)


def placements(instance: Instance) -> tuple[np.ndarray, np.ndarray]:
    """``(cell, symbol)`` of every candidate as two int32 arrays, cell-major then symbol: the
    numbering of the SAT variables (``k + 1``) and of the exact-cover options (``k``)."""
    cell, symbol = np.nonzero(candidates(instance))
    return cell.astype(np.int32), symbol.astype(np.int32)


def completed(instance: Instance, cells: np.ndarray, symbols: np.ndarray) -> Solution:
    """The instance's square with ``symbols[k]`` written into hole ``cells[k]``."""
    out = instance.cells_array()
    out[np.asarray(cells, dtype=np.int64)] = symbols
    return Solution.from_array(instance.order, out)


def answer(solution: Solution | None, proved: bool) -> Outcome:
    """``solved`` with the square; without one, ``infeasible`` when ``proved`` (none exists),
    else ``unknown`` (the budget stopped the search)."""
    if solution is not None:
        return Outcome("solved", solution=solution)
    return Outcome("infeasible" if proved else "unknown")


__all__ = ["answer", "candidates", "completed", "grid", "placements", "shown"]
