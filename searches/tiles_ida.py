"""IDA* for sliding tiles (Korf 1985), in numba, and the solvers ``ida-manhattan``, ``ida-lc``.

The search is the textbook one made cheap: depth-first iterations with a threshold on
``f = g + h``, the next threshold the least ``f`` that went over, the blank's moves in the
fixed order up, left, right, down, never the move that undoes the previous one (the move lists
of ``searches.tiles_board`` leave it out), and the heuristic updated incrementally (only the
moved tile's terms change). It is iterative: an explicit stack of (blank cell, moves still to
try, the move that led here, h) per depth, the current depth's frame kept in locals, so a chunk
can stop after any node and resume exactly (numba cannot read the clock; the budget is checked
between chunks, and chunk sizes never change the search). The board is one array: a move writes
the moved tile into the old blank cell, a backtrack writes it back; the cell under the blank
holds a stale value that nothing reads (heuristics may use it as scratch).

Node counts: Korf's convention, and how it meets his 1985 table. ``nodes`` counts nodes
*generated*: every child produced by a move other than the undo move, whatever its ``f``
(those over the threshold included: computing their ``f`` is generating them), summed over all
iterations; the start state is not counted. The goal test is on generation, and the last
iteration stops the moment the goal is generated: its later siblings and the rest of that
iteration are never generated. With the move order U, L, R, D this count is exactly Korf's
listed number minus one (his table counts the start state once more) on every instance of
``korf100_15puzzle_korf1985_nodes.txt`` below 100 M nodes but one: 59 of 60, from 540,859 to
83,477,693 nodes (tests/test_tiles_search.py; bench/perf/tiles_ida_rate.py checks ten more of
15-70 M nodes). The exception, #42, is listed as 877,023; we generate 877,822, and 877,823
differs from the listing in one digit, which reads as a misprint. Only the last iteration
depends on the move order (a completed iteration generates the same nodes in any order), so
these exact matches also confirm the order. ``expanded`` counts nodes whose children were
generated (the root of every iteration included); ``iterations`` the thresholds tried, the
last one included; ``threshold``, the current one, is a proven lower bound on the optimum
when the search stops unfinished.

Heuristics plug in as a *kind* (an integer constant) and three flat tables (``t8`` int8,
``tu8`` uint8, ``t64`` int64: any layout the kind likes), so that the kernel is compiled once
per kind with the kind as a constant (through a wrapper such as ``ida_manhattan``; LLVM
drops the other kinds' branches). A kind is two functions:

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

``PDB``: a partition's pattern databases (``searches.tiles_pdb``), the one kind with tables
of its own: ``P``, their arrays, and ``pos``, the state's views they are read from, which the
kernel moves along with the board (``pdb_place``). ``root_h`` ranks every pattern and fills
``hs[0]`` with the patterns' values; ``child_h`` copies ``hs[depth]`` to ``hs[depth + 1]``,
re-ranks only the moved tile's pattern (and its reflection's) and returns the sum, maxed with
the reflected and the dual lookups; see the section "pattern databases" below. The other
kinds receive a placeholder ``P`` of the same numba type (``no_pdb``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache

import numba
import numpy as np
from numba import njit

from bench.api import Budget, Outcome, Param, solver
from instances.tiles import Instance, Solution
from searches import tiles_pdb, tiles_pdb_encode, tiles_rank
from searches.chunked import control, run_in_chunks
from searches.numba_cache import forget_stale_cache
from searches.tiles_board import DIRS, DOWN, UP, Board, board_of
from searches.tiles_pdb import PDBArrays, h_init, pattern_after_move, table_entry

MANHATTAN, LINEAR_CONFLICT, DROPOUT, PDB = 0, 1, 2, 3
HEURISTICS = {"manhattan": MANHATTAN, "linear-conflict": LINEAR_CONFLICT}

# Slots of the int64 control vector the kernel reads and writes back.
C_DEPTH, C_NODES, C_EXPANDED, C_ITERATIONS, C_THRESHOLD, C_NEXT = range(6)
CTL_SLOTS = 6
# What a chunk returns.
PAUSED, SOLVED, EXHAUSTED, GROW = 0, 1, 2, 3
NO_BOUND = 1 << 40  # "no f went over the threshold yet"

MARGIN_S = 0.02  # kept off the budget for building the answer
FIRST_CHUNK = 200_000
CHUNK_S = 0.05
START_DEPTH = 256  # stack rows allocated first; grown when a threshold needs more


# --- heuristics ---------------------------------------------------------------------------------


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


# --- pattern databases ----------------------------------------------------------------------
#
# ``P`` is the partition's ``PDBArrays`` (searches.tiles_pdb); ``pos`` three views of the state
# in one flat array of ``3 n`` cells, kept in step with the board by the kernel
# (``pdb_place``): from 0 where (tile -> cell), from ``n`` the same of the state reflected about
# the main diagonal, from ``2 n`` the board itself with 0 under the blank (the kernel's board
# holds a stale tile there). A depth's row of ``hs`` holds the patterns' values and their sum
# (``m = npat + 1`` slots) for the regular lookup, then for the reflected one. ``t64`` holds
# two switches: the dual lookup, and bidirectional pathmax (read by the kernel).
#
# The dual lookup (Felner, Zahavi et al. 2005) reads the tables at the inverse permutation:
# the board read as a where-array. For the sliding tiles that state is as far from the goal as
# the state itself only when the blank is in its goal cell (the inverse of a blank-first state
# with the blank elsewhere is not even reachable in general: on the 8-puzzle, 80,640 of the
# 181,440 states; tests/test_tiles_pdb_search.py checks both facts exhaustively). So the dual
# is looked up at those states only, in full (a sixteenth of the nodes); pathmax then carries
# its value to their neighbours, one less a step.
PDB_DUAL_ON, PDB_PATHMAX_ON = 0, 1


@njit(cache=True, nogil=True, inline="always")
def pdb_place(P, pos, tile, dst, src):
    """``tile`` moved into ``dst`` and the blank into ``src``: update the three views."""
    n = P.n
    pos[tile] = dst
    pos[0] = src
    pos[n + P.sigma[tile]] = P.tcell[dst]
    pos[n] = P.tcell[src]
    pos[2 * n + dst] = tile
    pos[2 * n + src] = 0


@njit(cache=True, nogil=True, inline="always")
def pdb_dual_h(P, pos):
    """The partition's sum at the dual state (valid only with the blank in its goal cell)."""
    total = np.int64(0)
    for j in range(P.npat):
        total += table_entry(P, j, pos, 2 * P.n)
    return total


