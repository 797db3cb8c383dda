"""What the Sudoku encoders (sat, xcc, cpsat, ilp) share: units, candidates, variable numbers.

Cells are row-major (``cell = row * size + col``), boxes ``(row // box) * box + col // box``,
digits 1..size, as in ``instances.sudoku``. The one Boolean of every model is ``x[cell, d]``,
"cell holds digit d"; it is numbered ``cell * size + d`` (1-based, so it is also its DIMACS
variable: cell-major, then digit). Units are rebuilt here, not taken from the checker, which
must share nothing with the solvers.

``answer`` is the one reading of "up to two solutions" all four encoders give: ``solutions``
0 / 1 / 2 when the count is complete; when the budget stops the search for a second solution
the run is ``unknown`` with the first grid (the harness still checks it and records it as
solved) and ``solutions_found`` = 1 instead, so a cut-short count never reads as "unique".
"""

from __future__ import annotations

from functools import cache

import numpy as np

from bench.api import Outcome
from instances.sudoku import Instance, Solution

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
# One character per row, column or box index 0..24, for short item names (dlx2: 8 characters).
INDEX = "0123456789abcdefghijklmnop"


def box_index(box: int, cell: int) -> int:
    size = box * box
    row, col = divmod(cell, size)
    return (row // box) * box + col // box


@cache
def units(box: int) -> np.ndarray:
    """Every unit's cells, shape (3 * size, size): rows, then columns, then boxes."""
    size = box * box
    cells = np.arange(size * size, dtype=np.int32).reshape(size, size)
    boxes = cells.reshape(box, box, box, box).transpose(0, 2, 1, 3).reshape(size, size)
    out = np.concatenate([cells, cells.T, boxes])
    out.setflags(write=False)
    return out


def var(size: int, cell: int, digit: int) -> int:
    """The 1-based number of ``x[cell, digit]`` (cell-major, then digit)."""
    return cell * size + digit


def candidates(instance: Instance) -> list[list[int]]:
    """Per cell the digits the clues leave it: a clue cell keeps only its clue, a blank every
    digit no clue of its row, column or box shows. Clues that clash with each other are left
    in (the model then has no solution, which is the honest answer)."""
    box, size, grid = instance.box, instance.size, instance.grid
    seen = np.zeros((3 * size, size + 1), dtype=bool)
    for u, cells in enumerate(units(box)):
        seen[u, [grid[c] for c in cells]] = True
    out = []
    for cell, clue in enumerate(grid):
        if clue:
            out.append([clue])
            continue
        row, col = divmod(cell, size)
        taken = seen[row] | seen[size + col] | seen[2 * size + box_index(box, cell)]
        out.append([d for d in range(1, size + 1) if not taken[d]])
    return out


def answer(box: int, grid: tuple[int, ...] | None, proved: bool, second: bool | None,
           unique: bool) -> Outcome:
    """The claim of a search for up to two solutions. ``grid``: the first one (None: none
    found, ``proved`` says whether none exists or the budget stopped the search); ``second``:
    whether another exists (None: not looked for, or stopped). A count cut short by the budget
    is ``unknown`` with the first grid and ``solutions_found`` instead of ``solutions``."""
    if grid is None:
        if not proved:
            return Outcome("unknown")
        return Outcome("infeasible", counters={"solutions": 0} if unique else {})
    board = Solution.from_array(box, grid)
    if not unique:
        return Outcome("solved", solution=board)
    if second is None:
        return Outcome("unknown", solution=board, counters={"solutions_found": 1})
    return Outcome("solved", solution=board, counters={"solutions": 2 if second else 1})
