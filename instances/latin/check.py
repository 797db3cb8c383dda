"""The independent checker of a Latin-square answer.

Rules: (1) the answer has the instance's order; (2) every given cell keeps its symbol; (3) no
row and no column holds a symbol twice. An answer obeying them is *legal* (it may still have
holes); it is *solved* when it also has no hole, which makes every row and column a
permutation of ``0 .. n-1``. A completion problem has no partial score.
"""

from __future__ import annotations

from typing import Any

from instances.common import Verdict
from instances.latin.model import HOLE, Instance, Solution


def repeated(cells: tuple[int, ...], order: int) -> str:
    """Where a row or a column first repeats a symbol ("" when none does)."""
    for line in range(order):
        for kind, step, start in (("row", 1, line * order), ("column", order, line)):
            seen: set[int] = set()
            for k in range(order):
                value = cells[start + k * step]
                if value == HOLE:
                    continue
                if value in seen:
                    return f"{kind} {line} holds symbol {value} twice"
                seen.add(value)
    return ""


def check(instance: Instance, solution: Any) -> Verdict:
    """The verdict on an answer (see the module docstring)."""
    if not isinstance(solution, Solution):
        return Verdict(False, False, reason=f"not a latin solution: {type(solution).__name__}")
    if solution.order != instance.order:
        return Verdict(False, False,
                       reason=f"order {solution.order}, the instance's is {instance.order}")
    empty = sum(v == HOLE for v in solution.cells)
    for cell, given in enumerate(instance.cells):
        if given != HOLE and solution.cells[cell] != given:
            row, col = divmod(cell, instance.order)
            return Verdict(False, False, reason=f"given cell ({row}, {col}) = {given} became "
                                                f"{solution.cells[cell]}")
    clash = repeated(solution.cells, instance.order)
    if clash:
        return Verdict(False, False, reason=clash)
    if empty:
        return Verdict(True, False, reason=f"{empty} cells left empty")
    return Verdict(True, True)


__all__ = ["check", "repeated"]
