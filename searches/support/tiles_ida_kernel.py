"""IDA* for sliding tiles (Korf 1985): the numba kernel, resumable in chunks.

The search is the textbook one made cheap: depth-first iterations with a threshold on
``f = g + h``, the next threshold the least ``f`` that went over, the blank's moves in the
fixed order up, left, right, down, never the move that undoes the previous one (the move lists
of ``searches.support.tiles_board`` leave it out), and the heuristic updated incrementally
(only the moved tile's terms change: ``searches.support.tiles_heuristics``). It is iterative:
an explicit stack of (blank cell, moves still to try, the move that led here, h) per depth,
the current depth's frame kept in locals, so a chunk can stop after any node and resume
exactly (numba cannot read the clock; the budget is checked between chunks, and chunk sizes
never change the search). The board is one array: a move writes the moved tile into the old
blank cell, a backtrack writes it back; the cell under the blank holds a stale value that
nothing reads (heuristics may use it as scratch).

Node counts: Korf's convention. ``nodes`` counts nodes *generated*: every child produced by a
move other than the undo move, whatever its ``f`` (those over the threshold included:
computing their ``f`` is generating them), summed over all iterations; the start state is not
counted. The goal test is on generation, and the last iteration stops the moment the goal is
generated: its later siblings and the rest of that iteration are never generated. With the
move order U, L, R, D this count is exactly Korf's listed number minus one (his table counts
the start state once more; tests/test_searches/test_tiles_search.py checks the instances of
``korf100_15puzzle_korf1985_nodes.txt`` below 100 M nodes, where the one exception, #42,
differs from the listing in one digit and reads as a misprint). Only the last iteration
depends on the move order (a completed iteration generates the same nodes in any order), so
these exact matches also confirm the order. ``expanded`` counts nodes whose children were
generated (the root of every iteration included); ``iterations`` the thresholds tried, the
last one included; ``threshold``, the current one, is a proven lower bound on the optimum
when the search stops unfinished.

One compiled kernel per heuristic kind (``KERNELS``): the kind reaches ``ida_kernel`` as a
constant through a wrapper, so LLVM drops the other kinds' branches. The PDB kind has besides a
kernel of its own for the absolute encodings without the dual lookup
(``tiles_pdb_ida_kernel``: the same search on the same stack, its state laid out for the
lookup), which ``IdaSearch`` runs when it applies.
"""

from __future__ import annotations

from numba import njit

from searches.support import tiles_heuristics
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.tiles_heuristics import DROPOUT, LINEAR_CONFLICT, MANHATTAN, PDB, child_h
from searches.support.tiles_pdb_adapter import PDB_PATHMAX_ON, pdb_place

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *tiles_heuristics.JIT_SOURCES)

# Slots of the int64 control vector the kernel reads and writes back.
C_DEPTH, C_NODES, C_EXPANDED, C_ITERATIONS, C_THRESHOLD, C_NEXT = range(6)
CTL_SLOTS = 6
# What a chunk returns.
PAUSED, SOLVED, EXHAUSTED, GROW = 0, 1, 2, 3
NO_BOUND = 1 << 40  # "no f went over the threshold yet"


@njit(cache=True, nogil=True)
def is_goal(board, blank, goal):
    if goal[blank] != 0:
        return False
    for cell in range(board.size):
        if cell != blank and board[cell] != goal[cell]:
            return False
    return True


@njit(cache=True, nogil=True, inline="always")
def load_control(ctl):
    """The counters a chunk starts from: depth, nodes, expanded, iterations, threshold, next."""
    return (ctl[C_DEPTH], ctl[C_NODES], ctl[C_EXPANDED], ctl[C_ITERATIONS], ctl[C_THRESHOLD],
            ctl[C_NEXT])


@njit(cache=True, nogil=True, inline="always")
def store_control(status, ctl, ptr, end, hval, depth, p, stop, h, nodes, expanded, iterations,
                  threshold, nxt):
    """End a chunk: the current frame back on the stack (unless solved) and the counters in
    ``ctl``; returns ``status``."""
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


@njit(cache=True, nogil=True, inline="always")
def raise_parent(h, hc, depth, threshold, nxt, p, stop):
    """Bidirectional pathmax at the node of depth ``depth`` and ``h`` whose child came out
    ``hc``: ``h`` raised to ``hc - 1``, and if its ``f`` then passes the threshold its other
    children are not generated (``p`` moves to ``stop``; the next threshold takes its ``f``).
    Returns (h, nxt, p)."""
    if hc - 1 > h:
        h = hc - 1
        if depth + h > threshold:
            if depth + h < nxt:
                nxt = depth + h
            p = stop
    return h, nxt, p


@njit(cache=True, nogil=True, inline="always")
def next_iteration(threshold, nxt, iterations, expanded, top):
    """The iteration is over: the next threshold (the least ``f`` that went over), or
    EXHAUSTED when none went over, or GROW when the stack is too short for it. Returns
    (status, threshold, nxt, iterations, expanded)."""
    if nxt == NO_BOUND:
        return EXHAUSTED, threshold, nxt, iterations, expanded
    threshold = nxt
    iterations += 1
    expanded += 1  # the root
    status = GROW if threshold >= top else PAUSED
    return status, threshold, NO_BOUND, iterations, expanded


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
    depth, nodes, expanded, iterations, threshold, nxt = load_control(ctl)
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
                if pathmax:
                    h, nxt, p = raise_parent(h, hc, depth, threshold, nxt, p, stop)
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
            if pathmax:
                h, nxt, p = raise_parent(h, hc, depth, threshold, nxt, p, stop)
        else:
            status, threshold, nxt, iterations, expanded = next_iteration(
                threshold, nxt, iterations, expanded, top)
            p = succ_start[b * 5 + 4]
            if status != PAUSED:
                break
    return store_control(status, ctl, ptr, end, hval, depth, p, stop, h, nodes, expanded,
                         iterations, threshold, nxt)


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
# The kernels compile in the heuristics and the tables' lookups: recompile them when those
# files change.
forget_stale_cache([*own_dispatchers(__name__), *KERNELS.values()], *JIT_SOURCES)
