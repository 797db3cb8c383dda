"""Pattern databases for the sliding-tile puzzles: a pattern's table, by breadth-first search.

``build(pattern, rule)`` gives the byte table of a pattern (``searches.support.
tiles_pdb_patterns``: what a pattern, a rule and a table are): for each placement rank its
distance to the goal placement, ``UNSEEN`` where unreachable.

Construction is a layered breadth-first search backwards from the goal, in numba, parallel
(``prange``) over blocks of ranks. Layer ``d`` expands every state of value ``d`` and marks its
unseen successors ``d + 1``; only blocks that received a mark in the previous layer are scanned.
Every write is idempotent (all writers of an entry in one layer write the same value), so the
table does not depend on the number of threads or their interleaving. The minimized rule keeps
2 bits per (placement, region) state, not a queue: the region is stored at its least cell, in
the slot of that cell's index among the free cells, codes 0 unseen, 3 expanded, and the two
others alternating between "this layer" and "next layer" from one layer to the next; a mark is
an atomic OR of one byte (other threads may be marking the other slots of the same byte).
"""

from __future__ import annotations

import functools
import mmap
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numba
import numpy as np
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from searches.support import tiles_rank
from searches.support.intrinsics import lowest_bit_index, popcount
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.tiles_pdb_patterns import RULES, Pattern, PDBError, neighbour_masks
from searches.support.tiles_rank import rank, select_free, unrank

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *tiles_rank.JIT_SOURCES)

UNSEEN = 255  # a table entry not reached (yet)
BLOCK = 1 << 13  # ranks per block of the parallel scan
HUGE_PAGES_FROM = 1 << 26  # bytes: arrays from this size are advised to use huge pages
REGION_TABLE_CELLS = 16  # boards up to this size read the blank's regions from a table


# --- construction -----------------------------------------------------------------------------


@intrinsic
def atomic_or_u8(typingctx, array, index, value):
    """``array[index] |= value`` as one atomic instruction (LLVM ``atomicrmw or``), for the
    2-bit marks of which several share a byte and may be written by several threads."""
    if not (isinstance(array, types.Array) and array.dtype == types.uint8):
        return None

    def codegen(context, builder, signature, args):
        arrty, idxty, valty = signature.args
        ary = context.make_array(arrty)(context, builder, args[0])
        idx = context.cast(builder, args[1], idxty, types.intp)
        ptr = cgutils.get_item_pointer(context, builder, arrty, ary, [idx], wraparound=False)
        val = context.cast(builder, args[2], valty, types.uint8)
        return builder.atomic_rmw("or", ptr, val, "monotonic")

    return types.uint8(array, index, value), codegen


@njit(cache=True, nogil=True, inline="always")
def flood(start: np.int64, free: np.int64, cols: int, not_first: np.int64,
          not_last: np.int64) -> np.int64:
    """The connected component of the cells ``start`` among ``free`` (bitmasks)."""
    region = start
    while True:
        grown = (region | ((region << 1) & not_first) | ((region >> 1) & not_last)
                 | (region << cols) | (region >> cols)) & free
        if grown == region:
            return region
        region = grown


@njit(cache=True, nogil=True, inline="always")
def region_of(cell, free, regions, n, cols, not_first, not_last):
    """The blank's region from ``cell`` among ``free``: one read of the table of every
    (free cells, cell) on boards of at most 16 cells, else a flood fill."""
    if regions.size != 0:
        return np.int64(regions[free * n + cell])
    return flood(np.int64(1) << cell, free, cols, not_first, not_last)


@njit(cache=True)
def _region_table(n, cols, not_first, not_last):
    out = np.zeros((1 << n) * n, dtype=np.uint16)
    for free in range(1 << n):
        left = np.int64(free)
        while left != 0:
            region = flood(left & -left, np.int64(free), cols, not_first, not_last)
            left &= ~region
            rest = region
            while rest != 0:
                out[free * n + lowest_bit_index(rest)] = region
                rest &= rest - 1
    return out


@functools.cache
def region_table(rows: int, cols: int) -> np.ndarray:
    """``out[free * n + cell]`` = the region of ``cell`` among the cells of ``free``, for
    boards of at most 16 cells (2 MB for the 15-puzzle); empty otherwise."""
    n = rows * cols
    if n > REGION_TABLE_CELLS:
        return np.zeros(0, dtype=np.uint16)
    not_first, not_last = column_masks(rows, cols)
    return _region_table(n, cols, not_first, not_last)


