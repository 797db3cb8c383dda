"""The any-size kernel of the ``native`` sudoku solver (box 2..5, and 9x9 with ``fast9=False``):
per-cell bitmasks, queue propagation, and the resumable counting search (modes, counters and the
branch rule: ``sudoku_modes``).

One candidate bitmask per cell (int64; size <= 25 bits), a queue of cells to place (naked
singles eliminate from the peers), hidden singles with the once/twice bit trick on the units
that changed, locked candidates and subsets over the segments (a segment: a line's cells
inside one box).

``general_tables(box)`` and ``general_scratch(box)`` are the static tables and the scratch
arrays the functions take; ``init_general`` places the clues and propagates,
``search_general`` continues the search, ``batch_general`` solves many grids at once.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from searches.support import intrinsics, sudoku_modes
from searches.support.intrinsics import lowest_bit_index, popcount
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.sudoku_modes import (
    BACKTRACK,
    C_DEPTH,
    C_GUESSES,
    C_NODES,
    C_PHASE,
    C_SOLUTIONS,
    CTL_SLOTS,
    DECIDE,
    DONE,
    FIRST_MRV,
    LOCKED,
    NO_CAP,
    PAUSED,
    SUBSETS,
)

#: The files this module's kernels compile code from (see ``numba_cache``): the constants of
#: ``sudoku_modes`` are compiled in too.
JIT_SOURCES = (__file__, sudoku_modes.__file__, *intrinsics.JIT_SOURCES)


# --- any size: tables -------------------------------------------------------------------------


@lru_cache(maxsize=8)
def general_tables(box: int) -> tuple[np.ndarray, ...]:
    """Static tables of the ``general`` kernel for a box side: units (rows, then columns, then
    boxes; unit index = row, size + col, 2 * size + box), each cell's three units, each cell's
    peers, the segments (a line's cells inside one box: rows' first, index line * box + j),
    each segment's box unit, and each box's row and column segments."""
    n = box * box
    cells = np.arange(n * n)
    rows, cols = cells // n, cells % n
    boxes = (rows // box) * box + cols // box
    cell_units = np.stack([rows, n + cols, 2 * n + boxes], axis=1).astype(np.int64)
    units = np.zeros((3 * n, n), dtype=np.int64)
    for u in range(3 * n):
        units[u] = np.flatnonzero((cell_units == u).any(axis=1))
    npeers = 3 * n - 2 * box - 1
    peers = np.zeros((n * n, npeers), dtype=np.int64)
    for c in range(n * n):
        mine = np.unique(units[cell_units[c]].ravel())
        peers[c] = mine[mine != c]
    seg_cells = np.zeros((2 * n * box, box), dtype=np.int64)
    seg_box = np.zeros(2 * n * box, dtype=np.int64)
    box_segs = np.zeros((n, 2, box), dtype=np.int64)
    for line in range(2 * n):
        for j in range(box):
            s = line * box + j
            if line < n:  # row `line`, box column j
                seg = line * n + j * box + np.arange(box)
            else:  # column line - n, box row j
                seg = (j * box + np.arange(box)) * n + (line - n)
            seg_cells[s] = seg
            bx = boxes[seg[0]]
            seg_box[s] = 2 * n + bx
            box_segs[bx, int(line >= n), (line % n) % box] = s
    for table in (units, cell_units, peers, seg_cells, seg_box, box_segs):
        table.setflags(write=False)
    return units, cell_units, peers, seg_cells, seg_box, box_segs


def general_scratch(box: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The general kernel's scratch arrays: the placement queue, the dirty units, and per
    segment its candidates' union and its forced digits."""
    n = box * box
    return (np.zeros(2 * n * n + 2, dtype=np.int64), np.zeros(3 * n, dtype=np.int64),
            np.zeros(4 * n * box, dtype=np.int64))


# --- any size: propagation --------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def touch(cell_units, udirty, c):
    udirty[cell_units[c, 0]] = 1
    udirty[cell_units[c, 1]] = 1
    udirty[cell_units[c, 2]] = 1


@njit(cache=True, _nrt=False)
def fail(udirty):
    udirty[:] = 0
    return False


