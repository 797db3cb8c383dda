"""The Latin-square picture (``FAMILY.picture``): the grid as a puzzle page prints it.

``draw(figure, instance, solution, title)`` fills a fresh matplotlib ``Figure`` (the family
contract's drawer): thin cell lines in a thick frame, given symbols bold black on grey, the
answer's symbols blue, cells whose symbol repeats in a row or a column (or overwrites a given
one) tinted red. The title holds the name and the order, the hole count and, with an answer,
how many holes it fills and the checker's word. An answer of another order is a
``ValueError``.
"""

from __future__ import annotations

from typing import Any

from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from instances.drawing import board_axes, points_per_unit, set_title, size_board
from instances.latin.check import check
from instances.latin.model import HOLE

GIVEN_INK, FILLED_INK, GIVEN_CELL, CONFLICT = "black", "#1f5fbf", "#ececec", "#f6c6c6"


def conflicts(instance: Any, cells: tuple[int, ...]) -> set[int]:
    """Cells whose symbol repeats in their row or column, or overwrites a given symbol."""
    n = instance.order
    bad = {cell for cell, (given, value) in enumerate(zip(instance.cells, cells, strict=True))
           if given != HOLE and value != given}
    for line in range(n):
        for members in (range(line * n, line * n + n), range(line, n * n, n)):
            where: dict[int, list[int]] = {}
            for cell in members:
                if cells[cell] != HOLE:
                    where.setdefault(cells[cell], []).append(cell)
            bad.update(cell for group in where.values() if len(group) > 1 for cell in group)
    return bad


def _squares(cells: list[int], n: int) -> list[Any]:
    return [Rectangle((i % n, i // n), 1, 1).get_verts() for i in cells]


def draw(figure: Figure, instance: Any, solution: Any, title: str | None) -> None:
    """The square (with ``solution``'s symbols filled in) on ``figure``."""
    n = instance.order
    cells = instance.cells if solution is None else tuple(solution.cells)
    if len(cells) != len(instance.cells):
        raise ValueError(f"a {len(cells)}-cell answer for an order-{n} square")
    size_board(figure, n, n, 0.42, lo=3.2, hi=9.0)
    axes = board_axes(figure, n, n)
    unit = points_per_unit(figure, n, n)
    given = [i for i, v in enumerate(instance.cells) if v != HOLE]
    axes.add_collection(PolyCollection(_squares(given, n), facecolors=GIVEN_CELL,
                                       edgecolors="none", gid="latin-given-cells"))
    bad = conflicts(instance, cells) if solution is not None else set()
    if bad:
        axes.add_collection(PolyCollection(_squares(sorted(bad), n), facecolors=CONFLICT,
                                           edgecolors="none", gid="latin-conflicts"))
    inner = [((k, 0), (k, n)) for k in range(1, n)] + [((0, k), (n, k)) for k in range(1, n)]
    axes.add_collection(LineCollection(inner, colors="#9a9a9a", linewidths=0.6))
    axes.add_patch(Rectangle((0, 0), n, n, facecolor="none", edgecolor="black",
                             linewidth=max(1.5, unit / 18)))
    fontsize = max(4.0, min(22.0, unit * (0.55 if n <= 10 else 0.45)))
    for cell, value in enumerate(cells):
        if value == HOLE:
            continue
        row, col = divmod(cell, n)
        kept = instance.cells[cell] == value
        axes.text(col + 0.5, row + 0.53, str(value), ha="center", va="center",
                  fontsize=fontsize, fontweight="bold" if kept else "normal",
                  color=GIVEN_INK if kept else FILLED_INK,
                  gid=f"{'given' if kept else 'filled'}-{row}-{col}")
    status = f"{instance.holes} holes"
    if solution is not None:
        verdict = check(instance, solution)
        filled = sum(1 for g, v in zip(instance.cells, cells, strict=True)
                     if g == HOLE and v != HOLE)
        status += f" · {filled} filled · " + (
            "solved" if verdict.solved else
            (f"legal, {verdict.reason}" if verdict.legal else f"illegal: {verdict.reason}"))
    set_title(axes, title or f"{instance.name or 'Latin square'} (order {n})", status)


__all__ = ["conflicts", "draw"]
