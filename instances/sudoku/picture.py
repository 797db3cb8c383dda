"""The Sudoku picture (``FAMILY.picture``): the grid as it is printed.

``draw(figure, instance, solution, title)`` fills a fresh matplotlib ``Figure`` (the family
contract's drawer; the harness makes, styles and saves the figure): the grid with thin cell
lines and thick box lines, clues bold black on grey, filled digits blue, cells whose digit
repeats in a unit (or overwrites a clue) tinted red; any box side 2..5 (symbols beyond 9 as
the family writes them). The title holds the clue count and, with a solution, how many cells
it fills and the checker's word. A solution grid of another size is a ``ValueError``.
"""

from __future__ import annotations

from typing import Any

from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from instances.drawing import board_axes, points_per_unit, set_title, size_board
from instances.sudoku import check, units
from instances.sudoku.model import symbol

CLUE_INK, FILLED_INK, CONFLICT = "black", "#1f5fbf", "#f6c6c6"


def sudoku_conflicts(instance: Any, grid: tuple[int, ...]) -> set[int]:
    """Cells whose digit repeats in one of its units, or overwrites a clue."""
    bad = {cell for cell, (clue, value) in enumerate(zip(instance.grid, grid, strict=True))
           if clue and value != clue}
    for _, cells in units(instance.box):
        seen: dict[int, list[int]] = {}
        for cell in cells:
            if grid[cell]:
                seen.setdefault(grid[cell], []).append(cell)
        for where in seen.values():
            if len(where) > 1:
                bad.update(where)
    return bad


def draw(figure: Figure, instance: Any, solution: Any, title: str | None) -> None:
    """The grid (with ``solution``'s digits filled in) on ``figure``."""
    box, size = instance.box, instance.size
    grid = instance.grid if solution is None else tuple(solution.grid)
    if len(grid) != len(instance.grid):
        raise ValueError(f"a {len(grid)}-cell grid for a {size}x{size} puzzle")
    size_board(figure, size, size, 0.42, lo=3.2, hi=9.0)
    axes = board_axes(figure, size, size)
    unit = points_per_unit(figure, size, size)
    conflicts = sudoku_conflicts(instance, grid) if solution is not None else set()
    clue_cells = [i for i, v in enumerate(instance.grid) if v]
    axes.add_collection(PolyCollection(
        [Rectangle((i % size, i // size), 1, 1).get_verts() for i in clue_cells],
        facecolors="#ececec", edgecolors="none", gid="sudoku-clue-cells"))
    if conflicts:
        axes.add_collection(PolyCollection(
            [Rectangle((i % size, i // size), 1, 1).get_verts() for i in sorted(conflicts)],
            facecolors=CONFLICT, edgecolors="none", gid="sudoku-conflicts"))
    thin = [((k, 0), (k, size)) for k in range(1, size) if k % box] + \
           [((0, k), (size, k)) for k in range(1, size) if k % box]
    thick = [((k, 0), (k, size)) for k in range(0, size + 1, box)] + \
            [((0, k), (size, k)) for k in range(0, size + 1, box)]
    axes.add_collection(LineCollection(thin, colors="#9a9a9a", linewidths=0.6))
    axes.add_collection(LineCollection(thick, colors="black", linewidths=max(1.5, unit / 18),
                                       capstyle="projecting"))
    fontsize = max(4.0, min(22.0, unit * 0.55))
    for cell, value in enumerate(grid):
        if not value:
            continue
        row, col = divmod(cell, size)
        clue = instance.grid[cell] == value
        axes.text(col + 0.5, row + 0.53, symbol(value), ha="center", va="center",
                  fontsize=fontsize, fontweight="bold" if clue else "normal",
                  color=CLUE_INK if clue else FILLED_INK,
                  gid=f"{'clue' if clue else 'filled'}-{row}-{col}")
    name = title or f"{instance.name or 'Sudoku'} {size}x{size}"
    status = f"{instance.clues} clues"
    if solution is not None:
        verdict = check(instance, solution)
        filled = sum(1 for c, v in zip(instance.grid, grid, strict=True) if v and not c)
        status += f" · {filled} filled · " + (
            "solved" if verdict.solved else
            (f"legal, {verdict.reason}" if verdict.legal else f"illegal: {verdict.reason}"))
    set_title(axes, name, status)


__all__ = ["draw", "sudoku_conflicts"]
