"""Quasigroup completion by backtracking: the numba kernel and its state, resumable in chunks.

The search of Gomes, Selman and Kautz (AAAI 1998; with Crato, JAR 2000): chronological
backtracking with forward checking, a fewest-values-first (MRV) branching rule whose ties are
broken at random, values tried in random order, and restarts on a schedule.

State (flat arrays, orders 1..64: a set of symbols, rows or columns is one uint64):

- ``bits[ROW_USED, r]``, ``bits[COL_USED, c]``: the symbols row ``r`` / column ``c`` holds;
  ``bits[SYM_ROWS, v]``, ``bits[SYM_COLS, v]``: the rows / columns holding symbol ``v`` (the
  same facts transposed); ``bits[ROW_EMPTY, r]``, ``bits[COL_EMPTY, c]``: the columns / rows
  of row ``r``'s / column ``c``'s empty cells. A placement sets six bits, undoing it clears
  them: nothing else is stored, so undo needs only the trail of placed cells.
- The domain of an empty cell ``(r, c)`` is ``~(ROW_USED[r] | COL_USED[c])``; the places left
  for symbol ``v`` in row ``r`` are ``ROW_EMPTY[r] & ~SYM_COLS[v]`` (and in column ``c``,
  ``COL_EMPTY[c] & ~SYM_ROWS[v]``): all computed when needed, never kept.

Propagation after each placement (``propagation``):

- ``fc``: forward checking only: an empty cell of the placed cell's row or column left with no
  value is a dead end (at once); a cell with one value left is not placed, it is branched on
  next (MRV picks it: a one-child node);
- ``naked``: the same, and such a cell is placed at once (a naked single), to a fixpoint;
- ``hidden``: also the dual views of the 3-D model (Kautz et al. 2001): a symbol with no place
  left in a row or a column is a dead end, a symbol with one place left there is placed (a
  hidden single).

Forced placements go through a FIFO queue (one entry per cell at most: a cell forced to two
values is a dead end).

Branching (``branching``): ``cells`` takes an empty cell with the fewest values; ``3d`` also
considers each (row, symbol) and (column, symbol) pair with its places left, and takes the
variable with the fewest options of all three kinds. Ties are broken uniformly at random
(reservoir sampling) and a frame's options are tried in a uniformly random order, both from
the search's own xorshift64* generator (``rng[0]``, seeded by the run's seed; no global state).

Restarts (``restarts``): a run ends after its cutoff of *fails* (dead ends): ``luby``: base x
Luby's sequence (1 1 2 1 1 2 4 ...), ``geometric``: base x factor^i, ``off``: one run. A
restart undoes every decision (the givens and what the root propagation forced stay) and draws
new tie-breaks and value orders (the generator goes on). A run that exhausts its tree has
searched the whole tree, so the square has no completion, whatever the schedule; Luby's and
geometric cutoffs (factor > 1) grow without bound, so with them too the search is complete.

Counters (``ctl``): ``nodes`` = decisions (options tried at a branching frame), ``fails`` =
dead ends among them (a decision whose propagation failed, or a frame left without options),
``restarts``, ``forced`` = placements made by propagation (root included).

Chunks: numba cannot read the clock, so ``search_chunk`` stops after a given number of nodes
and returns PAUSED, SOLVED or EXHAUSTED, with everything in the arrays; it pauses only before a
frame's next option, so the chunk sizes never change the search: the same seed and parameters
give the same search whatever the chunking.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from searches.support import intrinsics, restarts
from searches.support.chunked import Chunking, control
from searches.support.intrinsics import lowest_bit_index, popcount
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.restarts import run_length

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *intrinsics.JIT_SOURCES, *restarts.JIT_SOURCES)

#: The largest order a square's sets fit in (one uint64).
MAX_ORDER = 64

PROPAGATIONS = ("fc", "naked", "hidden")
FC, NAKED, HIDDEN = 0, 1, 2
BRANCHINGS = ("cells", "3d")
BRANCH_CELLS, BRANCH_3D = 0, 1
RESTART_MODES = ("luby", "geometric", "off")

# Rows of the bitmask array ``bits``.
ROW_USED, COL_USED, SYM_ROWS, SYM_COLS, ROW_EMPTY, COL_EMPTY = range(6)
BIT_ROWS = 6
# What a frame branches on: a cell (options: symbols), a (row, symbol) pair (options:
# columns), a (column, symbol) pair (options: rows).
KIND_CELL, KIND_ROWSYM, KIND_COLSYM = 0, 1, 2

# Slots of the int64 control vector: the number of frames, the trail's length, the trail's
# length after the root propagation, the counters, the fail count that ends the current run.
C_DEPTH, C_TRAIL, C_ROOT, C_NODES, C_FAILS, C_RESTARTS, C_FORCED, C_RUN_END = range(8)
CTL_SLOTS = 8
# Slots of the int64 configuration vector.
K_ORDER, K_PROPAGATION, K_BRANCHING, K_MODE, K_BASE = range(5)
CFG_SLOTS = 5

# What a chunk returns.
PAUSED, SOLVED, EXHAUSTED = 0, 1, 2

CHUNKING = Chunking(PAUSED, first_chunk=2_000, min_chunk=1_000)

ONE = np.uint64(1)
ZERO = np.uint64(0)


# --- random numbers, schedules ----------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def next_random(rng):
    """Next value of the xorshift64* generator whose (non-zero) state is ``rng[0]``."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, nogil=True, inline="always")
