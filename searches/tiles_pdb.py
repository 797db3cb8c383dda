"""Pattern databases for the sliding-tile puzzles: patterns, construction, the heuristic.

A *pattern* is a set of tiles (never the blank); its *placement* in a state is the tuple of the
cells of its tiles, ranked by ``searches.tiles_rank``. A *partition* is a list of disjoint
patterns (4-4-4-3, 5-5-5, 6-6-3, 7-8 of the 15-puzzle, 6-6-6-6 of the 24-puzzle, presets below,
or explicit tile lists). The table of a pattern holds, for each placement, a distance to the
goal placement in an abstract space, under one of two rules for the blank:

- ``ignored``: the abstract state is the placement; a pattern tile moves to an adjacent cell
  that no other pattern tile holds, at cost 1 (as if the blank were wherever needed). The
  graph is undirected with unit costs, so the sum over a partition is consistent.
- ``minimized`` (Korf & Felner's disjoint databases): the abstract state is the placement and
  the blank's region (its connected component among the cells free of the pattern); moves of
  the other tiles cost 0 (the blank roams its region for free), a pattern tile next to the
  region moves into it at cost 1. The table keeps, per placement, the least distance over the
  regions; larger than ``ignored``, still additive, no longer consistent.

Construction is a layered breadth-first search backwards from the goal, in numba, parallel
(``prange``) over blocks of ranks. Layer ``d`` expands every state of value ``d`` and marks its
unseen successors ``d + 1``; only blocks that received a mark in the previous layer are scanned.
Every write is idempotent (all writers of an entry in one layer write the same value), so the
table does not depend on the number of threads or their interleaving. The minimized rule keeps
2 bits per (placement, region) state, not a queue: the region is stored at its least cell, in
the slot of that cell's index among the free cells, codes 0 unseen, 3 expanded, and the two
others alternating between "this layer" and "next layer" from one layer to the next; a mark is
an atomic OR of one byte (other threads may be marking the other slots of the same byte).

The heuristic (``Heuristic``, arrays for numba in ``PDBArrays``) sums the tables of a partition
from the cells of the tiles (``where[tile] = cell``), and takes the maximum with the same sum
on the state reflected about the main diagonal when that is valid (square board, goal blank on
the diagonal: both conventions qualify on square boards); it refuses otherwise. During a
search one move changes one pattern's placement, so the update is one lookup (and one more
for the reflected state): see ``h_init`` and ``h_move``. Encodings of the entries are in
``searches.tiles_pdb_encode``; files and the cache directory in ``searches.tiles_pdb_store``.

For a search (IDA*, A*), in numba::

    h = heuristic(partition("7-8", 4, 4), "minimized", "nibble", reflect=True, cache=DIR)
    P = h.arrays                              # a namedtuple of arrays: pass it to njit code
    where[tile] = cell (int64[n], where[0] the blank); rwhere = int64[n] (reflected state)
    vals, rvals = int64[npat + 1]             # per pattern, and the sum in the last slot
    h0 = h_init(P, where, rwhere, vals, rvals)           # once per start (descent if relative)
    # a move: the tile at cell c slides into the blank's cell b
    where[tile] = b; where[0] = c
    hn = h_move(P, where, rwhere, tile, vals, rvals)     # one lookup (+1 with the reflection)
    # undo: where[tile] = c; where[0] = b; h_move(...) again (exact for every encoding),
    # or save vals[j], vals[npat], rvals[j'], rvals[npat] and rwhere before and restore them.

``h_move`` reads ``P.pattern_of[tile]`` (the one table that changes), and with the reflection
``P.sigma[tile]`` (the tile that moves in the reflected state, whose cells are
``P.tcell[...]``). Without reflection ``rwhere``/``rvals`` are untouched (any int64 arrays).
``pattern_value(P, j, where)`` is one pattern's exact value from scratch, ``table_entry`` one
raw lookup; ``h_many`` evaluates many states. A dual lookup (the inverse permutation as
``where``, valid for the blank-first goal) is ``pattern_value`` on it, with an absolute encoding
(a move of the state moves two "tiles" of its dual, so no relative delta applies).
``Heuristic.consistent`` says whether A* may skip reopening (ignored rule, lossless encoding).
"""

