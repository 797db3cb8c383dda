"""The kernel of the edge-matching large-neighbourhood search (``searches.edgematch_lns``).

A move frees a *region* of the full board (a rectangle of cells, minus hints, plus optionally
a few cells anywhere else whose pieces join the pool) and refills it with the same pieces by a
depth-first branch and bound that minimises the broken joins touching the region:

- The region's cells are filled row-major (``cells`` sorted), so the north and west neighbours
  of a cell are either outside the region (fixed: their colour is known), off the board (grey
  required) or placed earlier; the east and south ones are outside (fixed), off the board, or
  placed later (the join is paid then). A placement is frame-legal when its grey sides are
  exactly the off-board sides (one compare of 4-bit masks); its cost is the joins it breaks
  with the fixed neighbours on all four sides and with the placed ones north and west.
- The bound is the region's current breaks: any refill found is at least as good. The first
  refill found that equals the current breaks but differs from the current placement is kept
  as a *sideways* move; after it, and after every strictly better refill, the bound drops to
  one below the best, so the search ends with the best refill (or at the node limit with the
  best one so far).
- A strictly better refill is applied; else the sideways one is applied (plateau walk), which
  is what keeps the search moving where a local optimum of single moves would freeze.

Candidates are tried in a random order of the pool (splitmix64, seeded), so the sideways move
is a random one. Regions are anchored on a random broken join with probability ``p_broken``
(else on a random cell). Everything is in flat arrays; the kernel does ``moves`` moves and
returns, so the driver can read the clock in between; the same seed and parameters give the
same moves whatever the chunking.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searches.support.edgematch_search import JIT_SOURCES as SEARCH_SOURCES
from searches.support.edgematch_search import splitmix64
from searches.support.numba_cache import forget_stale_cache, own_dispatchers

JIT_SOURCES = (__file__, *SEARCH_SOURCES)

# Slots of the int64 state vector: current breaks, best breaks, moves done, moves that
# improved the current board, sideways moves, nodes, region refills cut by the node limit,
# moves that improved the best board.
L_CUR, L_BEST, L_MOVES, L_IMPROVED, L_SIDEWAYS, L_NODES, L_CUT, L_NEW_BEST = range(8)
LNS_SLOTS = 8


@njit(cache=True, nogil=True, inline="always")
def rand_below(rng: np.ndarray, n: int) -> int:
    return np.int64(splitmix64(rng) % np.uint64(n))


@njit(cache=True, nogil=True)
def board_breaks(bo, col, rows, cols) -> int:
    """Mismatched interior joins of a full board (oriented pieces per cell)."""
    b = 0
    for r in range(rows):
        for c in range(cols):
            o = bo[r * cols + c]
            if c + 1 < cols and col[o, 1] != col[bo[r * cols + c + 1], 3]:
                b += 1
            if r + 1 < rows and col[o, 2] != col[bo[(r + 1) * cols + c], 0]:
                b += 1
    return b


@njit(cache=True, nogil=True, inline="always")
def uniform(rng: np.ndarray) -> float:
    return (splitmix64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def broken_cell(bo, col, rows, cols, rng) -> int:
    """A cell of a random broken join (either side), by reservoir sampling; -1 if none."""
    seen = 0
    anchor = -1
    for r in range(rows):
        for c in range(cols):
            o = bo[r * cols + c]
            if c + 1 < cols and col[o, 1] != col[bo[r * cols + c + 1], 3]:
                seen += 1
                if rand_below(rng, seen) == 0:
                    anchor = r * cols + c + rand_below(rng, 2)
            if r + 1 < rows and col[o, 2] != col[bo[(r + 1) * cols + c], 0]:
                seen += 1
                if rand_below(rng, seen) == 0:
                    anchor = r * cols + c + cols * rand_below(rng, 2)
    return anchor


@njit(cache=True, nogil=True)
def pick_region(bo, col, fixed, rows, cols, rng, hmin, hmax, max_area, extra, extra_broken,
                p_broken, inreg, cells) -> int:
    """Choose a region: a rectangle of random sides in [hmin, hmax] (area at most max_area)
    holding a random broken join's cell (probability p_broken) or a random cell, minus the
    fixed cells, plus ``extra`` random free cells elsewhere. Writes the cells, sorted, to
    ``cells`` and marks ``inreg``; returns their number."""
    n = rows * cols
    anchor = -1
    if p_broken > 0.0 and uniform(rng) < p_broken:
        anchor = broken_cell(bo, col, rows, cols, rng)
    if anchor < 0:
        anchor = rand_below(rng, n)
    ar, ac = anchor // cols, anchor % cols
    while True:
        h = hmin + rand_below(rng, hmax - hmin + 1)
        w = hmin + rand_below(rng, hmax - hmin + 1)
        if h > rows:
            h = rows
        if w > cols:
            w = cols
        if h * w <= max_area:
            break
    r0 = ar - rand_below(rng, h)
    c0 = ac - rand_below(rng, w)
    r0 = min(max(r0, 0), rows - h)
    c0 = min(max(c0, 0), cols - w)
    k = 0
    for r in range(r0, r0 + h):
        for c in range(c0, c0 + w):
            cell = r * cols + c
            if not fixed[cell]:
                inreg[cell] = 1
                cells[k] = cell
                k += 1
    for _ in range(extra):
        for _try in range(20):
            cell = -1
            if extra_broken:
                cell = broken_cell(bo, col, rows, cols, rng)
            if cell < 0:
                cell = rand_below(rng, n)
            if not fixed[cell] and not inreg[cell]:
                inreg[cell] = 1
                # insertion keeps cells sorted (row-major fill order)
                i = k
                while i > 0 and cells[i - 1] > cell:
                    cells[i] = cells[i - 1]
                    i -= 1
                cells[i] = cell
                k += 1
                break
    return k


@njit(cache=True, nogil=True)
def refill(bo, col, gmask, rows, cols, inreg, cells, k, rng, node_limit, worse, work, work2,
           state) -> int:
    """Refill the k region cells with their own pieces by branch and bound (see the module
    docstring); apply the best refill, or a sideways one. Returns the change of the board's
    breaks (<= 0). ``work`` is int64 scratch of shape (17, >= k), ``work2`` of shape
    (5, >= 4k and > the largest colour + 1)."""
    depth_of = work[0]  # per depth: the region depth of the north neighbour (-1: not in region)
    wdep = work[1]  # per depth: the region depth of the west neighbour
    fn = work[2]  # fixed colour wanted north/east/south/west, -1: none (in region / off board)
    fe = work[3]
    fs = work[4]
    fw = work[5]
    outm = work[6]  # off-board sides as a 4-bit mask
    pool = work[7]  # the region's pieces, in a random order
    idx = work[8]  # candidate cursor per depth
    bsum = work[9]  # breaks before depth d
    place = work[10]  # oriented piece placed at each depth
    keep = work[11]  # sideways or best refill
    jsel = work[12]  # pool slot used at each depth
    used = work[13]
    best_fill = work[14]
    hi = work[15]  # end of the candidate range per depth
    src = work[16]  # 1: the range is in ent_n (north colour list), 0: in ent_all (all)
    ent_all = work2[0]
    ent_n = work2[1]
    nstart = work2[2]
    nfill = work2[3]
    lbs = work2[4]
    # depth of each region cell, through a tiny search of the sorted cells
    for d in range(k):
        cell = cells[d]
        r, c = cell // cols, cell % cols
        m = 0
        fn[d] = -1
        fe[d] = -1
        fs[d] = -1
        fw[d] = -1
        depth_of[d] = -1
        wdep[d] = -1
        if r == 0:
            m |= 1
        else:
            nb = cell - cols
            if inreg[nb]:
                for j in range(d - 1, -1, -1):
                    if cells[j] == nb:
                        depth_of[d] = j
                        break
            else:
                fn[d] = col[bo[nb], 2]
        if c == cols - 1:
            m |= 2
        elif not inreg[cell + 1]:
            fe[d] = col[bo[cell + 1], 3]
        if r == rows - 1:
            m |= 4
        elif not inreg[cell + cols]:
            fs[d] = col[bo[cell + cols], 0]
        if c == 0:
            m |= 8
        else:
            if inreg[cell - 1]:
                wdep[d] = d - 1
            else:
                fw[d] = col[bo[cell - 1], 1]
        outm[d] = m
    # current placement and its breaks
    cur_b = 0
    for d in range(k):
        o = bo[cells[d]]
        place[d] = o
        cur_b += cost_at(col, o, d, fn, fe, fs, fw, depth_of, wdep, place)
    # random pool order; entries (oriented piece, pool slot) in that order (ent_all), and the
    # same stably sorted by north colour (ent_n, list of colour x in nstart[x]:nstart[x + 1])
    for d in range(k):
        pool[d] = bo[cells[d]] >> 2
        used[d] = 0
    for i in range(k - 1, 0, -1):
        j = rand_below(rng, i + 1)
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
    top = 4 * k
    ncol = 0
    for t in range(top):
        x = col[pool[t >> 2] * 4 + (t & 3), 0] + 1
        if x > ncol:
            ncol = x
    for x in range(ncol + 1):
        nstart[x] = 0
    for t in range(top):
        o = pool[t >> 2] * 4 + (t & 3)
        ent_all[t] = o
        nstart[col[o, 0] + 1] += 1
    for x in range(ncol):
        nstart[x + 1] += nstart[x]
    for x in range(ncol + 1):
        nfill[x] = nstart[x]
    for t in range(top):
        o = ent_all[t]
        x = col[o, 0]
        ent_n[nfill[x]] = t
        nfill[x] += 1
    # lower bound on the breaks still to come: per depth, the fewest a frame-legal entry breaks
    # with the fixed neighbours alone, summed from the end (lbs[d]: depths d..k-1)
    lbs[k] = 0
    for d in range(k - 1, -1, -1):
        low = 4
        for t in range(top):
            o = ent_all[t]
            if gmask[o] != outm[d]:
                continue
            x = fixed_cost(col, o, d, fn, fe, fs, fw)
            if x < low:
                low = x
                if low == 0:
                    break
        lbs[d] = lbs[d + 1] + low
    allow = cur_b + worse
    best_b = cur_b + 1
    have_side = False
    side_b = cur_b
    nodes = 0
    cut = False
    d = 0
    open_depth(0, lbs[1], allow, fn, depth_of, place, col, nstart, idx, hi, src, top)
    bsum[0] = 0
    while d >= 0:
        t = idx[d]
        if t >= hi[d]:
            d -= 1
            if d >= 0:
                used[jsel[d]] = 0
            continue
        idx[d] = t + 1
        if src[d]:
            t = ent_n[t]
        j = t >> 2
        if used[j]:
            continue
        o = ent_all[t]
        if gmask[o] != outm[d]:
            continue
        nb = bsum[d] + cost_at(col, o, d, fn, fe, fs, fw, depth_of, wdep, place)
        if nb + lbs[d + 1] > allow:
            continue
        nodes += 1
        place[d] = o
        if d == k - 1:
            if nb < cur_b:
                best_b = nb
                for i in range(k):
                    best_fill[i] = place[i]
                allow = nb - 1
            elif not have_side:
                same = True
                for i in range(k):
                    if place[i] != bo[cells[i]]:
                        same = False
                        break
                if not same:
                    have_side = True
                    side_b = nb
                    for i in range(k):
                        keep[i] = place[i]
                    allow = cur_b - 1
        else:
            used[j] = 1
            jsel[d] = j
            d += 1
            bsum[d] = nb
            open_depth(d, nb + lbs[d + 1], allow, fn, depth_of, place, col, nstart, idx, hi, src,
                       top)
        if nodes >= node_limit:
            cut = True
            break
    state[L_NODES] += nodes
    if cut:
        state[L_CUT] += 1
    delta = 0
    if best_b <= cur_b:
        for i in range(k):
            bo[cells[i]] = best_fill[i]
        delta = best_b - cur_b
    elif have_side:
        for i in range(k):
            bo[cells[i]] = keep[i]
        state[L_SIDEWAYS] += 1
        delta = side_b - cur_b
    for i in range(k):
        inreg[cells[i]] = 0
    return delta


@njit(cache=True, nogil=True, inline="always")
def open_depth(d, b, allow, fn, ndep, place, col, nstart, idx, hi, src, top) -> None:
    """Open depth d's candidate range: when no break is left to spend and the north colour is
    known, only the entries of that north colour; else every entry."""
    want = -1
    if b >= allow:
        if fn[d] >= 0:
            want = fn[d]
        elif ndep[d] >= 0:
            want = col[place[ndep[d]], 2]
    if want >= 0:
        idx[d] = nstart[want]
        hi[d] = nstart[want + 1]
        src[d] = 1
    else:
        idx[d] = 0
        hi[d] = top
        src[d] = 0


@njit(cache=True, nogil=True, inline="always")
def cost_at(col, o, d, fn, fe, fs, fw, ndep, wdep, place) -> int:
    """Joins oriented piece o breaks at region depth d: with fixed neighbours on every side,
    with region neighbours placed earlier (north, west)."""
    x = fixed_cost(col, o, d, fn, fe, fs, fw)
    if fn[d] < 0 and ndep[d] >= 0:
        x += col[o, 0] != col[place[ndep[d]], 2]
    if fw[d] < 0 and wdep[d] >= 0:
        x += col[o, 3] != col[place[wdep[d]], 1]
    return x


@njit(cache=True, nogil=True, inline="always")
def fixed_cost(col, o, d, fn, fe, fs, fw) -> int:
    """Joins oriented piece o breaks at region depth d with the fixed neighbours alone."""
    x = 0
    if fn[d] >= 0:
        x += col[o, 0] != fn[d]
    if fe[d] >= 0:
        x += col[o, 1] != fe[d]
    if fs[d] >= 0:
        x += col[o, 2] != fs[d]
    if fw[d] >= 0:
        x += col[o, 3] != fw[d]
    return x


BIG = 1 << 20


@njit(cache=True, nogil=True)
def hungarian(a, n, u, v, p, way, minv, usedc, out) -> None:
    """Minimum-cost perfect assignment of the n x n matrix a[1..n, 1..n] (shortest augmenting
    paths with potentials, O(n^3)); out[i] = the column of row i (0-based both)."""
    for j in range(n + 1):
        u[j] = 0
        v[j] = 0
        p[j] = 0
        way[j] = 0
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        for j in range(n + 1):
            minv[j] = 1 << 60
            usedc[j] = 0
        while True:
            usedc[j0] = 1
            i0 = p[j0]
            delta = 1 << 60
            j1 = 0
            for j in range(1, n + 1):
                if not usedc[j]:
                    cur = a[i0, j] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if usedc[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    for j in range(1, n + 1):
        out[p[j] - 1] = j - 1


@njit(cache=True, nogil=True, inline="always")
def breaks_at(bo, col, o, cell, rows, cols) -> int:
    """Joins oriented piece o would break at ``cell`` with the board's pieces around it."""
    r, c = cell // cols, cell % cols
    x = 0
    if r > 0:
        x += col[o, 0] != col[bo[cell - cols], 2]
    if c < cols - 1:
        x += col[o, 1] != col[bo[cell + 1], 3]
    if r < rows - 1:
        x += col[o, 2] != col[bo[cell + cols], 0]
    if c > 0:
        x += col[o, 3] != col[bo[cell - 1], 1]
    return x


