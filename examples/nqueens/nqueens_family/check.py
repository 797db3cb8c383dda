"""The checker: the rules, read straight off (every pair of queens compared), apart from the
solver's bitmasks."""

from __future__ import annotations

from instances.common import Verdict

from nqueens_family.model import Instance, Solution


def check(instance: Instance, solution: Solution) -> Verdict:
    """Solved when there is one queen a row, on the board, on every given square, and no two
    share a column or a diagonal."""
    n, cols = instance.n, solution.cols
    if len(cols) != n:
        return Verdict(False, False, reason=f"{len(cols)} queens for {n} rows")
    if not all(0 <= col < n for col in cols):
        return Verdict(False, False, reason=f"a column outside 0..{n - 1}")
    for row, col in instance.given:
        if cols[row] != col:
            return Verdict(False, False, reason=f"the given queen ({row}, {col}) is missing")
    for a in range(n):
        for b in range(a + 1, n):
            if cols[a] == cols[b] or abs(cols[a] - cols[b]) == b - a:
                return Verdict(False, False, reason=f"the queens of rows {a} and {b} attack "
                                                    "each other")
    return Verdict(True, True)