from __future__ import annotations

import collections
import functools
import mmap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numba
import numpy as np
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from searches import tiles_pdb_encode as enc
from searches.tiles_rank import count, lowest_bit_index, popcount, rank, select_free, unrank

RULES = ("ignored", "minimized")
GOALS = ("blank-first", "blank-last")
UNSEEN = 255  # a table entry not reached (yet)
BLOCK = 1 << 13  # ranks per block of the parallel scan
HUGE_PAGES_FROM = 1 << 26  # bytes: arrays from this size are advised to use huge pages
REGION_TABLE_CELLS = 16  # boards up to this size read the blank's regions from a table

# Presets, as tile lists for the blank-first goal (Korf's). For the blank-last goal they are
# rotated by half a turn, tile t -> n - t, which maps one goal onto the other cell by cell: so
# the blank-last 4-4-4-3 is the notebook's (1-4)(5-8)(9-12)(13-15). 5-5-5 is the partition on
# which the issue measured Korf's 100 (38.91 ignored, 40.51 minimized). Of the 6-6-3 shapes
# tried (minimized, mean on Korf's 100 without / with the reflection): two 3x2 blocks beside
# the first column 42.37 / 43.27 (kept), rows 1-6, 7-12 41.95 / 42.73, lower halves with 1-3 on
# top 41.29 / 42.23, 2x3 blocks 40.05 / 41.03. 6-6-6-6 is Korf & Felner's 24-puzzle partition.
PRESETS: dict[int, dict[str, tuple[tuple[int, ...], ...]]] = {
    9: {
        "4-4": ((1, 2, 3, 4), (5, 6, 7, 8)),
        "3-3-2": ((1, 2, 3), (4, 5, 6), (7, 8)),
        "2-2-2-2": ((1, 2), (3, 4), (5, 6), (7, 8)),
        "8": ((1, 2, 3, 4, 5, 6, 7, 8),),
    },
    16: {
        "4-4-4-3": ((1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15)),
        "5-5-5": ((1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15)),
        "6-6-3": ((1, 4, 5, 8, 9, 12), (2, 3, 6, 7, 10, 11), (13, 14, 15)),
        "7-8": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
    },
    25: {
        "6-6-6-6": ((1, 2, 5, 6, 7, 12), (3, 4, 8, 9, 13, 14), (10, 11, 15, 16, 20, 21),
                    (17, 18, 19, 22, 23, 24)),
    },
}
PUZZLES = {8: (3, 3), 15: (4, 4), 24: (5, 5)}


class PDBError(ValueError):
    """A pattern, partition, rule or encoding that cannot be used, with the reason."""


# --- the board and the patterns ---------------------------------------------------------------


def goal_cells(rows: int, cols: int, goal: str) -> np.ndarray:
    """``out[tile]`` = the tile's goal cell (tile 0 is the blank)."""
    n = rows * cols
    if goal == "blank-first":
        return np.arange(n, dtype=np.int64)
    if goal == "blank-last":
        return np.array([n - 1, *range(n - 1)], dtype=np.int64)
    raise PDBError(f"goal {goal!r} is not one of {list(GOALS)}")


