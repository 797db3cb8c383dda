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

Randomized restarts (``searches.support.edgematch_search``): each run shuffles every candidate
list and stops after a node limit given by the schedule (``luby``, ``geometric``, ``none``). A
run that exhausts its tree within its limit has explored the full tree, so it proves that the
instance has no solution, with or without restarts. The default grows runs geometrically from
short ones (100k nodes, x1.5): many short early runs get past the hints more often, which
keeps a far better partial board, and the long later runs solve more.

The search itself is the exact variant of the kernel in ``searches.support.edgematch_search``,
run in chunks (numba cannot read the clock); chunk boundaries never change the search: the
same seed and parameters give the same node counts and the same boards whatever the chunk size.

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

from bench.api import Budget, Outcome, Param, solver
from instances.edgematch.model import GREY, Instance, Solution
from searches.support.edgematch_search import (
    EXHAUSTED,
    RESTART_MODES,
    S_BEST,
    S_NODES,
    S_RESTARTS,
    SOLVED,
    STATE_SLOTS,
    begin_run,
    drive,
    exact_chunk,
)
from searches.support.edgematch_tables import pieces, tiny_instance
from searches.support.restarts import MODE_LUBY

# The side of the east/south neighbour that faces side E/S of a cell.
FACING = {1: 3, 2: 0}


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
    colours, c1, pinned, clashes, free = pieces(instance)
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
        return int(self.state[S_BEST])

    @property
    def best_score(self) -> int:
        return int(self.tables.score_at_depth[self.best_depth])

    def run(self, nodes: int) -> int:
        """Search ``nodes`` more nodes at most; PAUSED, SOLVED or EXHAUSTED."""
        mode, unit, factor = self.schedule
        return int(exact_chunk(*self.tables.kernel_args(), self.board, self.cur, self.stop,
                               self.used, self.ecol, self.scol, self.best, self.state, self.rng,
                               mode, unit, factor, self.nodes + nodes))

    def next_run(self) -> bool:
        """No run follows an exhausted one: exhausting a run's tree is a proof of
        infeasibility."""
        return False

    def best_board(self, rows: int, cols: int) -> Solution:
        """The deepest board: its row-major prefix, plus every hint beyond it."""
        oriented = self.best.copy()
        oriented[self.best_depth:] = -1
        for cell, o in self.tables.hints.items():
            if cell >= self.best_depth:
                oriented[cell] = o
        piece = np.where(oriented >= 0, oriented >> 2, -1)
        return Solution.from_arrays(rows, cols, piece, oriented & 3)


# --- the solver -------------------------------------------------------------------------------


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
    status = drive(search, budget, max_nodes, chunk_nodes, trace, time.perf_counter())
    t_solve = time.perf_counter() - t0 - t_encode
    counters = {"nodes": search.nodes, "restarts": search.restarts,
                "best_score": search.best_score, "best_depth": search.best_depth}
    claim = {SOLVED: "solved", EXHAUSTED: "infeasible"}.get(status, "unknown")
    board = None if claim == "infeasible" else search.best_board(instance.rows, instance.cols)
    return Outcome(claim, solution=board, counters=counters, t_encode=t_encode, t_solve=t_solve,
                   score_trace=trace)
