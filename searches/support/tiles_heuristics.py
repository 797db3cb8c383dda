"""The heuristics of the sliding-tile searches (IDA* and A*), as a kind and three flat tables.

Heuristics plug in as a *kind* (an integer constant) and three flat tables (``t8`` int8,
``tu8`` uint8, ``t64`` int64: any layout the kind likes), so that a search kernel is compiled
once per kind with the kind as a constant (through a wrapper such as
``tiles_ida_kernel.ida_manhattan``; LLVM drops the other kinds' branches). A kind is two
functions:

- ``root_h(kind, board, blank, t8, tu8, t64, hs, P, pos)``: the full value of a state; it fills
  row 0 of ``hs``, the kind's per-depth state (``hs.shape[1]`` integers a depth,
  ``Heuristic.width``);
- ``child_h(kind, board, blank, src, tile, d, h, t8, tu8, t64, hs, depth, P, pos)``: the child's
  value when the blank at ``blank`` moves in direction ``d`` and slides ``tile`` from ``src``
  into ``blank``, from the parent's ``h`` and ``hs[depth]``; it writes the child's whole row
  ``hs[depth + 1]`` (siblings overwrite it in turn). It is called before the move is made.

``MANHATTAN``: one load per node (``manhattan_delta``). ``LINEAR_CONFLICT`` (Hansson, Mayer &
Yung 1992) adds, for each row and each column, 2 x the tiles of that line that must leave it:
among the tiles in their goal line, those outside a longest increasing run of their goal
positions (the exact minimum cover of the conflicts, so admissible; a row's extra moves are
vertical, a column's horizontal, and Manhattan counts neither kind for such tiles, so the sum
stays admissible and consistent). A vertical move changes at most one row's term (the moved
tile's goal row, if it leaves or enters it) and no column's (the column keeps its order), so a
child costs at most one line: a table look-up by the line's code for lines of up to 6 cells,
else a recount. ``DROPOUT`` (Manhattan where cell 0 holds an odd tile, else 0) is admissible
and deliberately inconsistent, with Manhattan carried in ``hs``: it tests A*'s reopening and
the per-depth state.

``PDB``: a partition's pattern databases, the one kind with tables of its own: ``P``, their
arrays, and ``pos``, the state's views they are read from, which the kernel moves along with
the board (``tiles_pdb_adapter``). The other kinds receive a placeholder ``P`` of the same
numba type (``no_pdb``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import njit

from searches.support import tiles_board, tiles_pdb_adapter, tiles_pdb_lookup
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.tiles_board import DOWN, UP, Board
from searches.support.tiles_pdb_adapter import (
    PDB_DUAL_ON,
    PDB_PATHMAX_ON,
    check_dual,
    pdb_child_h,
    pdb_root_h,
)
from searches.support.tiles_pdb_lookup import PDBArrays

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *tiles_board.JIT_SOURCES, *tiles_pdb_adapter.JIT_SOURCES)

MANHATTAN, LINEAR_CONFLICT, DROPOUT, PDB = 0, 1, 2, 3
HEURISTICS = {"manhattan": MANHATTAN, "linear-conflict": LINEAR_CONFLICT}


# Layout of ``t64`` for Manhattan, linear conflict and DROPOUT: rows, cols, whether linear
# conflict uses its line tables, where the column table starts in ``tu8``, then from GR: each
# tile's goal row, goal column (-1 for the blank), Manhattan by (tile, cell); and for linear
# conflict's tables, each (tile, cell)'s digit in its row's code, then in its column's code
# (see ``line_change``).
T_ROWS, T_COLS, T_TABLED, T_COLUMN_TABLE = range(4)
GR = 4
MAX_TABLED_LINE = 6  # a line of L cells has a table of (L + 1)^L entries: 117,649 for L = 6


@njit(cache=True, nogil=True)
def line_conflicts(board, first, step, count, skip, line, t64, line_at, pos_at):
    """2 x the tiles of one row or column that must leave it: of the tiles in the line's cells
    (``first + j * step``, ``j < count``, cell ``skip`` left out: the blank) whose goal line is
    ``line`` (``t64[line_at + tile]``), those not on a longest increasing run of their goal
    positions along the line (``t64[pos_at + tile]``). Patience sorting on a bitset: positions
    are below 63, so no buffer is needed."""
    tails = 0
    k = 0
    longest = 0
    for j in range(count):
        cell = first + j * step
        if cell == skip:
            continue
        tile = board[cell]
        if t64[line_at + tile] != line:
            continue
        x = t64[pos_at + tile]
        k += 1
        higher = tails & ~((2 << x) - 1)
        if higher == 0:
            longest += 1
        else:
            tails ^= higher & -higher
        tails |= 1 << x
    return 2 * (k - longest)


@njit(cache=True, nogil=True)
def conflict_table(length):
    """Linear conflict of every line of ``length`` cells, by its code: digit ``j`` (base
    ``length + 1``) is 0 when cell ``j`` holds no tile of this line, else 1 + the goal position
    of its tile along the line. The same count as ``line_conflicts``, looked up in one load."""
    base = length + 1
    table = np.zeros(base ** length, np.uint8)
    for code in range(table.size):
        rest = code
        tails = 0
        k = 0
        longest = 0
        for _ in range(length):
            v = rest % base
            rest //= base
            if v == 0:
                continue
            x = v - 1
            k += 1
            higher = tails & ~((2 << x) - 1)
            if higher == 0:
                longest += 1
            else:
                tails ^= higher & -higher
            tails |= 1 << x
        table[code] = 2 * (k - longest)
    return table


@njit(cache=True, nogil=True)
def all_line_conflicts(board, blank, t64):
    rows, cols = t64[T_ROWS], t64[T_COLS]
    n = rows * cols
    total = 0
    for r in range(rows):
        total += line_conflicts(board, r * cols, 1, cols, blank, r, t64, GR, GR + n)
    for c in range(cols):
        total += line_conflicts(board, c, cols, rows, blank, c, t64, GR + n, GR)
    return total


@njit(cache=True, nogil=True, inline="always")
def line_change(board, blank, src, tile, first, step, count, enters, t64, tu8, table_at,
                values):
    """How the conflicts of one line change when ``tile`` leaves it from ``src`` or
    ``enters`` it at ``blank``. The line's code for ``conflict_table`` is a sum over its cells
    of ``t64[values + tile * n + cell]`` (the tile's digit, placed at the cell's position);
    the blank's cell holds a stale tile, whose term is taken out."""
    n = board.size
    code = 0
    for j in range(count):
        cell = first + j * step
        code += t64[values + board[cell] * n + cell]
    if enters:
        code -= t64[values + board[blank] * n + blank]
        after = code + t64[values + tile * n + blank]
    else:
        after = code - t64[values + tile * n + src]
    return np.int64(tu8[table_at + after]) - np.int64(tu8[table_at + code])


