"""A grid for people: boxes separated by lines, as Norvig's ``display`` draws it."""

from __future__ import annotations

from instances.sudoku.model import Instance, Solution, symbol


def render(instance: Instance, solution: Solution | None = None) -> str:
    grid = solution.grid if solution is not None else instance.grid
    box, size = instance.box, instance.size
    rule = "+".join(["-" * (2 * box + 1)] * box)
    lines = []
    for r in range(size):
        if r and r % box == 0:
            lines.append(rule)
        parts = [" ".join(symbol(grid[r * size + c]) for c in range(b * box, (b + 1) * box))
                 for b in range(box)]
        lines.append(" " + " | ".join(parts))
    return "\n".join(lines)
