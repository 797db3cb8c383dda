"""A* for sliding tiles, with reopening (for inconsistent heuristics), and ``astar-manhattan``.

A* keeps every state it has seen, so it trades IDA*'s repeated work for memory: on the
8-puzzle and easy 15-puzzles it generates fewer nodes than IDA*; on Korf's harder instances it
runs out of memory long before IDA* runs out of time (his point in 1985). Here it is the
cross-check of IDA*'s optimal lengths and the search for heuristics that are admissible but not
consistent (a pattern database maxed with its reflection, dual lookups), where a state can be
reached again by a cheaper path after it was expanded: it is then *reopened* (put back on the
open list and expanded again; ``reopened`` counts those). With a consistent heuristic, as
Manhattan and linear conflict are, nothing is ever reopened, which the tests check.

Everything is in flat arrays, in numba:

- a state is packed into ``W`` 64-bit words, ``bits = ceil(log2(cells))`` bits a cell (one word
  for the 8- and 15-puzzle); a move changes the packed key by two XORs;
- the nodes: key, ``g``, ``h``, parent, the move that led there, closed flag;
- a hash table of node indices (open addressing, linear probing, at most half full);
- the open list: a binary heap of (priority, node) with lazy deletion: priority =
  ``f``, ties to the larger ``g``; an entry whose ``g`` is no longer its node's is skipped.

The goal test is at expansion (so the answer is optimal whenever ``h`` is admissible, consistent
or not). Counters: ``expanded``, ``nodes`` (generated children, the parent's state never
generated again), ``reopened``, ``stored`` (distinct states). The heuristic is the same plug
as IDA*'s (``searches.support.tiles_heuristics.root_h`` / ``child_h``): at an expansion the
parent's value and per-state heuristic state are recomputed by ``root_h``, and each child's by
``child_h``. A* keeps no per-depth stack, so a pattern database's per-state values come from
``root_h`` on the unpacked board at each expansion. The kernels compile those functions in:
``forget_stale_cache`` makes numba recompile them when any file of ``JIT_SOURCES`` changes.
The kernel runs in chunks of expansions; between chunks Python checks the budget, and grows the
arrays (doubling, rehashing) while ``MEMORY_SHARE`` of the memory budget allows. Out of time
or memory, the answer is ``unknown`` (``out_of_memory`` = 1 for the latter).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np
from numba import njit

from bench.api import Budget, Outcome, Param, solver
from instances.tiles import Instance, Solution
from searches.support import tiles_heuristics
from searches.support.chunked import control
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.tiles_board import DIRS, Board, board_of
from searches.support.tiles_heuristics import (
    DROPOUT,
    LINEAR_CONFLICT,
    MANHATTAN,
    PDB,
    Heuristic,
    child_h,
    heuristic_tables,
    root_h,
)

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *tiles_heuristics.JIT_SOURCES)

# Control vector slots.
C_NODES, C_EXPANDED, C_REOPENED, C_STORED, C_HEAP, C_FOUND = range(6)
CTL_SLOTS = 6
PAUSED, SOLVED, EXHAUSTED, FULL = 0, 1, 2, 3
G_BITS = 20  # priority = f << G_BITS | (G_MAX - g): f first, then the deeper node
G_MAX = (1 << G_BITS) - 1

MARGIN_S = 0.02
FIRST_CHUNK = 20_000
CHUNK_S = 0.05
START_NODES = 1 << 16
BYTES_PER_NODE = 64  # a node (key, g, h, parent, move, flag), its hash slots, its heap entries
MEMORY_SHARE = 0.6  # of the run's memory budget A*'s arrays may take


@dataclass(frozen=True)
class Packing:
    """How a state fits in ``words`` 64-bit words: cell ``c`` at ``word[c]``, ``shift[c]``."""

    bits: int
    words: int
    word: np.ndarray
    shift: np.ndarray

    @classmethod
    def of(cls, ncells: int) -> Packing:
        bits = max(1, (ncells - 1).bit_length())
        per_word = 64 // bits
        cells = np.arange(ncells)
        return cls(bits, -(-ncells // per_word), (cells // per_word).astype(np.int64),
                   ((cells % per_word) * bits).astype(np.int64))

    def pack(self, tiles: tuple[int, ...]) -> np.ndarray:
        key = np.zeros(self.words, np.uint64)
        for cell, tile in enumerate(tiles):
            key[self.word[cell]] |= np.uint64(tile) << np.uint64(self.shift[cell])
        return key


# --- the kernel ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def mix(keys, node, words):
    """A 64-bit hash of a packed state (splitmix64's finaliser over its words)."""
    z = np.uint64(0x9E3779B97F4A7C15)
    for w in range(words):
        z ^= keys[node, w]
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return z


@njit(cache=True, nogil=True)
def find_or_add(keys, slots, node, words):
    """The index of the stored node with the key of row ``node`` (the row after the last stored
    one, filled by the caller), or ``node`` itself when it is new (then it is entered)."""
    mask = np.uint64(slots.size - 1)
    s = mix(keys, node, words) & mask
    while True:
        other = slots[s]
        if other < 0:
            slots[s] = node
            return node
        same = True
        for w in range(words):
            if keys[other, w] != keys[node, w]:
                same = False
                break
        if same:
            return other
        s = (s + np.uint64(1)) & mask


@njit(cache=True, nogil=True)
def rehash(keys, stored, slots, words):
    slots[:] = -1
    for node in range(stored):
        find_or_add(keys, slots, node, words)


@njit(cache=True, nogil=True)
def heap_push(heap_key, heap_node, size, key, node):
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if heap_key[parent] <= key:
            break
        heap_key[i] = heap_key[parent]
        heap_node[i] = heap_node[parent]
        i = parent
    heap_key[i] = key
    heap_node[i] = node
    return size + 1


@njit(cache=True, nogil=True)
def heap_pop(heap_key, heap_node, size):
    """Remove the root (the caller has read it); returns the new size."""
    size -= 1
    key, node = heap_key[size], heap_node[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and heap_key[child + 1] < heap_key[child]:
            child += 1
        if heap_key[child] >= key:
            break
        heap_key[i] = heap_key[child]
        heap_node[i] = heap_node[child]
        i = child
    if size > 0:
        heap_key[i] = key
        heap_node[i] = node
    return size


@njit(cache=True, nogil=True)
def astar_kernel(kind, keys, g, hv, parent, came, closed, slots, heap_key, heap_node, ctl, cap,
                 cell_word, cell_shift, bits, board, goal, succ_start, succ_end, succ_dir,
                 succ_cell, t8, tu8, t64, hs, P, pos):
    """Expand up to ``cap`` nodes in all (``ctl[C_EXPANDED]``); stop SOLVED (``ctl[C_FOUND]``
    the goal's node), EXHAUSTED (open list empty: no solution), FULL (the node or heap arrays
    may overflow in the next expansion: grow them) or PAUSED."""
    n = board.size
    words = keys.shape[1]
    mask = np.uint64((1 << bits) - 1)
    nodes, expanded, reopened = ctl[C_NODES], ctl[C_EXPANDED], ctl[C_REOPENED]
    stored, size = ctl[C_STORED], ctl[C_HEAP]
    status = PAUSED
    while expanded < cap:
        if stored + 4 >= keys.shape[0] or size + 4 >= heap_key.size:
            status = FULL
            break
        if size == 0:
            status = EXHAUSTED
            break
        key, node = heap_key[0], heap_node[0]
        size = heap_pop(heap_key, heap_node, size)
        if G_MAX - (key & G_MAX) != g[node]:
            continue  # a stale entry: the node was reached again by a shorter path
        blank = -1
        for cell in range(n):
            held = np.int64((keys[node, cell_word[cell]] >> np.uint64(cell_shift[cell])) & mask)
            board[cell] = held
            if held == 0:
                blank = cell
        if hv[node] == 0:
            at_goal = True
            for cell in range(n):
                if board[cell] != goal[cell]:
                    at_goal = False
                    break
            if at_goal:
                ctl[C_FOUND] = node
                status = SOLVED
                break
        if closed[node]:
            reopened += 1
        closed[node] = 1
        expanded += 1
        h = root_h(kind, board, blank, t8, tu8, t64, hs, P, pos)
        gc = g[node] + 1
        d_in = came[node]
        for p in range(succ_start[blank * 5 + d_in], succ_end[blank * 5 + d_in]):
            d = succ_dir[p]
            src = succ_cell[p]
            tile = board[src]
            hc = child_h(kind, board, blank, src, tile, d, h, t8, tu8, t64, hs, 0, P, pos)
            board[blank] = 0  # child_h may use the blank's cell as scratch
            nodes += 1
            moved = np.uint64(tile)
            for w in range(words):
                keys[stored, w] = keys[node, w]
            keys[stored, cell_word[src]] ^= moved << np.uint64(cell_shift[src])
            keys[stored, cell_word[blank]] ^= moved << np.uint64(cell_shift[blank])
            child = find_or_add(keys, slots, stored, words)
            if child == stored:
                stored += 1
                closed[child] = 0
            elif gc >= g[child]:
                continue
            g[child] = gc
            hv[child] = hc
            parent[child] = node
            came[child] = d
            size = heap_push(heap_key, heap_node, size,
                             ((gc + hc) << G_BITS) | (G_MAX - gc), child)
    ctl[C_NODES], ctl[C_EXPANDED], ctl[C_REOPENED] = nodes, expanded, reopened
    ctl[C_STORED], ctl[C_HEAP] = stored, size
    return status


@njit(cache=True, nogil=True)
def astar_manhattan(keys, g, hv, parent, came, closed, slots, heap_key, heap_node, ctl, cap,
                    cell_word, cell_shift, bits, board, goal, succ_start, succ_end, succ_dir,
                    succ_cell, t8, tu8, t64, hs, P, pos):
    return astar_kernel(MANHATTAN, keys, g, hv, parent, came, closed, slots, heap_key, heap_node,
                        ctl, cap, cell_word, cell_shift, bits, board, goal, succ_start,
                        succ_end, succ_dir, succ_cell, t8, tu8, t64, hs, P, pos)


@njit(cache=True, nogil=True)
def astar_linear_conflict(keys, g, hv, parent, came, closed, slots, heap_key, heap_node, ctl, cap,
                          cell_word, cell_shift, bits, board, goal, succ_start, succ_end, succ_dir,
                          succ_cell, t8, tu8, t64, hs, P, pos):
    return astar_kernel(LINEAR_CONFLICT, keys, g, hv, parent, came, closed, slots, heap_key,
                        heap_node, ctl, cap, cell_word, cell_shift, bits, board, goal,
                        succ_start, succ_end, succ_dir, succ_cell, t8, tu8, t64, hs, P, pos)


@njit(cache=True, nogil=True)
def astar_dropout(keys, g, hv, parent, came, closed, slots, heap_key, heap_node, ctl, cap,
                  cell_word, cell_shift, bits, board, goal, succ_start, succ_end, succ_dir,
                  succ_cell, t8, tu8, t64, hs, P, pos):
    return astar_kernel(DROPOUT, keys, g, hv, parent, came, closed, slots, heap_key, heap_node,
                        ctl, cap, cell_word, cell_shift, bits, board, goal, succ_start,
                        succ_end, succ_dir, succ_cell, t8, tu8, t64, hs, P, pos)


@njit(cache=True, nogil=True)
def astar_pdb(keys, g, hv, parent, came, closed, slots, heap_key, heap_node, ctl, cap,
              cell_word, cell_shift, bits, board, goal, succ_start, succ_end, succ_dir,
              succ_cell, t8, tu8, t64, hs, P, pos):
    return astar_kernel(PDB, keys, g, hv, parent, came, closed, slots, heap_key, heap_node,
                        ctl, cap, cell_word, cell_shift, bits, board, goal, succ_start,
                        succ_end, succ_dir, succ_cell, t8, tu8, t64, hs, P, pos)


#: kind -> chunk kernel (one compiled specialisation per heuristic, as for IDA*).
KERNELS = {MANHATTAN: astar_manhattan, LINEAR_CONFLICT: astar_linear_conflict,
           DROPOUT: astar_dropout, PDB: astar_pdb}
# The kernels compile in the heuristics and the tables' lookups: recompile them when those
# files change.
forget_stale_cache([*own_dispatchers(__name__), *KERNELS.values()], *JIT_SOURCES)


# --- the search in Python -----------------------------------------------------------------------


class AStarSearch:
    """One A* search in progress: its arrays, grown by doubling between chunks."""

    def __init__(self, instance: Instance, heuristic: Heuristic | int = MANHATTAN,
                 capacity: int = START_NODES):
        self.instance = instance
        self.tables: Board = board_of(instance)
        self.heuristic = (heuristic if isinstance(heuristic, Heuristic)
                          else heuristic_tables(self.tables, heuristic))
        self.packing = Packing.of(instance.ncells)
        self.board = np.zeros(instance.ncells, np.int64)
        self.goal = np.asarray(instance.goal_tiles, np.int64)
        self.hs = np.zeros((2, self.heuristic.width), np.int64)
        self.pos = np.zeros(3 * instance.ncells, np.int64)
        self.ctl = np.zeros(CTL_SLOTS, np.int64)
        self.ctl[C_FOUND] = -1
        self.status = PAUSED
        self._allocate(capacity)
        start = np.asarray(instance.tiles, np.int64)
        h0 = int(root_h(self.heuristic.kind, start, instance.tiles.index(0),
                            self.heuristic.t8, self.heuristic.tu8, self.heuristic.t64,
                            self.hs, self.heuristic.arrays, self.pos))
        self.start_h = h0
        self.keys[0] = self.packing.pack(instance.tiles)
        find_or_add(self.keys, self.slots, 0, self.packing.words)
        self.g[0], self.hv[0], self.parent[0], self.came[0] = 0, h0, -1, 4
        self.ctl[C_STORED] = 1
        self.ctl[C_HEAP] = heap_push(self.heap_key, self.heap_node, 0,
                                     (h0 << G_BITS) | G_MAX, 0)

    def _allocate(self, capacity: int) -> None:
        self.keys = np.zeros((capacity, self.packing.words), np.uint64)
        self.g = np.zeros(capacity, np.int64)
        self.hv = np.zeros(capacity, np.int64)
        self.parent = np.zeros(capacity, np.int64)
        self.came = np.zeros(capacity, np.int64)
        self.closed = np.zeros(capacity, np.uint8)
        self.slots = np.full(2 * capacity, -1, np.int64)
        self.heap_key = np.zeros(capacity, np.int64)
        self.heap_node = np.zeros(capacity, np.int64)

    @property
    def capacity(self) -> int:
        return self.keys.shape[0]

    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.keys, self.g, self.hv, self.parent, self.came,
                                      self.closed, self.slots, self.heap_key, self.heap_node))

    def grow(self) -> None:
        """Double the node arrays and the hash table (rehashed) or the heap, whichever is
        close to full."""
        stored, size = int(self.ctl[C_STORED]), int(self.ctl[C_HEAP])
        if stored + 4 >= self.capacity:
            new = 2 * self.capacity
            for name in ("keys", "g", "hv", "parent", "came", "closed"):
                old = getattr(self, name)
                arr = np.zeros((new, *old.shape[1:]), old.dtype)
                arr[:stored] = old[:stored]
                setattr(self, name, arr)
            self.slots = np.full(2 * new, -1, np.int64)
            rehash(self.keys, stored, self.slots, self.packing.words)
        if size + 4 >= self.heap_key.size:
            for name in ("heap_key", "heap_node"):
                old = getattr(self, name)
                arr = np.zeros(2 * old.size, old.dtype)
                arr[:size] = old[:size]
                setattr(self, name, arr)

    def run(self, expansions: int, max_bytes: int = 0) -> int:
        """At most ``expansions`` more expansions; PAUSED, SOLVED, EXHAUSTED, or FULL when the
        arrays would have to grow past ``max_bytes`` (0 = no limit)."""
        if self.status in (SOLVED, EXHAUSTED):
            return self.status
        h, t, pk = self.heuristic, self.tables, self.packing
        cap = self.expanded + expansions
        while True:
            status = int(KERNELS[h.kind](
                self.keys, self.g, self.hv, self.parent, self.came, self.closed, self.slots,
                self.heap_key, self.heap_node, self.ctl, cap, pk.word, pk.shift, pk.bits,
                self.board, self.goal, t.succ_start, t.succ_end, t.succ_dir, t.succ_cell,
                h.t8, h.tu8, h.t64, self.hs, h.arrays, self.pos))
            if status != FULL:
                break
            if max_bytes and 2 * self.nbytes() > max_bytes:
                break
            self.grow()
        self.status = status
        return status

    nodes = control(C_NODES)
    expanded = control(C_EXPANDED)
    reopened = control(C_REOPENED)
    stored = control(C_STORED)

    def moves(self) -> str:
        """The blank's moves from the start to the goal (once SOLVED), by parent links."""
        node = int(self.ctl[C_FOUND])
        out = []
        while node > 0:
            out.append(DIRS[int(self.came[node])])
            node = int(self.parent[node])
        return "".join(reversed(out))

    def counters(self) -> dict[str, float]:
        return {"nodes": self.nodes, "expanded": self.expanded, "reopened": self.reopened,
                "stored": self.stored, "h_start": self.start_h, "memory_mb": self.nbytes() / 2**20}


