"""Numba kernels of the ``native`` sudoku solver: propagation and a resumable counting search.

A kernel's ``mode`` is a deduction level (its low two bits), each level including the one
before, plus the flag ``FIRST_MRV`` for plain branching (below):

- ``SINGLES`` (0): naked singles (a cell with one candidate) and hidden singles (a digit with
  one place in a row, column or box);
- ``LOCKED`` (1): locked candidates, both ways and both orientations: *pointing* (a digit of
  a box confined to one segment, i.e. the box's cells on one row or column, leaves the rest of
  that line) and *claiming* (a digit of a line confined to one segment leaves the rest of the
  box);
- ``SUBSETS`` (2): tdoku's *triads*: a segment has exactly ``box`` cells, so it holds exactly
  ``box`` digits. If only ``box`` digits can still go in it, they all must (they leave the rest
  of its line and of its box); if ``box`` digits are already forced into it (by pointing or
  claiming reasoning: confined there within its line or within its box), its cells hold
  nothing else. Fewer possible or more forced digits is a contradiction.

Two representations, because the fastest layout for 9x9 does not scale:

- ``band9`` (9x9 only), after JCZSolve's layout: digit ``d`` has three 27-bit words
  ``F[3 * d + b]``, the cells of band ``b`` (rows 3b..3b+2) where ``d`` is still possible, bit
  ``9 * row_in_band + col`` (so a band word is 27 consecutive cell numbers). The deductions
  are table look-ups per (digit, band): ``COMPLEX`` maps the 9 mini-rows (row x box) still open
  to a digit in a band to the union of the band *configurations* (tdoku's word: the 6 ways to
  give each box of the band one mini-row, all in different rows) that remain, which is
  locked candidates for rows; the same table on mini-columns (3 bands x 3 columns of a stack)
  does columns. Naked singles and the triads are counted bit-sliced over the 9 digit words.
- ``general`` (box 2..5): one candidate bitmask per cell (int64; size <= 25 bits), a queue of
  cells to place (naked singles eliminate from the peers), hidden singles with the once/twice
  bit trick on the units that changed, locked candidates and subsets over the segments.

Both compute the same fixpoint (the closure of the same monotone rules does not depend on the
order they fire in) and choose the same branch, so they search the same tree: the same guesses
and nodes on every puzzle (a test checks it). The branch: the *guess* ``cell = v`` on a cell
with the fewest candidates (MRV), ties broken towards the cell whose candidates touch the most
near-solved peers (each unsolved peer sharing a candidate weighs ``64 >> its candidate
count``: a bivalue peer 16, a trivalue one 8, ...; this halves the guesses of first-cell MRV on
hard puzzles; with ``FIRST_MRV``, the first such cell), the lowest value first; its
alternative is ``cell != v``, propagated in the parent state. ``guesses`` counts those
binary decisions, as tdoku's ``num_guesses`` does (a cell tried out to its k-th value costs
k - 1); ``nodes`` counts the states propagated: the root, each guess, each negation. The
search stops at ``limit`` solutions (2 proves uniqueness).

No allocation inside the search: the state is a flat int64 vector, copied on each guess into
the next row of a preallocated stack (one row per pending guess; depth <= cells). The search
is resumable: ``ctl`` holds (depth, phase, solutions, guesses, nodes); it returns PAUSED when
``nodes`` reaches ``node_cap`` and continues exactly there when called again, so Python can
read the clock between chunks (numba cannot).

The inner functions are compiled with numba's ``_nrt=False``: they never allocate, and without
the runtime's reference counting a call no longer pays an atomic increment and decrement per
array argument (about 10% of a node when it did). State copies are explicit loops (a slice
assignment may allocate a temporary), and nothing is force-inlined (LLVM inlines what pays).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

# Deduction levels, the low two bits of a kernel's ``mode``; FIRST_MRV (a flag of ``mode``)
# turns the branching weights off: the first cell with the fewest candidates, as plain MRV.
SINGLES, LOCKED, SUBSETS = 0, 1, 2
LEVELS = ("singles", "locked", "subsets")
FIRST_MRV = 4
# What the searches return, and the slots of ``ctl``.
PAUSED, DONE = 0, 1
C_DEPTH, C_PHASE, C_SOLUTIONS, C_GUESSES, C_NODES = range(5)
CTL_SLOTS = 5
DECIDE, BACKTRACK = 0, 1
NO_CAP = 1 << 62


# --- bit intrinsics ---------------------------------------------------------------------------


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64 (LLVM ctpop: one instruction with popcnt)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowbit_index(typingctx, x):
    """Index of the lowest set bit of a non-zero int64 (LLVM cttz)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