@njit(cache=True, nogil=True)
def pdb_root_h(board, blank, t64, hs, P, pos):
    """Every lookup from scratch (relative encodings by descent): fills ``pos`` and ``hs[0]``."""
    n = P.n
    where, rwhere, dual = pos[:n], pos[n:2 * n], pos[2 * n:]
    for cell in range(n):
        if cell != blank:
            where[board[cell]] = cell
            dual[cell] = board[cell]
    where[0] = blank
    dual[blank] = 0
    m = P.npat + 1
    h = h_init(P, where, rwhere, hs[0, :m], hs[0, m:2 * m])
    if t64[PDB_DUAL_ON] and blank == 0:
        h = max(h, pdb_dual_h(P, pos))
    return h


@njit(cache=True, nogil=True, inline="always")
def pdb_relookup(P, j, pos, at, hs, depth, slot):
    """Pattern ``j``'s value after one of its tiles moved in the view at ``pos[at:]``, from
    the parent's row ``hs[depth]`` into the child's, slots from ``slot`` (the sum at
    ``slot + npat``)."""
    if j >= 0:
        v = pattern_after_move(P, j, pos, at, hs[depth, slot + j])
        hs[depth + 1, slot + P.npat] += v - hs[depth + 1, slot + j]
        hs[depth + 1, slot + j] = v


