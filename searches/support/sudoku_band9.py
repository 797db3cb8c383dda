"""The 9x9 kernel of the ``native`` sudoku solver: band words, propagation by table look-ups, and
the resumable counting search (modes, counters and the branch rule: ``sudoku_modes``).

After JCZSolve's layout: digit ``d`` has three 27-bit words ``F[3 * d + b]``, the cells of
band ``b`` (rows 3b..3b+2) where ``d`` is still possible, bit ``9 * row_in_band + col`` (so a
band word is 27 consecutive cell numbers). The deductions are table look-ups per (digit,
band): ``COMPLEX`` maps the 9 mini-rows (row x box) still open to a digit in a band to the
union of the band *configurations* (tdoku's word: the 6 ways to give each box of the band one
mini-row, all in different rows) that remain, which is locked candidates for rows; the same
table on mini-columns (3 bands x 3 columns of a stack) does columns. Naked singles and the
triads are counted bit-sliced over the 9 digit words.

``init9(grid, F, level)`` places the clues and propagates (False: a contradiction);
``search9(F, stack, frames, ctl, limit, node_cap, mode, out)`` continues the search until
``limit`` solutions or ``node_cap`` nodes; ``batch9`` solves many grids at once (tests, perf).
"""

from __future__ import annotations

from itertools import permutations

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
    NO_CAP,
    PAUSED,
    SUBSETS,
)

#: The files this module's kernels compile code from (see ``numba_cache``): the constants of
#: ``sudoku_modes`` are compiled in too.
JIT_SOURCES = (__file__, sudoku_modes.__file__, *intrinsics.JIT_SOURCES)


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
            pos = lowest_bit_index(single)
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
            i = lowest_bit_index(x)
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
            i = lowest_bit_index(x)
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
            d = lowest_bit_index(dirty)
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
                pos = lowest_bit_index(naked)
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
            d = lowest_bit_index(x)
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
                pos = lowest_bit_index(x)
                x &= x - 1
                least = min(least, popcount(cell_digits9(F, b, pos)))
    best = -1
    best_score = -1
    for b in range(3):
        x = F[66 + 5 * b + least - 2] if least < 7 else F[81 + b]
        while x:
            pos = lowest_bit_index(x)
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
                pos = lowest_bit_index(x)
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
            d = lowest_bit_index(cell_digits9(F, b, pos))
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


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
