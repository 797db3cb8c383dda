"""``nqueens/backtrack``: depth-first search, row by row, with bitmasks.

Three bitmasks hold the columns and the two diagonals (``row + col``, ``row - col + n - 1``)
that the queens placed so far attack, the given queens from the start. Rows are filled top to
bottom: a row with a given queen keeps it, any other tries its free columns left to right.
The search ends at the first full board (``solved``), when every choice failed
(``infeasible``), or when the budget runs out (``unknown``: the clock is read every
``CHECK_EVERY`` nodes). Importing this module registers the solver.
"""

from __future__ import annotations

import platform

from bench.api import Budget, Outcome, solver

from nqueens_family.model import Instance, Solution

CHECK_EVERY = 1024


class OutOfTime(Exception):
    """The budget ran out mid-search."""


def masks(n: int, row: int, col: int) -> tuple[int, int, int]:
    """The column, diagonal and anti-diagonal bit of square (row, col)."""
    return 1 << col, 1 << (row + col), 1 << (row - col + n - 1)


@solver("backtrack", family="nqueens", paradigm="native",
        backend=f"python-{platform.python_version()}")
def solve(instance: Instance, budget: Budget, seed: int) -> Outcome:
    """Row-by-row backtracking over bitmasks of attacked columns and diagonals."""
    n = instance.n
    cols = [-1] * n
    used = diag = anti = 0
    for row, col in instance.given:
        bits = masks(n, row, col)
        if cols[row] >= 0 or used & bits[0] or diag & bits[1] or anti & bits[2]:
            return Outcome("infeasible")  # two given queens attack each other
        cols[row] = col
        used, diag, anti = used | bits[0], diag | bits[1], anti | bits[2]
    nodes = 0

    def place(row: int, used: int, diag: int, anti: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes % CHECK_EVERY == 0 and budget.expired():
            raise OutOfTime
        while row < n and cols[row] >= 0:  # a given queen's row
            row += 1
        if row == n:
            return True
        for col in range(n):
            bits = masks(n, row, col)
            if used & bits[0] or diag & bits[1] or anti & bits[2]:
                continue
            cols[row] = col
            if place(row + 1, used | bits[0], diag | bits[1], anti | bits[2]):
                return True
        cols[row] = -1
        return False

    try:
        found = place(0, used, diag, anti)
    except OutOfTime:
        return Outcome("unknown", counters={"nodes": nodes})
    if found:
        return Outcome("solved", Solution(tuple(cols)), counters={"nodes": nodes})
    return Outcome("infeasible", counters={"nodes": nodes})
