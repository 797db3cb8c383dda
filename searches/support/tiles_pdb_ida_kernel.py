"""IDA* with pattern databases, specialised: the kernel of the PDB kind for the absolute
encodings without the dual lookup.

The same search as ``tiles_ida_kernel.ida_kernel`` with the PDB kind, node for node (same move
order, same goal test on generation, same bidirectional pathmax, same values of ``h``), with
the heuristic's state laid out for the lookup rather than for every kind:

- a pattern's value is its tiles' Manhattan distance plus ``mult`` times its table entry (the
  nibble and minnibble encodings: 2 x the entry; the byte encoding: the entry, with a zero
  Manhattan table). So the state's value is ``md + mult * esum``: the Manhattan distance of the
  covered tiles, kept by a delta per move, and the sum of the patterns' entries, kept by
  replacing the moved tile's pattern's entry. The same for the state reflected about the main
  diagonal (``rmd``, ``resum``), and ``h`` is their maximum;
- the current node's entries live in two small arrays, not in a row per depth: a move into a
  child saves the two entries it replaces in ``hs[depth, 0:2]`` and a backtrack puts them
  back (the sums and Manhattan distances are undone by the same deltas);
- a lookup reads the table of the one pattern that a move changes, in the state and in its
  reflection, at the pattern's *key*. With the tables SPREAD (``tiles_pdb_layout``: indexed by
  the cells, ``sum_i c_i n^(k-1-i)``), the key is kept per pattern and a move adds
  ``(c2 - c) n^(k-1-i)`` to it; with the tables RANKED (as stored: indexed by the placement's
  lexicographic rank, ``tiles_rank``) the key is the rank, computed again from the views
  (``where[tile]`` = cell, and the same of the reflected state) that the kernel moves along
  with the board. ``layout_of`` spreads a partition's tables when they fit
  ``tiles_pdb_layout.SPREAD_LIMIT`` (6-6-3, 6-6-6-6; not 7-8), once per tables (``specialised``
  keeps the last few);
- the tables are flat arrays (``KernelTables``); the entry read and the layout reach the kernel
  as constants through a wrapper (``KERNELS``), so the code is compiled for them alone.

At a chunk's start the views, keys, entries and sums are recomputed from the board, so the
stack's rows are those of ``tiles_ida_kernel`` and ``IdaSearch`` drives both kernels the same
way; a chunk may stop after any node.
"""

from __future__ import annotations

import collections

import numpy as np
from numba import njit

from searches.support import intrinsics, tiles_ida_kernel, tiles_pdb_adapter, tiles_pdb_layout
from searches.support.intrinsics import popcount
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.tiles_ida_kernel import (
    PAUSED,
    SOLVED,
    is_goal,
    load_control,
    next_iteration,
    raise_parent,
    store_control,
)
from searches.support.tiles_pdb_adapter import PDB_DUAL_ON, PDB_PATHMAX_ON
from searches.support.tiles_pdb_encode import BYTE, MINNIBBLE, NIBBLE

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, intrinsics.__file__, tiles_ida_kernel.__file__,
               tiles_pdb_adapter.__file__)

KMAX = 8  # tiles of a pattern at most (its row in ``tiles``)
READ_NIBBLE, READ_BYTE = 0, 1
RANKED, SPREAD = 0, 1  # the tables' layout: by placement rank, or by cells (tiles_pdb_layout)

# The tables as the specialised kernel reads them, flat.
KernelTables = collections.namedtuple("KernelTables", [
    "data",        # uint8: the payloads one after the other (PDBArrays.data, or spread)
    "offset",      # int64[npat]: where each payload starts
    "tiles",       # int64[npat * KMAX]: the tiles of pattern j from j * KMAX (rank order)
    "k",           # int64[npat]
    "weight",      # int64[n]: n^(k-1-i) for the i-th tile of a pattern (spread index), else 0
    "pattern_of",  # int64[n]: the pattern of each tile, -1 for the blank and uncovered tiles
    "md",          # int64[n * n]: Manhattan of (tile, cell) for covered tiles, else 0
    "tcell",       # int64[n]: the cell reflected about the main diagonal
    "sigma",       # int64[n]: the tile renamed by the reflection
    "n", "npat", "reflect",
    "shift",       # rank >> shift is the entry's index (ranked minnibble groups; else 0)
    "mult",        # value = md + mult * entry (2 for the nibbles, 1 for bytes)
])


