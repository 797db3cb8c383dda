"""Edge matching by chronological backtracking with randomized restarts (seed 004's DFS).

This is the search Eternity II solvers written in C use: fill the board row-major from the top
left corner, placing only exact matches, and backtrack chronologically. The whole job of the
implementation is to make one node cheap, so everything that can be decided before the search
is decided before it:

- Every oriented piece ``o = 4 * piece + rot`` is precomputed with its four colours.
- Each cell has a *class*: whether its east side and its south side lie on the frame (last
  column, last row), the hint pinned on it, and the colour its east or south neighbour's hint
  demands. Per (class, left colour, top colour) one candidate list holds exactly the
  orientations that fit: grey on E/S exactly when the frame requires it, the demanded colours
  towards hints, and W/N equal to the key. The left/top colours are grey on the first
  column/row and never grey inside, so frame legality needs no test at all.
- Hinted pieces appear only in the one-entry lists of their hinted cells, so they can never be
  placed anywhere else; a hinted cell's list only matches when its neighbours agree with it.
- All lists live in one flat int32 array with an offset table; the key of a cell is
  ``class_base[cell] + east colour of the west neighbour * C1 + south colour of the north
  neighbour`` (C1 = colours + 1), read from two small arrays a placement writes.

What is left for a node is one load of ``used[piece]`` per candidate and a handful of stores.

Randomized restarts: each run shuffles every candidate list with a seeded splitmix64 generator
(implemented here, no global state) and stops after a node limit given by the schedule
(``luby``: unit x Luby sequence, ``geometric``: unit x factor^i, ``none``: a single run). A run
that exhausts its tree within its limit has explored the full tree, so it proves that the
instance has no solution, with or without restarts. The default (geometric from 100k nodes,
x1.5) is measured on planted boards (5 + 17 colours, 5 hints): long runs solve more (11x11,
10 boards x 2 seeds, 3e8 nodes: Luby from 100k solved 2/20, geometric 5/20, one single run
6/20), while many short early runs get past the hints more often, which keeps a far better
partial board (12x12, 5e8 nodes: a single run or geometric from 1M can stay at 37-40 of 264
joins, geometric from 100k reaches 117-132 and solved one of five). Growing runs give both.

Numba cannot read the clock, so the search runs in chunks: ``search_chunk`` continues from its
state (all in arrays) for at most a given number of nodes and returns, and Python checks the
budget in between. Chunk boundaries never change the search: the same seed and parameters give
the same node counts and the same boards whatever the chunk size.

The search is single-threaded: ``budget.cores`` is accepted and ignored (run independent seeds
in parallel instead). A partial answer is the deepest board reached over all runs (the row-major
prefix plus every hint), which is also the one with the most matched joins, because a prefix of
exact matches only gains joins as it grows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np
from numba import njit

from bench.api import Budget, Outcome, Param, solver
from instances.edgematch.model import GREY, Instance, Solution

RESTART_MODES = ("luby", "geometric", "none")
MODE_LUBY, MODE_GEOMETRIC, MODE_NONE = 0, 1, 2

# A run limit that is never reached (node counts are int64).
NEVER = 1 << 62

# Kept off the budget for building the answer, so the solver returns before the watchdog fires.
MARGIN_S = 0.02

# The side of the east/south neighbour that faces side E/S of a cell.
FACING = {1: 3, 2: 0}

# Slots of the int64 state vector that search_chunk reads and writes back.
S_DEPTH, S_NODES, S_RUN_END, S_RESTARTS, S_BEST_DEPTH = range(5)
STATE_SLOTS = 5

# What search_chunk returns.
PAUSED, SOLVED, EXHAUSTED = 0, 1, 2


# --- random numbers, schedules ----------------------------------------------------------------


@njit(cache=True, nogil=True)
def splitmix64(rng: np.ndarray) -> np.uint64:
    """Next value of the generator whose state is ``rng[0]``: tiny, seedable with any integer,
    and identical on every machine (no numpy global state inside numba)."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def shuffle_lists(cand: np.ndarray, seg_lo: np.ndarray, seg_hi: np.ndarray,
                  rng: np.ndarray) -> None:
    """Fisher-Yates shuffle of every candidate list (only lists of two or more are given)."""
    for s in range(seg_lo.size):
        lo = seg_lo[s]
        for i in range(seg_hi[s] - lo - 1, 0, -1):
            j = lo + np.int64(splitmix64(rng) % np.uint64(i + 1))
            tmp = cand[lo + i]
            cand[lo + i] = cand[j]
            cand[j] = tmp