@njit(cache=True, nogil=True, inline="always")
def pdb_child_h(blank, src, tile, t64, hs, depth, P, pos):
    """The child's lookups: the moved tile's pattern (one table), the same in the reflected
    state, and the dual lookup when the blank reaches its goal cell. The views are put back
    as they were: the kernel moves them."""
    for i in range(hs.shape[1]):
        hs[depth + 1, i] = hs[depth, i]
    n, m = P.n, P.npat + 1
    pos[tile] = blank
    pdb_relookup(P, P.pattern_of[tile], pos, 0, hs, depth, 0)
    pos[tile] = src
    hc = hs[depth + 1, P.npat]
    if P.reflect:
        u = P.sigma[tile]
        pos[n + u] = P.tcell[blank]
        pdb_relookup(P, P.pattern_of[u], pos, n, hs, depth, m)
        pos[n + u] = P.tcell[src]
        hc = max(hc, hs[depth + 1, m + P.npat])
    if src == 0 and t64[PDB_DUAL_ON]:
        pos[2 * n + blank] = tile
        pos[2 * n] = 0
        hc = max(hc, pdb_dual_h(P, pos))
        pos[2 * n + blank] = 0
        pos[2 * n] = tile
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


def pdb_tables(pdb: tiles_pdb.Heuristic, dual: bool = False,
               pathmax: bool = True) -> Heuristic:
    """A pattern-database heuristic (``searches.tiles_pdb.heuristic``) as the kernels take
    it, with the dual lookup maxed in when ``dual`` (at the states whose blank is in its goal
    cell: see above). The dual state is the inverse permutation, as far from the goal as the
    state only when the goal is the identity (the blank first), and it is looked up from
    scratch, which a relative encoding cannot do in one lookup: both are refused otherwise,
    with the reason."""
    if dual:
        check_dual(pdb.partition.goal, pdb.encoding)
    switches = np.zeros(2, np.int64)
    switches[PDB_DUAL_ON], switches[PDB_PATHMAX_ON] = dual, pathmax
    return Heuristic(PDB, np.zeros(1, np.int8), np.zeros(1, np.uint8), switches,
                     2 * (len(pdb.partition.patterns) + 1), pdb.arrays)


def check_dual(goal: str, encoding: str) -> None:
    """Refuse a dual lookup the tables cannot give, with the reason."""
    if goal != "blank-first":
        raise tiles_pdb.PDBError("the dual lookup needs the blank-first goal (the identity "
                                 f"permutation), not {goal}")
    if encoding in tiles_pdb_encode.RELATIVE:
        raise tiles_pdb.PDBError(f"the dual lookup needs an absolute encoding (byte, nibble, "
                                 f"minnibble), not the relative {encoding}")


@cache
def no_pdb() -> PDBArrays:
    """A one-cell stand-in for ``P`` where the heuristic has no tables: the same numba type
    as real ones, so that one compiled kernel serves both."""
    i1, i2 = np.zeros(1, np.int64), np.zeros((1, 1), np.int64)
    return PDBArrays(data=np.zeros(1, np.uint8), offset=i1, tiles=i2, k=i1, enc=i1, shift=i1,
                     pattern_of=i1, md=i2, tcell=i1, sigma=i1, goal_rank=i1, nbr=i1,
                     lut3=np.zeros(1, np.uint8), n=1, npat=0, reflect=0)


# --- the kernel ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def is_goal(board, blank, goal):
    if goal[blank] != 0:
        return False
    for cell in range(board.size):
        if cell != blank and board[cell] != goal[cell]:
            return False
    return True