def applies(t64: np.ndarray, P) -> bool:
    """Whether the specialised kernel runs this heuristic: one absolute encoding for every
    pattern, no dual lookup, patterns of at most ``KMAX`` tiles."""
    if P.npat == 0 or t64[PDB_DUAL_ON]:
        return False
    codes = set(int(e) for e in P.enc)
    return len(codes) == 1 and codes <= {BYTE, NIBBLE, MINNIBBLE} and int(P.k.max()) <= KMAX


def kernel_tables(P, layout: int = RANKED) -> KernelTables:
    """The flat tables of ``P`` (``tiles_pdb_lookup.PDBArrays``) in ``layout``: the payloads
    are ``P``'s own when RANKED, spread copies when SPREAD (``tiles_pdb_layout``)."""
    n, npat = int(P.n), int(P.npat)
    tiles = np.zeros(npat * KMAX, np.int64)
    weight = np.zeros(n, np.int64)
    for j in range(npat):
        k = int(P.k[j])
        tiles[j * KMAX:j * KMAX + k] = P.tiles[j, :k]
        for i in range(k):
            weight[int(P.tiles[j, i])] = n ** (k - 1 - i)
    code = int(P.enc[0])
    covered = (P.pattern_of >= 0).astype(np.int64)
    md = P.md * covered[:, None] if code != BYTE else np.zeros((n, n), np.int64)
    md = np.ascontiguousarray(md, np.int64).ravel()
    shift = int(P.shift[0]) if code == MINNIBBLE else 0
    data, offset = P.data, P.offset.astype(np.int64)
    if layout == SPREAD:
        data, offset = tiles_pdb_layout.spread_tables(data, offset, P.k, n, shift, code != BYTE)
        shift = 0
    return KernelTables(data, offset, tiles, P.k.astype(np.int64), weight,
                        P.pattern_of.astype(np.int64), md, P.tcell.astype(np.int64),
                        P.sigma.astype(np.int64), n, npat, int(P.reflect), shift,
                        1 if code == BYTE else 2)


def layout_of(P) -> int:
    """SPREAD when the spread tables fit ``tiles_pdb_layout.SPREAD_LIMIT``, else RANKED."""
    size = tiles_pdb_layout.spread_bytes(int(P.n), P.k, int(P.enc[0]) != BYTE)
    return SPREAD if size <= tiles_pdb_layout.SPREAD_LIMIT else RANKED


# The last tables the kernel read, by the identity of their payloads (kept alive here, so
# that an identity is not reused): a worker's searches on the same tables spread them once.
_LAST: dict[int, tuple[np.ndarray, int, KernelTables]] = {}
KEEP = 4


def specialised(t64: np.ndarray, P, layout: int | None = None) -> tuple | None:
    """(chunk kernel, its tables) for the PDB kind's switches ``t64`` and tables ``P`` (in
    ``layout``, by default ``layout_of(P)``), or None when the specialised kernel does not
    apply (``applies``)."""
    if not applies(t64, P):
        return None
    layout = layout_of(P) if layout is None else layout
    read = READ_BYTE if int(P.enc[0]) == BYTE else READ_NIBBLE
    key = id(P.data)
    kept = _LAST.get(key)
    if kept is None or kept[1] != layout:
        if len(_LAST) >= KEEP:
            _LAST.pop(next(iter(_LAST)))
        kept = _LAST[key] = (P.data, layout, kernel_tables(P, layout))
    return KERNELS[read, layout], kept[2]


@njit(cache=True, nogil=True, inline="always")
def placement_rank(T, j, views, at):
    """Lexicographic rank of the cells of pattern ``j``'s tiles in the view ``views[at:]``
    (``tiles_rank.rank``)."""
    used = np.int64(0)
    r = np.int64(0)
    n = T.n
    base = j * KMAX
    for i in range(T.k[j]):
        c = views[at + T.tiles[base + i]]
        r = r * (n - i) + (c - popcount(used & ((np.int64(1) << c) - 1)))
        used |= np.int64(1) << c
    return r


