"""Which cells a generator picks (the holes of a QWH square, the given cells of a QCP one).

- ``random``: a uniformly random sequence of distinct cells.
- ``balanced``: lsencode's balanced model (Kautz, Ruan, Achlioptas, Gomes, Selman and Stickel,
  "Balance and filtering in structured satisfiable problems", IJCAI 2001): each next cell is
  drawn uniformly among the cells not yet picked whose row and column together hold the fewest
  picked cells, so every row and every column ends with about the same number. The first
  ``n`` picks form a permutation matrix, the next ``n`` another one as far as they can, and so
  on; a row or column may get one more or one fewer than an even share where a round cannot
  close.

Both return the cells in the order picked (row-major numbers) and draw only from ``rng``.
"""

from __future__ import annotations

import random

import numpy as np

PATTERNS = ("random", "balanced")
#: Larger than any count of picked cells in a row plus a column.
_TAKEN = 1 << 40


def random_cells(order: int, count: int, rng: random.Random) -> list[int]:
    """``count`` distinct cells, uniformly, in a random order."""
    return rng.sample(range(order * order), count)


def balanced_cells(order: int, count: int, rng: random.Random) -> list[int]:
    """``count`` distinct cells by lsencode's balanced model (see the module docstring)."""
    n = order
    score = np.zeros(n * n, dtype=np.int64)  # picked cells in the row plus in the column
    picked = []
    for _ in range(count):
        best = np.flatnonzero(score == score.min())
        cell = int(best[rng.randrange(len(best))])
        picked.append(cell)
        row, col = divmod(cell, n)
        score[row * n:(row + 1) * n] += 1
        score[col::n] += 1
        score[cell] = _TAKEN
    return picked


def pick_cells(order: int, count: int, pattern: str, rng: random.Random) -> list[int]:
    """``count`` cells by ``pattern`` (one of ``PATTERNS``)."""
    if pattern == "balanced":
        return balanced_cells(order, count, rng)
    return random_cells(order, count, rng)


__all__ = ["PATTERNS", "balanced_cells", "pick_cells", "random_cells"]