@njit(cache=True, _nrt=False)
def propagate(st, queue, qn, udirty, segor, units, cell_units, peers, seg_cells, seg_box,
              box_segs, level):
    """Run every deduction of ``level`` to a fixpoint. ``st`` = candidates of each cell, then
    the digits placed in each unit; ``queue[:qn]`` = single cells still to place; ``udirty`` =
    units whose hidden singles must be looked at again. False on a contradiction."""
    nunits, n = units.shape
    ncells = n * n
    full = (np.int64(1) << n) - 1
    npeers = peers.shape[1]
    nseg, box = seg_cells.shape
    qh = 0
    while True:
        # naked singles: place queued cells, eliminate their digit from the peers
        while qh < qn:
            c = queue[qh]
            qh += 1
            m = st[c]
            u0 = ncells + cell_units[c, 0]
            if st[u0] & m:
                continue
            st[u0] |= m
            st[ncells + cell_units[c, 1]] |= m
            st[ncells + cell_units[c, 2]] |= m
            for k in range(npeers):
                p = peers[c, k]
                x = st[p]
                if x & m:
                    x &= ~m
                    st[p] = x
                    if x == 0:
                        return fail(udirty)
                    if x & (x - 1) == 0:
                        queue[qn] = p
                        qn += 1
                    touch(cell_units, udirty, p)
        # hidden singles in the units that changed
        found = False
        for u in range(nunits):
            if udirty[u] == 0:
                continue
            udirty[u] = 0
            once = np.int64(0)
            twice = np.int64(0)
            for k in range(n):
                x = st[units[u, k]]
                twice |= once & x
                once |= x
            if once != full:
                return fail(udirty)
            hidden = once & ~twice & ~st[ncells + u]
            if hidden:
                for k in range(n):
                    c = units[u, k]
                    x = st[c] & hidden
                    if x:
                        if x & (x - 1):
                            return fail(udirty)
                        st[c] = x
                        queue[qn] = c
                        qn += 1
                        touch(cell_units, udirty, c)
                        found = True
        if found:
            continue
        if level < LOCKED:
            return True
        # locked candidates over the segments; segor[nseg + s] collects the digits forced
        # into segment s (confined to it within its line or within its box)
        for s in range(nseg):
            o = np.int64(0)
            for t in range(box):
                o |= st[seg_cells[s, t]]
            segor[s] = o
            segor[nseg + s] = 0
        qn0 = qn
        for line in range(2 * n):  # claiming: line -> box
            once = np.int64(0)
            twice = np.int64(0)
            for j in range(box):
                x = segor[line * box + j]
                twice |= once & x
                once |= x
            rest = ~twice & ~st[ncells + line]
            for j in range(box):
                s = line * box + j
                segor[nseg + s] |= segor[s] & ~twice
                only = segor[s] & rest
                if only:
                    bx = seg_box[s]
                    for k in range(n):
                        c = units[bx, k]
                        if cell_units[c, 0] != line and cell_units[c, 1] != line:
                            qn = eliminate(st, c, only, queue, qn, udirty, cell_units)
                            if qn < 0:
                                return fail(udirty)
        for bx in range(n):  # pointing: box -> line
            ub = 2 * n + bx
            for orient in range(2):
                once = np.int64(0)
                twice = np.int64(0)
                for j in range(box):
                    x = segor[box_segs[bx, orient, j]]
                    twice |= once & x
                    once |= x
                rest = ~twice & ~st[ncells + ub]
                for j in range(box):
                    s = box_segs[bx, orient, j]
                    segor[nseg + s] |= segor[s] & ~twice
                    only = segor[s] & rest
                    if only:
                        line = s // box
                        for k in range(n):
                            c = units[line, k]
                            if cell_units[c, 2] != ub:
                                qn = eliminate(st, c, only, queue, qn, udirty, cell_units)
                                if qn < 0:
                                    return fail(udirty)
        if level >= SUBSETS:
            for s in range(nseg):
                o = segor[s]  # possible digits: box of them means each must be there
                f = segor[nseg + s]  # forced digits: box of them leave room for nothing else
                k = popcount(o)
                kf = popcount(f)
                if k < box or kf > box:
                    return fail(udirty)
                line = s // box
                if kf == box and o != f:
                    for t in range(box):
                        qn = eliminate(st, seg_cells[s, t], ~f, queue, qn, udirty, cell_units)
                        if qn < 0:
                            return fail(udirty)
                if k == box and o & ~st[ncells + line]:
                    bx = seg_box[s]
                    for j in range(n):
                        c = units[line, j]
                        if cell_units[c, 2] != bx:
                            qn = eliminate(st, c, o, queue, qn, udirty, cell_units)
                            if qn < 0:
                                return fail(udirty)
                        c = units[bx, j]
                        if cell_units[c, 0] != line and cell_units[c, 1] != line:
                            qn = eliminate(st, c, o, queue, qn, udirty, cell_units)
                            if qn < 0:
                                return fail(udirty)
        if qn == qn0 and not udirty_any(udirty):
            return True


@njit(cache=True, _nrt=False)
def eliminate(st, c, digits, queue, qn, udirty, cell_units):
    """Remove ``digits`` from cell c; queue it if it became single. Returns the new queue
    length, or -1 if the cell lost its last candidate."""
    x = st[c]
    if x & digits == 0:
        return qn
    x &= ~digits
    st[c] = x
    if x == 0:
        return -1
    if x & (x - 1) == 0:
        queue[qn] = c
        qn += 1
    touch(cell_units, udirty, c)
    return qn


@njit(cache=True, _nrt=False)
def udirty_any(udirty):
    for u in range(udirty.size):
        if udirty[u]:
            return True
    return False


@njit(cache=True, _nrt=False)
def score(st, c, x, peers):
    """The branching weight of cell c with candidates x: see ``score9``."""
    total = 0
    for k in range(peers.shape[1]):
        y = st[peers[c, k]]
        if y & x:
            total += 64 >> popcount(y)
    return total