@njit(cache=True, nogil=True, inline="always")
def spread_index(T, j, views, at):
    """Pattern ``j``'s index in its spread table: ``sum_i c_i n^(k-1-i)``."""
    r = np.int64(0)
    base = j * KMAX
    for i in range(T.k[j]):
        r = r * T.n + views[at + T.tiles[base + i]]
    return r


@njit(cache=True, nogil=True, inline="always")
def entry(read, T, j, key):
    """Pattern ``j``'s table entry at ``key`` (its rank, or its spread index)."""
    if read == READ_BYTE:
        return np.int64(T.data[T.offset[j] + key])
    key >>= T.shift
    return np.int64((T.data[T.offset[j] + (key >> 1)] >> ((key & 1) << 2)) & 15)


@njit(cache=True, nogil=True, inline="always")
def child_key(layout, T, j, key, tile, c, c2, views, at):
    """Pattern ``j``'s key after its ``tile`` moved from cell ``c`` to ``c2`` in the view
    ``views[at:]``: its spread index moves by ``(c2 - c)`` times the tile's weight; its rank
    is computed again (the view is put back as it was)."""
    if layout == SPREAD:
        return key + (c2 - c) * T.weight[tile]
    views[at + tile] = c2
    key = placement_rank(T, j, views, at)
    views[at + tile] = c
    return key


@njit(cache=True, nogil=True, inline="always")
def view_sums(read, layout, T, views, at, keys, ents):
    """Fill ``keys`` and ``ents`` with every pattern's key and entry in the view
    ``views[at:]``; return the view's Manhattan distance of covered tiles and the sum of the
    entries."""
    n = T.n
    md = np.int64(0)
    for t in range(1, n):
        md += T.md[t * n + views[at + t]]
    s = np.int64(0)
    for j in range(T.npat):
        if layout == SPREAD:
            keys[j] = spread_index(T, j, views, at)
        else:
            keys[j] = placement_rank(T, j, views, at)
        ents[j] = entry(read, T, j, keys[j])
        s += ents[j]
    return md, s


@njit(cache=True, nogil=True, inline="always")
def pdb_ida(read, layout, board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
            succ_start, succ_end, succ_dir, succ_cell, t64, T):
    """``tiles_ida_kernel.ida_kernel`` for the PDB kind (same arguments and returns, the
    tables as ``T``, the entry read ``read`` and the tables' ``layout`` constants, no views
    array: the kernel derives them from the board): see the module's docstring."""
    depth, nodes, expanded, iterations, threshold, nxt = load_control(ctl)
    top = blank_at.size - 1
    status = PAUSED
    pathmax = t64[PDB_PATHMAX_ON] != 0
    n = T.n
    reflect = T.reflect != 0
    mult = T.mult
    pattern_of, sigma, tcell, mdt = T.pattern_of, T.sigma, T.tcell, T.md
    npat = max(T.npat, 1)
    ents, rents = np.zeros(npat, np.int64), np.zeros(npat, np.int64)
    keys, rkeys = np.zeros(npat, np.int64), np.zeros(npat, np.int64)
    p, stop, b, h = ptr[depth], end[depth], blank_at[depth], hval[depth]
    views = np.zeros(2 * n, np.int64)  # where[tile] = cell, then the same reflected
    for cell in range(n):
        tile = board[cell] if cell != b else 0
        views[tile] = cell
        views[n + sigma[tile]] = tcell[cell]
    md, esum = view_sums(read, layout, T, views, 0, keys, ents)
    rmd, resum = np.int64(0), np.int64(0)
    if reflect:
        rmd, resum = view_sums(read, layout, T, views, n, rkeys, rents)
    while nodes < cap:
        if p < stop:
            d = succ_dir[p]
            src = succ_cell[p]
            p += 1
            tile = board[src]
            # the child's value: the moved tile's pattern looked up again, in both views
            j = pattern_of[tile]
            cmd = md + mdt[tile * n + b] - mdt[tile * n + src]
            ce = ck = np.int64(0)
            cs = esum
            if j >= 0:
                ck = child_key(layout, T, j, keys[j], tile, src, b, views, 0)
                ce = entry(read, T, j, ck)
                cs += ce - ents[j]
            hc = cmd + mult * cs
            u = sigma[tile]
            ju = pattern_of[u]
            tb, ts = tcell[b], tcell[src]
            crmd = rmd
            cre = crk = np.int64(0)
            crs = resum
            if reflect:
                crmd += mdt[u * n + tb] - mdt[u * n + ts]
                if ju >= 0:
                    crk = child_key(layout, T, ju, rkeys[ju], u, ts, tb, views, n)
                    cre = entry(read, T, ju, crk)
                    crs += cre - rents[ju]
                hr = crmd + mult * crs
                if hr > hc:
                    hc = hr
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
            if layout == RANKED:  # the ranks' input (spread keys need no views)
                views[tile] = b
                views[0] = src
                if reflect:
                    views[n + u] = tb
                    views[n] = ts
            md, esum = cmd, cs
            if j >= 0:
                hs[depth, 0] = ents[j]
                ents[j] = ce
                keys[j] = ck
            if reflect:
                rmd, resum = crmd, crs
                if ju >= 0:
                    hs[depth, 1] = rents[ju]
                    rents[ju] = cre
                    rkeys[ju] = crk
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
            # the views and the values back to the parent's: ``tile`` returns to ``b``
            if layout == RANKED:
                views[tile] = b
                views[0] = parent_blank
            md += mdt[tile * n + b] - mdt[tile * n + parent_blank]
            j = pattern_of[tile]
            if j >= 0:
                esum += hs[depth, 0] - ents[j]
                ents[j] = hs[depth, 0]
                if layout == SPREAD:
                    keys[j] += (b - parent_blank) * T.weight[tile]
            if reflect:
                u = sigma[tile]
                tb, tp = tcell[b], tcell[parent_blank]
                if layout == RANKED:
                    views[n + u] = tb
                    views[n] = tp
                rmd += mdt[u * n + tb] - mdt[u * n + tp]
                ju = pattern_of[u]
                if ju >= 0:
                    resum += hs[depth, 1] - rents[ju]
                    rents[ju] = hs[depth, 1]
                    if layout == SPREAD:
                        rkeys[ju] += (tb - tp) * T.weight[u]
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