def neighbour_masks(rows: int, cols: int) -> np.ndarray:
    """``out[cell]`` = bitmask of the cells adjacent to ``cell``."""
    out = np.zeros(rows * cols, dtype=np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < rows and 0 <= cc < cols:
                out[cell] |= 1 << (rr * cols + cc)
    return out


@dataclass(frozen=True)
class Pattern:
    """A set of tiles on a board with a goal convention: what one table is about."""

    rows: int
    cols: int
    goal: str
    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.goal not in GOALS:
            raise PDBError(f"goal {self.goal!r} is not one of {list(GOALS)}")
        if self.rows < 2 or self.cols < 2 or self.rows * self.cols > 62:
            raise PDBError(f"a {self.rows}x{self.cols} board is not supported (2x2 .. 62 cells)")
        tiles = tuple(sorted(int(t) for t in self.tiles))
        object.__setattr__(self, "tiles", tiles)
        if not tiles:
            raise PDBError("a pattern needs at least one tile")
        if 0 in tiles:
            raise PDBError("the blank (0) belongs to no pattern: the sum over a partition "
                           "is admissible only when each move is charged to one pattern")
        if len(set(tiles)) != len(tiles):
            raise PDBError(f"pattern {list(tiles)} lists a tile twice")
        if tiles[-1] >= self.n:
            raise PDBError(f"tile {tiles[-1]} is not on a {self.rows}x{self.cols} board "
                           f"(tiles 1..{self.n - 1})")

    @property
    def n(self) -> int:
        return self.rows * self.cols

    @property
    def k(self) -> int:
        return len(self.tiles)

    @property
    def size(self) -> int:
        """Number of placements, the entries of the table."""
        return count(self.n, self.k)

    def goal_placement(self) -> np.ndarray:
        cells = goal_cells(self.rows, self.cols, self.goal)
        return cells[np.array(self.tiles, dtype=np.int64)]

    def goal_blank(self) -> int:
        return int(goal_cells(self.rows, self.cols, self.goal)[0])

    def manhattan_rows(self) -> np.ndarray:
        """``out[i, cell]`` = taxicab distance of the pattern's i-th tile at ``cell`` to its
        goal cell (the Manhattan part the nibble encodings leave out of the table)."""
        goal = self.goal_placement()
        cells = np.arange(self.n)
        return (np.abs(cells[None, :] // self.cols - goal[:, None] // self.cols)
                + np.abs(cells[None, :] % self.cols - goal[:, None] % self.cols)).astype(np.int64)

    @property
    def label(self) -> str:
        return "-".join(map(str, self.tiles))


@dataclass(frozen=True)
class Partition:
    """Disjoint patterns on one board and goal (not necessarily covering every tile)."""

    rows: int
    cols: int
    goal: str
    patterns: tuple[tuple[int, ...], ...]
    name: str = ""

    def __post_init__(self) -> None:
        pats = tuple(Pattern(self.rows, self.cols, self.goal, p).tiles for p in self.patterns)
        if not pats:
            raise PDBError("a partition needs at least one pattern")
        seen: dict[int, int] = {}
        for j, tiles in enumerate(pats):
            for t in tiles:
                if t in seen:
                    raise PDBError(f"tile {t} is in patterns {seen[t] + 1} and {j + 1}: the "
                                   "patterns of a partition must be disjoint")
                seen[t] = j
        object.__setattr__(self, "patterns", pats)

    @property
    def n(self) -> int:
        return self.rows * self.cols

    def pattern(self, j: int) -> Pattern:
        return Pattern(self.rows, self.cols, self.goal, self.patterns[j])

    @property
    def covers(self) -> bool:
        return sorted(t for p in self.patterns for t in p) == list(range(1, self.n))

    @property
    def label(self) -> str:
        return self.name or "/".join(",".join(map(str, p)) for p in self.patterns)


def preset(name: str, rows: int, cols: int, goal: str) -> tuple[tuple[int, ...], ...]:
    n = rows * cols
    table = PRESETS.get(n) if rows == cols else None
    if not table or name not in table:
        known = sorted(PRESETS.get(n, {})) if rows == cols else []
        raise PDBError(f"no preset partition {name!r} for the {rows}x{cols} board"
                       f"{' (presets: ' + ', '.join(known) + ')' if known else ''}; give "
                       "tile lists such as 1,2,3/4,5,6")
    pats = table[name]
    if goal == "blank-last":
        pats = tuple(tuple(sorted(n - t for t in p)) for p in pats)
    return tuple(sorted(pats, key=min)) if goal == "blank-last" else pats


def partition(spec: str | Sequence[Sequence[int]], rows: int, cols: int,
              goal: str = "blank-first") -> Partition:
    """A preset name (``5-5-5``), tile lists ``1,2,3,6,7/4,5,8,9,12/...`` or a sequence of
    sequences of tiles."""
    if isinstance(spec, str):
        text = spec.strip()
        if "," in text or "/" in text:  # tile lists (one tile alone: "5,")
            try:
                pats = tuple(tuple(int(t) for t in part.split(",") if t.strip())
                             for part in text.split("/"))
            except ValueError:
                raise PDBError(f"partition {spec!r}: expected a preset name or tile lists "
                               "such as 1,2,3/4,5,6") from None
            return Partition(rows, cols, goal, pats)
        return Partition(rows, cols, goal, preset(text, rows, cols, goal), text)
    return Partition(rows, cols, goal, tuple(tuple(int(t) for t in p) for p in spec))


def puzzle_shape(puzzle: int | str) -> tuple[int, int]:
    """8, 15, 24 (or ``RxC``) -> (rows, cols)."""
    text = str(puzzle).lower()
    if "x" in text:
        r, c = text.split("x", 1)
        return int(r), int(c)
    if int(text) not in PUZZLES:
        raise PDBError(f"puzzle {puzzle!r}: expected 8, 15, 24 or ROWSxCOLS")
    return PUZZLES[int(text)]


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


# --- the heuristic ----------------------------------------------------------------------------

# Everything a numba search needs to evaluate a partition, flat. ``where[tile]`` = its cell.
PDBArrays = collections.namedtuple("PDBArrays", [
    "data",        # uint8: the payloads of the patterns, one after the other
    "offset",      # int64[npat]: where each payload starts in ``data``
    "tiles",       # int64[npat, kmax]: the tiles of each pattern (rank order)
    "k",           # int64[npat]
    "enc",         # int64[npat]: encoding code (tiles_pdb_encode.BYTE ... MINNIBBLE)
    "shift",       # int64[npat]: log2 of the minnibble group
    "pattern_of",  # int64[n]: the pattern of each tile, -1 for the blank and uncovered tiles
    "md",          # int64[n, n]: Manhattan distance of tile t at cell c (0 for the blank)
    "tcell",       # int64[n]: the cell reflected about the main diagonal
    "sigma",       # int64[n]: the tile renamed by the reflection (an involution)
    "goal_rank",   # int64[npat]: rank of each goal placement (the end of a descent)
    "nbr",         # int64[n]: neighbour bitmasks
    "lut3",        # uint8[1280]: base-3 digits of a byte
    "n",           # int: cells
    "npat",        # int: patterns
    "reflect",     # int: 1 when the reflected lookup is on
])


# The lookups read a tile's cell at ``where[at + tile]``: a search may keep several views of
# its state (the state, its reflection, its dual) in one flat array, and indexing it at an
# offset costs nothing where taking a row of a 2-D array as a view costs reference counting.


@njit(cache=True, nogil=True, inline="always")
def placement_rank(P, j, where, at):
    """Rank of the placement of pattern ``j``'s tiles read from ``where``."""
    used = np.int64(0)
    r = np.int64(0)
    n = P.n
    for i in range(P.k[j]):
        c = where[at + P.tiles[j, i]]
        r = r * (n - i) + (c - popcount(used & ((np.int64(1) << c) - 1)))
        used |= np.int64(1) << c
    return r


@njit(cache=True, nogil=True, inline="always")
def pattern_manhattan(P, j, where, at):
    m = np.int64(0)
    for i in range(P.k[j]):
        t = P.tiles[j, i]
        m += P.md[t, where[at + t]]
    return m


@njit(cache=True, nogil=True, inline="always")
def table_entry(P, j, where, at):
    """What pattern ``j``'s table says of the placement in ``where``: the value for the
    absolute encodings, the residue (mod 3, or mod 4 for ``bit``) for the relative ones."""
    r = placement_rank(P, j, where, at)
    e = P.enc[j]
    base = P.offset[j]
    if e == enc.BYTE:
        return np.int64(P.data[base + r])
    if e == enc.NIBBLE:
        return pattern_manhattan(P, j, where, at) + 2 * enc.nibble_at(P.data, base, r)
    if e == enc.MINNIBBLE:
        return (pattern_manhattan(P, j, where, at)
                + 2 * enc.nibble_at(P.data, base, r >> P.shift[j]))
    if e == enc.MOD3:
        return enc.mod3_at(P.data, base, r, P.lut3)
    return 2 * enc.bit_at(P.data, base, r) + (pattern_manhattan(P, j, where, at) & 1)


@njit(cache=True, nogil=True)
def descend(P, j, where):
    """Exact value of a relative table at ``where``: walk to the goal placement through the
    neighbour whose residue is one less, counting steps (-1 if the table is inconsistent)."""
    w = where.copy()
    k = P.k[j]
    mod = 3 if P.enc[j] == enc.MOD3 else 4
    used = np.int64(0)
    for i in range(k):
        used |= np.int64(1) << w[P.tiles[j, i]]
    res = table_entry(P, j, w, 0)
    steps = 0
    while placement_rank(P, j, w, 0) != P.goal_rank[j]:
        want = (res - 1) % mod
        found = False
        for i in range(k):
            t = P.tiles[j, i]
            src = w[t]
            moves = P.nbr[src] & ~used
            while moves != 0:
                dst = lowest_bit_index(moves)
                moves &= moves - 1
                w[t] = dst
                if table_entry(P, j, w, 0) == want:
                    used ^= (np.int64(1) << src) | (np.int64(1) << dst)
                    found = True
                    break
                w[t] = src
            if found:
                break
        if not found or steps > 1000:
            return -1
        res = want
        steps += 1
    return steps


@njit(cache=True, nogil=True)
def pattern_value(P, j, where):
    """Exact value of pattern ``j`` at ``where`` (by descent for a relative encoding)."""
    if P.enc[j] == enc.MOD3 or P.enc[j] == enc.BIT:
        return descend(P, j, where)
    return table_entry(P, j, where, 0)


@njit(cache=True, nogil=True, inline="always")
def pattern_after_move(P, j, where, at, old):
    """Value of pattern ``j`` after one of its tiles moved (``where`` updated), given its
    value ``old`` before: one lookup, and for a relative encoding the delta of the residues."""
    e = P.enc[j]
    if e == enc.MOD3 or e == enc.BIT:
        mod = 3 if e == enc.MOD3 else 4
        if (table_entry(P, j, where, at) - old) % mod == 1:
            return old + 1
        return old - 1
    return table_entry(P, j, where, at)


@njit(cache=True, nogil=True)
def h_init(P, where, rwhere, vals, rvals):
    """Fill ``vals[j]`` (each pattern's value) and ``vals[npat]`` (their sum), and with the
    reflection ``rwhere`` (the reflected state) and ``rvals`` the same way; return h."""
    s = np.int64(0)
    for j in range(P.npat):
        vals[j] = pattern_value(P, j, where)
        s += vals[j]
    vals[P.npat] = s
    if P.reflect == 0:
        return s
    for t in range(P.n):
        rwhere[P.sigma[t]] = P.tcell[where[t]]
    rs = np.int64(0)
    for j in range(P.npat):
        rvals[j] = pattern_value(P, j, rwhere)
        rs += rvals[j]
    rvals[P.npat] = rs
    return max(s, rs)


@njit(cache=True, nogil=True, inline="always")
def h_move(P, where, rwhere, tile, vals, rvals):
    """After ``tile`` moved (``where[tile]`` and ``where[0]`` already updated): update the
    one pattern it belongs to (and the one of its reflection) and return the new h. Moving
    the tile back and calling it again restores everything exactly (also for the relative
    encodings), so a depth-first search needs no other undo."""
    j = P.pattern_of[tile]
    if j >= 0:
        v = pattern_after_move(P, j, where, 0, vals[j])
        vals[P.npat] += v - vals[j]
        vals[j] = v
    if P.reflect == 0:
        return vals[P.npat]
    u = P.sigma[tile]
    rwhere[u] = P.tcell[where[tile]]
    rwhere[0] = P.tcell[where[0]]
    j = P.pattern_of[u]
    if j >= 0:
        v = pattern_after_move(P, j, rwhere, 0, rvals[j])
        rvals[P.npat] += v - rvals[j]
        rvals[j] = v
    return max(vals[P.npat], rvals[P.npat])


@njit(cache=True)
def h_many(P, wheres):
    """h of many states (one ``where`` a row)."""
    out = np.empty(wheres.shape[0], dtype=np.int64)
    rwhere = np.empty(P.n, dtype=np.int64)
    vals = np.empty(P.npat + 1, dtype=np.int64)
    rvals = np.empty(P.npat + 1, dtype=np.int64)
    for i in range(wheres.shape[0]):
        out[i] = h_init(P, wheres[i], rwhere, vals, rvals)
    return out


def reflection(rows: int, cols: int, goal: str) -> tuple[np.ndarray, np.ndarray] | str:
    """(tcell, sigma) of the reflection about the main diagonal, or why it is not valid."""
    if rows != cols:
        return (f"the reflection about the main diagonal needs a square board, not "
                f"{rows}x{cols}")
    n = rows * cols
    cells = goal_cells(rows, cols, goal)
    tcell = np.array([(c % cols) * cols + c // cols for c in range(n)], dtype=np.int64)
    if tcell[cells[0]] != cells[0]:
        return f"the goal's blank (cell {cells[0]}) is off the main diagonal"
    tile_at = np.empty(n, dtype=np.int64)
    tile_at[cells] = np.arange(n)
    sigma = tile_at[tcell[cells]]
    return tcell, sigma


def where_of(tiles: Sequence[int]) -> np.ndarray:
    """``where[tile]`` = cell, from a state listed cell by cell."""
    where = np.empty(len(tiles), dtype=np.int64)
    where[np.asarray(tiles, dtype=np.int64)] = np.arange(len(tiles))
    return where


@dataclass
class Heuristic:
    """The additive heuristic of a partition under a blank rule and an encoding, with or
    without the reflected lookup. ``arrays`` is what numba code takes (``h_init``,
    ``h_move``, ``table_entry``, ...); calling the object on a state gives h."""

    partition: Partition
    rule: str
    encoding: str
    param: int
    reflect: bool
    arrays: PDBArrays
    saturated: int = 0
    sources: tuple[str, ...] = ()  # per pattern: "built", "cache", "encoded from bytes"

    def __call__(self, tiles: Sequence[int]) -> int:
        return int(h_many(self.arrays, where_of(tiles)[None, :])[0])

    def many(self, states: np.ndarray) -> np.ndarray:
        """h of states given cell by cell, one a row."""
        states = np.asarray(states, dtype=np.int64)
        wheres = np.empty_like(states)
        rows = np.arange(states.shape[0])[:, None]
        wheres[rows, states] = np.arange(states.shape[1])[None, :]
        return h_many(self.arrays, wheres)

    @property
    def nbytes(self) -> int:
        return int(self.arrays.data.nbytes)

    @property
    def relative(self) -> bool:
        return self.encoding in enc.RELATIVE

    @property
    def consistent(self) -> bool:
        """Whether the heuristic is consistent (so that A* never reopens a node)."""
        return self.rule == "ignored" and self.encoding not in enc.LOSSY and not self.saturated


def check_combination(rule: str, encoding: str, reflect: bool, rows: int, cols: int,
                      goal: str) -> None:
    if rule not in RULES:
        raise PDBError(f"rule {rule!r} is not one of {list(RULES)}")
    if encoding not in enc.ENCODINGS:
        raise PDBError(f"encoding {encoding!r} is not one of {list(enc.ENCODINGS)}")
    if encoding in enc.RELATIVE and rule != "ignored":
        raise PDBError(f"the {encoding} encoding is relative: it needs adjacent placements to "
                       "differ by exactly one, which holds with the blank ignored only "
                       "(use --rule ignored, or nibble/byte with the minimized rule)")
    if reflect:
        refl = reflection(rows, cols, goal)
        if isinstance(refl, str):
            raise PDBError(f"no reflected lookup: {refl}")


def assemble(partition: Partition, rule: str, payloads: Sequence[enc.Encoded],
             reflect: bool, sources: Sequence[str] = ()) -> Heuristic:
    """A heuristic from one encoded payload per pattern of the partition (same encoding)."""
    encoding, param = payloads[0].encoding, payloads[0].param
    check_combination(rule, encoding, reflect, partition.rows, partition.cols, partition.goal)
    n, npat = partition.n, len(partition.patterns)
    kmax = max(len(p) for p in partition.patterns)
    tiles = np.zeros((npat, kmax), dtype=np.int64)
    ks = np.array([len(p) for p in partition.patterns], dtype=np.int64)
    pattern_of = np.full(n, -1, dtype=np.int64)
    for j, p in enumerate(partition.patterns):
        tiles[j, :len(p)] = p
        pattern_of[list(p)] = j
    offsets = np.cumsum([0] + [e.payload.size for e in payloads[:-1]]).astype(np.int64)
    data = np.concatenate([e.payload for e in payloads]) if npat > 1 else payloads[0].payload
    cells = goal_cells(partition.rows, partition.cols, partition.goal)
    c = np.arange(n)
    md = (np.abs(c[None, :] // partition.cols - cells[:, None] // partition.cols)
          + np.abs(c[None, :] % partition.cols - cells[:, None] % partition.cols))
    md[0, :] = 0
    refl = reflection(partition.rows, partition.cols, partition.goal) if reflect else None
    tcell, sigma = refl if isinstance(refl, tuple) else (np.arange(n), np.arange(n))
    goal_rank = np.array([int(rank(partition.pattern(j).goal_placement(), int(ks[j]), n))
                          for j in range(npat)], dtype=np.int64)
    code = enc.ENCODINGS.index(encoding)
    arrays = PDBArrays(
        data=np.ascontiguousarray(data, dtype=np.uint8), offset=offsets, tiles=tiles, k=ks,
        enc=np.full(npat, code, dtype=np.int64),
        shift=np.full(npat, max(param, 1).bit_length() - 1, dtype=np.int64),
        pattern_of=pattern_of, md=md.astype(np.int64), tcell=tcell.astype(np.int64),
        sigma=sigma.astype(np.int64), goal_rank=goal_rank,
        nbr=neighbour_masks(partition.rows, partition.cols), lut3=enc.MOD3_LUT,
        n=n, npat=npat, reflect=int(bool(reflect)))
    return Heuristic(partition, rule, encoding, param, bool(reflect), arrays,
                     sum(e.saturated for e in payloads), tuple(sources))


def heuristic(partition: Partition, rule: str = "minimized", encoding: str = "byte",
              param: int = 0, reflect: bool = False, cache: str | None = None,
              threads: int | None = None, progress: ProgressFn | None = None) -> Heuristic:
    """The heuristic of ``partition``: each table loaded from the cache directory when there,
    else encoded from the byte table there, else built (and saved when ``cache`` is given)."""
    check_combination(rule, encoding, reflect, partition.rows, partition.cols, partition.goal)
    param = enc.check_encoding(encoding, param)
    payloads, sources = [], []
    for j in range(len(partition.patterns)):
        pattern = partition.pattern(j)
        if cache is not None:
            from searches.tiles_pdb_store import cached

            got, source = cached(pattern, rule, encoding, param, cache, threads=threads,
                                 progress=progress)
        else:
            table = build(pattern, rule, threads, progress).table
            got = enc.encode(table, pattern.k, pattern.n, pattern.manhattan_rows(), encoding,
                             param)
            source = "built"
        payloads.append(got)
        sources.append(source)
    return assemble(partition, rule, payloads, reflect, sources)
