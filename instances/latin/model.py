"""The partial Latin square: one data structure, explained once.

- A square of order ``n`` has ``n * n`` cells numbered row-major (``cell = row * n + col``),
  each holding a symbol ``0 .. n-1``. It is *Latin* when every row and every column holds each
  symbol exactly once (the multiplication table of a quasigroup).
- A *partial* square is a tuple of ``n * n`` ints, ``-1`` for a hole (an empty cell), and is
  the instance: complete it to a Latin square keeping every given cell. A QWH instance (a
  quasigroup with holes) is a Latin square with holes punched, so it has a completion; a QCP
  instance (quasigroup completion) is any partial square, which may have none.
- A solution is the completed square, the same shape with no hole (a partial one is legal if
  it keeps every given cell and repeats no symbol in a row or a column).

Symbols are ``0``-based as in the QWH/QCP literature's ``.pls`` files (``-1`` for a hole).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from instances.common import InstanceError, instance_hash, shown

HOLE = -1
#: Orders beyond any search of the project (a 200 x 200 square has 8 M SAT variables).
MAX_ORDER = 200


def checked_cells(order: int, cells: Any, what: str, holes: bool = True) -> tuple[int, ...]:
    """``cells`` as a tuple of ints, after checking the order, the length and every value."""
    if not isinstance(order, int) or isinstance(order, bool) or not 1 <= order <= MAX_ORDER:
        raise InstanceError(f"{what}: order {shown(order)} is not a whole number in "
                            f"1..{MAX_ORDER}")
    cells = tuple(int(v) for v in cells)
    if len(cells) != order * order:
        raise InstanceError(f"{what}: {len(cells)} cells, order {order} needs {order * order}")
    low = HOLE if holes else 0
    bad = next((v for v in cells if not low <= v < order), None)
    if bad is not None:
        raise InstanceError(f"{what}: value {bad} is outside {low}..{order - 1}")
    return cells


def whole(value: Any, what: str) -> int:
    """A JSON value that must be an integer (a bool or a float is not one)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InstanceError(f"{what} {shown(value)} is not a whole number")
    return value


def json_cells(values: Any) -> tuple[int, ...]:
    """A JSON list of cells: integers only (``checked_cells`` checks their range)."""
    if not isinstance(values, (list, tuple)):
        raise InstanceError(f"cells must be a list of integers, not {shown(values)}")
    return tuple(whole(value, "cell value") for value in values)


@dataclass(frozen=True)
class Instance:
    """A partial Latin square: its order and its cells (``-1`` a hole). ``name`` is cosmetic,
    not part of the id."""

    order: int
    cells: tuple[int, ...]
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", checked_cells(self.order, self.cells, "latin square"))

    @property
    def ncells(self) -> int:
        return self.order * self.order

    @property
    def holes(self) -> int:
        return sum(v == HOLE for v in self.cells)

    def cells_array(self) -> np.ndarray:
        """The cells as a new flat int32 array (``-1`` a hole), for solvers."""
        return np.asarray(self.cells, dtype=np.int32)

    def to_json(self) -> dict[str, Any]:
        """The canonical serialisation (sent to workers, hashed for the id)."""
        return {"family": "latin", "order": self.order, "cells": list(self.cells),
                "name": self.name}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Instance:
        """The instance ``to_json`` gave; InstanceError when ``data`` is not one."""
        if not isinstance(data, dict) or data.get("family", "latin") != "latin":
            raise InstanceError("a latin instance is {'family': 'latin', 'order': n, "
                                "'cells': [n*n symbols, -1 a hole]}")
        name = data.get("name", "")
        if not isinstance(name, str):
            raise InstanceError(f"a latin instance's name is a string, not {shown(name)}")
        return cls(whole(data.get("order"), "order"), json_cells(data.get("cells")), name)

    @property
    def instance_id(self) -> str:
        return instance_hash(self.to_json())


@dataclass(frozen=True)
class Solution:
    """A filled (or partly filled: ``-1`` holes) square of its instance's order."""

    order: int
    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", checked_cells(self.order, self.cells,
                                                        "latin solution"))

    @classmethod
    def from_array(cls, order: int, values: Any) -> Solution:
        return cls(order, tuple(int(v) for v in np.asarray(values).ravel()))

    def to_json(self, instance: Instance | None = None) -> dict[str, Any]:
        return {"order": self.order, "cells": list(self.cells)}

    @classmethod
    def from_json(cls, data: dict[str, Any], instance: Instance | None = None) -> Solution:
        """The answer ``to_json`` gave (its order may be left out when ``instance`` is given);
        InstanceError when ``data`` is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
            raise InstanceError("a latin solution is {'order': n, 'cells': [n*n symbols]}")
        order = data.get("order", instance.order if instance is not None else None)
        return cls(whole(order, "order"), json_cells(data["cells"]))


__all__ = ["HOLE", "MAX_ORDER", "Instance", "Solution", "checked_cells", "json_cells",
           "whole"]