def column_masks(rows: int, cols: int) -> tuple[np.int64, np.int64]:
    """Cells not in the first column, cells not in the last (the flood's shift masks)."""
    n = rows * cols
    return (np.int64(sum(1 << c for c in range(n) if c % cols != 0)),
            np.int64(sum(1 << c for c in range(n) if c % cols != cols - 1)))


@njit(cache=True, parallel=True)
def layer_ignored(table, k, n, nbr, d, active, touched, block, scratch, counts):
    """Expand every placement of value ``d`` (in the active blocks); mark the unseen
    neighbours ``d + 1`` and flag their blocks in ``touched``. ``counts[b]`` = expanded."""
    size = table.size
    nxt = np.uint8(d + 1)
    for b in prange(active.size):
        counts[b] = 0
        if active[b] == 0:
            continue
        cells = scratch[b]
        lo = b * block
        hi = min(size, lo + block)
        expanded = 0
        for r in range(lo, hi):
            if table[r] != d:
                continue
            expanded += 1
            used = unrank(r, k, n, cells)
            for i in range(k):
                src = cells[i]
                moves = nbr[src] & ~used
                while moves != 0:
                    cells[i] = lowest_bit_index(moves)
                    moves &= moves - 1
                    r2 = rank(cells, k, n)
                    if table[r2] == UNSEEN:
                        table[r2] = nxt
                        touched[r2 // block] = 1
                cells[i] = src
        counts[b] = expanded
    return counts.sum()


@njit(cache=True, parallel=True)
def layer_minimized(states, width, table, k, n, cols, nbr, not_first, not_last, regions, d,
                    active, touched, block, scratch, counts):
    """Expand every (placement, region) state of layer ``d``: each pattern tile next to the
    region moves into each adjacent region cell (cost 1), the blank takes its cell, and the
    new state is marked at the least cell of the new region. Expanded states become 3."""
    size = table.size
    full = (np.int64(1) << n) - 1
    cur = np.uint8(1 + (d & 1))
    nxt = np.uint8(2 - (d & 1))
    value = np.uint8(d + 1)
    for b in prange(active.size):
        counts[b] = 0
        if active[b] == 0:
            continue
        cells = scratch[b]
        lo = b * block
        hi = min(size, lo + block)
        expanded = 0
        for r in range(lo, hi):
            base = r * width
            hit = 0
            for w in range(width):
                v = states[base + w]
                low = v & 0x55
                high = (v >> 1) & 0x55
                hit |= (low & ~high) if cur == 1 else (high & ~low)
            if hit == 0:
                continue
            used = unrank(r, k, n, cells)
            free = full & ~used
            for slot in range(n - k):
                byte = base + (slot >> 2)
                shift = (slot & 3) * 2
                if (states[byte] >> shift) & 3 != cur:
                    continue
                expanded += 1
                atomic_or_u8(states, byte, np.uint8(3 << shift))
                rep = select_free(used, slot)
                region = region_of(rep, free, regions, n, cols, not_first, not_last)
                for i in range(k):
                    src = cells[i]
                    targets = nbr[src] & region
                    while targets != 0:
                        dst = lowest_bit_index(targets)
                        targets &= targets - 1
                        cells[i] = dst
                        used2 = used ^ (np.int64(1) << src) ^ (np.int64(1) << dst)
                        region2 = region_of(src, full & ~used2, regions, n, cols, not_first,
                                            not_last)
                        rep2 = lowest_bit_index(region2)
                        slot2 = rep2 - popcount(used2 & ((np.int64(1) << rep2) - 1))
                        r2 = rank(cells, k, n)
                        byte2 = r2 * width + (slot2 >> 2)
                        shift2 = (slot2 & 3) * 2
                        if (states[byte2] >> shift2) & 3 == 0:
                            atomic_or_u8(states, byte2, np.uint8(nxt << shift2))
                            if table[r2] == UNSEEN:
                                table[r2] = value
                            touched[r2 // block] = 1
                    cells[i] = src
        counts[b] = expanded
    return counts.sum()


def zeroed(nbytes: int) -> np.ndarray:
    """A zeroed uint8 array; a large one on anonymous memory advised to use huge pages, since
    the BFS reads and marks it at random and 4 kB pages would add a TLB miss to most reads."""
    if nbytes < HUGE_PAGES_FROM or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.zeros(nbytes, dtype=np.uint8)
    memory = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    try:
        memory.madvise(mmap.MADV_HUGEPAGE)
    except OSError:  # not allowed here: plain pages
        pass
    return np.frombuffer(memory, dtype=np.uint8)


@dataclass
class BuildResult:
    """A table in bytes (``UNSEEN`` = unreachable) and how it was built."""

    pattern: Pattern
    rule: str
    table: np.ndarray
    layers: list[int] = field(default_factory=list)  # states expanded per layer
    seconds: float = 0.0
    work_bytes: int = 0  # memory besides the table (the 2-bit states, flags)
    threads: int = 1


ProgressFn = Callable[[int, int, float], None]  # (layer, expanded, seconds so far)


def build(pattern: Pattern, rule: str, threads: int | None = None,
          progress: ProgressFn | None = None, block: int = BLOCK) -> BuildResult:
    """The byte table of ``pattern`` under ``rule``, by layered BFS on ``threads`` threads
    (default: numba's current count)."""
    if rule not in RULES:
        raise PDBError(f"rule {rule!r} is not one of {list(RULES)}")
    if pattern.k > pattern.n - 1:
        raise PDBError("a pattern must leave the blank a cell")
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        return _build(pattern, rule, progress, block)
    finally:
        numba.set_num_threads(previous)


def _build(pattern: Pattern, rule: str, progress: ProgressFn | None, block: int) -> BuildResult:
    n, k, size = pattern.n, pattern.k, pattern.size
    rows, cols = pattern.rows, pattern.cols
    nbr = neighbour_masks(rows, cols)
    goal = pattern.goal_placement()
    goal_rank = int(rank(goal, k, n))
    nblocks = (size + block - 1) // block
    table = zeroed(size)
    table[:] = UNSEEN
    table[goal_rank] = 0
    active = np.zeros(nblocks, dtype=np.uint8)
    touched = np.zeros(nblocks, dtype=np.uint8)
    counts = np.zeros(nblocks, dtype=np.int64)
    scratch = np.zeros((nblocks, k), dtype=np.int64)
    active[goal_rank // block] = 1
    work = active.nbytes + touched.nbytes + counts.nbytes + scratch.nbytes
    result = BuildResult(pattern, rule, table, threads=numba.get_num_threads())
    start = time.perf_counter()
    if rule == "minimized":
        width = (n - k + 3) // 4
        states = zeroed(size * width)
        work += states.nbytes
        not_first, not_last = column_masks(rows, cols)
        regions = region_table(rows, cols)
        work += regions.nbytes
        used = sum(1 << int(c) for c in goal)
        free = ((1 << n) - 1) & ~used
        region = int(flood(np.int64(1 << pattern.goal_blank()), np.int64(free), cols,
                           not_first, not_last))
        rep = (region & -region).bit_length() - 1
        slot = rep - bin(used & ((1 << rep) - 1)).count("1")
        states[goal_rank * width + slot // 4] = 1 << (2 * (slot % 4))  # layer 0: code 1
    d = 0
    while True:
        if d >= UNSEEN - 1:
            raise PDBError(f"pattern {pattern.label}: distances beyond {UNSEEN - 2}")
        touched[:] = 0
        if rule == "ignored":
            expanded = layer_ignored(table, k, n, nbr, d, active, touched, block, scratch,
                                     counts)
        else:
            expanded = layer_minimized(states, width, table, k, n, cols, nbr, not_first,
                                       not_last, regions, d, active, touched, block, scratch,
                                       counts)
        if expanded == 0:
            break
        result.layers.append(int(expanded))
        if progress is not None:
            progress(d, int(expanded), time.perf_counter() - start)
        active, touched = touched, active
        d += 1
    result.seconds = time.perf_counter() - start
    result.work_bytes = work
    return result


def build_table(pattern: Pattern, rule: str, threads: int | None = None) -> np.ndarray:
    return build(pattern, rule, threads).table


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
