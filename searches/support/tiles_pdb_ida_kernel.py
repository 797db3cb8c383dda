"""IDA* with pattern databases, specialised: the kernel of the PDB kind for the absolute
encodings without the dual lookup.

The same search as ``tiles_ida_kernel.ida_kernel`` with the PDB kind, node for node (same move
order, same goal test on generation, same bidirectional pathmax, same values of ``h``), with
the heuristic's state laid out for the lookup rather than for every kind:

- a pattern's value is its tiles' Manhattan distance plus ``mult`` times its table entry (the
  nibble and minnibble encodings: 2 x the entry at ``rank >> shift``; the byte encoding: the
  entry, with a zero Manhattan table). So the state's value is ``md + mult * esum``: the
  Manhattan distance of the covered tiles, kept by a delta per move, and the sum of the
  patterns' entries, kept by replacing the moved tile's pattern's entry. The same for the state
  reflected about the main diagonal (``rmd``, ``resum``), and ``h`` is their maximum;
- the current node's entries live in two small arrays, not in a row per depth: a move into a
  child saves the two entries it replaces in ``hs[depth, 0:2]`` and a backtrack puts them
  back (the sums and Manhattan distances are undone by the same deltas);
- a lookup ranks the pattern's tiles from ``where`` (lexicographic rank of their cells,
  ``tiles_rank``) and reads one entry: the only pattern that a move changes, in the state and
  in its reflection;
- the tables are flat arrays (``KernelTables``), and the encoding reaches the kernel as a
  constant through a wrapper (``KERNELS``), so the entry read is compiled for it alone.

At a chunk's start the entries and sums are recomputed from ``pos`` (the state's two views, as
``tiles_pdb_adapter`` keeps them: ``where`` from 0, the reflected ``where`` from ``n``), which
the kernel moves along with the board; the stack's rows are those of ``tiles_ida_kernel``, so
``IdaSearch`` drives both the same way and a chunk may stop after any node.
"""

from __future__ import annotations

import collections

import numpy as np
from numba import njit

from searches.support import intrinsics, tiles_ida_kernel
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
JIT_SOURCES = (__file__, intrinsics.__file__, tiles_ida_kernel.__file__)

KMAX = 8  # tiles of a pattern at most (its row in ``tiles``)
READ_NIBBLE, READ_BYTE = 0, 1

# The tables as the specialised kernel reads them, flat.
KernelTables = collections.namedtuple("KernelTables", [
    "data",        # uint8: the payloads one after the other (the PDBArrays' own array)
    "offset",      # int64[npat]: where each payload starts
    "tiles",       # int64[npat * KMAX]: the tiles of pattern j from j * KMAX (rank order)
    "k",           # int64[npat]
    "pattern_of",  # int64[n]: the pattern of each tile, -1 for the blank and uncovered tiles
    "md",          # int64[n * n]: Manhattan of (tile, cell) for covered tiles, else 0
    "tcell",       # int64[n]: the cell reflected about the main diagonal
    "sigma",       # int64[n]: the tile renamed by the reflection
    "n", "npat", "reflect",
    "shift",       # rank >> shift is the entry's index (minnibble groups; 0 otherwise)
    "mult",        # value = md + mult * entry (2 for the nibbles, 1 for bytes)
])


def applies(t64: np.ndarray, P) -> bool:
    """Whether the specialised kernel runs this heuristic: one absolute encoding for every
    pattern, no dual lookup, patterns of at most ``KMAX`` tiles."""
    if P.npat == 0 or t64[PDB_DUAL_ON]:
        return False
    codes = set(int(e) for e in P.enc)
    return len(codes) == 1 and codes <= {BYTE, NIBBLE, MINNIBBLE} and int(P.k.max()) <= KMAX


def kernel_tables(P) -> KernelTables:
    """The flat tables of ``P`` (``tiles_pdb_lookup.PDBArrays``; the payloads are shared)."""
    n, npat = int(P.n), int(P.npat)
    tiles = np.zeros(npat * KMAX, np.int64)
    for j in range(npat):
        tiles[j * KMAX:j * KMAX + int(P.k[j])] = P.tiles[j, :int(P.k[j])]
    code = int(P.enc[0])
    covered = (P.pattern_of >= 0).astype(np.int64)
    md = P.md * covered[:, None] if code != BYTE else np.zeros((n, n), np.int64)
    shift = int(P.shift[0]) if code == MINNIBBLE else 0
    return KernelTables(P.data, P.offset.astype(np.int64), tiles, P.k.astype(np.int64),
                        P.pattern_of.astype(np.int64), np.ascontiguousarray(md, np.int64).ravel(),
                        P.tcell.astype(np.int64), P.sigma.astype(np.int64), n, npat,
                        int(P.reflect), shift, 1 if code == BYTE else 2)


def specialised(t64: np.ndarray, P) -> tuple | None:
    """(chunk kernel, its tables) for the PDB kind's switches ``t64`` and tables ``P``, or
    None when the specialised kernel does not apply (``applies``)."""
    if not applies(t64, P):
        return None
    read = READ_BYTE if int(P.enc[0]) == BYTE else READ_NIBBLE
    return KERNELS[read], kernel_tables(P)