# --- 9x9: band tables -------------------------------------------------------------------------

FULL27 = (1 << 27) - 1
SPREAD3 = 1 | (1 << 9) | (1 << 18)  # one bit in each row of a band
COLS3 = 0b001001001  # the mini-rows of one box (or mini-columns of one column) in a 3x3 mask


def _band_tables() -> tuple[np.ndarray, ...]:
    """Tables on 9-bit masks. SHRINK: a row's 9 cells -> its 3 mini-rows (bit k: box k).
    COMPLEX: open mini-rows (bit 3r + k) -> those used by some configuration (0: none). BASIC:
    the mask itself when every row and every box keeps a mini-row, else 0 (no locking).
    FORCED: the mini-rows alone in their row or in their box. EXPAND: mini-rows -> their 27
    cells. PEERS: cell of a band -> the other cells of its row, box and column in the band."""
    shrink = np.zeros(512, dtype=np.int64)
    for x in range(512):
        shrink[x] = sum(1 << k for k in range(3) if x & (7 << (3 * k)))
    configs = [sum(1 << (3 * p[k] + k) for k in range(3)) for p in permutations(range(3))]
    complex_, basic, forced, expand = (np.zeros(512, dtype=np.int64) for _ in range(4))
    for m in range(512):
        for p in configs:
            if m & p == p:
                complex_[m] |= p
        lines = [m & (7 << (3 * r)) for r in range(3)] + [m & (COLS3 << k) for k in range(3)]
        basic[m] = m if all(lines) else 0
        forced[m] = np.bitwise_or.reduce([x for x in lines if x and x & (x - 1) == 0] or [0])
        expand[m] = sum(7 << (9 * (i // 3) + 3 * (i % 3)) for i in range(9) if m >> i & 1)
    peers = np.zeros(27, dtype=np.int64)
    for pos in range(27):
        r, c = divmod(pos, 9)
        line = (0x1FF << (9 * r)) | ((7 * SPREAD3) << (3 * (c // 3))) | (SPREAD3 << c)
        peers[pos] = line & ~(1 << pos)
    return shrink, complex_, basic, forced, expand, peers


SHRINK, COMPLEX, BASIC, FORCED, EXPAND, PEERS27 = _band_tables()
ROW27 = np.array([0x1FF << (9 * r) for r in range(3)], dtype=np.int64)
BOX27 = np.array([(7 * SPREAD3) << (3 * k) for k in range(3)], dtype=np.int64)
STATE9 = 30  # copied on a guess: 27 digit-band words, then the unsolved cells of each band
WORK9 = 96  # the state, then scratch: per digit 4 triad masks (30..65), per band 5 counts


# --- 9x9: propagation -------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def place9(F, d, b, pos):
    """Put digit d on cell ``pos`` of band b: clear its row, box and column for d, its column
    for d in the other bands, the cell for the other digits, and mark it solved. Returns the
    digits whose words changed, or -1 if the cell had lost d (a contradiction)."""
    bit = np.int64(1) << pos
    i = 3 * d + b
    if F[27 + b] & bit == 0:
        return 0 if F[i] & bit else -1
    if F[i] & bit == 0:
        return -1
    F[i] &= ~PEERS27[pos]
    col = SPREAD3 << (pos % 9)
    for b2 in range(3):
        if b2 != b:
            F[3 * d + b2] &= ~col
    dirty = np.int64(1) << d
    for d2 in range(9):
        j = 3 * d2 + b
        if d2 != d and F[j] & bit:
            F[j] &= ~bit
            dirty |= np.int64(1) << d2
    F[27 + b] &= ~bit
    return dirty


@njit(cache=True, _nrt=False)
def update_digit9(F, d, level):
    """Deductions on digit d alone: band configurations (and stack configurations from
    ``LOCKED`` on) to a fixpoint, then hidden singles in rows, columns and boxes (with
    configurations a box single already leaves a row single). Returns the digits changed by
    placements, or -1 on a contradiction."""
    base = 3 * d
    while True:
        for b in range(3):
            B = F[base + b]
            sh = SHRINK[B & 0x1FF] | (SHRINK[(B >> 9) & 0x1FF] << 3) | (SHRINK[B >> 18] << 6)
            cm = COMPLEX[sh] if level else BASIC[sh]
            if cm == 0:
                return -1
            F[base + b] = B & EXPAND[cm]
        if not level:
            break
        o0 = F[base]
        o0 = (o0 | (o0 >> 9) | (o0 >> 18)) & 0x1FF
        o1 = F[base + 1]
        o1 = (o1 | (o1 >> 9) | (o1 >> 18)) & 0x1FF
        o2 = F[base + 2]
        o2 = (o2 | (o2 >> 9) | (o2 >> 18)) & 0x1FF
        a0 = np.int64(0)
        a1 = np.int64(0)
        a2 = np.int64(0)
        changed = False
        for s in range(3):
            sh = 3 * s
            m = ((o0 >> sh) & 7) | (((o1 >> sh) & 7) << 3) | (((o2 >> sh) & 7) << 6)
            cm = COMPLEX[m]
            if cm == 0:
                return -1
            if cm != m:
                changed = True
            a0 |= (cm & 7) << sh
            a1 |= ((cm >> 3) & 7) << sh
            a2 |= ((cm >> 6) & 7) << sh
        if not changed:
            break
        F[base] &= a0 * SPREAD3
        F[base + 1] &= a1 * SPREAD3
        F[base + 2] &= a2 * SPREAD3
    # hidden singles of digit d
    one = np.int64(0)
    two = np.int64(0)
    for b in range(3):
        B = F[base + b]
        for r in range(3):
            x = (B >> (9 * r)) & 0x1FF
            two |= one & x
            one |= x
    if one != 0x1FF:
        return -1
    cols = (one & ~two) * SPREAD3
    dirty = np.int64(0)
    for b in range(3):
        B = F[base + b]
        single = B & cols
        for r in range(3):
            x = B & ROW27[r]
            if x & (x - 1) == 0:
                single |= x
        if not level:
            for k in range(3):
                x = B & BOX27[k]
                if x & (x - 1) == 0:
                    single |= x
        single &= F[27 + b]
        while single:
            pos = lowbit_index(single)
            single &= single - 1
            got = place9(F, d, b, pos)
            if got < 0:
                return -1
            dirty |= got
    return dirty


@njit(cache=True, _nrt=False)
def subsets9(F):
    """The triads: per digit, the mini-rows and mini-columns it can still occupy and those it
    is forced into (``FORCED`` of its configuration masks), counted bit-sliced over the digits
    for all 27 mini-rows and 27 mini-columns at once. Returns the digits changed, or -1."""
    n1 = n2 = n3 = n4 = np.int64(0)  # mini-rows with >= 1..4 possible digits
    f1 = f2 = f3 = f4 = np.int64(0)  # mini-rows with >= 1..4 forced digits
    v1 = v2 = v3 = v4 = np.int64(0)  # the same for mini-columns
    g1 = g2 = g3 = g4 = np.int64(0)
    for d in range(9):
        base = 3 * d
        rows = np.int64(0)
        frows = np.int64(0)
        for b in range(3):
            B = F[base + b]
            m = SHRINK[B & 0x1FF] | (SHRINK[(B >> 9) & 0x1FF] << 3) | (SHRINK[B >> 18] << 6)
            rows |= m << (9 * b)
            frows |= FORCED[m] << (9 * b)
        o0 = F[base]
        o0 = (o0 | (o0 >> 9) | (o0 >> 18)) & 0x1FF
        o1 = F[base + 1]
        o1 = (o1 | (o1 >> 9) | (o1 >> 18)) & 0x1FF
        o2 = F[base + 2]
        o2 = (o2 | (o2 >> 9) | (o2 >> 18)) & 0x1FF
        cols = o0 | (o1 << 9) | (o2 << 18)
        fcols = np.int64(0)
        for s in range(3):
            sh = 3 * s
            m = ((o0 >> sh) & 7) | (((o1 >> sh) & 7) << 3) | (((o2 >> sh) & 7) << 6)
            fm = FORCED[m]
            fcols |= ((fm & 7) << sh) | (((fm >> 3) & 7) << (9 + sh)) | (
                ((fm >> 6) & 7) << (18 + sh))
        F[30 + 4 * d] = rows
        F[31 + 4 * d] = frows
        F[32 + 4 * d] = cols
        F[33 + 4 * d] = fcols
        n4 |= n3 & rows
        n3 |= n2 & rows
        n2 |= n1 & rows
        n1 |= rows
        f4 |= f3 & frows
        f3 |= f2 & frows
        f2 |= f1 & frows
        f1 |= frows
        v4 |= v3 & cols
        v3 |= v2 & cols
        v2 |= v1 & cols
        v1 |= cols
        g4 |= g3 & fcols
        g3 |= g2 & fcols
        g2 |= g1 & fcols
        g1 |= fcols
    if n3 != FULL27 or v3 != FULL27 or f4 or g4:
        return -1
    naked_rows = n3 & ~n4
    hidden_rows = f3
    naked_cols = v3 & ~v4
    hidden_cols = g3
    dirty = np.int64(0)
    if not (naked_rows | hidden_rows | naked_cols | hidden_cols):
        return dirty
    for d in range(9):
        base = 3 * d
        rows = F[30 + 4 * d]
        frows = F[31 + 4 * d]
        cols = F[32 + 4 * d]
        fcols = F[33 + 4 * d]
        w0 = F[base]
        w1 = F[base + 1]
        w2 = F[base + 2]
        x = rows & naked_rows & ~frows  # mini-rows digit d must occupy
        while x:
            i = lowbit_index(x)
            x &= x - 1
            b = i // 9
            r = (i % 9) // 3
            k = i % 3
            F[base + b] &= ~((ROW27[r] | BOX27[k]) & ~(np.int64(7) << (9 * r + 3 * k)))
        x = rows & hidden_rows & ~frows  # mini-rows full of forced digits: d leaves them
        if x:
            for b in range(3):
                F[base + b] &= ~EXPAND[(x >> (9 * b)) & 0x1FF]
        x = cols & naked_cols & ~fcols  # mini-columns digit d must occupy
        while x:
            i = lowbit_index(x)
            x &= x - 1
            b = i // 9
            col = SPREAD3 << (i % 9)
            for b2 in range(3):
                if b2 == b:
                    F[base + b2] &= ~(BOX27[(i % 9) // 3] & ~col)
                else:
                    F[base + b2] &= ~col
        x = cols & hidden_cols & ~fcols
        if x:
            for b in range(3):
                F[base + b] &= ~(((x >> (9 * b)) & 0x1FF) * SPREAD3)
        if F[base] != w0 or F[base + 1] != w1 or F[base + 2] != w2:
            dirty |= np.int64(1) << d
    return dirty


@njit(cache=True, _nrt=False)
def propagate9(F, dirty, level):
    """Run every deduction of ``level`` to a fixpoint, starting from the ``dirty`` digits;
    False on a contradiction (the state is then garbage)."""
    while True:
        while dirty:
            d = lowbit_index(dirty)
            dirty &= dirty - 1
            got = update_digit9(F, d, level)
            if got < 0:
                return False
            dirty |= got
        for b in range(3):
            r1 = np.int64(0)
            r2 = np.int64(0)
            for d in range(9):
                x = F[3 * d + b]
                r2 |= r1 & x
                r1 |= x
            if r1 != FULL27:
                return False
            naked = F[27 + b] & ~r2
            while naked:
                pos = lowbit_index(naked)
                naked &= naked - 1
                bit = np.int64(1) << pos
                d = 0
                while d < 9 and F[3 * d + b] & bit == 0:
                    d += 1
                if d == 9:
                    return False
                got = place9(F, d, b, pos)
                if got < 0:
                    return False
                dirty |= got
        if not dirty and level >= SUBSETS:
            dirty = subsets9(F)
            if dirty < 0:
                return False
        if not dirty:
            return True


@njit(cache=True, _nrt=False)
def score9(F, b, pos, cands):
    """The branching weight of cell ``pos`` of band b: its unsolved peers sharing one of its
    candidates (bit set ``cands``), each weighing 64 >> its candidate count (counts from the
    scratch masks ``choose9`` wrote)."""
    score = 0
    for b2 in range(3):
        mask = PEERS27[pos] if b2 == b else SPREAD3 << (pos % 9)
        touched = np.int64(0)
        x = cands
        while x:
            d = lowbit_index(x)
            x &= x - 1
            touched |= F[3 * d + b2]
        touched &= mask
        if touched:
            e = 66 + 5 * b2
            score += (16 * popcount(touched & F[e]) + 8 * popcount(touched & F[e + 1])
                      + 4 * popcount(touched & F[e + 2]) + 2 * popcount(touched & F[e + 3])
                      + popcount(touched & F[e + 4]))
    return score


@njit(cache=True, _nrt=False)
def cell_digits9(F, b, pos):
    """The candidates of a cell as a 9-bit set."""
    cands = np.int64(0)
    for d in range(9):
        cands |= ((F[3 * d + b] >> pos) & 1) << d
    return cands


@njit(cache=True, _nrt=False)
def choose9(F, first):
    """The branching cell (band * 27 + pos): fewest candidates, then (unless ``first``) the
    highest ``score9``, then the first; -1 when every cell is solved."""
    least = 10
    for b in range(3):  # candidate counts, bit-sliced: exactly 2..6, and >= 7
        c1 = c2 = c3 = c4 = c5 = c6 = c7 = np.int64(0)
        for d in range(9):
            x = F[3 * d + b]
            c7 |= c6 & x
            c6 |= c5 & x
            c5 |= c4 & x
            c4 |= c3 & x
            c3 |= c2 & x
            c2 |= c1 & x
            c1 |= x
        e = 66 + 5 * b
        F[e] = c2 & ~c3
        F[e + 1] = c3 & ~c4
        F[e + 2] = c4 & ~c5
        F[e + 3] = c5 & ~c6
        F[e + 4] = c6 & ~c7
        F[81 + b] = c7
        for k in range(5):
            if F[e + k] and k + 2 < least:
                least = k + 2
        if c7 and least > 7:
            least = 7
    if least == 10:
        return -1
    if least == 7:  # only cells with 7+ candidates: count them one by one
        least = 10
        for b in range(3):
            x = F[81 + b]
            while x:
                pos = lowbit_index(x)
                x &= x - 1
                least = min(least, popcount(cell_digits9(F, b, pos)))
    best = -1
    best_score = -1
    for b in range(3):
        x = F[66 + 5 * b + least - 2] if least < 7 else F[81 + b]
        while x:
            pos = lowbit_index(x)
            x &= x - 1
            cands = cell_digits9(F, b, pos)
            if popcount(cands) != least:
                continue
            if first:
                return 27 * b + pos
            score = score9(F, b, pos, cands)
            if score > best_score:
                best_score = score
                best = 27 * b + pos
    return best


@njit(cache=True, _nrt=False)
def init9(grid, F, level):
    """The root state of a 9x9 grid (0 = blank, 1..9 = clue), propagated; False if the clues
    contradict each other or propagation finds no solution."""
    for i in range(27):
        F[i] = FULL27
    for b in range(3):
        F[27 + b] = FULL27
    for cell in range(81):
        v = grid[cell]
        if v:
            if place9(F, v - 1, cell // 27, cell % 27) < 0:
                return False
    return propagate9(F, np.int64(0x1FF), level)


@njit(cache=True, _nrt=False)
def extract9(F, out):
    """The grid of a solved state (digits 1..9, row-major)."""
    for d in range(9):
        for b in range(3):
            x = F[3 * d + b]
            while x:
                pos = lowbit_index(x)
                x &= x - 1
                out[27 * b + pos] = d + 1


@njit(cache=True, _nrt=False)
def search9(F, stack, frames, ctl, limit, node_cap, mode, out):
    """Continue the counting search from ``ctl``; PAUSED at ``node_cap`` nodes, else DONE
    (``limit`` solutions found or the tree exhausted). The first solution goes to ``out``."""
    level = mode & 3
    first = mode & FIRST_MRV
    depth = ctl[C_DEPTH]
    phase = ctl[C_PHASE]
    nsol = ctl[C_SOLUTIONS]
    guesses = ctl[C_GUESSES]
    nodes = ctl[C_NODES]
    status = DONE
    while True:
        if phase == DECIDE:
            cell = choose9(F, first)
            if cell < 0:
                nsol += 1
                if nsol == 1:
                    extract9(F, out)
                if nsol >= limit:
                    break
                phase = BACKTRACK
                continue
            if nodes >= node_cap:
                status = PAUSED
                break
            b = cell // 27
            pos = cell % 27
            d = lowbit_index(cell_digits9(F, b, pos))
            guesses += 1
            for i in range(STATE9):
                stack[depth, i] = F[i]
            frames[depth] = cell * 16 + d
            depth += 1
            nodes += 1
            got = place9(F, d, b, pos)
            phase = DECIDE if got >= 0 and propagate9(F, got, level) else BACKTRACK
        else:
            if depth == 0:
                break
            if nodes >= node_cap:
                status = PAUSED
                break
            depth -= 1
            for i in range(STATE9):
                F[i] = stack[depth, i]
            cell = frames[depth] >> 4
            d = frames[depth] & 15
            F[3 * d + cell // 27] &= ~(np.int64(1) << (cell % 27))
            nodes += 1
            phase = DECIDE if propagate9(F, np.int64(1) << d, level) else BACKTRACK
    ctl[C_DEPTH] = depth
    ctl[C_PHASE] = phase
    ctl[C_SOLUTIONS] = nsol
    ctl[C_GUESSES] = guesses
    ctl[C_NODES] = nodes
    return status


@njit(cache=True)
def batch9(grids, limit, mode, out, counts, guesses, nodes):
    """Count solutions (up to ``limit``) of every 9x9 grid of ``grids`` (n, 81) in one call;
    the work arrays are allocated once for the whole batch."""
    F = np.zeros(WORK9, dtype=np.int64)
    stack = np.zeros((82, STATE9), dtype=np.int64)
    frames = np.zeros(82, dtype=np.int64)
    ctl = np.zeros(CTL_SLOTS, dtype=np.int64)
    for i in range(grids.shape[0]):
        ctl[:] = 0
        ctl[C_NODES] = 1
        if init9(grids[i], F, mode & 3):
            search9(F, stack, frames, ctl, limit, NO_CAP, mode, out[i])
        counts[i] = ctl[C_SOLUTIONS]
        guesses[i] = ctl[C_GUESSES]
        nodes[i] = ctl[C_NODES]


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
                        out[i] = lowbit_index(st[i]) + 1
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
            frames[depth] = c * 64 + lowbit_index(bit)
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