@njit(cache=True, nogil=True)
def root_h(kind, board, blank, t8, tu8, t64, hs, P, pos):
    """The heuristic of the start state (``hs[0]`` is the place for per-depth state)."""
    n = board.size
    h = 0
    if kind == PDB:
        return pdb_root_h(board, blank, t64, hs, P, pos)
    if kind == MANHATTAN or kind == LINEAR_CONFLICT or kind == DROPOUT:
        for cell in range(n):
            if cell != blank:
                h += t64[GR + 2 * n + board[cell] * n + cell]
        if kind == LINEAR_CONFLICT:
            h += all_line_conflicts(board, blank, t64)
        if kind == DROPOUT:
            hs[0, 0] = h
            if blank == 0 or board[0] % 2 == 0:
                h = 0
    return h


@njit(cache=True, nogil=True, inline="always")
def linear_conflict_change(board, blank, src, tile, d, t64, tu8):
    """The change of the linear-conflict term (beyond Manhattan) for one move. A vertical move
    changes only the moved tile's goal row, if the tile leaves or enters it (its column keeps
    the tiles' order); a horizontal move, only its goal column."""
    rows, cols = t64[T_ROWS], t64[T_COLS]
    n = rows * cols
    if d == UP or d == DOWN:
        line = t64[GR + tile]
        leaves = line == src // cols
        if not leaves and line != blank // cols:
            return 0
        first = line * cols
        if t64[T_TABLED]:
            return line_change(board, blank, src, tile, first, 1, cols, not leaves, t64, tu8,
                               0, GR + 2 * n + n * n)
        if leaves:
            return (line_conflicts(board, first, 1, cols, src, line, t64, GR, GR + n)
                    - line_conflicts(board, first, 1, cols, blank, line, t64, GR, GR + n))
        before = line_conflicts(board, first, 1, cols, blank, line, t64, GR, GR + n)
        board[blank] = tile  # the blank's cell is free scratch space
        return line_conflicts(board, first, 1, cols, -1, line, t64, GR, GR + n) - before
    line = t64[GR + n + tile]
    leaves = line == src % cols
    if not leaves and line != blank % cols:
        return 0
    if t64[T_TABLED]:
        return line_change(board, blank, src, tile, line, cols, rows, not leaves, t64, tu8,
                           t64[T_COLUMN_TABLE], GR + 2 * n + 2 * n * n)
    if leaves:
        return (line_conflicts(board, line, cols, rows, src, line, t64, GR + n, GR)
                - line_conflicts(board, line, cols, rows, blank, line, t64, GR + n, GR))
    before = line_conflicts(board, line, cols, rows, blank, line, t64, GR + n, GR)
    board[blank] = tile
    return line_conflicts(board, line, cols, rows, -1, line, t64, GR + n, GR) - before


