"""Pattern databases for the sliding-tile puzzles: the additive heuristic of a partition.

The heuristic (``Heuristic``, arrays for numba in ``PDBArrays``) sums the tables of a partition
from the cells of the tiles (``where[tile] = cell``), and takes the maximum with the same sum
on the state reflected about the main diagonal when that is valid (square board, goal blank on
the diagonal: both conventions qualify on square boards); it refuses otherwise. During a
search one move changes one pattern's placement, so the update is one lookup (and one more
for the reflected state): see ``h_init`` and ``h_move``. ``heuristic`` assembles it from one
encoded table per pattern (``tiles_pdb_encode``), each loaded from the cache directory
(``tiles_pdb_store``) or built (``tiles_pdb_build``).

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
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from searches.support import tiles_pdb_encode as enc
from searches.support.intrinsics import lowest_bit_index, popcount
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.tiles_pdb_build import ProgressFn, build
from searches.support.tiles_pdb_patterns import (
    RULES,
    Partition,
    PDBError,
    goal_cells,
    neighbour_masks,
)
from searches.support.tiles_rank import rank

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *enc.JIT_SOURCES)


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
            from searches.support.tiles_pdb_store import cached

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


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
