"""Lexicographic ranking of k-permutations of n cells: the index of a pattern's placement.

A placement puts the k tiles of a pattern on distinct cells ``p[0], ..., p[k-1]`` of a board of
``n`` cells. Its digits are ``d[i]`` = the number of cells below ``p[i]`` that the earlier tiles
do not hold (``p[i]`` minus a population count of the earlier tiles' bitmask below it), and

    rank(p) = (...((d[0] * (n - 1) + d[1]) * (n - 2) + d[2]) ...) * (n - k + 1) + d[k - 1]

is a bijection onto ``[0, n! / (n - k)!)`` that keeps the lexicographic order of the placements
(mixed radix: digit i ranges over ``n - i`` values). The inverse takes k divisions and k
selections of the d-th free cell. Why lexicographic rather than the linear Myrvold-Ruskey
ranking: consecutive ranks differ only in the cells of the last tiles, so the pattern database
keeps close placements in close entries (the min-nibble compression groups consecutive ranks
for that reason), and k population counts are cheap next to the cache miss of a table lookup.

With ``k == n`` this ranks full permutations (the 8-puzzle's exact BFS uses it).
Everything here is numba, with the population count and the trailing-zero count of
``searches.support.intrinsics``. Cells are ints < 63 (bitmasks are int64).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searches.support import intrinsics
from searches.support.intrinsics import lowest_bit_index, popcount
from searches.support.numba_cache import forget_stale_cache, own_dispatchers

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *intrinsics.JIT_SOURCES)


def count(n: int, k: int) -> int:
    """Number of placements: n! / (n - k)!."""
    if not 0 <= k <= n:
        raise ValueError(f"a pattern of {k} tiles does not fit on {n} cells")
    out = 1
    for i in range(k):
        out *= n - i
    return out


@njit(cache=True, nogil=True, inline="always")
def rank(cells: np.ndarray, k: int, n: int) -> np.int64:
    """Rank of the placement ``cells[:k]`` (distinct cells < n)."""
    used = np.int64(0)
    r = np.int64(0)
    for i in range(k):
        c = cells[i]
        below = (np.int64(1) << c) - 1
        r = r * (n - i) + (c - popcount(used & below))
        used |= np.int64(1) << c
    return r


@njit(cache=True, nogil=True, inline="always")
def select_free(used: np.int64, d: np.int64) -> np.int64:
    """The d-th (from 0) cell whose bit is clear in ``used``."""
    free = ~used
    for _ in range(d):
        free &= free - 1
    return lowest_bit_index(free)


@njit(cache=True, nogil=True, inline="always")
def unrank(r: np.int64, k: int, n: int, cells: np.ndarray) -> np.int64:
    """Write the placement of rank ``r`` into ``cells[:k]``; return its bitmask of cells."""
    for i in range(k - 1, -1, -1):
        radix = n - i
        cells[i] = r % radix
        r //= radix
    used = np.int64(0)
    for i in range(k):
        c = select_free(used, cells[i])
        cells[i] = c
        used |= np.int64(1) << c
    return used


@njit(cache=True)
def rank_rows(placements: np.ndarray, n: int) -> np.ndarray:
    """Ranks of many placements (one a row): a convenience for tests and tools."""
    m, k = placements.shape
    out = np.empty(m, dtype=np.int64)
    for j in range(m):
        out[j] = rank(placements[j], k, n)
    return out


@njit(cache=True)
def unrank_many(ranks: np.ndarray, k: int, n: int) -> np.ndarray:
    """Placements of many ranks, one a row."""
    out = np.empty((ranks.size, k), dtype=np.int64)
    for j in range(ranks.size):
        unrank(ranks[j], k, n, out[j])
    return out


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