@njit(cache=True, nogil=True, inline="always")
def child_h(kind, board, blank, src, tile, d, h, t8, tu8, t64, hs, depth, P, pos):
    """The child's heuristic, from the parent's ``h``: ``tile`` slides from ``src`` into
    ``blank`` (the blank moves in direction ``d``). Called before the move is made; it may
    write the blank's cell (stale: free scratch space)."""
    n = board.size
    if kind == PDB:
        return pdb_child_h(blank, src, tile, t64, hs, depth, P, pos)
    if kind == DROPOUT:  # Manhattan rides in hs; h is Manhattan or 0 by the tile in cell 0
        m = hs[depth, 0] + t8[(tile * n + blank) * 4 + d]
        hs[depth + 1, 0] = m
        corner = tile if blank == 0 else (0 if src == 0 else board[0])
        return m if corner % 2 == 1 else 0
    hc = h + t8[(tile * n + blank) * 4 + d]
    if kind == LINEAR_CONFLICT:
        hc += linear_conflict_change(board, blank, src, tile, d, t64, tu8)
    return hc


@dataclass(frozen=True)
class Heuristic:
    """A heuristic as the kernels take it: its kind, its tables, its per-depth state width."""

    kind: int
    t8: np.ndarray
    tu8: np.ndarray
    t64: np.ndarray
    width: int = 1
    pdb: PDBArrays | None = None  # the PDB kind's tables

    @property
    def arrays(self) -> PDBArrays:
        """What the kernels take as ``P``: the tables, or a placeholder of the same type."""
        return self.pdb if self.pdb is not None else no_pdb()


def heuristic_tables(board: Board, kind: int) -> Heuristic:
    """The tables of MANHATTAN, LINEAR_CONFLICT or DROPOUT (layout above ``line_conflicts``).
    Linear conflict looks its lines up in ``tu8`` (rows' table, then columns') when no line is
    longer than ``MAX_TABLED_LINE`` cells, else recounts them."""
    n, rows, cols = board.ncells, board.rows, board.cols
    goal_row, goal_col = board.goal_row.copy(), board.goal_col.copy()
    goal_row[0] = goal_col[0] = -1
    tabled = kind == LINEAR_CONFLICT and max(rows, cols) <= MAX_TABLED_LINE
    tu8 = np.zeros(1, np.uint8)
    column_table = 0
    parts = [goal_row, goal_col, board.manhattan.astype(np.int64)]
    if tabled:
        # digit of (tile, cell) in its row's code and in its column's code
        cell_row, cell_col = np.divmod(np.arange(n), cols)
        in_row = goal_row[:, None] == cell_row[None, :]
        in_col = goal_col[:, None] == cell_col[None, :]
        row_value = np.where(in_row, (goal_col[:, None] + 1) * (cols + 1) ** cell_col, 0)
        col_value = np.where(in_col, (goal_row[:, None] + 1) * (rows + 1) ** cell_row, 0)
        row_value[0] = col_value[0] = 0
        parts += [row_value.reshape(-1), col_value.reshape(-1)]
        rows_table, cols_table = line_tables(cols), line_tables(rows)
        column_table = rows_table.size
        tu8 = np.concatenate([rows_table, cols_table])
    t64 = np.concatenate([[rows, cols, int(tabled), column_table], *parts]).astype(np.int64)
    return Heuristic(kind, board.manhattan_delta, tu8, t64)


@cache
def line_tables(length: int) -> np.ndarray:
    return conflict_table(length)


def pdb_tables(pdb: tiles_pdb_lookup.Heuristic, dual: bool = False,
               pathmax: bool = True) -> Heuristic:
    """A pattern-database heuristic (``searches.support.tiles_pdb_lookup.heuristic``) as the
    kernels take it, with the dual lookup maxed in when ``dual`` (at the states whose blank is
    in its goal cell: see ``tiles_pdb_adapter``). The dual state is the inverse permutation,
    as far from the goal as the state only when the goal is the identity (the blank first),
    and it is looked up from scratch, which a relative encoding cannot do in one lookup: both
    are refused otherwise, with the reason."""
    if dual:
        check_dual(pdb.partition.goal, pdb.encoding)
    switches = np.zeros(2, np.int64)
    switches[PDB_DUAL_ON], switches[PDB_PATHMAX_ON] = dual, pathmax
    return Heuristic(PDB, np.zeros(1, np.int8), np.zeros(1, np.uint8), switches,
                     2 * (len(pdb.partition.patterns) + 1), pdb.arrays)


@cache
def no_pdb() -> PDBArrays:
    """A one-cell stand-in for ``P`` where the heuristic has no tables: the same numba type
    as real ones, so that one compiled kernel serves both."""
    i1, i2 = np.zeros(1, np.int64), np.zeros((1, 1), np.int64)
    return PDBArrays(data=np.zeros(1, np.uint8), offset=i1, tiles=i2, k=i1, enc=i1, shift=i1,
                     pattern_of=i1, md=i2, tcell=i1, sigma=i1, goal_rank=i1, nbr=i1,
                     lut3=np.zeros(1, np.uint8), n=1, npat=0, reflect=0)


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