@njit(cache=True, nogil=True)
def ida_kernel(kind, board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
               succ_start, succ_end, succ_dir, succ_cell, t8, tu8, t64, P, pos):
    """Run the search from the state in the arrays until it solves, or ``ctl[C_NODES]``
    reaches ``cap`` (PAUSED), or a threshold needs more stack rows than there are (GROW, at
    the start of that iteration). Depth ``k`` of the stack: the blank's cell ``blank_at[k]``,
    the direction of the move into it ``came[k]`` (4 at the root), the moves still to try
    ``ptr[k] .. end[k]`` (a slice of ``succ_dir``/``succ_cell``: the undo move is not in it),
    and ``hval[k]``.

    With the PDB kind, a switch in ``t64`` adds bidirectional pathmax (Felner, Zahavi et al.
    2005) for inconsistent heuristics: with unit moves both ways, ``h(parent) >= h(child) - 1``
    and ``h(child) >= h(parent) - 1`` are admissible too. A child that comes out more than one
    above its parent raises the parent's ``h``, and if the parent's ``f`` then passes the
    threshold its other children are not generated (the next threshold takes the parent's
    ``f``); a child's ``h`` raised while its subtree was searched is passed up on the way
    back. With a consistent heuristic it never fires."""
    depth = ctl[C_DEPTH]
    nodes = ctl[C_NODES]
    expanded = ctl[C_EXPANDED]
    iterations = ctl[C_ITERATIONS]
    threshold = ctl[C_THRESHOLD]
    nxt = ctl[C_NEXT]
    top = blank_at.size - 1
    status = PAUSED
    pathmax = False
    if kind == PDB:
        pathmax = t64[PDB_PATHMAX_ON] != 0
    # The current depth's frame lives in locals (registers); the stack holds the others.
    p, stop, b, h = ptr[depth], end[depth], blank_at[depth], hval[depth]
    while nodes < cap:
        if p < stop:
            d = succ_dir[p]
            src = succ_cell[p]
            p += 1
            tile = board[src]
            hc = child_h(kind, board, b, src, tile, d, h, t8, tu8, t64, hs, depth, P, pos)
            nodes += 1
            if pathmax and hc < h - 1:
                hc = h - 1
            f = depth + 1 + hc
            if f > threshold:
                if f < nxt:
                    nxt = f
                if pathmax and hc - 1 > h:
                    h = hc - 1
                    if depth + h > threshold:  # the parent is cut: its other children too
                        if depth + h < nxt:
                            nxt = depth + h
                        p = stop
                continue
            board[b] = tile
            if kind == PDB:
                pdb_place(P, pos, tile, b, src)
            ptr[depth] = p
            end[depth] = stop
            if pathmax:
                hval[depth] = h
            depth += 1
            blank_at[depth] = src
            came[depth] = d
            hval[depth] = hc
            if hc == 0 and is_goal(board, src, goal):
                status = SOLVED
                break
            p, stop, b, h = succ_start[src * 5 + d], succ_end[src * 5 + d], src, hc
            expanded += 1
        elif depth > 0:
            depth -= 1
            parent_blank = blank_at[depth]
            tile = board[parent_blank]
            board[b] = tile
            if kind == PDB:
                pdb_place(P, pos, tile, b, parent_blank)
            hc = h
            p, stop, b, h = ptr[depth], end[depth], parent_blank, hval[depth]
            if pathmax and hc - 1 > h:
                h = hc - 1
                if depth + h > threshold:
                    if depth + h < nxt:
                        nxt = depth + h
                    p = stop
        else:  # the iteration is over: the next threshold
            if nxt == NO_BOUND:
                status = EXHAUSTED
                break
            threshold = nxt
            nxt = NO_BOUND
            iterations += 1
            p = succ_start[b * 5 + 4]
            expanded += 1
            if threshold >= top:
                status = GROW
                break
    if status != SOLVED:
        ptr[depth] = p
        end[depth] = stop
        hval[depth] = h
    ctl[C_DEPTH] = depth
    ctl[C_NODES] = nodes
    ctl[C_EXPANDED] = expanded
    ctl[C_ITERATIONS] = iterations
    ctl[C_THRESHOLD] = threshold
    ctl[C_NEXT] = nxt
    return status


# One wrapper per heuristic kind: the kind reaches the kernel as a constant, which LLVM
# propagates (the other kinds' branches vanish). Spelled out: with ``*args`` numba does not
# propagate it, and the Manhattan kernel ran ten times slower.


@njit(cache=True, nogil=True)
def ida_manhattan(board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                  succ_start, succ_end, succ_dir, succ_cell, t8, tu8, t64, P, pos):
    return ida_kernel(MANHATTAN, board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                      succ_start, succ_end, succ_dir, succ_cell, t8, tu8, t64, P, pos)


@njit(cache=True, nogil=True)
def ida_linear_conflict(board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                        succ_start, succ_end, succ_dir, succ_cell, t8, tu8, t64, P, pos):
    return ida_kernel(LINEAR_CONFLICT, board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                      succ_start, succ_end, succ_dir, succ_cell, t8, tu8, t64, P, pos)


