"""The edge-matching board: pieces with four coloured edges, a frame of grey, pinned hints.

One data structure, explained once:

- A piece is four colours listed clockwise from the top: ``(N, E, S, W)``. Colour 0 is grey, the
  border colour; colours 1..K are the others.
- Pieces are addressed by *index* (0..P-1) everywhere inside the project; ``ids`` keeps the
  external numbers of the file (Eternity II's official ids, 1-based) for reading and writing.
- A rotation ``rot`` in 0..3 counts clockwise quarter turns: after rotation, side ``s``
  (0=N, 1=E, 2=S, 3=W) shows the listed edge ``(s - rot) % 4``.
- Cells are numbered row-major, ``cell = row * cols + col``, rows from the top, columns from
  the left, both 0-based.
- A solution holds, per cell, ``(piece_index, rot)`` or ``None`` for an empty cell (a partial
  board).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from instances.common import InstanceError, instance_hash

N, E, S, W = 0, 1, 2, 3
GREY = 0


def rotated(edges: tuple[int, int, int, int], rot: int) -> tuple[int, int, int, int]:
    """The colours a piece shows on sides N, E, S, W after ``rot`` clockwise quarter turns."""
    return tuple(edges[(s - rot) % 4] for s in range(4))  # type: ignore[return-value]


@dataclass(frozen=True)
class Hint:
    """A pinned piece: piece index ``piece`` must stand at (row, col) turned ``rot``."""

    piece: int
    row: int
    col: int
    rot: int


@dataclass(frozen=True)
class Instance:
    """An edge-matching puzzle. Immutable; ``instance_id`` is a hash of its content.

    ``border_colors``/``inner_colors`` are the split of the colours 1..K into frame colours
    (1..B, only on joins between two frame cells) and inner colours (B+1..K), 0 when unknown.
    ``name`` is cosmetic and not part of the id.
    """

    rows: int
    cols: int
    colors: int
    pieces: tuple[tuple[int, int, int, int], ...]
    ids: tuple[int, ...] = ()
    hints: tuple[Hint, ...] = ()
    name: str = ""
    border_colors: int = 0
    inner_colors: int = 0
    extra: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.ids:
            object.__setattr__(self, "ids", tuple(range(1, len(self.pieces) + 1)))
        if len(self.ids) != len(self.pieces):
            raise InstanceError(f"{len(self.ids)} ids for {len(self.pieces)} pieces")
        cells = [(h.row, h.col) for h in self.hints]
        if len(set(cells)) != len(cells):
            raise InstanceError("two hints pin the same cell")
        if len({h.piece for h in self.hints}) != len(self.hints):
            raise InstanceError("two hints pin the same piece")

    @property
    def ncells(self) -> int:
        return self.rows * self.cols

    @property
    def max_score(self) -> int:
        """Interior joins of the board: 2N(N-1) for N x N, 480 for Eternity II."""
        return self.rows * (self.cols - 1) + (self.rows - 1) * self.cols

    def edges_array(self) -> np.ndarray:
        """Pieces as an int32 array of shape (P, 4), columns N, E, S, W (for solvers)."""
        return np.asarray(self.pieces, dtype=np.int32).reshape(len(self.pieces), 4)

    def index_of_id(self) -> dict[int, int]:
        return {pid: i for i, pid in enumerate(self.ids)}

    def to_json(self) -> dict[str, Any]:
        """The canonical serialisation (sent to workers, hashed for the id)."""
        return {
            "family": "edgematch",
            "rows": self.rows,
            "cols": self.cols,
            "colors": self.colors,
            "pieces": [list(p) for p in self.pieces],
            "ids": list(self.ids),
            "hints": [[h.piece, h.row, h.col, h.rot] for h in self.hints],
            "name": self.name,
            "border_colors": self.border_colors,
            "inner_colors": self.inner_colors,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Instance:
        return cls(
            rows=int(data["rows"]),
            cols=int(data["cols"]),
            colors=int(data["colors"]),
            pieces=tuple(tuple(int(c) for c in p) for p in data["pieces"]),  # type: ignore[misc]
            ids=tuple(int(i) for i in data.get("ids", ())),
            hints=tuple(Hint(*map(int, h)) for h in data.get("hints", ())),
            name=str(data.get("name", "")),
            border_colors=int(data.get("border_colors", 0)),
            inner_colors=int(data.get("inner_colors", 0)),
        )

    @property
    def instance_id(self) -> str:
        return instance_hash(self.to_json())


@dataclass(frozen=True)
class Solution:
    """A board: per cell (row-major) ``(piece_index, rot)`` or None for an empty cell."""

    rows: int
    cols: int
    cells: tuple[tuple[int, int] | None, ...]

    @classmethod
    def empty(cls, rows: int, cols: int) -> Solution:
        return cls(rows, cols, (None,) * (rows * cols))

    @classmethod
    def from_arrays(cls, rows: int, cols: int, piece: np.ndarray, rot: np.ndarray) -> Solution:
        """From two flat arrays per cell; a negative piece marks an empty cell (solver output)."""
        cells = tuple(
            (int(p), int(r)) if p >= 0 else None
            for p, r in zip(np.asarray(piece).ravel(), np.asarray(rot).ravel(), strict=True)
        )
        return cls(rows, cols, cells)

    def placed(self) -> int:
        return sum(c is not None for c in self.cells)

    def to_json(self, instance: Instance) -> dict[str, Any]:
        """``{"rows", "cols", "cells": [[row, col, piece_id, rot], ...]}`` with external ids."""
        out = []
        for cell, value in enumerate(self.cells):
            if value is not None:
                out.append([cell // self.cols, cell % self.cols, instance.ids[value[0]], value[1]])
        return {"rows": self.rows, "cols": self.cols, "cells": out}

    @classmethod
    def from_json(cls, data: dict[str, Any], instance: Instance) -> Solution:
        index = instance.index_of_id()
        rows, cols = int(data.get("rows", instance.rows)), int(data.get("cols", instance.cols))
        cells: list[tuple[int, int] | None] = [None] * (rows * cols)
        for entry in data["cells"]:
            r, c, pid, rot = (int(x) for x in entry)
            if pid not in index:
                raise InstanceError(f"solution names piece id {pid}, which the instance lacks")
            if not (0 <= r < rows and 0 <= c < cols):
                raise InstanceError(f"solution cell ({r},{c}) is off the {rows}x{cols} board")
            cells[r * cols + c] = (index[pid], rot)
        return cls(rows, cols, tuple(cells))