@njit(cache=True, nogil=True)
def assign_move(bo, col, gmask, fixed, rows, cols, rng, m, a, rot, hw, sel, state) -> int:
    """Re-assign the pieces of up to m random cells of one colour of the checkerboard (no two
    adjacent, so each piece's joins depend on fixed neighbours only) optimally, each in its
    best rotation; the cells are taken in a random order so ties fall differently. Returns the
    change of breaks (<= 0); an equal but different assignment is applied too (sideways)."""
    n = rows * cols
    par = rand_below(rng, 2)
    k = 0
    for cell in range(n):
        if not fixed[cell] and ((cell // cols + cell % cols) & 1) == par:
            # reservoir sample of m cells
            if k < m:
                sel[k] = cell
            else:
                j = rand_below(rng, k + 1)
                if j < m:
                    sel[j] = cell
            k += 1
    k = min(k, m)
    for i in range(k - 1, 0, -1):
        j = rand_below(rng, i + 1)
        t = sel[i]
        sel[i] = sel[j]
        sel[j] = t
    cur = 0
    for i in range(k):
        piece = bo[sel[i]] >> 2
        for j in range(k):
            cell = sel[j]
            r, c = cell // cols, cell % cols
            m4 = 0
            if r == 0:
                m4 |= 1
            if c == cols - 1:
                m4 |= 2
            if r == rows - 1:
                m4 |= 4
            if c == 0:
                m4 |= 8
            best = BIG
            brot = 0
            for q in range(4):
                o = piece * 4 + q
                if gmask[o] != m4:
                    continue
                x = breaks_at(bo, col, o, cell, rows, cols)
                if x < best:
                    best = x
                    brot = q
            a[i + 1, j + 1] = best
            rot[i, j] = brot
        # the current breaks of cell i (its piece where it stands)
        cur += breaks_at(bo, col, bo[sel[i]], sel[i], rows, cols)
    hungarian(a, k, hw[0], hw[1], hw[2], hw[3], hw[4], hw[5], hw[6])
    out = hw[6]
    new = 0
    for i in range(k):
        new += a[i + 1, out[i] + 1]
    if new > cur or new >= BIG:
        return 0
    changed = False
    for i in range(k):
        o = (bo[sel[i]] >> 2) * 4 + rot[i, out[i]]
        if bo[sel[out[i]]] != o:
            changed = True
    if not changed:
        return 0
    # write: piece of cell i goes to cell out[i]
    for i in range(k):
        hw[7, i] = (bo[sel[i]] >> 2) * 4 + rot[i, out[i]]
    for i in range(k):
        bo[sel[out[i]]] = hw[7, i]
    if new == cur:
        state[L_SIDEWAYS] += 1
    return new - cur


@njit(cache=True, nogil=True)
def lns_chunk(bo, best, col, gmask, fixed, rows, cols, rng, state, moves, hmin, hmax,
              max_area, extra, extra_broken, p_broken, node_limit, p_worse, drift, inreg,
              cells, work, work2, p_assign, assign_cells, amat, arot, hw) -> None:
    """``moves`` region moves on the current board ``bo``; ``best`` keeps the board of the
    fewest breaks (``state[L_BEST]``)."""
    for _ in range(moves):
        if state[L_CUR] > state[L_BEST] + drift:
            bo[:] = best
            state[L_CUR] = state[L_BEST]
        state[L_MOVES] += 1
        delta = 0
        if p_assign > 0.0 and uniform(rng) < p_assign:
            delta = assign_move(bo, col, gmask, fixed, rows, cols, rng, assign_cells, amat,
                                arot, hw, cells, state)
        else:
            k = pick_region(bo, col, fixed, rows, cols, rng, hmin, hmax, max_area, extra,
                            extra_broken, p_broken, inreg, cells)
            if k < 2:
                for i in range(k):
                    inreg[cells[i]] = 0
            else:
                worse = 0
                if p_worse > 0.0 and uniform(rng) < p_worse:
                    worse = 1
                delta = refill(bo, col, gmask, rows, cols, inreg, cells, k, rng, node_limit,
                               worse, work, work2, state)
        state[L_CUR] += delta
        if delta < 0:
            state[L_IMPROVED] += 1
            if state[L_CUR] < state[L_BEST]:
                state[L_BEST] = state[L_CUR]
                state[L_NEW_BEST] += 1
                best[:] = bo
        if state[L_BEST] == 0:
            break


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