@njit(cache=True, _nrt=False)
def choose(st, ncells, peers, first):
    """The branching cell: fewest candidates, then (unless ``first``) the highest ``score``,
    then the first; -1 when every cell is single."""
    least = 64
    for c in range(ncells):
        x = st[c]
        if x & (x - 1):
            least = min(least, popcount(x))
            if least == 2:
                break
    best = -1
    best_score = -1
    if least == 64:
        return best
    for c in range(ncells):
        x = st[c]
        if x & (x - 1) and popcount(x) == least:
            if first:
                return c
            s = score(st, c, x, peers)
            if s > best_score:
                best_score = s
                best = c
    return best


@njit(cache=True, _nrt=False)
def init_general(grid, st, queue, udirty, segor, units, cell_units, peers, seg_cells, seg_box,
                 box_segs, level):
    """The root state of a grid (0 = blank, 1..size = clue), propagated; False if none."""
    n = units.shape[1]
    ncells = n * n
    full = (np.int64(1) << n) - 1
    for c in range(ncells):
        st[c] = full
    for u in range(units.shape[0]):
        st[ncells + u] = 0
        udirty[u] = 1
    qn = 0
    for c in range(ncells):
        v = grid[c]
        if v:
            st[c] = np.int64(1) << (v - 1)
            queue[qn] = c
            qn += 1
    return propagate(st, queue, qn, udirty, segor, units, cell_units, peers, seg_cells,
                     seg_box, box_segs, level)


@njit(cache=True, _nrt=False)
def search_general(st, stack, frames, ctl, limit, node_cap, queue, udirty, segor, units,
                   cell_units, peers, seg_cells, seg_box, box_segs, mode, out):
    """The counting search of ``search9`` on per-cell candidate masks (any size)."""
    level = mode & 3
    first = mode & FIRST_MRV
    n = units.shape[1]
    ncells = n * n
    width = st.size
    depth = ctl[C_DEPTH]
    phase = ctl[C_PHASE]
    nsol = ctl[C_SOLUTIONS]
    guesses = ctl[C_GUESSES]
    nodes = ctl[C_NODES]
    status = DONE
    while True:
        if phase == DECIDE:
            c = choose(st, ncells, peers, first)
            if c < 0:
                nsol += 1
                if nsol == 1:
                    for i in range(ncells):
                        out[i] = lowest_bit_index(st[i]) + 1
                if nsol >= limit:
                    break
                phase = BACKTRACK
                continue
            if nodes >= node_cap:
                status = PAUSED
                break
            bit = st[c] & -st[c]
            guesses += 1
            for i in range(width):
                stack[depth, i] = st[i]
            frames[depth] = c * 64 + lowest_bit_index(bit)
            depth += 1
            nodes += 1
            st[c] = bit
        else:
            if depth == 0:
                break
            if nodes >= node_cap:
                status = PAUSED
                break
            depth -= 1
            for i in range(width):
                st[i] = stack[depth, i]
            c = frames[depth] >> 6
            st[c] &= ~(np.int64(1) << (frames[depth] & 63))
            nodes += 1
        touch(cell_units, udirty, c)
        qn = 0
        if st[c] & (st[c] - 1) == 0:
            queue[0] = c
            qn = 1
        ok = propagate(st, queue, qn, udirty, segor, units, cell_units, peers, seg_cells,
                       seg_box, box_segs, level)
        phase = DECIDE if ok else BACKTRACK
    ctl[C_DEPTH] = depth
    ctl[C_PHASE] = phase
    ctl[C_SOLUTIONS] = nsol
    ctl[C_GUESSES] = guesses
    ctl[C_NODES] = nodes
    return status


@njit(cache=True)
def batch_general(grids, limit, mode, out, counts, guesses, nodes, queue, udirty, segor,
                  units, cell_units, peers, seg_cells, seg_box, box_segs):
    """``batch9`` for the general kernel (one box size per batch; scratch from
    ``general_scratch``)."""
    nunits, n = units.shape
    ncells = n * n
    width = ncells + nunits
    st = np.zeros(width, dtype=np.int64)
    stack = np.zeros((ncells + 1, width), dtype=np.int64)
    frames = np.zeros(ncells + 1, dtype=np.int64)
    ctl = np.zeros(CTL_SLOTS, dtype=np.int64)
    for i in range(grids.shape[0]):
        ctl[:] = 0
        ctl[C_NODES] = 1
        if init_general(grids[i], st, queue, udirty, segor, units, cell_units, peers,
                        seg_cells, seg_box, box_segs, mode & 3):
            search_general(st, stack, frames, ctl, limit, NO_CAP, queue, udirty, segor, units,
                           cell_units, peers, seg_cells, seg_box, box_segs, mode, out[i])
        counts[i] = ctl[C_SOLUTIONS]
        guesses[i] = ctl[C_GUESSES]
        nodes[i] = ctl[C_NODES]


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