def drive(search: AStarSearch, budget: Budget, max_bytes: int) -> int:
    """Chunks of expansions until the search ends, the budget ends, or memory is used up."""
    rate = 0.0
    status = search.status
    while status == PAUSED:
        remaining = budget.remaining() - MARGIN_S
        size = FIRST_CHUNK if rate == 0 else max(1_000, int(rate * min(CHUNK_S, remaining)))
        if remaining <= 0:
            break
        before, t = search.expanded, time.perf_counter()
        status = search.run(size, max_bytes)
        rate = (search.expanded - before) / max(time.perf_counter() - t, 1e-6)
    return status


def solve_astar(instance: Instance, budget: Budget, heuristic: Heuristic | int) -> Outcome:
    if not instance.solvable:  # permutation parity: a proof, no search needed
        return Outcome("infeasible", counters={"nodes": 0})
    t0 = time.perf_counter()
    search = AStarSearch(instance, heuristic)
    t_encode = time.perf_counter() - t0
    max_bytes = int(budget.mem_mb * 2**20 * MEMORY_SHARE)
    status = drive(search, budget, max_bytes)
    t_solve = time.perf_counter() - t0 - t_encode
    counters = search.counters()
    if status == SOLVED:
        moves = search.moves()
        return Outcome("optimal", solution=Solution(moves), objective=len(moves),
                       counters=counters, t_encode=t_encode, t_solve=t_solve)
    if status == FULL:
        counters["out_of_memory"] = 1
    return Outcome("unknown", counters=counters, t_encode=t_encode, t_solve=t_solve)


def prepare() -> None:
    """Compile (or load from numba's cache) the kernels of the solver's two heuristics once
    per worker (``DROPOUT``, for the tests, compiles when used)."""
    from searches.support.tiles_ida_search import tiny_instances

    for kind in (MANHATTAN, LINEAR_CONFLICT):
        for instance in tiny_instances():
            AStarSearch(instance, kind).run(100)


@solver("astar-manhattan", family="tiles", paradigm="native", backend=f"numba-{numba.__version__}",
        params=[Param("heuristic", "manhattan", "manhattan or linear-conflict (both consistent)",
                      choices=("manhattan", "linear-conflict"))],
        prepare=prepare)
def solve(instance: Instance, budget: Budget, seed: int, heuristic: str = "manhattan") -> Outcome:
    """A* with reopening (hash of packed states, binary heap); Manhattan distance."""
    return solve_astar(instance, budget, MANHATTAN if heuristic == "manhattan"
                       else LINEAR_CONFLICT)
