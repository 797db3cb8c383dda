"""The square as text, for people: a row a line, symbols right-aligned, ``.`` for a hole."""

from __future__ import annotations

from instances.latin.model import HOLE, Instance, Solution


def render(instance: Instance, solution: Solution | None = None) -> str:
    """The instance's square, or the answer's when one is given."""
    order = solution.order if solution is not None else instance.order
    cells = solution.cells if solution is not None else instance.cells
    width = len(str(order - 1))
    return "\n".join(" ".join(("." if v == HOLE else str(v)).rjust(width)
                              for v in cells[r * order:(r + 1) * order]) for r in range(order))


__all__ = ["render"]