def random_below(rng, k):
    """A uniform integer in 0..k-1 (k >= 1; the modulo bias is below k / 2^64)."""
    return np.int64(next_random(rng) % np.uint64(k))


@njit(cache=True, nogil=True, inline="always")
def nth_bit(mask, j):
    """The index of the ``j``-th (from 0) set bit of ``mask``."""
    for _ in range(j):
        mask &= mask - ONE
    return lowest_bit_index(mask)


def seeded_state(seed: int) -> np.ndarray:
    """The generator's state for a run's seed (splitmix64 of it: small seeds spread, never 0)."""
    mask = (1 << 64) - 1
    z = (int(seed) + 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    z ^= z >> 31
    return np.array([z or 0x9E3779B97F4A7C15], dtype=np.uint64)


# --- placing, undoing, the queue of forced placements -----------------------------------------


@njit(cache=True, nogil=True, inline="always")
def full_mask(n):
    """The set of all ``n`` symbols (rows, columns)."""
    return np.uint64(0xFFFFFFFFFFFFFFFF) >> np.uint64(64 - n)


@njit(cache=True, nogil=True, inline="always")
def place(n, bits, grid, trail, tl, cell, v):
    """Put symbol ``v`` in the empty ``cell``; returns the trail's new length."""
    r = cell // n
    c = cell - r * n
    bv = ONE << np.uint64(v)
    br = ONE << np.uint64(r)
    bc = ONE << np.uint64(c)
    grid[cell] = v
    trail[tl] = cell
    bits[ROW_USED, r] |= bv
    bits[COL_USED, c] |= bv
    bits[SYM_ROWS, v] |= br
    bits[SYM_COLS, v] |= bc
    bits[ROW_EMPTY, r] &= ~bc
    bits[COL_EMPTY, c] &= ~br
    return tl + 1


@njit(cache=True, nogil=True)
def undo(n, bits, grid, trail, tl, mark):
    """Empty the cells placed since the trail had length ``mark``; returns ``mark``."""
    while tl > mark:
        tl -= 1
        cell = trail[tl]
        v = grid[cell]
        r = cell // n
        c = cell - r * n
        bv = ONE << np.uint64(v)
        br = ONE << np.uint64(r)
        bc = ONE << np.uint64(c)
        grid[cell] = -1
        bits[ROW_USED, r] &= ~bv
        bits[COL_USED, c] &= ~bv
        bits[SYM_ROWS, v] &= ~br
        bits[SYM_COLS, v] &= ~bc
        bits[ROW_EMPTY, r] |= bc
        bits[COL_EMPTY, c] |= br
    return mark


@njit(cache=True, nogil=True, inline="always")
def push(queue, qn, pend, cell, v):
    """Queue ``cell = v``; returns (False: the cell is already forced to another value, the
    queue's new length)."""
    p = pend[cell]
    if p != 0:
        return p == v + 1, qn
    pend[cell] = v + 1
    queue[qn] = cell * 64 + v
    return True, qn + 1


@njit(cache=True, nogil=True, inline="always")
def forced_symbol(queue, qn, pend, propagation, dom, cell):
    """A cell's candidates ``dom``: none is a dead end, one is queued (naked singles and up);
    returns (no dead end, the queue's new length)."""
    if dom == ZERO:
        return False, qn
    if propagation >= NAKED and (dom & (dom - ONE)) == ZERO:
        return push(queue, qn, pend, cell, lowest_bit_index(dom))
    return True, qn


@njit(cache=True, nogil=True, inline="always")
def forced_place(queue, qn, pend, places, base, stride, w):
    """The places left to symbol ``w`` in a line (bit ``k`` is cell ``base + k * stride``):
    none is a dead end, one is queued; returns (no dead end, the queue's new length)."""
    if places == ZERO:
        return False, qn
    if (places & (places - ONE)) == ZERO:
        return push(queue, qn, pend, base + lowest_bit_index(places) * stride, w)
    return True, qn


@njit(cache=True, nogil=True)
def check_placed(n, full, propagation, bits, r, c, v, queue, qn, pend):
    """What placing ``v`` at ``(r, c)`` implies (see the module docstring); returns (no dead
    end found, the queue's new length)."""
    ok = True
    ru = bits[ROW_USED, r]
    m = bits[ROW_EMPTY, r]
    while m != ZERO:
        cc = lowest_bit_index(m)
        m &= m - ONE
        ok, qn = forced_symbol(queue, qn, pend, propagation, full & ~(ru | bits[COL_USED, cc]),
                               r * n + cc)
        if not ok:
            return False, qn
    cu = bits[COL_USED, c]
    m = bits[COL_EMPTY, c]
    while m != ZERO:
        rr = lowest_bit_index(m)
        m &= m - ONE
        ok, qn = forced_symbol(queue, qn, pend, propagation, full & ~(cu | bits[ROW_USED, rr]),
                               rr * n + c)
        if not ok:
            return False, qn
    if propagation < HIDDEN:
        return True, qn
    # row r lost a place for each symbol it misses, and so did column c
    miss = full & ~ru
    while miss != ZERO:
        w = lowest_bit_index(miss)
        miss &= miss - ONE
        ok, qn = forced_place(queue, qn, pend, bits[ROW_EMPTY, r] & ~bits[SYM_COLS, w],
                              r * n, 1, w)
        if not ok:
            return False, qn
    miss = full & ~cu
    while miss != ZERO:
        w = lowest_bit_index(miss)
        miss &= miss - ONE
        ok, qn = forced_place(queue, qn, pend, bits[COL_EMPTY, c] & ~bits[SYM_ROWS, w],
                              c, n, w)
        if not ok:
            return False, qn
    # symbol v lost column c in every row missing it, and row r in every column missing it
    sc, sr = bits[SYM_COLS, v], bits[SYM_ROWS, v]
    rows = full & ~sr
    while rows != ZERO:
        rr = lowest_bit_index(rows)
        rows &= rows - ONE
        ok, qn = forced_place(queue, qn, pend, bits[ROW_EMPTY, rr] & ~sc, rr * n, 1, v)
        if not ok:
            return False, qn
    cols = full & ~sc
    while cols != ZERO:
        cc = lowest_bit_index(cols)
        cols &= cols - ONE
        ok, qn = forced_place(queue, qn, pend, bits[COL_EMPTY, cc] & ~sr, cc, n, v)
        if not ok:
            return False, qn
    return True, qn


@njit(cache=True, nogil=True)
def propagate(n, propagation, bits, grid, trail, tl, queue, qn, pend):
    """Place the queued cells and what they force, to a fixpoint; returns (no dead end, the
    trail's new length). The queue is empty afterwards (``pend`` all zero)."""
    full = full_mask(n)
    head = 0
    ok = True
    while head < qn:
        entry = queue[head]
        head += 1
        cell = entry >> 6
        v = entry & 63
        pend[cell] = 0
        if grid[cell] >= 0:
            if grid[cell] == v:
                continue
            ok = False
            break
        r = cell // n
        c = cell - r * n
        if (bits[ROW_USED, r] | bits[COL_USED, c]) & (ONE << np.uint64(v)):
            ok = False
            break
        tl = place(n, bits, grid, trail, tl, cell, v)
        ok, qn = check_placed(n, full, propagation, bits, r, c, v, queue, qn, pend)
        if not ok:
            break
    for i in range(head, qn):
        pend[queue[i] >> 6] = 0
    return ok, tl


# --- branching --------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def choose(n, branching, bits, rng):
    """The variable to branch on: (kind, index, its options, how many). MRV, ties uniformly at
    random; ``index`` is a cell, ``r * n + v`` (row-symbol) or ``c * n + v`` (column-symbol).
    A count of 65 means no variable is left (the square is full)."""
    full = full_mask(n)
    best = 65
    ties = 0
    kind = KIND_CELL
    index = -1
    options = ZERO
    for r in range(n):
        ru = bits[ROW_USED, r]
        m = bits[ROW_EMPTY, r]
        while m != ZERO:
            c = lowest_bit_index(m)
            m &= m - ONE
            dom = full & ~(ru | bits[COL_USED, c])
            k = popcount(dom)
            if k < best:
                best, ties = k, 1
                kind, index, options = KIND_CELL, r * n + c, dom
            elif k == best:
                ties += 1
                if random_below(rng, ties) == 0:
                    kind, index, options = KIND_CELL, r * n + c, dom
    if branching == BRANCH_3D:  # the (row, symbol) pairs, then the (column, symbol) pairs
        for side in range(2):
            if side == 0:
                empty, used, placed, pair = ROW_EMPTY, ROW_USED, SYM_COLS, KIND_ROWSYM
            else:
                empty, used, placed, pair = COL_EMPTY, COL_USED, SYM_ROWS, KIND_COLSYM
            for line in range(n):
                free = bits[empty, line]
                miss = full & ~bits[used, line]
                while miss != ZERO:
                    v = lowest_bit_index(miss)
                    miss &= miss - ONE
                    places = free & ~bits[placed, v]
                    k = popcount(places)
                    if k < best:
                        best, ties = k, 1
                        kind, index, options = pair, line * n + v, places
                    elif k == best:
                        ties += 1
                        if random_below(rng, ties) == 0:
                            kind, index, options = pair, line * n + v, places
    return kind, index, options, best


@njit(cache=True, nogil=True, inline="always")
def decision(n, kind, index, option):
    """The (cell, symbol) of option ``option`` of a frame."""
    if kind == KIND_CELL:
        return index, option
    line = index // n
    v = index - line * n
    if kind == KIND_ROWSYM:
        return line * n + option, v
    return option * n + line, v


# --- the search -------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def root(cfg, bits, grid, trail, queue, pend, ctl, cells):
    """Place the givens and propagate from them: the root of every run. False when the square
    has no completion (a given repeats a symbol, or propagation fails). Fills ``ctl``."""
    n = cfg[K_ORDER]
    propagation = cfg[K_PROPAGATION]
    full = full_mask(n)
    ncells = n * n
    bits[ROW_EMPTY, :] = full
    bits[COL_EMPTY, :] = full
    tl = 0
    ok = True
    for cell in range(ncells):
        v = cells[cell]
        if v < 0:
            continue
        r = cell // n
        c = cell - r * n
        if (bits[ROW_USED, r] | bits[COL_USED, c]) & (ONE << np.uint64(v)):
            ok = False
            break
        tl = place(n, bits, grid, trail, tl, cell, v)
    qn = 0
    if ok:  # every empty cell, and with hidden singles every line's missing symbols
        for cell in range(ncells):
            if grid[cell] >= 0:
                continue
            r = cell // n
            c = cell - r * n
            dom = full & ~(bits[ROW_USED, r] | bits[COL_USED, c])
            if dom == ZERO:
                ok = False
                break
            if propagation >= NAKED and (dom & (dom - ONE)) == ZERO:
                ok, qn = push(queue, qn, pend, cell, lowest_bit_index(dom))
                if not ok:
                    break
    if ok and propagation >= HIDDEN:
        for line in range(n):
            miss = full & ~bits[ROW_USED, line]
            while ok and miss != ZERO:
                w = lowest_bit_index(miss)
                miss &= miss - ONE
                places = bits[ROW_EMPTY, line] & ~bits[SYM_COLS, w]
                ok = places != ZERO
                if ok and (places & (places - ONE)) == ZERO:
                    ok, qn = push(queue, qn, pend, line * n + lowest_bit_index(places), w)
            miss = full & ~bits[COL_USED, line]
            while ok and miss != ZERO:
                w = lowest_bit_index(miss)
                miss &= miss - ONE
                places = bits[COL_EMPTY, line] & ~bits[SYM_ROWS, w]
                ok = places != ZERO
                if ok and (places & (places - ONE)) == ZERO:
                    ok, qn = push(queue, qn, pend, lowest_bit_index(places) * n + line, w)
            if not ok:
                break
    given = tl
    if ok:
        ok, tl = propagate(n, propagation, bits, grid, trail, tl, queue, qn, pend)
    else:
        for i in range(qn):
            pend[queue[i] >> 6] = 0
    ctl[:] = 0
    ctl[C_TRAIL] = tl
    ctl[C_ROOT] = tl
    ctl[C_FORCED] = tl - given
    return ok


@njit(cache=True, nogil=True)
def begin_run(cfg, factor, bits, grid, trail, fr_kind, fr_index, fr_options, fr_mark, ctl,
              rng):
    """Undo every decision, open the first frame (new random tie-breaks) and set the run's
    cutoff. False when the square is already full (nothing to branch on)."""
    n = cfg[K_ORDER]
    tl = undo(n, bits, grid, trail, ctl[C_TRAIL], ctl[C_ROOT])
    ctl[C_TRAIL] = tl
    ctl[C_RUN_END] = ctl[C_FAILS] + run_length(cfg[K_MODE], cfg[K_BASE], factor,
                                               ctl[C_RESTARTS])
    kind, index, options, count = choose(n, cfg[K_BRANCHING], bits, rng)
    if count > 64:
        ctl[C_DEPTH] = 0
        return False
    fr_kind[0] = kind
    fr_index[0] = index
    fr_options[0] = options
    fr_mark[0] = tl
    ctl[C_DEPTH] = 1
    return True


@njit(cache=True, nogil=True)
def search_chunk(cfg, factor, bits, grid, trail, queue, pend, fr_kind, fr_index, fr_options,
                 fr_mark, ctl, rng, stop_at):
    """Continue the search until ``stop_at`` nodes in total, a full square (SOLVED) or an
    exhausted tree (EXHAUSTED); returns PAUSED, SOLVED or EXHAUSTED, the state saved in the
    arrays. Frame ``t`` (``t < ctl[C_DEPTH]``) is the variable branched on at depth ``t``, its
    options not tried yet and the trail's length when it was opened."""
    n = cfg[K_ORDER]
    propagation = cfg[K_PROPAGATION]
    branching = cfg[K_BRANCHING]
    ncells = n * n
    d = ctl[C_DEPTH]
    tl = ctl[C_TRAIL]
    nodes = ctl[C_NODES]
    fails = ctl[C_FAILS]
    forced = ctl[C_FORCED]
    status = PAUSED
    while True:
        top = d - 1
        options = fr_options[top]
        if options == ZERO:  # the frame is done: back to its parent
            d -= 1
            if d == 0:
                status = EXHAUSTED
                break
            continue
        if nodes >= stop_at:
            break
        pick = nth_bit(options, random_below(rng, popcount(options)))
        fr_options[top] = options & ~(ONE << np.uint64(pick))
        tl = undo(n, bits, grid, trail, tl, fr_mark[top])
        cell, v = decision(n, fr_kind[top], fr_index[top], pick)
        nodes += 1
        pend[cell] = v + 1
        queue[0] = cell * 64 + v
        ok, after = propagate(n, propagation, bits, grid, trail, tl, queue, 1, pend)
        if after > tl + 1:
            forced += after - tl - 1
        tl = after
        if ok:
            if tl == ncells:
                status = SOLVED
                break
            kind, index, next_options, count = choose(n, branching, bits, rng)
            if count > 0:
                fr_kind[d] = kind
                fr_index[d] = index
                fr_options[d] = next_options
                fr_mark[d] = tl
                d += 1
                continue
        fails += 1  # a dead end: propagation failed, or a variable has no option left
        if fails >= ctl[C_RUN_END]:
            ctl[C_RESTARTS] += 1
            ctl[C_FAILS] = fails
            ctl[C_TRAIL] = tl
            begin_run(cfg, factor, bits, grid, trail, fr_kind, fr_index, fr_options, fr_mark,
                      ctl, rng)
            tl = ctl[C_TRAIL]
            d = ctl[C_DEPTH]
    ctl[C_DEPTH] = d
    ctl[C_TRAIL] = tl
    ctl[C_NODES] = nodes
    ctl[C_FAILS] = fails
    ctl[C_FORCED] = forced
    return status


# --- the search as an object ------------------------------------------------------------------


@dataclass
class Search:
    """One search of one partial square: its configuration, state arrays and control vector.
    ``status`` is PAUSED until the search ends (SOLVED or EXHAUSTED)."""

    order: int
    cfg: np.ndarray
    factor: float
    bits: np.ndarray
    grid: np.ndarray
    trail: np.ndarray
    queue: np.ndarray
    pend: np.ndarray
    fr_kind: np.ndarray
    fr_index: np.ndarray
    fr_options: np.ndarray
    fr_mark: np.ndarray
    ctl: np.ndarray
    rng: np.ndarray
    status: int = PAUSED

    @classmethod
    def start(cls, order: int, cells: np.ndarray, seed: int, propagation: str = "hidden",
              branching: str = "cells", restarts: str = "luby", base: int = 100,
              factor: float = 1.5) -> Search:
        """Place the givens (``cells``: ``order * order`` symbols, -1 a hole), propagate and
        open the first run. Orders 1..MAX_ORDER."""
        if not 1 <= order <= MAX_ORDER:
            raise ValueError(f"order {order} is outside 1..{MAX_ORDER} (one uint64 per set)")
        ncells = order * order
        cfg = np.array([order, PROPAGATIONS.index(propagation), BRANCHINGS.index(branching),
                        RESTART_MODES.index(restarts), base], dtype=np.int64)
        search = cls(order=order, cfg=cfg, factor=float(factor),
                     bits=np.zeros((BIT_ROWS, order), dtype=np.uint64),
                     grid=np.full(ncells, -1, dtype=np.int64),
                     trail=np.zeros(ncells, dtype=np.int64),
                     queue=np.zeros(ncells + 1, dtype=np.int64),
                     pend=np.zeros(ncells, dtype=np.int64),
                     fr_kind=np.zeros(ncells + 1, dtype=np.int64),
                     fr_index=np.zeros(ncells + 1, dtype=np.int64),
                     fr_options=np.zeros(ncells + 1, dtype=np.uint64),
                     fr_mark=np.zeros(ncells + 1, dtype=np.int64),
                     ctl=np.zeros(CTL_SLOTS, dtype=np.int64), rng=seeded_state(seed))
        given = np.asarray(cells, dtype=np.int64).ravel()
        if given.size != ncells:
            raise ValueError(f"{given.size} cells, order {order} needs {ncells}")
        if not root(search.cfg, search.bits, search.grid, search.trail, search.queue,
                    search.pend, search.ctl, given):
            search.status = EXHAUSTED
        elif not search.begin():
            search.status = SOLVED
        return search

    def begin(self) -> bool:
        return bool(begin_run(self.cfg, self.factor, self.bits, self.grid, self.trail,
                              self.fr_kind, self.fr_index, self.fr_options, self.fr_mark,
                              self.ctl, self.rng))

    def run(self, nodes: int) -> int:
        """Search ``nodes`` more nodes at most; PAUSED, SOLVED or EXHAUSTED."""
        if self.status == PAUSED:
            self.status = int(search_chunk(self.cfg, self.factor, self.bits, self.grid,
                                           self.trail, self.queue, self.pend, self.fr_kind,
                                           self.fr_index, self.fr_options, self.fr_mark,
                                           self.ctl, self.rng, self.nodes + nodes))
        return self.status

    def finish(self) -> Search:
        """Run to the end without a budget (tests, benchmarks)."""
        return CHUNKING.finish(self)

    nodes = control(C_NODES)
    fails = control(C_FAILS)
    restarts = control(C_RESTARTS)
    forced = control(C_FORCED)

    def square(self) -> np.ndarray:
        """The cells as they stand (the completion once SOLVED; -1 a hole)."""
        return self.grid.copy()

    def counters(self) -> dict[str, float]:
        return {"nodes": self.nodes, "fails": self.fails, "restarts": self.restarts,
                "forced": self.forced}


# The kernels compile in the intrinsics: recompile them when that file changes.
forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
