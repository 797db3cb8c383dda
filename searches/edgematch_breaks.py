"""Edge matching in score mode: row-major backtracking that may break joins, on a schedule.

Eternity II has (almost surely) no full solution reachable by search, so score mode asks for the
full legal board with the most matched joins. The classic way (Verhaard's "break index") is the
exact-match DFS of ``searches.edgematch_dfs`` where a placement may *mismatch* its left and/or
top neighbour (a "break", costing one join each), under a schedule that allows no breaks in the
first cells and a growing number deeper down: the early rows, which constrain everything after
them, stay perfect, and the last rows, where exact search dies, can still be completed.

Layout (the ideas of ``edgematch_dfs``; the kernel is the scored variant of
``searches.support.edgematch_search``):

- Oriented pieces ``o = 4 * piece + rot``; a cell *class* holds the four frame flags, the pinned
  hint (if any) and the colours hinted east/south neighbours demand. Frame legality is decided by
  the class (grey exactly on the frame), so it is never broken: only colours may break.
- Per key (class, left colour, top colour) one list holds every frame-legal orientation whose
  cost is at most ``MAX_CELL_COST``, sorted by cost: exact matches first, then single breaks,
  then double breaks, each cost tier a contiguous segment with its cost stored beside it
  (``ccost``). The search stops reading a list at the first entry whose cost exceeds what the
  schedule still allows, so the allowance costs one compare per candidate.
- Each join is counted once, when the later of its two cells (row-major) is placed; a join
  towards a hint lying later is counted by the earlier cell (through the demanded colour), so a
  hinted cell only pays for joins to other hints. The breaks of a full board are therefore
  exactly ``max_score - score``.

The search is a depth-first branch and bound: at depth d with B breaks so far a candidate of cost
k is taken when ``B + k <= allow[d]`` and ``k <= cell_breaks``. The schedule is tied to the best
full board (``fit_schedule``): with ``best`` breaks to beat, ``allow[d] = min(best - 1,
shape[d] * (best - 1) + slack)``, where ``shape`` is 0 for the first ``break_from`` of the cells
and then rises as ((d - start) / (n - start)) ** power to 1 at the last cell. So every full board
reached is an improvement, and each improvement tightens every depth in proportion: the breaks
stay spread towards the last rows (where exact search dies) instead of being spent as soon as
some are allowed. ``perf/eternity_score.py`` measures the defaults on Eternity II.

The scan order is row-major by default. With ``tail_rows`` = k > 0 the last k rows are filled
after the others column by column (``scan_order``): on a board that keeps its breaks for the last
rows, the bottom frame row is filled with the frame pieces the side columns left, and in
row-major order a frame piece of that row that fits the cell above it poorly is only revisited
after backtracking through the rest of the two rows; column by column it is chosen with the k - 1
cells above it and revisited within k cells.

Restarts reshuffle the cost-0 and cost-1 tiers (splitmix64, seeded) and follow the schedules of
``edgematch_dfs`` (geometric by default); a run whose tree is exhausted under the schedule and
the bound is followed by the next one. Numba cannot read the clock: the search runs in chunks
resumable from array state, and chunk boundaries never change the search (same seed and
params, same boards and node counts).

There is no repair phase (an exact refill of one checkerboard parity of the board was tried
and lost to the same time spent searching).

Before the search, a greedy frame-legal completion gives a full board (so an answer exists from
the first millisecond, whatever the schedule); the search only reports boards that beat it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np

from bench.api import Budget, Outcome, Param, solver
from instances.edgematch.model import GREY, Instance, Solution
from searches.support.edgematch_search import (
    RESTART_MODES,
    S_BEST,
    S_BOARDS,
    S_NODES,
    S_RESTARTS,
    S_RUN_END,
    STATE_SLOTS,
    begin_run,
    drive,
    fit_schedule,
    scored_chunk,
)
from searches.support.edgematch_tables import oriented_colours, pieces, tiny_instance
from searches.support.restarts import run_length

# Lists keep placements breaking at most this many joins (a cell has at most two earlier
# neighbours, and hint-adjacent cells could pay more: those rare costs are left out).
MAX_CELL_COST = 2

# More breaks than any board has: "no full board yet".
NO_BOARD = 1 << 30


# --- tables (built once per instance, in Python) ----------------------------------------------


@dataclass
class Tables:
    """The static search tables of one instance; flat arrays, read-only in the search except
    ``cand``, whose cheap tiers are shuffled in place at each restart."""

    cand: np.ndarray  # oriented pieces, grouped by key, sorted by cost within a key
    ccost: np.ndarray  # the breaks each entry of cand costs at its key
    lstart: np.ndarray  # the list of key k is cand[lstart[k]:lstart[k + 1]]
    seg_lo: np.ndarray  # the cost-0 and cost-1 tiers of two or more entries (shuffled)
    seg_hi: np.ndarray
    order: np.ndarray  # the cell placed at each depth (the scan order)
    cell_key: np.ndarray  # per depth: class of its cell * C1 * C1
    west: np.ndarray  # per depth: depth (slot of ecol) of the west neighbour (n = grey)
    north: np.ndarray  # per depth: depth (slot of scol) of the north neighbour (n = grey)
    o_east: np.ndarray  # per oriented piece: east colour * C1
    o_south: np.ndarray  # per oriented piece: south colour
    hints: dict[int, int]  # cell -> pinned oriented piece
    max_score: int

    def kernel_args(self) -> tuple[np.ndarray, ...]:
        return (self.cand, self.ccost, self.lstart, self.cell_key, self.west, self.north,
                self.o_east, self.o_south, self.seg_lo, self.seg_hi)


Class = tuple[int, int, int, int, int, int, int]


def cell_classes(instance: Instance, colours: np.ndarray, pinned: dict[int, int],
                 clashes: set[int]) -> tuple[list[Class], np.ndarray]:
    """The distinct cell classes and each cell's class index. A class is (N, E, S, W on the
    frame, pinned oriented piece or -1 (-2 for a clash), colour a hinted east neighbour
    demands or -1, the same for the south neighbour). All four frame flags are needed because a
    broken join no longer implies a grey or non-grey west/north side."""
    rows, cols = instance.rows, instance.cols
    index: dict[Class, int] = {}
    of_cell = np.empty(rows * cols, dtype=np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        east, south = cell + 1, cell + cols
        need_e = int(colours[pinned[east], 3]) if c < cols - 1 and east in pinned else -1
        need_s = int(colours[pinned[south], 0]) if r < rows - 1 and south in pinned else -1
        pin = -2 if cell in clashes else pinned.get(cell, -1)
        cls = (int(r == 0), int(c == cols - 1), int(r == rows - 1), int(c == 0), pin,
               need_e, need_s)
        of_cell[cell] = index.setdefault(cls, len(index))
    return list(index), of_cell


def class_members(cls: Class, colours: np.ndarray, free: np.ndarray) -> np.ndarray:
    """Oriented pieces a cell of this class may hold: grey on each side exactly where the
    frame is (never broken), or the pinned piece."""
    *frame, pin, _, _ = cls
    if pin == -2:
        return free[:0]
    members = free if pin == -1 else np.asarray([pin])
    ok = np.ones(len(members), dtype=bool)
    for side in range(4):
        ok &= (colours[members, side] == GREY) == bool(frame[side])
    return members[ok]


def class_costs(cls: Class, colours: np.ndarray, members: np.ndarray,
                c1: int) -> np.ndarray:
    """Breaks of each member at each (left, top) key: shape (C1, C1, members). A pinned cell
    pays only towards hints (its other joins are paid by its neighbours' demanded colours)."""
    _, _, _, _, pin, need_e, need_s = cls
    col = colours[members]
    cost = np.zeros((c1, c1, len(members)), dtype=np.int64)
    if pin == -1:
        keys = np.arange(c1)
        cost += (col[None, :, 3] != keys[:, None])[:, None, :]
        cost += (col[None, :, 0] != keys[:, None])[None, :, :]
    if need_e >= 0:
        cost += (col[:, 1] != need_e)[None, None, :]
    if need_s >= 0:
        cost += (col[:, 2] != need_s)[None, None, :]
    return cost


def candidate_lists(classes: list[Class], colours: np.ndarray, free: np.ndarray,
                    c1: int) -> tuple[np.ndarray, ...]:
    """All lists in one flat array: entries grouped by key = class * C1^2 + left * C1 + top,
    sorted by cost then oriented piece within a key; their costs; the offset table; and the
    (lo, hi) bounds of the cost-0/1 tiers a restart shuffles."""
    keys, members, costs = [], [], []
    for k, cls in enumerate(classes):
        m = class_members(cls, colours, free)
        cost = class_costs(cls, colours, m, c1)
        key = k * c1 * c1 + np.arange(c1 * c1)[:, None]
        key, entry, cost = (np.broadcast_to(key, (c1 * c1, len(m))),
                            np.broadcast_to(m, (c1 * c1, len(m))), cost.reshape(c1 * c1, -1))
        keep = cost <= MAX_CELL_COST
        keys.append(key[keep])
        members.append(entry[keep])
        costs.append(cost[keep])
    key = np.concatenate(keys).astype(np.int64)
    cand = np.concatenate(members).astype(np.int64)
    cost = np.concatenate(costs).astype(np.int64)
    order = np.lexsort((cand, cost, key))
    key, cand, cost = key[order], cand[order], cost[order]
    lstart = np.zeros(len(classes) * c1 * c1 + 1, dtype=np.int64)
    np.cumsum(np.bincount(key, minlength=len(classes) * c1 * c1), out=lstart[1:])
    tier = key * (MAX_CELL_COST + 1) + cost
    bounds = np.flatnonzero(np.diff(tier)) + 1
    lo = np.concatenate(([0], bounds))
    hi = np.concatenate((bounds, [len(tier)]))
    big = (hi - lo >= 2) & (cost[lo] <= 1) if len(tier) else np.zeros(0, dtype=bool)
    return (cand.astype(np.int32), cost.astype(np.int8), lstart.astype(np.int64),
            lo[big].astype(np.int64), hi[big].astype(np.int64))


def break_shape(n: int, start: int, power: float) -> np.ndarray:
    """The schedule's shape per depth (n + 1 entries): 0 up to cell ``start`` (no breaks
    there), then ((d - start) / (n - start)) ** power, reaching 1 at the full board. A power
    above 1 keeps breaks for the last rows, where exact search dies."""
    d = np.arange(n + 1, dtype=np.float64)
    span = max(1, n - start)
    return np.where(d <= start, 0.0, (np.maximum(d - start, 0) / span) ** power)


SCANS = ("rows", "diagonals")


def scan_order(rows: int, cols: int, scan: str, tail_rows: int = 0) -> np.ndarray:
    """The cells in the order the search fills them. Any order works that places the west and
    north neighbours of a cell before it (the keys read them, and a hinted east/south neighbour
    is then always later): row by row, or anti-diagonal by anti-diagonal (r + c = 0, 1, ...),
    which keeps the frontier short on both sides. Rows are the default: diagonals run more
    nodes a second but reach worse boards.

    ``tail_rows`` > 0 takes the last ``tail_rows`` rows out of that order and fills them last,
    column by column (top to bottom within a column): the bottom frame row's piece of a column
    is then chosen right after the cells above it, and a bad one is backtracked from within a
    few cells instead of after the rest of the row above."""
    cells = np.arange(rows * cols)
    r, c = np.divmod(cells, cols)
    if scan == "rows":
        head = cells
    else:
        head = cells[np.lexsort((c, r + c))]
    tail_rows = min(max(int(tail_rows), 0), rows)
    if not tail_rows:
        return head
    first = rows - tail_rows
    tail = cells[r >= first]
    return np.concatenate((head[head // cols < first], tail[np.lexsort((r[tail], c[tail]))]))


def build_tables(instance: Instance, scan: str = "rows", tail_rows: int = 0) -> Tables:
    """Every static table of the search for one instance, per depth in the scan order."""
    cols, n = instance.cols, instance.ncells
    colours, c1, pinned, clashes, free = pieces(instance)
    classes, of_cell = cell_classes(instance, colours, pinned, clashes)
    cand, ccost, lstart, seg_lo, seg_hi = candidate_lists(classes, colours, free, c1)
    order = scan_order(instance.rows, cols, scan, tail_rows)
    depth = np.argsort(order)
    depth_ext = np.append(depth, n)  # cell n (off the board) keeps slot n, grey
    west = np.where(order % cols == 0, n, order - 1)
    north = np.where(order < cols, n, order - cols)
    return Tables(
        cand=cand, ccost=ccost, lstart=lstart, seg_lo=seg_lo, seg_hi=seg_hi, order=order,
        cell_key=(of_cell[order] * c1 * c1).astype(np.int64),
        west=depth_ext[west].astype(np.int64),
        north=depth_ext[north].astype(np.int64),
        o_east=(colours[:, 1] * c1).astype(np.int64),
        o_south=colours[:, 2].astype(np.int64),
        hints={cell: o for cell, o in pinned.items() if cell not in clashes},
        max_score=instance.max_score,
    )


# --- a first full board ------------------------------------------------------------------------


def greedy_board(instance: Instance, tables: Tables) -> np.ndarray | None:
    """A full frame-legal board (oriented piece per cell), row-major, each cell taking the
    unused orientation that matches most of its placed neighbours; None when the frame cannot
    be filled this way (a malformed piece set). It makes the solver anytime from the start."""
    rows, cols, n = instance.rows, instance.cols, instance.ncells
    colours = oriented_colours(instance)
    board = np.full(n, -1, dtype=np.int64)
    for cell, o in tables.hints.items():
        board[cell] = o
    used = np.zeros(len(instance.pieces), dtype=bool)
    used[[o >> 2 for o in tables.hints.values()]] = True
    every = np.arange(4 * len(instance.pieces))
    for cell in range(n):
        if board[cell] >= 0:
            continue
        r, c = divmod(cell, cols)
        frame = (r == 0, c == cols - 1, r == rows - 1, c == 0)
        ok = ~used[every >> 2]
        for side in range(4):
            ok &= (colours[:, side] == GREY) == frame[side]
        options = every[ok]
        if not len(options):
            return None
        gain = np.zeros(len(options), dtype=np.int64)
        for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] >= 0:
                facing = colours[board[rr * cols + cc], (side + 2) % 4]
                gain += colours[options, side] == facing
        board[cell] = options[int(np.argmax(gain))]
        used[board[cell] >> 2] = True
    return board


def frame_impossible(instance: Instance, tables: Tables, incumbent: np.ndarray | None) -> bool:
    """Whether no legal full board exists at all: a hint shows grey where its cell is not on
    the frame (or the reverse), or the greedy completion failed. The greedy fails exactly when
    the pieces left do not fit the cells left by grey pattern (a piece fits a cell whenever
    their patterns agree up to rotation, so taking any fitting piece never hurts). Then no
    solution exists either: the honest claim is ``infeasible``."""
    if incumbent is None:
        return True
    colours = oriented_colours(instance)
    rows, cols = instance.rows, instance.cols
    for cell, o in tables.hints.items():
        r, c = divmod(cell, cols)
        frame = (r == 0, c == cols - 1, r == rows - 1, c == 0)
        if any((colours[o, side] == GREY) != frame[side] for side in range(4)):
            return True
    return False


def board_breaks(instance: Instance, board: np.ndarray) -> int:
    """Mismatched joins of a full board of oriented pieces."""
    across, down = broken_joins(instance, board)
    return int(across.sum() + down.sum())


def broken_joins(instance: Instance, board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mismatched joins between two placed cells of a board of oriented pieces (-1 = an
    empty cell), as masks: ``across`` (rows x cols-1, a cell and its east neighbour) and
    ``down`` (rows-1 x cols, a cell and its south neighbour)."""
    colours = oriented_colours(instance)
    cells = board.reshape(instance.rows, instance.cols)
    held = cells >= 0
    grid = colours[np.where(held, cells, 0)]
    across = held[:, :-1] & held[:, 1:] & (grid[:, :-1, 1] != grid[:, 1:, 3])
    down = held[:-1] & held[1:] & (grid[:-1, :, 2] != grid[1:, :, 0])
    return across, down


# --- the search state and its driver ----------------------------------------------------------


@dataclass
class Search:
    """One search in progress: the tables, the mutable arrays, the schedules."""

    tables: Tables
    shape: np.ndarray
    slack: int
    allow: np.ndarray
    board: np.ndarray
    cur: np.ndarray
    stop: np.ndarray
    used: np.ndarray
    ecol: np.ndarray
    scol: np.ndarray
    brk: np.ndarray
    best: np.ndarray
    state: np.ndarray
    rng: np.ndarray
    restarts: tuple[int, int, float]
    cell_max: int

    @classmethod
    def start(cls, tables: Tables, npieces: int, seed: int, shape: np.ndarray, slack: int,
              mode: int, unit: int, factor: float, cell_max: int = MAX_CELL_COST,
              incumbent: np.ndarray | None = None, incumbent_breaks: int = NO_BOARD) -> Search:
        """A fresh search with run 0 begun; ``incumbent`` is a full board to beat."""
        n = tables.cell_key.size
        search = cls(
            tables=tables, shape=shape, slack=int(slack),
            allow=np.zeros(n + 1, dtype=np.int64),
            board=np.full(n, -1, dtype=np.int32),
            cur=np.zeros(n + 1, dtype=np.int64),
            stop=np.zeros(n + 1, dtype=np.int64),
            used=np.zeros(max(1, npieces), dtype=np.uint8),
            ecol=np.zeros(n + 1, dtype=np.int64),
            scol=np.zeros(n + 1, dtype=np.int64),
            brk=np.zeros(n + 1, dtype=np.int64),
            best=np.full(n, -1, dtype=np.int32),
            state=np.zeros(STATE_SLOTS, dtype=np.int64),
            rng=np.array([int(seed) & (2**64 - 1)], dtype=np.uint64),
            restarts=(int(mode), int(unit), float(factor)),
            cell_max=int(cell_max),
        )
        search.state[S_BEST] = incumbent_breaks
        fit_schedule(shape, search.slack, incumbent_breaks, search.allow)
        if incumbent is not None:
            search.best[:] = incumbent[tables.order]
        search.begin()
        return search

    def begin(self) -> None:
        """Begin the next run (empty board, reshuffled lists)."""
        t = self.tables
        begin_run(t.cand, t.lstart, t.cell_key, t.west, t.north, t.seg_lo, t.seg_hi,
                  self.board, self.cur, self.stop, self.used, self.ecol, self.scol,
                  self.state, self.rng, *self.restarts)

    @property
    def nodes(self) -> int:
        return int(self.state[S_NODES])

    @property
    def best_breaks(self) -> int:
        return int(self.state[S_BEST])

    @property
    def best_score(self) -> int:
        """Matched joins of the best full board (-1 before any)."""
        b = self.best_breaks
        return -1 if b >= NO_BOARD else self.tables.max_score - b

    def run(self, nodes: int) -> int:
        """Search ``nodes`` more nodes at most; PAUSED, SOLVED or EXHAUSTED (this run's tree,
        under the schedule and the bound, is done)."""
        mode, unit, factor = self.restarts
        return int(scored_chunk(*self.tables.kernel_args(), self.shape, self.slack, self.allow,
                                self.board, self.cur, self.stop, self.used, self.ecol,
                                self.scol, self.brk, self.best,
                                self.state, self.rng, mode, unit, factor, self.cell_max,
                                self.nodes + nodes))

    def run_nodes(self) -> int:
        """Nodes of the current run (its end minus its length is where it began)."""
        mode, unit, factor = self.restarts
        length = run_length(mode, unit, factor, int(self.state[S_RESTARTS]))
        return self.nodes - int(self.state[S_RUN_END] - length)

    def next_run(self) -> bool:
        """Begin the next run after an exhausted one, unless restarts are off or the run placed
        nothing (then no run ever will: the search is over)."""
        if self.restarts[0] == RESTART_MODES.index("none") or self.run_nodes() == 0:
            return False
        self.state[S_RESTARTS] += 1
        self.begin()
        return True

    def best_board(self, rows: int, cols: int) -> Solution | None:
        if self.best_breaks >= NO_BOARD:
            return None
        board = np.empty_like(self.best)
        board[self.tables.order] = self.best
        return Solution.from_arrays(rows, cols, board >> 2, board & 3)


# --- the solver -------------------------------------------------------------------------------


def prepare() -> None:
    """Compile (or load from numba's cache) every kernel once per worker, on a tiny board."""
    tables = build_tables(tiny_instance())
    search = Search.start(tables, 4, 1, break_shape(4, 0, 1.0), 1, 1, 10, 1.5)
    search.run(1000)


PARAMS = [
    Param("break_from", 0.4, "fraction of the cells (row-major) placed with no break at all",
          min=0.0, max=1.0),
    Param("break_power", 4.0, "shape of the allowance after the first break_from cells: the "
          "fraction ((d - start) / (n - start)) ** power of (best board's breaks - 1)", min=0.0),
    Param("break_slack", 1, "breaks allowed beyond the shape at every depth past the start",
          min=0),
    Param("scan", "rows", "order of the cells: rows (row-major) or diagonals (anti-diagonals)",
          choices=SCANS),
    Param("tail_rows", 0, "the last tail_rows rows filled after the others, column by column "
          "(0 = none)", min=0),
    Param("cell_breaks", 2, "most breaks one placement may cost", min=0, max=MAX_CELL_COST),
    Param("restart", "geometric", "restart schedule: geometric (unit x factor^i), luby (unit x "
          "Luby sequence) or none (one run)", choices=RESTART_MODES),
    Param("restart_unit", 2_000_000, "nodes of the shortest run", min=1),
    Param("restart_factor", 1.1, "growth of geometric runs", min=1.0),
    Param("max_nodes", 0, "stop after this many nodes (0 = only the time budget)", min=0),
    Param("chunk_nodes", 4_000_000, "nodes between two looks at the clock", min=1000),
]

DEFAULTS = {p.name: p.default for p in PARAMS}


@solver("dfs-breaks", family="edgematch", paradigm="native",
        backend=f"numba-{numba.__version__}", params=PARAMS, prepare=prepare)
def solve(instance: Instance, budget: Budget, seed: int, **params) -> Outcome:
    """Score mode: row-major branch and bound with a break schedule and restarts; returns the
    full legal board with the most matched joins found."""
    p = {**DEFAULTS, **params}
    t0 = time.perf_counter()
    if instance.ncells == 0:
        return Outcome("solved", solution=Solution.empty(0, 0), objective=0.0, t_encode=0.0,
                       t_solve=0.0)
    tables = build_tables(instance, p["scan"], p["tail_rows"])
    incumbent = greedy_board(instance, tables)
    if frame_impossible(instance, tables, incumbent):
        return Outcome("infeasible", counters={"nodes": 0, "restarts": 0, "best_score": -1},
                       t_encode=time.perf_counter() - t0, t_solve=0.0)
    breaks = board_breaks(instance, incumbent)
    start = round(p["break_from"] * instance.ncells)
    shape = break_shape(instance.ncells, start, p["break_power"])
    search = Search.start(tables, len(instance.pieces), seed or 0, shape, p["break_slack"],
                          RESTART_MODES.index(p["restart"]), p["restart_unit"],
                          p["restart_factor"], p["cell_breaks"], incumbent, breaks)
    t_encode = time.perf_counter() - t0
    trace: list[tuple[float, float]] = []
    if search.best_score >= 0:
        trace.append((t_encode, float(search.best_score)))
    if breaks:
        drive(search, budget, p["max_nodes"], p["chunk_nodes"], trace, t0)
    t_solve = time.perf_counter() - t0 - t_encode
    counters = {"nodes": search.nodes, "restarts": int(search.state[S_RESTARTS]),
                "best_score": search.best_score, "boards": int(search.state[S_BOARDS])}
    board = search.best_board(instance.rows, instance.cols)
    solved = search.best_breaks == 0
    objective = None if board is None else float(search.best_score)
    return Outcome("solved" if solved else "unknown", solution=board, objective=objective,
                   counters=counters, t_encode=t_encode, t_solve=t_solve, score_trace=trace)
