"""Encodings of a pattern database's entries, from a byte down to a bit, and their decoding.

Let ``d`` be an entry (a distance in bytes) and ``m`` the Manhattan distance of the pattern's
tiles in that placement. Both blank rules keep ``d >= m`` and ``d = m (mod 2)`` (a move of cost
1 moves one pattern tile by one cell, a move of cost 0 moves none), so the *excess*
``e = (d - m) / 2`` is a small non-negative integer, and ``m`` is cheap to recompute at lookup
(k table reads, or kept incrementally by the search).

- ``byte``: ``d`` itself, 8 bits an entry.
- ``nibble``: ``e`` in 4 bits, saturated at 15 (a saturated entry reads lower: still
  admissible; ``saturations`` counts them). Exact when nothing saturates.
- ``mod3``: ``d mod 3``, five entries a byte as base-3 digits (3^5 = 243 <= 256): 1.6 bits.
- ``bit``: ``(d // 2) mod 2``, one bit; with the parity of ``m`` it gives ``d mod 4``.
- ``minnibble``: for each group of ``c`` consecutive ranks (``c`` a power of 2, the parameter),
  the least excess of the group in 4 bits (Felner et al.'s max-compression, of the excess
  rather than of the distance, so the Manhattan part of each placement stays exact): lossy,
  never above ``d``, and not consistent.

``mod3`` and ``bit`` are *relative*: they do not give ``d`` but, when adjacent placements
differ by exactly one (the ``ignored`` rule), they tell +1 from -1 along a move, so a search
adds one table's delta per move; the start value is recovered exactly by descending from the
placement to the goal through the neighbour whose residue is one less (unique, since the
neighbours differ by +-1 and +1 != -1 modulo 3 or 4), counting steps.
``searches.support.tiles_pdb_lookup`` does both; here are the encoders (numba, parallel over
output bytes: each byte is written by one iteration, so the payload is the same on any number
of threads) and the entry readers.

Unreachable entries (``255``, e.g. the wrong parity of a pattern that fills all but one cell)
are never looked up from a real state; they are stored as 0 and left out of group minima.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from searches.support import tiles_rank
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.tiles_rank import select_free

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *tiles_rank.JIT_SOURCES)

ENCODINGS = ("byte", "nibble", "mod3", "bit", "minnibble")
BYTE, NIBBLE, MOD3, BIT, MINNIBBLE = range(5)
RELATIVE = ("mod3", "bit")
LOSSY = ("minnibble",)
DEFAULT_GROUP = 8  # minnibble's default group of consecutive ranks
UNSEEN = 255
CHUNK = 1 << 12  # output bytes per parallel iteration


def _mod3_lut() -> np.ndarray:
    """``lut[byte * 5 + j]`` = the j-th base-3 digit of ``byte``."""
    out = np.zeros(256 * 5, dtype=np.uint8)
    for b in range(243):
        v = b
        for j in range(5):
            out[b * 5 + j] = v % 3
            v //= 3
    return out


MOD3_LUT = _mod3_lut()


def check_encoding(encoding: str, param: int = 0) -> int:
    """The parameter in effect (the group size of ``minnibble``, 0 otherwise)."""
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding {encoding!r} is not one of {list(ENCODINGS)}")
    if encoding != "minnibble":
        return 0
    group = param or DEFAULT_GROUP
    if group < 2 or group & (group - 1) or group > 1 << 20:
        raise ValueError(f"minnibble group {group}: a power of 2 from 2 to 2^20")
    return group


def payload_size(encoding: str, entries: int, param: int = 0) -> int:
    """Bytes of the payload of a table of ``entries`` entries."""
    if encoding == "byte":
        return entries
    if encoding == "nibble":
        return (entries + 1) // 2
    if encoding == "mod3":
        return (entries + 4) // 5
    if encoding == "bit":
        return (entries + 7) // 8
    groups = (entries + param - 1) // param
    return (groups + 1) // 2


def radix_products(k: int, n: int) -> np.ndarray:
    """``out[i]`` = product of the radices of the digits after i (the weight of digit i)."""
    out = np.ones(k, dtype=np.int64)
    for i in range(k - 2, -1, -1):
        out[i] = out[i + 1] * (n - i - 1)
    return out


# --- reading one entry (used by the heuristic) ------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def nibble_at(payload: np.ndarray, base: int, i: np.int64) -> np.int64:
    return np.int64((payload[base + (i >> 1)] >> ((i & 1) << 2)) & 15)


@njit(cache=True, nogil=True, inline="always")
def mod3_at(payload: np.ndarray, base: int, i: np.int64, lut: np.ndarray) -> np.int64:
    return np.int64(lut[np.int64(payload[base + i // 5]) * 5 + i % 5])


@njit(cache=True, nogil=True, inline="always")
def bit_at(payload: np.ndarray, base: int, i: np.int64) -> np.int64:
    return np.int64((payload[base + (i >> 3)] >> (i & 7)) & 1)


# --- encoders ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def manhattan_of_rank(r: np.int64, k: int, n: int, weights: np.ndarray,
                      md: np.ndarray) -> np.int64:
    """Manhattan distance of the pattern's tiles in the placement of rank ``r``
    (``md[i, cell]`` for the pattern's i-th tile), without unranking into an array."""
    used = np.int64(0)
    m = np.int64(0)
    for i in range(k):
        c = select_free(used, (r // weights[i]) % (n - i))
        used |= np.int64(1) << c
        m += md[i, c]
    return m


@njit(cache=True, nogil=True, inline="always")
def excess(table, r, k, n, weights, md) -> np.int64:
    """(d - m) / 2 of rank ``r``; -1 when unreachable."""
    d = np.int64(table[r])
    if d == UNSEEN:
        return -1
    return (d - manhattan_of_rank(r, k, n, weights, md)) >> 1


@njit(cache=True, parallel=True)
def encode_nibble(table, k, n, weights, md, out, saturated):
    """Two excesses a byte (low nibble first); ``saturated[chunk]`` counts entries > 15."""
    size = table.size
    nchunks = (out.size + CHUNK - 1) // CHUNK
    for ch in prange(nchunks):
        sat = 0
        for i in range(ch * CHUNK, min(out.size, (ch + 1) * CHUNK)):
            byte = 0
            for h in range(2):
                r = 2 * i + h
                if r >= size:
                    break
                e = excess(table, r, k, n, weights, md)
                if e > 15:
                    e = 15
                    sat += 1
                byte |= max(e, 0) << (4 * h)
            out[i] = byte
        saturated[ch] = sat


@njit(cache=True, parallel=True)
def encode_minnibble(table, k, n, weights, md, shift, out, saturated):
    """Per group of ``1 << shift`` consecutive ranks, the least excess (two groups a byte)."""
    size = table.size
    group = np.int64(1) << shift
    nchunks = (out.size + CHUNK - 1) // CHUNK
    for ch in prange(nchunks):
        sat = 0
        for i in range(ch * CHUNK, min(out.size, (ch + 1) * CHUNK)):
            byte = 0
            for h in range(2):
                lo = (2 * i + h) * group
                least = np.int64(1) << 40
                for r in range(lo, min(size, lo + group)):
                    e = excess(table, r, k, n, weights, md)
                    if 0 <= e < least:
                        least = e
                if least == np.int64(1) << 40:
                    least = 0
                if least > 15:
                    least = 15
                    sat += 1
                byte |= least << (4 * h)
            out[i] = byte
        saturated[ch] = sat


@njit(cache=True, parallel=True)
def encode_mod3(table, out):
    """Five residues ``d mod 3`` a byte, the first entry the lowest base-3 digit."""
    size = table.size
    for i in prange(out.size):
        byte = 0
        power = 1
        for j in range(5):
            r = 5 * i + j
            if r < size and table[r] != UNSEEN:
                byte += (table[r] % 3) * power
            power *= 3
        out[i] = byte


@njit(cache=True, parallel=True)
def encode_bit(table, out):
    """Eight bits ``(d // 2) mod 2`` a byte, the first entry the lowest bit."""
    size = table.size
    for i in prange(out.size):
        byte = 0
        for j in range(8):
            r = 8 * i + j
            if r < size and table[r] != UNSEEN:
                byte |= ((table[r] >> 1) & 1) << j
        out[i] = byte


@dataclass
class Encoded:
    """A payload and what it took."""

    encoding: str
    param: int
    payload: np.ndarray
    saturated: int = 0  # entries (nibble) or groups (minnibble) whose excess was cut to 15


def encode(table: np.ndarray, k: int, n: int, md: np.ndarray, encoding: str,
           param: int = 0) -> Encoded:
    """Encode a byte table of a pattern of ``k`` tiles on ``n`` cells (``md``: its
    ``Pattern.manhattan_rows()``)."""
    param = check_encoding(encoding, param)
    out = np.zeros(payload_size(encoding, table.size, param), dtype=np.uint8)
    sat = np.zeros((out.size + CHUNK - 1) // CHUNK, dtype=np.int64)
    weights = radix_products(k, n)
    if encoding == "byte":
        out[:] = table
    elif encoding == "nibble":
        encode_nibble(table, k, n, weights, md, out, sat)
    elif encoding == "minnibble":
        encode_minnibble(table, k, n, weights, md, param.bit_length() - 1, out, sat)
    elif encoding == "mod3":
        encode_mod3(table, out)
    else:
        encode_bit(table, out)
    return Encoded(encoding, param, out, int(sat.sum()))


@njit(cache=True, parallel=True)
def decode_nibble(payload, k, n, weights, md, out):
    """Every entry ``m + 2 e`` of a nibble payload (a test of losslessness)."""
    for r in prange(out.size):
        out[r] = manhattan_of_rank(r, k, n, weights, md) + 2 * nibble_at(payload, 0, r)


@njit(cache=True, parallel=True)
def decode_minnibble(payload, k, n, weights, md, shift, out):
    """Every entry ``m + 2 (least excess of its group)`` of a minnibble payload."""
    for r in prange(out.size):
        out[r] = manhattan_of_rank(r, k, n, weights, md) + 2 * nibble_at(payload, 0, r >> shift)


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
