"""The static tables every sliding-tile search shares, for any ``rows x cols`` board and goal.

Cells are numbered row-major, as in ``instances.tiles``. The searches move the *blank*, in the
fixed order up, left, right, down (``DIRS = "ULRD"``): that is the order Korf (1985) used, and
IDA*'s node counts depend on it (see ``tiles_ida_kernel``). With this numbering the reverse
of direction ``d`` is ``3 - d``, so "never undo the last move" is one integer comparison.

Tables (flat NumPy arrays, built once per (rows, cols, goal) and cached):

- ``move_dir[cell * 4 + i]``, ``move_cell[cell * 4 + i]`` for ``i < move_count[cell]``: the
  blank's legal moves from ``cell``, in the order U, L, R, D, as a direction and a target cell
  (no off-board test in the search loop).
- ``succ_start[cell * 5 + came]``, ``succ_end[...]``: the same moves minus the one that undoes
  the move that brought the blank to ``cell`` (``came`` = that move's direction, 4 at the
  start: nothing to undo), as a slice of the flat lists ``succ_dir`` and ``succ_cell``. IDA*
  walks these slices, so the undo move costs nothing.
- ``goal_cell[tile]``: where each tile belongs (``goal_cell[0]`` is the blank's goal cell);
  ``goal_row``, ``goal_col`` the same split.
- ``manhattan[tile * n + cell]``: the taxicab distance of ``tile`` from ``cell`` to its goal
  (0 for the blank, which Manhattan ignores).
- ``manhattan_delta[(tile * n + blank) * 4 + d]``: how Manhattan changes when the blank at
  ``blank`` moves in direction ``d``, which slides ``tile`` (the tile on the blank's target
  cell) into ``blank``. One load per generated node: the whole incremental heuristic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import njit

from instances.tiles import Instance, goal_state

#: The files the code compiled from this module comes from (see ``numba_cache``): its
#: constants (the directions) and ``manhattan_sum``.
JIT_SOURCES = (__file__,)

DIRS = "ULRD"
UP, LEFT, RIGHT, DOWN = range(4)
STEP = {UP: (-1, 0), LEFT: (0, -1), RIGHT: (0, 1), DOWN: (1, 0)}
#: Largest board the tables hold (tiles fit an int16 state, distances an int8).
MAX_CELLS = 256


def reverse(d: int) -> int:
    """The direction that undoes ``d`` (U<->D, L<->R)."""
    return 3 - d


@dataclass(frozen=True)
class Board:
    """Move and Manhattan tables of one board shape and goal (see the module docstring)."""

    rows: int
    cols: int
    goal: tuple[int, ...]
    move_count: np.ndarray
    move_dir: np.ndarray
    move_cell: np.ndarray
    succ_start: np.ndarray
    succ_end: np.ndarray
    succ_dir: np.ndarray
    succ_cell: np.ndarray
    goal_cell: np.ndarray
    goal_row: np.ndarray
    goal_col: np.ndarray
    manhattan: np.ndarray
    manhattan_delta: np.ndarray

    @property
    def ncells(self) -> int:
        return self.rows * self.cols

    def state(self, tiles: tuple[int, ...] | list[int]) -> np.ndarray:
        """A state as the searches hold it: ``board[cell] = tile`` (int8 when it fits)."""
        return np.asarray(tiles, dtype=np.int8 if self.ncells <= 128 else np.int16)

    def manhattan_of(self, tiles: tuple[int, ...] | list[int]) -> int:
        """Sum over the tiles (not the blank) of the distance to their goal cell."""
        n = self.ncells
        return int(sum(self.manhattan[t * n + c] for c, t in enumerate(tiles)))


def build_board(rows: int, cols: int, goal: tuple[int, ...]) -> Board:
    """Every table of one board shape and goal state."""
    n = rows * cols
    if n > MAX_CELLS:
        raise ValueError(f"a {rows}x{cols} board is beyond the tables' {MAX_CELLS} cells")
    move_count = np.zeros(n, dtype=np.int64)
    move_dir = np.full(n * 4, -1, dtype=np.int64)
    move_cell = np.full(n * 4, -1, dtype=np.int64)
    for cell in range(n):
        r, c = divmod(cell, cols)
        for d in range(4):
            dr, dc = STEP[d]
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                i = move_count[cell]
                move_dir[cell * 4 + i] = d
                move_cell[cell * 4 + i] = (r + dr) * cols + c + dc
                move_count[cell] += 1
    succ_start = np.zeros(n * 5, dtype=np.int64)
    succ_end = np.zeros(n * 5, dtype=np.int64)
    succ_dir: list[int] = []
    succ_cell: list[int] = []
    for cell in range(n):
        for came in range(5):
            succ_start[cell * 5 + came] = len(succ_dir)
            for i in range(move_count[cell]):
                d = move_dir[cell * 4 + i]
                if came < 4 and d == reverse(came):
                    continue
                succ_dir.append(d)
                succ_cell.append(move_cell[cell * 4 + i])
            succ_end[cell * 5 + came] = len(succ_dir)
    goal_cell = np.empty(n, dtype=np.int64)
    goal_cell[np.asarray(goal)] = np.arange(n)
    goal_row, goal_col = goal_cell // cols, goal_cell % cols
    cells = np.arange(n)
    manhattan = (np.abs(goal_row[:, None] - cells[None, :] // cols)
                 + np.abs(goal_col[:, None] - cells[None, :] % cols))
    manhattan[0, :] = 0
    delta = np.zeros((n, n, 4), dtype=np.int64)
    for blank in range(n):
        for i in range(move_count[blank]):
            d, source = move_dir[blank * 4 + i], move_cell[blank * 4 + i]
            delta[:, blank, d] = manhattan[:, blank] - manhattan[:, source]
    return Board(rows, cols, tuple(goal), move_count, move_dir, move_cell, succ_start, succ_end,
                 np.asarray(succ_dir, dtype=np.int64), np.asarray(succ_cell, dtype=np.int64),
                 goal_cell, goal_row,
                 goal_col, manhattan.reshape(-1).astype(np.int8),
                 delta.reshape(-1).astype(np.int8))


@cache
def board_for(rows: int, cols: int, goal: str) -> Board:
    """The tables of a board shape and goal convention (``blank-first``/``blank-last``)."""
    return build_board(rows, cols, goal_state(rows, cols, goal))


def board_of(instance: Instance) -> Board:
    return board_for(instance.rows, instance.cols, instance.goal)


@njit(cache=True, nogil=True)
def manhattan_sum(board: np.ndarray, manhattan: np.ndarray) -> int:
    """Manhattan distance of a state ``board[cell] = tile`` (compiled, for the searches)."""
    n = board.size
    h = 0
    for cell in range(n):
        h += manhattan[board[cell] * n + cell]
    return h