@njit(cache=True, nogil=True)
def ida_dropout(board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                succ_start, succ_end, succ_dir, succ_cell, t8, tu8, t64, P, pos):
    return ida_kernel(DROPOUT, board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                      succ_start, succ_end, succ_dir, succ_cell, t8, tu8, t64, P, pos)


@njit(cache=True, nogil=True)
def ida_pdb(board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
            succ_start, succ_end, succ_dir, succ_cell, t8, tu8, t64, P, pos):
    return ida_kernel(PDB, board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                      succ_start, succ_end, succ_dir, succ_cell, t8, tu8, t64, P, pos)


#: kind -> chunk kernel. A new heuristic adds its wrapper here.
KERNELS = {MANHATTAN: ida_manhattan, LINEAR_CONFLICT: ida_linear_conflict, DROPOUT: ida_dropout,
           PDB: ida_pdb}
# The kernels compile in the tables' lookups: recompile them when those files change.
forget_stale_cache([ida_kernel, root_h, pdb_root_h, *KERNELS.values()], tiles_pdb.__file__,
                   tiles_pdb_encode.__file__, tiles_rank.__file__)


# --- the search in Python -----------------------------------------------------------------------


@dataclass
class IdaSearch:
    """One IDA* search in progress: the board, the stack, the control vector."""

    instance: Instance
    tables: Board
    heuristic: Heuristic
    board: np.ndarray
    goal: np.ndarray
    blank_at: np.ndarray
    ptr: np.ndarray
    end: np.ndarray
    came: np.ndarray
    hval: np.ndarray
    hs: np.ndarray
    ctl: np.ndarray
    pos: np.ndarray  # the PDB kinds' views of the state (``pdb_place``)
    status: int = PAUSED
    start_h: int = 0  # h of the start state (pathmax may raise ``hval[0]`` later)

    @classmethod
    def start(cls, instance: Instance, heuristic: Heuristic | int = MANHATTAN,
              depth: int = START_DEPTH) -> IdaSearch:
        tables = board_of(instance)
        if isinstance(heuristic, int):
            heuristic = heuristic_tables(tables, heuristic)
        board = tables.state(instance.tiles)
        goal = tables.state(instance.goal_tiles)
        blank = instance.tiles.index(0)
        stack = [np.zeros(depth, np.int64) for _ in range(5)]
        search = cls(instance, tables, heuristic, board, goal, *stack,
                     np.zeros((depth, heuristic.width), np.int64),
                     np.zeros(CTL_SLOTS, np.int64), np.zeros(3 * board.size, np.int64))
        search.blank_at[0] = blank
        search.came[0] = 4
        search.ptr[0] = tables.succ_start[blank * 5 + 4]
        search.end[0] = tables.succ_end[blank * 5 + 4]
        h = int(root_h(heuristic.kind, board, blank, heuristic.t8, heuristic.tu8,
                       heuristic.t64, search.hs, heuristic.arrays, search.pos))
        search.hval[0] = search.start_h = h
        search.ctl[C_THRESHOLD] = h
        search.ctl[C_NEXT] = NO_BOUND
        search.ctl[C_ITERATIONS] = 1
        search.ctl[C_EXPANDED] = 1
        if instance.tiles == instance.goal_tiles:
            search.status = SOLVED
        elif h >= depth - 1:
            search.grow(2 * h + 2)
        return search

    def grow(self, depth: int) -> None:
        """More stack rows (the search state is kept)."""
        old = self.blank_at.size
        for name in ("blank_at", "ptr", "end", "came", "hval"):
            arr = getattr(self, name)
            new = np.zeros(depth, arr.dtype)
            new[:old] = arr
            setattr(self, name, new)
        hs = np.zeros((depth, self.hs.shape[1]), np.int64)
        hs[:old] = self.hs
        self.hs = hs

    def run(self, nodes: int) -> int:
        """At most ``nodes`` more generated nodes; returns PAUSED, SOLVED or EXHAUSTED."""
        if self.status in (SOLVED, EXHAUSTED):
            return self.status
        h, t = self.heuristic, self.tables
        kernel = KERNELS[h.kind]
        P = h.arrays
        cap = self.nodes + nodes
        while True:
            status = int(kernel(self.board, self.goal, self.blank_at, self.ptr, self.end,
                                self.came, self.hval, self.hs, self.ctl, cap, t.succ_start,
                                t.succ_end, t.succ_dir, t.succ_cell, h.t8, h.tu8, h.t64, P,
                                self.pos))
            if status != GROW:
                break
            self.grow(2 * self.blank_at.size)
        self.status = status
        return status

    nodes = control(C_NODES)
    expanded = control(C_EXPANDED)
    iterations = control(C_ITERATIONS)
    threshold = control(C_THRESHOLD)

    def moves(self) -> str:
        """The blank's moves from the start to the current node (the goal once SOLVED)."""
        depth = int(self.ctl[C_DEPTH])
        return "".join(DIRS[int(d)] for d in self.came[1:depth + 1])

    def counters(self) -> dict[str, float]:
        return {"nodes": self.nodes, "expanded": self.expanded, "iterations": self.iterations,
                "h_start": self.start_h, "threshold": self.threshold}