@njit(cache=True, nogil=True)
def luby(i: int) -> int:
    """The i-th term (1-based) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ...: the restart
    schedule that is within a log factor of the best fixed one without knowing it."""
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


@njit(cache=True, nogil=True)
def run_length(mode: int, unit: int, factor: float, run: int) -> int:
    """Node limit of run number ``run`` (0-based) under the restart schedule."""
    if mode == MODE_NONE:
        return NEVER
    if mode == MODE_LUBY:
        length = float(unit) * luby(run + 1)
    else:
        length = float(unit) * factor ** run
    return NEVER if length >= NEVER else max(1, np.int64(length))


# --- the search -------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def begin_run(cand, lstart, cell_key, west, north, seg_lo, seg_hi, board, cur, stop, used,
              ecol, scol, state, rng, mode, unit, factor) -> None:
    """Empty the board, reshuffle every candidate list and open cell 0 for a new run."""
    for i in range(state[S_DEPTH]):
        used[board[i] >> 2] = 0
    shuffle_lists(cand, seg_lo, seg_hi, rng)
    key = cell_key[0] + ecol[west[0]] + scol[north[0]]
    cur[0] = lstart[key]
    stop[0] = lstart[key + 1]
    state[S_DEPTH] = 0
    state[S_RUN_END] = state[S_NODES] + run_length(mode, unit, factor, state[S_RESTARTS])


@njit(cache=True, nogil=True)
def search_chunk(cand, lstart, cell_key, west, north, o_east, o_south, seg_lo, seg_hi,
                 board, cur, stop, used, ecol, scol, best, state, rng,
                 mode, unit, factor, stop_at) -> int:
    """Continue the depth-first search until ``stop_at`` nodes in total, a solution, or an
    exhausted tree; return PAUSED, SOLVED or EXHAUSTED with the state saved in the arrays.

    Depth ``d`` is both the number of placed cells and the cell being filled (row-major).
    ``c``/``e`` are the cursor into and the end of cell d's candidate list; they are saved in
    ``cur``/``stop`` when going deeper and reloaded on backtracking. A node is a placement.
    """
    n = cell_key.size
    d = state[S_DEPTH]
    nodes = state[S_NODES]
    run_end = state[S_RUN_END]
    best_depth = state[S_BEST_DEPTH]
    next_check = min(run_end, stop_at)
    c = cur[d]
    e = stop[d]
    while True:
        if c < e:
            o = cand[c]
            c += 1
            p = o >> 2
            if used[p]:
                continue
            used[p] = 1
            board[d] = o
            ecol[d] = o_east[o]
            scol[d] = o_south[o]
            cur[d] = c
            stop[d] = e
            nodes += 1
            d += 1
            if d > best_depth:
                best_depth = d
                best[:d] = board[:d]
                if d == n:
                    break
            key = cell_key[d] + ecol[west[d]] + scol[north[d]]
            c = lstart[key]
            e = lstart[key + 1]
            if nodes >= next_check:
                if nodes >= run_end:
                    state[S_DEPTH] = d
                    state[S_NODES] = nodes
                    state[S_RESTARTS] += 1
                    begin_run(cand, lstart, cell_key, west, north, seg_lo, seg_hi, board, cur,
                              stop, used, ecol, scol, state, rng, mode, unit, factor)
                    d = 0
                    run_end = state[S_RUN_END]
                    c = cur[0]
                    e = stop[0]
                if nodes >= stop_at:
                    break
                next_check = min(run_end, stop_at)
        else:
            d -= 1
            if d < 0:
                break
            used[board[d] >> 2] = 0
            c = cur[d]
            e = stop[d]
    state[S_NODES] = nodes
    state[S_RUN_END] = run_end
    state[S_BEST_DEPTH] = best_depth
    if d == n:
        state[S_DEPTH] = d
        return SOLVED
    if d < 0:
        state[S_DEPTH] = 0
        return EXHAUSTED
    state[S_DEPTH] = d
    cur[d] = c
    stop[d] = e
    return PAUSED


