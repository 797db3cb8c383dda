"""Pattern tables laid out for the IDA* kernel's lookup: indexed by the cells themselves.

A pattern's table (``tiles_pdb_encode``) is indexed by the lexicographic rank of its placement
(``tiles_rank``): computing it is a loop over the pattern's ``k`` tiles with a popcount each.
Spread out to the index ``sum_i c_i n^(k-1-i)`` instead (``c_i`` the cell of the pattern's
``i``-th tile, ``n`` the cells), a child's index is its parent's plus ``(c2 - c) n^(k-1-i)``
when the ``i``-th tile moves from ``c`` to ``c2``: one multiply-add, which
``tiles_pdb_ida_kernel`` keeps per pattern instead of ranking. The price is memory: ``n^k``
entries instead of ``n! / (n - k)!`` (the indices with a repeated cell are never read; they
hold 0). ``spread_bytes`` says how much; the kernel spreads a partition's tables only when
the total stays within ``SPREAD_LIMIT``.

The entries are the encoding's own (a nibble, or a byte), each copied to its new index;
minnibble's groups (one nibble for ``2^shift`` consecutive ranks) are expanded to one nibble a
placement, so the values read are those of the ranked table, exactly.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searches.support.numba_cache import forget_stale_cache, own_dispatchers

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__,)

#: Bytes of spread tables above which the kernel keeps the ranked layout (a partition's tables
#: are spread all or none). 6-6-3 of the 15-puzzle takes 16.8 MB spread, 6-6-6-6 of the
#: 24-puzzle 488 MB; 7-8 would take 2.3 GB.
SPREAD_LIMIT = 1 << 30


def spread_entries(n: int, k: int) -> int:
    return n ** k


def spread_bytes(n: int, ks, nibbles: bool) -> int:
    """Bytes of the spread tables of patterns of ``ks`` tiles on ``n`` cells."""
    return sum((spread_entries(n, int(k)) + 1) // 2 if nibbles else spread_entries(n, int(k))
               for k in ks)


@njit(cache=True, nogil=True)
def spread(payload, base, k, n, shift, nibbles, out):
    """Copy one pattern's table from ``payload[base:]`` (ranked; nibble ``r >> shift`` or byte
    ``r`` for rank ``r``) into ``out`` (zeroed), spread: the entry of placement ``c`` at
    ``sum_i c_i n^(k-1-i)``, a nibble or a byte as read. The placements are walked in rank
    order, which is also the spread indices' order: an odometer over the free cells for the
    first ``k - 1`` tiles, and for each of their placements a run over the last tile's free
    cells. Returns the placements copied."""
    cells = np.full(k, -1, np.int64)
    used = np.int64(0)
    r = np.int64(0)
    i = 0
    while i >= 0:
        if i == k - 1:  # the last tile over its free cells
            first = np.int64(0)
            for m in range(k - 1):
                first = first * n + cells[m]
            first *= n
            for c in range(n):
                if (used >> c) & 1:
                    continue
                index = first + c
                if nibbles:
                    g = r >> shift
                    v = (payload[base + (g >> 1)] >> ((g & 1) << 2)) & 15
                    out[index >> 1] |= np.uint8(v << ((index & 1) << 2))
                else:
                    out[index] = payload[base + r]
                r += 1
            i -= 1
            continue
        c = cells[i]
        if c >= 0:
            used &= ~(np.int64(1) << c)
        c += 1
        while c < n and (used >> c) & 1:
            c += 1
        if c == n:  # tile i has no cell left: back to the previous tile
            cells[i] = -1
            i -= 1
            continue
        cells[i] = c
        used |= np.int64(1) << c
        i += 1
    return r


def spread_tables(data: np.ndarray, offset: np.ndarray, ks: np.ndarray, n: int, shift: int,
                  nibbles: bool) -> tuple[np.ndarray, np.ndarray]:
    """Every pattern's table spread, one after the other: (payloads, offsets)."""
    sizes = [spread_bytes(n, [k], nibbles) for k in ks]
    starts = np.cumsum([0, *sizes[:-1]]).astype(np.int64)
    out = np.zeros(int(sum(sizes)), np.uint8)
    for j, k in enumerate(ks):
        spread(data, int(offset[j]), int(k), n, shift, nibbles,
               out[int(starts[j]):int(starts[j]) + sizes[j]])
    return out, starts


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