@njit(cache=True, nogil=True, inline="always")
def entry(read, T, j, pos, at):
    """Pattern ``j``'s table entry at the placement of its tiles in ``pos[at:]``."""
    used = np.int64(0)
    r = np.int64(0)
    n = T.n
    base = j * KMAX
    for i in range(T.k[j]):
        c = pos[at + T.tiles[base + i]]
        r = r * (n - i) + (c - popcount(used & ((np.int64(1) << c) - 1)))
        used |= np.int64(1) << c
    if read == READ_BYTE:
        return np.int64(T.data[T.offset[j] + r])
    r >>= T.shift
    return np.int64((T.data[T.offset[j] + (r >> 1)] >> ((r & 1) << 2)) & 15)


@njit(cache=True, nogil=True, inline="always")
def view_sums(read, T, pos, at, ents):
    """Fill ``ents`` with every pattern's entry in the view ``pos[at:]``; return the view's
    Manhattan distance of covered tiles and the sum of the entries."""
    n = T.n
    md = np.int64(0)
    for t in range(1, n):
        md += T.md[t * n + pos[at + t]]
    s = np.int64(0)
    for j in range(T.npat):
        ents[j] = entry(read, T, j, pos, at)
        s += ents[j]
    return md, s


@njit(cache=True, nogil=True, inline="always")
def pdb_ida(read, board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
            succ_start, succ_end, succ_dir, succ_cell, t64, T, pos):
    """``tiles_ida_kernel.ida_kernel`` for the PDB kind (same arguments and returns, the
    tables as ``T``, the entry read ``read`` a constant): see the module's docstring."""
    depth, nodes, expanded, iterations, threshold, nxt = load_control(ctl)
    top = blank_at.size - 1
    status = PAUSED
    pathmax = t64[PDB_PATHMAX_ON] != 0
    n = T.n
    reflect = T.reflect != 0
    mult = T.mult
    pattern_of, sigma, tcell, mdt = T.pattern_of, T.sigma, T.tcell, T.md
    ents = np.zeros(max(T.npat, 1), np.int64)
    rents = np.zeros(max(T.npat, 1), np.int64)
    md, esum = view_sums(read, T, pos, 0, ents)
    rmd, resum = np.int64(0), np.int64(0)
    if reflect:
        rmd, resum = view_sums(read, T, pos, n, rents)
    p, stop, b, h = ptr[depth], end[depth], blank_at[depth], hval[depth]
    while nodes < cap:
        if p < stop:
            d = succ_dir[p]
            src = succ_cell[p]
            p += 1
            tile = board[src]
            # the child's value: the moved tile's pattern looked up again, in both views
            j = pattern_of[tile]
            cmd = md + mdt[tile * n + b] - mdt[tile * n + src]
            ce = np.int64(0)
            cs = esum
            if j >= 0:
                pos[tile] = b
                ce = entry(read, T, j, pos, 0)
                pos[tile] = src
                cs += ce - ents[j]
            hc = cmd + mult * cs
            u = sigma[tile]
            ju = pattern_of[u]
            tb, ts = tcell[b], tcell[src]
            crmd = rmd
            cre = np.int64(0)
            crs = resum
            if reflect:
                crmd += mdt[u * n + tb] - mdt[u * n + ts]
                if ju >= 0:
                    pos[n + u] = tb
                    cre = entry(read, T, ju, pos, n)
                    pos[n + u] = ts
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
            pos[tile] = b
            pos[0] = src
            md, esum = cmd, cs
            if j >= 0:
                hs[depth, 0] = ents[j]
                ents[j] = ce
            if reflect:
                pos[n + u] = tb
                pos[n] = ts
                rmd, resum = crmd, crs
                if ju >= 0:
                    hs[depth, 1] = rents[ju]
                    rents[ju] = cre
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
            pos[tile] = b
            pos[0] = parent_blank
            md += mdt[tile * n + b] - mdt[tile * n + parent_blank]
            j = pattern_of[tile]
            if j >= 0:
                esum += hs[depth, 0] - ents[j]
                ents[j] = hs[depth, 0]
            if reflect:
                u = sigma[tile]
                tb, tp = tcell[b], tcell[parent_blank]
                pos[n + u] = tb
                pos[n] = tp
                rmd += mdt[u * n + tb] - mdt[u * n + tp]
                ju = pattern_of[u]
                if ju >= 0:
                    resum += hs[depth, 1] - rents[ju]
                    rents[ju] = hs[depth, 1]
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


# One wrapper per entry read: the read reaches the kernel as a constant (spelled out, as in
# ``tiles_ida_kernel``: numba propagates a literal argument, not one through ``*args``).


@njit(cache=True, nogil=True)
def pdb_ida_nibble(board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                   succ_start, succ_end, succ_dir, succ_cell, t64, T, pos):
    return pdb_ida(READ_NIBBLE, board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                   succ_start, succ_end, succ_dir, succ_cell, t64, T, pos)


@njit(cache=True, nogil=True)
def pdb_ida_byte(board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                 succ_start, succ_end, succ_dir, succ_cell, t64, T, pos):
    return pdb_ida(READ_BYTE, board, goal, blank_at, ptr, end, came, hval, hs, ctl, cap,
                   succ_start, succ_end, succ_dir, succ_cell, t64, T, pos)


#: entry read -> chunk kernel.
KERNELS = {READ_NIBBLE: pdb_ida_nibble, READ_BYTE: pdb_ida_byte}
forget_stale_cache([*own_dispatchers(__name__), *KERNELS.values()], *JIT_SOURCES)