def drive(search: IdaSearch, budget: Budget, max_nodes: int = 0) -> int:
    """Run chunks until the search ends, ``max_nodes`` (0 = no limit) or the budget ends."""
    return run_in_chunks(search, budget, search.status, PAUSED, first_chunk=FIRST_CHUNK,
                         min_chunk=10_000, max_nodes=max_nodes, chunk_s=CHUNK_S, margin_s=MARGIN_S)


def solve_ida(instance: Instance, budget: Budget, heuristic: Heuristic | int,
              max_nodes: int = 0) -> Outcome:
    """The shared body of the IDA* solvers: infeasible by parity, else search and claim."""
    if not instance.solvable:  # the permutation parity is a proof: no search needed
        return Outcome("infeasible", counters={"nodes": 0})
    t0 = time.perf_counter()
    search = IdaSearch.start(instance, heuristic)
    t_encode = time.perf_counter() - t0
    status = drive(search, budget, max_nodes)
    t_solve = time.perf_counter() - t0 - t_encode
    counters = search.counters()
    if status == SOLVED:
        moves = search.moves()
        return Outcome("optimal", solution=Solution(moves), objective=len(moves),
                       counters=counters, t_encode=t_encode, t_solve=t_solve)
    return Outcome("unknown", counters=counters, t_encode=t_encode, t_solve=t_solve)


def tiny_instances() -> list[Instance]:
    """Boards that exercise every kernel in a few nodes (for ``prepare``)."""
    return [Instance(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8), "blank-last"),
            Instance(4, 4, (4, 1, 2, 3, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))]


def prepare(kinds: tuple[int, ...] = (MANHATTAN, LINEAR_CONFLICT)) -> None:
    """Compile (or load from numba's cache) the kernels of ``kinds`` once per worker (a solver
    compiles its own only: a kernel is about 20 s of compilation on a fresh machine)."""
    for kind in kinds:
        for instance in tiny_instances():
            IdaSearch.start(instance, kind).run(1000)


def prepare_manhattan() -> None:
    prepare((MANHATTAN,))


def prepare_linear_conflict() -> None:
    prepare((LINEAR_CONFLICT,))


PARAMS = [Param("max_nodes", 0, "stop after this many generated nodes (0 = only the time budget)",
                min=0)]
BACKEND = f"numba-{numba.__version__}"


@solver("ida-manhattan", family="tiles", paradigm="native", backend=BACKEND, params=PARAMS,
        prepare=prepare_manhattan)
def solve_manhattan(instance: Instance, budget: Budget, seed: int, max_nodes: int = 0) -> Outcome:
    """IDA* with Manhattan distance (Korf 1985): iterative, incremental, U-L-R-D, no undo."""
    return solve_ida(instance, budget, MANHATTAN, max_nodes)


@solver("ida-lc", family="tiles", paradigm="native", backend=BACKEND, params=PARAMS,
        prepare=prepare_linear_conflict)
def solve_linear_conflict(instance: Instance, budget: Budget, seed: int,
                          max_nodes: int = 0) -> Outcome:
    """IDA* with Manhattan + linear conflict (Hansson, Mayer & Yung 1992)."""
    return solve_ida(instance, budget, LINEAR_CONFLICT, max_nodes)
