"""The independent checker: is a grid a Sudoku solution of its puzzle?

Shares nothing with any solver: units are rebuilt here from the definition (rows, columns,
boxes), and a grid is judged by sets, the slowest and plainest way to say "a permutation".
"""

from __future__ import annotations

from instances.common import Verdict
from instances.sudoku.model import Instance, Solution, symbol


def units(box: int) -> list[tuple[str, list[int]]]:
    """Every unit of a board as (name, cells): its rows, its columns, its boxes."""
    size = box * box
    rows = [(f"row {r + 1}", [r * size + c for c in range(size)]) for r in range(size)]
    cols = [(f"column {c + 1}", [r * size + c for r in range(size)]) for c in range(size)]
    boxes = [(f"box {b + 1}", [(box * (b // box) + i) * size + box * (b % box) + j
                               for i in range(box) for j in range(box)]) for b in range(size)]
    return rows + cols + boxes


def check(instance: Instance, solution: Solution) -> Verdict:
    """``legal``: same shape, every clue kept, no digit twice in a unit (blanks allowed).
    ``solved``: legal and complete (so every unit is a permutation of 1..size)."""
    if solution.box != instance.box:
        return Verdict(False, False, reason=f"a {solution.box * solution.box}-digit grid for a "
                                            f"{instance.size}-digit puzzle")
    size = instance.size
    for cell, (clue, value) in enumerate(zip(instance.grid, solution.grid, strict=True)):
        if clue and value != clue:
            return Verdict(False, False, reason=f"clue {symbol(clue)} at r{cell // size + 1}"
                                                f"c{cell % size + 1} changed to {symbol(value)}")
    for name, cells in units(instance.box):
        digits = [solution.grid[c] for c in cells if solution.grid[c]]
        if len(set(digits)) != len(digits):
            twice = next(d for d in digits if digits.count(d) > 1)
            return Verdict(False, False, reason=f"digit {symbol(twice)} twice in {name}")
    blanks = sum(v == 0 for v in solution.grid)
    if blanks:
        return Verdict(True, False, reason=f"{blanks} cells left blank")
    return Verdict(True, True)