# --- tables (built once per instance, in Python) ----------------------------------------------


@dataclass
class Tables:
    """The static search tables of one instance; flat int arrays, read-only in the search
    except ``cand``, whose lists are shuffled in place at each restart."""

    cand: np.ndarray  # oriented pieces, grouped by key
    lstart: np.ndarray  # the list of key k is cand[lstart[k]:lstart[k + 1]]
    seg_lo: np.ndarray  # the lists of two or more entries: what a restart shuffles
    seg_hi: np.ndarray
    cell_key: np.ndarray  # per cell: class * C1 * C1, the base of its keys
    west: np.ndarray  # per cell: slot of ecol holding the west neighbour's colour (n = grey)
    north: np.ndarray  # per cell: slot of scol holding the north neighbour's colour (n = grey)
    o_east: np.ndarray  # per oriented piece: east colour * C1
    o_south: np.ndarray  # per oriented piece: south colour
    hints: dict[int, int]  # cell -> pinned oriented piece (the first hint of a cell)
    score_at_depth: np.ndarray  # matched joins of the partial board with d cells placed

    def kernel_args(self) -> tuple[np.ndarray, ...]:
        return (self.cand, self.lstart, self.cell_key, self.west, self.north, self.o_east,
                self.o_south, self.seg_lo, self.seg_hi)


def oriented_colours(instance: Instance) -> np.ndarray:
    """(4P, 4) colours on sides N, E, S, W of oriented piece ``4 * piece + rot``: side s shows
    listed edge (s - rot) % 4, which is ``np.roll`` by rot along the sides."""
    edges = instance.edges_array()
    out = np.empty((4 * len(edges), 4), dtype=np.int32)
    for rot in range(4):
        out[rot::4] = np.roll(edges, rot, axis=1)
    return out


def distinct_orientations(colours: np.ndarray) -> np.ndarray:
    """Oriented pieces that differ from every lower rotation of the same piece: a symmetric
    piece (a-b-a-b, a-a-a-a) would otherwise be tried twice or four times at the same place."""
    rows = [tuple(c) for c in colours.tolist()]
    keep = [o for o in range(len(rows)) if rows[o] not in rows[o - (o & 3):o]]
    return np.asarray(keep, dtype=np.int64)


def pinned_cells(instance: Instance) -> tuple[dict[int, int], set[int]]:
    """Hinted cells -> pinned oriented piece, and the cells two different hints pin (no board
    can satisfy both, so such a cell gets an empty candidate list)."""
    pinned: dict[int, int] = {}
    clashes: set[int] = set()
    for h in instance.hints:
        if not (0 <= h.row < instance.rows and 0 <= h.col < instance.cols):
            raise ValueError(f"hint {h} is off the {instance.rows}x{instance.cols} board")
        if not (0 <= h.piece < len(instance.pieces) and 0 <= h.rot < 4):
            raise ValueError(f"hint {h} names no piece/rotation of the instance")
        cell, o = h.row * instance.cols + h.col, 4 * h.piece + h.rot
        if pinned.setdefault(cell, o) != o:
            clashes.add(cell)
    return pinned, clashes


