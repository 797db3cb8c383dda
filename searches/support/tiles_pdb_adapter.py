"""The pattern-database kind of the tile searches' heuristics: a partition's lookups, kept in step
with the search's state.

``P`` is the partition's ``PDBArrays`` (``searches.support.tiles_pdb_lookup``); ``pos`` three
views of the state in one flat array of ``3 n`` cells, kept in step with the board by the
kernel (``pdb_place``): from 0 where (tile -> cell), from ``n`` the same of the state reflected
about the main diagonal, from ``2 n`` the board itself with 0 under the blank (the kernel's
board holds a stale tile there). A depth's row of ``hs`` holds the patterns' values and their
sum (``m = npat + 1`` slots) for the regular lookup, then for the reflected one. ``t64`` holds
two switches: the dual lookup, and bidirectional pathmax (read by the kernel).

``pdb_root_h`` ranks every pattern and fills ``hs[0]``; ``pdb_child_h`` copies ``hs[depth]``
to ``hs[depth + 1]``, re-ranks only the moved tile's pattern (and its reflection's) and returns
the sum, maxed with the reflected and the dual lookups.

The dual lookup (Felner, Zahavi et al. 2005) reads the tables at the inverse permutation: the
board read as a where-array. For the sliding tiles that state is as far from the goal as the
state itself only when the blank is in its goal cell (the inverse of a blank-first state with
the blank elsewhere is not even reachable in general; tests/test_searches/test_tiles_pdb_search.py
checks both facts exhaustively on the 8-puzzle). So the dual is looked up at those states only, in
full; pathmax then carries its value to their neighbours, one less a step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searches.support import tiles_pdb_encode, tiles_pdb_lookup
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.tiles_pdb_lookup import h_init, pattern_after_move, table_entry
from searches.support.tiles_pdb_patterns import PDBError

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *tiles_pdb_lookup.JIT_SOURCES)

# Slots of ``t64`` for the PDB kind: the dual lookup, bidirectional pathmax (both 0 or 1).
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


def check_dual(goal: str, encoding: str) -> None:
    """Refuse a dual lookup the tables cannot give, with the reason."""
    if goal != "blank-first":
        raise PDBError("the dual lookup needs the blank-first goal (the identity "
                                 f"permutation), not {goal}")
    if encoding in tiles_pdb_encode.RELATIVE:
        raise PDBError(f"the dual lookup needs an absolute encoding (byte, nibble, "
                                 f"minnibble), not the relative {encoding}")


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