# One wrapper per entry read and layout: both reach the kernel as constants (spelled out, as
# in ``tiles_ida_kernel``: numba propagates a literal argument, not one through ``*args``).


@njit(cache=True, nogil=True)
def pdb_ida_nibble(board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                   succ_start, succ_end, succ_dir, succ_cell, t64, T):
    return pdb_ida(READ_NIBBLE, RANKED, board, goal, blank_at, ptr, end, came, hval, hs, ctl,
                   cap, succ_start, succ_end, succ_dir, succ_cell, t64, T)


@njit(cache=True, nogil=True)
def pdb_ida_byte(board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                 succ_start, succ_end, succ_dir, succ_cell, t64, T):
    return pdb_ida(READ_BYTE, RANKED, board, goal, blank_at, ptr, end, came, hval, hs, ctl,
                   cap, succ_start, succ_end, succ_dir, succ_cell, t64, T)


@njit(cache=True, nogil=True)
def pdb_ida_nibble_spread(board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                          succ_start, succ_end, succ_dir, succ_cell, t64, T):
    return pdb_ida(READ_NIBBLE, SPREAD, board, goal, blank_at, ptr, end, came, hval, hs, ctl,
                   cap, succ_start, succ_end, succ_dir, succ_cell, t64, T)


@njit(cache=True, nogil=True)
def pdb_ida_byte_spread(board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                        succ_start, succ_end, succ_dir, succ_cell, t64, T):
    return pdb_ida(READ_BYTE, SPREAD, board, goal, blank_at, ptr, end, came, hval, hs, ctl,
                   cap, succ_start, succ_end, succ_dir, succ_cell, t64, T)


#: (entry read, layout) -> chunk kernel.
KERNELS = {(READ_NIBBLE, RANKED): pdb_ida_nibble, (READ_BYTE, RANKED): pdb_ida_byte,
           (READ_NIBBLE, SPREAD): pdb_ida_nibble_spread, (READ_BYTE, SPREAD): pdb_ida_byte_spread}
forget_stale_cache([*own_dispatchers(__name__), *KERNELS.values()], *JIT_SOURCES)