def cell_classes(instance: Instance, colours: np.ndarray, pinned: dict[int, int],
                 clashes: set[int]) -> tuple[list[tuple[int, int, int, int, int]], np.ndarray]:
    """The distinct cell classes and each cell's class index. A class is (east on frame,
    south on frame, pinned oriented piece or -1 (-2 for a clash), colour demanded on the east
    side by a hinted east neighbour or -1, the same for the south side)."""
    rows, cols = instance.rows, instance.cols
    index: dict[tuple[int, int, int, int, int], int] = {}
    of_cell = np.empty(rows * cols, dtype=np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        east, south = cell + 1, cell + cols
        need_e = int(colours[pinned[east], 3]) if c < cols - 1 and east in pinned else -1
        need_s = int(colours[pinned[south], 0]) if r < rows - 1 and south in pinned else -1
        pin = -2 if cell in clashes else pinned.get(cell, -1)
        cls = (int(c == cols - 1), int(r == rows - 1), pin, need_e, need_s)
        of_cell[cell] = index.setdefault(cls, len(index))
    return list(index), of_cell


def class_members(cls: tuple[int, int, int, int, int], colours: np.ndarray,
                  free: np.ndarray) -> np.ndarray:
    """Oriented pieces a cell of this class accepts (whatever its left/top colours): grey on
    E and S exactly where the frame is, the hinted neighbours' colours, the pinned piece."""
    east_frame, south_frame, pin, need_e, need_s = cls
    if pin == -2:
        return free[:0]
    members = free if pin == -1 else np.asarray([pin])
    east, south = colours[members, 1], colours[members, 2]
    ok = ((east == GREY) == bool(east_frame)) & ((south == GREY) == bool(south_frame))
    if need_e >= 0:
        ok &= east == need_e
    if need_s >= 0:
        ok &= south == need_s
    return members[ok]


def candidate_lists(classes, colours: np.ndarray, free: np.ndarray,
                    c1: int) -> tuple[np.ndarray, np.ndarray]:
    """All candidate lists in one flat array, grouped by key = class * C1^2 + W * C1 + N, and
    the offset table (size keys + 1). Within a list, oriented pieces are in increasing order
    (the order before the first shuffle)."""
    keys, members = [], []
    for k, cls in enumerate(classes):
        m = class_members(cls, colours, free)
        members.append(m)
        keys.append(k * c1 * c1 + colours[m, 3] * c1 + colours[m, 0])
    key = np.concatenate(keys).astype(np.int64)
    cand = np.concatenate(members).astype(np.int32)
    order = np.argsort(key, kind="stable")
    counts = np.bincount(key, minlength=len(classes) * c1 * c1)
    lstart = np.zeros(len(counts) + 1, dtype=np.int32)
    np.cumsum(counts, out=lstart[1:])
    return cand[order], lstart


def depth_scores(instance: Instance, colours: np.ndarray, pinned: dict[int, int]) -> np.ndarray:
    """Matched joins of the partial board with cells 0..d-1 placed plus every hint, d = 0..n.

    A join is matched once its cells are on the board: between prefix cells by exact matching,
    between a prefix cell and a later hint by the demanded colours, between two hints beyond the
    prefix when the hints agree. So each join counts from the depth its last non-hinted cell is
    placed (from 0 for two agreeing hints), and the score is a cumulative count.
    """
    rows, cols, n = instance.rows, instance.cols, instance.ncells
    counted_from = np.zeros(n + 2, dtype=np.int64)
    for a in range(n):
        r, c = divmod(a, cols)
        for b, side in ((a + 1, 1), (a + cols, 2)):
            if (side == 1 and c == cols - 1) or (side == 2 and r == rows - 1):
                continue
            if a in pinned and b in pinned:
                agree = colours[pinned[a], side] == colours[pinned[b], FACING[side]]
                counted_from[0 if agree else n + 1] += 1
            else:
                counted_from[(a if b in pinned else b) + 1] += 1
    return np.cumsum(counted_from[: n + 1])


def build_tables(instance: Instance) -> Tables:
    """Every static table of the search for one instance."""
    cols, n = instance.cols, instance.ncells
    colours = oriented_colours(instance)
    c1 = max(int(instance.colors), int(colours.max(initial=0))) + 1
    pinned, clashes = pinned_cells(instance)
    hinted_pieces = {o >> 2 for o in pinned.values()}
    free = np.asarray([o for o in distinct_orientations(colours) if o >> 2 not in hinted_pieces],
                      dtype=np.int64)
    classes, of_cell = cell_classes(instance, colours, pinned, clashes)
    cand, lstart = candidate_lists(classes, colours, free, c1)
    shuffled = np.flatnonzero(np.diff(lstart) >= 2)
    hints = {cell: o for cell, o in pinned.items() if cell not in clashes}
    cells = np.arange(n)
    return Tables(
        cand=cand,
        lstart=lstart,
        seg_lo=lstart[shuffled].astype(np.int32),
        seg_hi=lstart[shuffled + 1].astype(np.int32),
        cell_key=(of_cell * c1 * c1).astype(np.int32),
        west=np.where(cells % cols == 0, n, cells - 1).astype(np.int32),
        north=np.where(cells < cols, n, cells - cols).astype(np.int32),
        o_east=(colours[:, 1] * c1).astype(np.int32),
        o_south=colours[:, 2].astype(np.int32),
        hints=hints,
        score_at_depth=depth_scores(instance, colours, hints),
    )


# --- the search state and its driver ----------------------------------------------------------


@dataclass
class Search:
    """One search in progress: the tables, the mutable arrays, the schedule."""

    tables: Tables
    board: np.ndarray
    cur: np.ndarray
    stop: np.ndarray
    used: np.ndarray
    ecol: np.ndarray
    scol: np.ndarray
    best: np.ndarray
    state: np.ndarray
    rng: np.ndarray
    schedule: tuple[int, int, float]

    @classmethod
    def start(cls, tables: Tables, npieces: int, seed: int, mode: int, unit: int,
              factor: float) -> Search:
        """A fresh search with run 0 begun (its candidate lists already shuffled)."""
        n = tables.cell_key.size
        search = cls(
            tables=tables,
            board=np.full(n, -1, dtype=np.int32),
            cur=np.zeros(n + 1, dtype=np.int32),
            stop=np.zeros(n + 1, dtype=np.int32),
            used=np.zeros(max(1, npieces), dtype=np.uint8),
            ecol=np.zeros(n + 1, dtype=np.int32),
            scol=np.zeros(n + 1, dtype=np.int32),
            best=np.full(n, -1, dtype=np.int32),
            state=np.zeros(STATE_SLOTS, dtype=np.int64),
            rng=np.array([int(seed) & (2**64 - 1)], dtype=np.uint64),
            schedule=(int(mode), int(unit), float(factor)),
        )
        t = tables
        begin_run(t.cand, t.lstart, t.cell_key, t.west, t.north, t.seg_lo, t.seg_hi,
                  search.board, search.cur, search.stop, search.used, search.ecol, search.scol,
                  search.state, search.rng, *search.schedule)
        return search

    @property
    def nodes(self) -> int:
        return int(self.state[S_NODES])

    @property
    def restarts(self) -> int:
        return int(self.state[S_RESTARTS])

    @property
    def best_depth(self) -> int:
        return int(self.state[S_BEST_DEPTH])

    @property
    def best_score(self) -> int:
        return int(self.tables.score_at_depth[self.best_depth])

    def run(self, nodes: int) -> int:
        """Search ``nodes`` more nodes at most; PAUSED, SOLVED or EXHAUSTED."""
        mode, unit, factor = self.schedule
        return int(search_chunk(*self.tables.kernel_args(), self.board, self.cur, self.stop,
                                self.used, self.ecol, self.scol, self.best, self.state, self.rng,
                                mode, unit, factor, self.nodes + nodes))

    def best_board(self, rows: int, cols: int) -> Solution:
        """The deepest board: its row-major prefix, plus every hint beyond it."""
        oriented = self.best.copy()
        oriented[self.best_depth:] = -1
        for cell, o in self.tables.hints.items():
            if cell >= self.best_depth:
                oriented[cell] = o
        piece = np.where(oriented >= 0, oriented >> 2, -1)
        return Solution.from_arrays(rows, cols, piece, oriented & 3)


def drive(search: Search, budget: Budget, max_nodes: int, chunk_nodes: int,
          trace: list[tuple[float, float]]) -> int:
    """Run chunks until an answer, ``max_nodes`` (0 = no limit) or the end of the budget.

    A chunk is shortened to what the measured node rate says fits in the remaining time, so a
    short budget is not overrun by a whole chunk.
    """
    t0 = time.perf_counter()
    rate = 0.0
    status = PAUSED
    while status == PAUSED:
        remaining = budget.remaining() - MARGIN_S
        size = chunk_nodes
        if 0 < rate * remaining < size:
            size = max(1000, int(rate * remaining))
        if max_nodes:
            size = min(size, max_nodes - search.nodes)
        if remaining <= 0 or size <= 0:
            break
        before, score, t = search.nodes, search.best_score, time.perf_counter()
        status = search.run(size)
        rate = (search.nodes - before) / max(time.perf_counter() - t, 1e-6)
        if search.best_score > score:
            trace.append((time.perf_counter() - t0, float(search.best_score)))
    return status


# --- the solver -------------------------------------------------------------------------------


def tiny_instance() -> Instance:
    """A 2x2 board (four copies of one corner piece) that makes every kernel compile."""
    return Instance(rows=2, cols=2, colors=1, pieces=((0, 1, 1, 0),) * 4)


def prepare() -> None:
    """Compile (or load from numba's cache) every kernel once per worker, on a tiny board."""
    search = Search.start(build_tables(tiny_instance()), 4, 1, MODE_LUBY, 10, 1.5)
    search.run(1000)


PARAMS = [
    Param("restart", "geometric", "restart schedule: geometric (unit x factor^i), luby (unit x "
          "Luby sequence) or none (one run: exhausting it proves infeasibility)",
          choices=RESTART_MODES),
    Param("restart_unit", 100_000, "nodes of the shortest run", min=1),
    Param("restart_factor", 1.5, "growth of geometric runs", min=1.0),
    Param("max_nodes", 0, "stop after this many nodes (0 = only the time budget)", min=0),
    Param("chunk_nodes", 2_000_000, "nodes between two looks at the clock", min=1000),
]


@solver("dfs-restarts", family="edgematch", paradigm="native",
        backend=f"numba-{numba.__version__}", params=PARAMS, prepare=prepare)
def solve(instance: Instance, budget: Budget, seed: int, restart: str = "geometric",
          restart_unit: int = 100_000, restart_factor: float = 1.5, max_nodes: int = 0,
          chunk_nodes: int = 2_000_000) -> Outcome:
    """Row-major chronological backtracking over exact matches, with randomized restarts."""
    t0 = time.perf_counter()
    if instance.ncells == 0:
        return Outcome("solved", solution=Solution.empty(0, 0), t_encode=0.0, t_solve=0.0)
    tables = build_tables(instance)
    search = Search.start(tables, len(instance.pieces), seed or 0,
                          RESTART_MODES.index(restart), restart_unit, restart_factor)
    t_encode = time.perf_counter() - t0
    trace: list[tuple[float, float]] = []
    status = drive(search, budget, max_nodes, chunk_nodes, trace)
    t_solve = time.perf_counter() - t0 - t_encode
    counters = {"nodes": search.nodes, "restarts": search.restarts,
                "best_score": search.best_score, "best_depth": search.best_depth}
    claim = {SOLVED: "solved", EXHAUSTED: "infeasible"}.get(status, "unknown")
    board = None if claim == "infeasible" else search.best_board(instance.rows, instance.cols)
    return Outcome(claim, solution=board, counters=counters, t_encode=t_encode, t_solve=t_solve,
                   score_trace=trace)
