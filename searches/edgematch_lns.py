"""Edge matching in score mode: dfs-breaks and a large-neighbourhood search taking turns on the
best board (the ``lns`` solver).

dfs-breaks (``searches.edgematch_breaks``) reaches a good board of Eternity II in seconds, then
plateaus. This solver runs the same search (its default parameters, the same seed) for
``start_nodes`` nodes, then alternates ``slice_nodes`` more nodes of it with ``slice_moves``
region moves on the best board (``searches.support.edgematch_lns_kernel``): a move frees a random
rectangle of ``min_side``..``max_side`` cells a side (area at most ``max_area``), around a
random broken join with probability ``p_broken``, plus ``extra`` cells of other broken joins
(``extra_from``) whose pieces join the pool, and refills it with its own pieces by branch and
bound on the broken joins touching it (at most ``node_limit`` nodes). A better refill is
applied; failing that an equal one that differs (a sideways move), or with probability
``p_worse`` one break worse (back to the best board once ``drift`` breaks behind). With
probability ``p_assign`` a move is instead an optimal re-assignment (Hungarian method) of the
pieces of up to ``assign_cells`` cells of one checkerboard colour, each in its best rotation.
A better board found by either side becomes the other's: dfs-breaks then searches for boards
that beat it, the region moves continue from it. The score trace records the best score over
time, dfs-breaks' part included, as dfs-breaks does. The start and each slice of dfs-breaks also
end once ``slice_runs`` of its runs have begun: each run exhausted costs a round of Python, and
a search whose runs are all exhausted within a few nodes (its tree under the break schedule
tiny) would otherwise go through its slice's nodes at a small fraction of the kernel's rate.

On Eternity II the region moves lift a 452-454 board by a join or two, but not dfs-breaks'
455-456 boards: those are perfect down to row 11 or so, with every break among the pieces left
for the last rows, which no refill of a few cells can place better (``perf/eternity_score.py
--solver lns`` measures it). Also tried and dropped: bigger regions (up to 24 cells plus 4
extra, 200,000 nodes a refill: a few moves a second, no gain) and re-searching the last 2-6
rows with dfs-breaks' kernel under the rows above pinned as hints (no equal board found within
5-20 million nodes a move). Tried on dfs-breaks itself and dropped: a colour quota after
Verhaard's "uneven colour distribution" (the rarest inner colours to be spent ahead of an even
pace, checked at every row's end: fewer joins at every pace tried) and other break schedules
and restart lengths (``perf/eternity_runs/README.md`` has the figures).

``tail_rows`` is dfs-breaks' parameter of that name (its last rows filled column by column);
``break_from``, ``break_power``, ``break_slack`` and ``cell_breaks`` are dfs-breaks' schedule and
per-cell cap (their defaults are dfs-breaks' own); the other parameters of dfs-breaks keep their
defaults.

Slices are counted in nodes and moves, not seconds: the same seed and parameters give the same
search whatever the machine; only where the budget cuts it depends on the clock (``max_moves``
with the budget to spare makes a run fully deterministic).

Restarts (``restart_after``, 0 = off, the default): the solve becomes a sequence of independent
runs of the above. A *turn* is one slice of dfs-breaks and one slice of region moves; once
``restart_after`` turns in a row have not given the current run a better board, the run ends and
a new one begins afresh: a new dfs-breaks search from the greedy board, ``start_nodes`` nodes of
it, a new region-move state, nothing taken over from the runs before. Run ``k`` has the seed
``sub_seed(seed, k)``: the seed itself for run 0 (so up to its first restart a solve with
restarts is the solve without), a hash of the seed and ``k`` after that (no run of one seed is a
run of another). Turns, not seconds, end a run, so the runs are the same whatever the machine.
The answer is the best board of all runs (the first found among equals); the score trace is the
best score over all runs, over time (a later run's improvement is recorded only when it beats
every earlier run); the counters are sums over the runs (``start_score`` and ``start_nodes``
are run 0's), with ``lns_restarts`` the number of runs after the first and ``best_run`` the
number of the run whose board is returned; ``max_moves`` counts the moves of all runs.
:func:`solve_runs` (what ``solve`` calls) also gives a per-run record, one entry a run in order:
``run_scores`` (the run's best score), ``run_times`` (seconds from the solve's start to when the
run first had that score; its start when it never beat its first board), ``run_starts``
(seconds at its start) and ``run_pinned`` (cells it took from the elite pool, 0 for a fresh
run); the harness keeps counters (numbers), not these lists, so ``perf/eternity_score.py``
reads them from there.

Elite pool (``elite``, 0 = off, the default; it needs ``restart_after``): the best ``elite``
distinct boards of the runs so far are kept (better first; among equals the earlier). A restart is
then, with probability ``elite_share`` once the pool has a board, a *recombination* instead of a
fresh run: two boards of the pool are drawn (the better of them is the first parent) and a number
of rows ``k`` from ``elite_rows_min``..``elite_rows_max``; the cells of the first ``k`` rows on
which the two boards agree are pinned as extra hints of the run's dfs-breaks (all of the first
parent's cells of those rows when they agree on fewer than one row's worth, or when the pool has
one board), but for both cells of each broken join among them and the hints, so the run's
dfs-breaks rebuilds the rest of the board under the elite's upper rows with a seed of its own (the
run's ``sub_seed``). The region moves of the run keep the instance's own hints only: they may
change pinned cells. A recombined run ends after ``elite_restart_after`` turns without a better
board where that is set (such a run is back at its parents' level within a few turns, where a fresh
one climbs for tens), else after ``restart_after`` as a fresh one. Everything else of the run is as
a fresh run's. The draws come from the run's seed, so the runs stay the same whatever the machine.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import numba
import numpy as np

from bench.api import Budget, Outcome, Param, solver
from instances.edgematch.model import GREY, Hint, Instance, Solution
from searches import edgematch_breaks
from searches.support.edgematch_lns_kernel import (
    L_BEST,
    L_CUR,
    L_CUT,
    L_IMPROVED,
    L_MOVES,
    L_NEW_BEST,
    L_NODES,
    L_SIDEWAYS,
    LNS_SLOTS,
    board_breaks,
    lns_chunk,
)
from searches.support.edgematch_search import (
    MARGIN_S,
    PAUSED,
    RESTART_MODES,
    S_BEST,
    S_RESTARTS,
    drive,
    fit_schedule,
)
from searches.support.edgematch_tables import oriented_colours, tiny_instance

WORK_ROWS = 17


class Lns:
    """One large-neighbourhood search in progress: the board, the best board, the state."""

    def __init__(self, instance: Instance, board: np.ndarray, seed: int, p: dict) -> None:
        self.rows, self.cols = instance.rows, instance.cols
        n = instance.ncells
        self.col = oriented_colours(instance).astype(np.int64)
        self.gmask = ((self.col == GREY) * np.array([1, 2, 4, 8])).sum(axis=1).astype(np.int64)
        self.fixed = np.zeros(n, dtype=np.uint8)
        for h in instance.hints:
            self.fixed[h.row * self.cols + h.col] = 1
        self.bo = np.asarray(board, dtype=np.int64).copy()
        self.best = self.bo.copy()
        self.state = np.zeros(LNS_SLOTS, dtype=np.int64)
        self.state[L_CUR] = self.state[L_BEST] = board_breaks(self.bo, self.col, self.rows,
                                                              self.cols)
        self.rng = np.array([(int(seed) * 0x9E3779B97F4A7C15 + 12345) & (2**64 - 1)],
                            dtype=np.uint64)
        self.inreg = np.zeros(n, dtype=np.uint8)
        self.cells = np.zeros(n, dtype=np.int64)
        self.work = np.zeros((WORK_ROWS, n), dtype=np.int64)
        self.work2 = np.zeros((5, max(4 * n, int(self.col.max(initial=0)) + 2)), dtype=np.int64)
        side = max(1, min(self.rows, self.cols))
        self.hmin = min(int(p["min_side"]), side)
        self.hmax = max(self.hmin, min(int(p["max_side"]), side))
        self.max_area = max(int(p["max_area"]), self.hmin * self.hmin)
        self.extra, self.p_broken = int(p["extra"]), float(p["p_broken"])
        self.node_limit = int(p["node_limit"])
        self.extra_broken = int(p["extra_from"] == "broken")
        self.p_worse, self.drift = float(p["p_worse"]), int(p["drift"])
        self.p_assign = float(p["p_assign"])
        self.assign_cells = max(1, min(int(p["assign_cells"]), (n + 1) // 2))
        m = self.assign_cells
        self.amat = np.zeros((m + 1, m + 1), dtype=np.int64)
        self.arot = np.zeros((m, m), dtype=np.int64)
        self.hw = np.zeros((8, m + 1), dtype=np.int64)

    def restart_from(self, board: np.ndarray, breaks: int) -> None:
        """Continue from a better board found elsewhere (it becomes current and best)."""
        self.bo[:] = board
        self.best[:] = board
        self.state[L_CUR] = self.state[L_BEST] = breaks

    def run(self, moves: int) -> None:
        lns_chunk(self.bo, self.best, self.col, self.gmask, self.fixed, self.rows, self.cols,
                  self.rng, self.state, moves, self.hmin, self.hmax, self.max_area, self.extra,
                  self.extra_broken, self.p_broken, self.node_limit, self.p_worse, self.drift,
                  self.inreg, self.cells, self.work, self.work2, self.p_assign,
                  self.assign_cells, self.amat, self.arot, self.hw)

    @property
    def best_breaks(self) -> int:
        return int(self.state[L_BEST])

    def solution(self) -> Solution:
        return Solution.from_arrays(self.rows, self.cols, self.best >> 2, self.best & 3)


def prepare() -> None:
    """Compile (or load) dfs-breaks' kernels and this one's, on a tiny board."""
    edgematch_breaks.prepare()
    instance = tiny_instance()
    board = np.array([0, 5, 10, 15])  # a legal 2x2 frame: corners turned into place
    search = Lns(instance, board, 1, {**DEFAULTS, "min_side": 2, "max_side": 2})
    search.run(3)


PARAMS = [
    Param("start_nodes", 200_000_000, "nodes of dfs-breaks before the first region moves",
          min=0),
    Param("slice_nodes", 100_000_000, "nodes of dfs-breaks per turn after that (0 = region "
          "moves only)", min=0),
    Param("slice_moves", 2000, "region moves per turn", min=1),
    Param("slice_runs", 1000, "most dfs-breaks runs begun in its start or in one turn's slice "
          "(0 = no limit): a search whose every run is exhausted within a few nodes (a "
          "recombination's pins can leave it a tiny tree) then still gets to its region moves",
          min=0),
    Param("tail_rows", 0, "dfs-breaks' tail_rows: its last rows filled column by column",
          min=0),
    Param("break_from", edgematch_breaks.DEFAULTS["break_from"], "dfs-breaks' break_from: "
          "fraction of the cells (scan order) placed with no break at all", min=0.0, max=1.0),
    Param("break_power", edgematch_breaks.DEFAULTS["break_power"], "dfs-breaks' break_power: "
          "shape of its break allowance after the first break_from cells", min=0.0),
    Param("break_slack", edgematch_breaks.DEFAULTS["break_slack"], "dfs-breaks' break_slack: "
          "breaks allowed beyond the shape at every depth past the start", min=0),
    Param("cell_breaks", edgematch_breaks.DEFAULTS["cell_breaks"], "dfs-breaks' cell_breaks: "
          "most breaks one placement may cost", min=0, max=edgematch_breaks.MAX_CELL_COST),
    Param("chunk_nodes", 4_000_000, "dfs-breaks nodes between two looks at the clock",
          min=1000),
    Param("min_side", 2, "shortest side of a freed rectangle", min=1),
    Param("max_side", 4, "longest side of a freed rectangle", min=1),
    Param("max_area", 12, "most cells of a freed rectangle", min=1),
    Param("extra", 2, "cells anywhere added to each region (their pieces join the pool)",
          min=0),
    Param("extra_from", "broken", "where the extra cells are: broken (a cell of a random broken "
          "join) or anywhere", choices=("broken", "anywhere")),
    Param("p_worse", 0.2, "probability that a move may accept a refill one break worse (a "
          "random walk around the plateau; the best board is kept)", min=0.0, max=1.0),
    Param("drift", 3, "go back to the best board when the current one is this many breaks "
          "worse", min=0),
    Param("p_assign", 0.05, "probability that a move is an assignment move instead: the pieces "
          "of up to assign_cells cells of one checkerboard colour re-assigned optimally "
          "(Hungarian method)", min=0.0, max=1.0),
    Param("assign_cells", 64, "most cells of an assignment move", min=1),
    Param("p_broken", 0.5, "probability that a region holds a random broken join (else a "
          "random cell)", min=0.0, max=1.0),
    Param("node_limit", 5000, "most nodes of one region's refill", min=1),
    Param("max_moves", 0, "stop after this many moves (0 = only the time budget)", min=0),
    Param("chunk_moves", 200, "moves between two looks at the clock", min=1),
    Param("restart_after", 0, "start afresh (a new dfs-breaks search and new region-move state "
          "from a seed derived from the seed and the restart's number) after this many turns "
          "in a row without a better board of the current run; the best board of all runs is "
          "returned (0 = never)", min=0),
    Param("elite", 0, "boards of the runs kept in an elite pool (the best distinct ones); a "
          "restart may then rebuild an elite board's upper rows instead of starting afresh "
          "(needs restart_after; 0 = off)", min=0),
    Param("elite_share", 0.5, "probability that a restart is a recombination of the elite pool "
          "(once it has a board) rather than a fresh run", min=0.0, max=1.0),
    Param("elite_rows_min", 4, "fewest upper rows a recombination takes from the elite", min=0),
    Param("elite_rows_max", 8, "most upper rows a recombination takes from the elite", min=0),
    Param("elite_restart_after", 0, "restart_after for a recombined run (one that took cells "
          "from the elite pool), which gets back to its parents' level within a few turns "
          "where a fresh run climbs for tens (0 = restart_after)", min=0),
]

DEFAULTS = {p.name: p.default for p in PARAMS}


def breaks_search(instance: Instance, seed: int, tail_rows: int = 0,
                  schedule: dict | None = None) -> edgematch_breaks.Search | None:
    """dfs-breaks' search with its default parameters but ``tail_rows`` and those of
    ``schedule`` (``break_from``, ``break_power``, ``break_slack``, ``cell_breaks``; the keys
    given), as its solver builds it (None when no legal board exists)."""
    b = {**edgematch_breaks.DEFAULTS, **(schedule or {})}
    tables = edgematch_breaks.build_tables(instance, b["scan"], tail_rows)
    incumbent = edgematch_breaks.greedy_board(instance, tables)
    if edgematch_breaks.frame_impossible(instance, tables, incumbent):
        return None
    breaks = edgematch_breaks.board_breaks(instance, incumbent)
    start = round(b["break_from"] * instance.ncells)
    shape = edgematch_breaks.break_shape(instance.ncells, start, b["break_power"])
    return edgematch_breaks.Search.start(
        tables, len(instance.pieces), seed, shape, b["break_slack"],
        RESTART_MODES.index(b["restart"]), b["restart_unit"], b["restart_factor"],
        b["cell_breaks"], incumbent, breaks)


def schedule_of(p: dict) -> dict:
    """dfs-breaks' schedule and per-cell cap among lns' parameters ``p`` (what
    :func:`breaks_search` takes as ``schedule``)."""
    return {k: p[k] for k in ("break_from", "break_power", "break_slack", "cell_breaks")}


def dfs_board(search: edgematch_breaks.Search) -> np.ndarray:
    """The best board of a dfs-breaks search, row-major oriented pieces."""
    board = np.empty(search.best.size, dtype=np.int64)
    board[search.tables.order] = search.best
    return board


def push_board(search: edgematch_breaks.Search, board: np.ndarray, breaks: int) -> None:
    """Make ``board`` the incumbent of the dfs-breaks search: it searches on for better."""
    search.best[:] = board[search.tables.order]
    search.state[S_BEST] = breaks
    fit_schedule(search.shape, search.slack, breaks, search.allow)


def sub_seed(seed: int, run: int) -> int:
    """The seed of run ``run`` of a solve with ``seed``: the seed itself for run 0, then a hash of
    the two (so no run of one seed is a run of another)."""
    if run == 0:
        return seed
    state = np.random.SeedSequence([seed % 2**63, run]).generate_state(2, np.uint32)
    return (int(state[0]) << 31) | (int(state[1]) >> 1)


def elite_insert(pool: list[tuple[int, np.ndarray]], board: np.ndarray, breaks: int,
                 size: int) -> None:
    """Add a run's best board to the pool (``(breaks, board)``, better first, ties in order of
    arrival) unless it is already there; keep the best ``size``."""
    if size <= 0 or any(b == breaks and np.array_equal(x, board) for b, x in pool):
        return
    at = next((i for i, (b, _) in enumerate(pool) if b > breaks), len(pool))
    pool.insert(at, (breaks, board.copy()))
    del pool[size:]


def recombine(pool: list[tuple[int, np.ndarray]], cols: int, rows_min: int, rows_max: int,
              rng: np.random.Generator) -> np.ndarray:
    """The cells a recombination pins, and their oriented pieces: an array over the cells, -1
    where free. Two boards drawn from the pool (one when it holds one), the better first, and
    ``k`` rows in ``rows_min``..``rows_max``: the cells of the first ``k`` rows on which they
    agree, or the first board's cells of those rows when they agree on fewer than ``cols``."""
    n = pool[0][1].size
    lo = max(0, min(rows_min, rows_max, n // cols))
    k = int(rng.integers(lo, max(lo, min(rows_max, n // cols)) + 1))
    if len(pool) > 1:
        i, j = sorted(int(x) for x in rng.choice(len(pool), 2, replace=False))
    else:
        i = j = 0
    a, b = pool[i][1], pool[j][1]
    top = np.arange(n) < k * cols
    agree = top & (a == b)
    keep = agree if agree.sum() >= cols else top
    return np.where(keep, a, -1)


def unpin_broken(instance: Instance, pinned: np.ndarray) -> np.ndarray:
    """``pinned`` (oriented pieces, -1 = free) without the cells of its broken joins: both cells
    of every mismatched join between two fixed cells (pinned, or hinted by the instance) are
    freed. A fixed break is placed before any choice, where dfs-breaks' schedule allows none:
    its every run would end exhausted within a few nodes."""
    rows, cols = instance.rows, instance.cols
    fixed = pinned.copy()
    for h in instance.hints:
        fixed[h.row * cols + h.col] = 4 * h.piece + h.rot
    east, south = edgematch_breaks.broken_joins(instance, fixed)
    freed = np.zeros((rows, cols), dtype=bool)
    freed[:, :-1] |= east
    freed[:, 1:] |= east
    freed[:-1] |= south
    freed[1:] |= south
    return np.where(freed.ravel(), -1, pinned)


def pinned_instance(instance: Instance, pinned: np.ndarray) -> Instance:
    """``instance`` with the cells of ``pinned`` (oriented pieces, -1 = free) as extra hints;
    the cells it already hints stay as they are."""
    hinted = {h.row * instance.cols + h.col for h in instance.hints}
    extra = tuple(Hint(int(o) >> 2, cell // instance.cols, cell % instance.cols, int(o) & 3)
                  for cell, o in enumerate(pinned) if o >= 0 and cell not in hinted)
    return dataclasses.replace(instance, hints=instance.hints + extra)


@dataclass
class Run:
    """The end of one run of lns: its two searches, where it began, why it stopped."""

    dfs: edgematch_breaks.Search
    search: Lns
    start_breaks: int  # of the board the region moves began with
    start_nodes: int  # nodes of dfs-breaks before the first region moves
    restart: bool  # stopped for want of improvement (``restart_after`` turns without one)


def lns_run(instance: Instance, dfs: edgematch_breaks.Search, budget: Budget, seed: int,
            p: dict, trace: list[tuple[float, float]], t0: float, max_moves: int,
            restart_after: int) -> Run:
    """One run of lns from a fresh dfs-breaks search: ``start_nodes`` nodes of it, then turns
    of dfs-breaks and region moves on the run's best board until the budget, ``max_moves``
    moves (0 = no limit), a perfect board or ``restart_after`` turns in a row without a better
    board of this run (0 = never). Improvements are appended to ``trace``."""
    status = PAUSED
    if dfs.best_breaks:
        status = drive(dfs, budget, int(p["start_nodes"]), int(p["chunk_nodes"]), trace, t0,
                       int(p["slice_runs"]))
    search = Lns(instance, dfs_board(dfs), seed, p)
    start = (search.best_breaks, dfs.nodes)
    slice_nodes, slice_moves = int(p["slice_nodes"]), int(p["slice_moves"])
    dfs_on = status == PAUSED and slice_nodes > 0
    rate = 0.0  # moves per second
    run_best, stale = search.best_breaks, 0
    while search.best_breaks > 0 and budget.remaining() > MARGIN_S:
        if max_moves and search.state[L_MOVES] >= max_moves:
            break
        if restart_after and stale >= restart_after:
            return Run(dfs, search, *start, True)
        if dfs_on:  # a slice of dfs-breaks, searching for a board better than the best
            status = drive(dfs, budget, dfs.nodes + slice_nodes, int(p["chunk_nodes"]), trace,
                           t0, int(p["slice_runs"]))
            dfs_on = status == PAUSED
            if dfs.best_breaks < search.best_breaks:
                search.restart_from(dfs_board(dfs), dfs.best_breaks)
            if not dfs.best_breaks:
                break
        todo = slice_moves if dfs_on else int(p["chunk_moves"])
        while todo > 0 and search.best_breaks > 0:  # a slice of region moves
            remaining = budget.remaining() - MARGIN_S
            size = min(todo, int(p["chunk_moves"]))
            if 0 < rate * remaining < size:
                size = max(1, int(rate * remaining))
            if max_moves:
                size = min(size, max_moves - int(search.state[L_MOVES]))
            if remaining <= 0 or size <= 0:
                break
            before, breaks, t = int(search.state[L_MOVES]), search.best_breaks, time.perf_counter()
            search.run(size)
            todo -= size
            rate = (int(search.state[L_MOVES]) - before) / max(time.perf_counter() - t, 1e-6)
            if search.best_breaks < breaks:
                trace.append((time.perf_counter() - t0,
                              float(instance.max_score - search.best_breaks)))
        if search.best_breaks < dfs.best_breaks:
            push_board(dfs, search.best, search.best_breaks)
        stale = 0 if search.best_breaks < run_best else stale + 1
        run_best = min(run_best, search.best_breaks)
    return Run(dfs, search, *start, False)


def restart_search(instance: Instance, pool: list[tuple[int, np.ndarray]], seed: int, p: dict,
                   schedule: dict) -> tuple[edgematch_breaks.Search, int]:
    """The dfs-breaks search a new run begins with (its seed ``seed``), and the cells it took
    from the elite pool: with probability ``elite_share`` once the pool has a board, a
    recombination (:func:`recombine`'s cells but those of its broken joins, :func:`unpin_broken`,
    pinned as extra hints), else a fresh search (also where the pinned cells leave no search)."""
    tail_rows = int(p["tail_rows"])
    rng = np.random.default_rng(seed)
    if pool and rng.random() < float(p["elite_share"]):
        pinned = unpin_broken(instance, recombine(pool, instance.cols, int(p["elite_rows_min"]),
                                                  int(p["elite_rows_max"]), rng))
        child = pinned_instance(instance, pinned)
        dfs = breaks_search(child, seed, tail_rows, schedule)
        if dfs is not None:
            return dfs, len(child.hints) - len(instance.hints)
    return breaks_search(instance, seed, tail_rows, schedule), 0


def run_patience(p: dict, pins: int) -> int:
    """The turns without a better board after which a run ends: ``elite_restart_after`` for a
    recombined run (``pins`` cells taken from the pool) where it is set, else
    ``restart_after``."""
    if pins and int(p["elite_restart_after"]):
        return int(p["elite_restart_after"])
    return int(p["restart_after"])


SUMMED = {"lns_nodes": L_NODES, "moves": L_MOVES, "improved": L_IMPROVED,
          "sideways": L_SIDEWAYS, "cut": L_CUT, "best_by_moves": L_NEW_BEST}


@solver("lns", family="edgematch", paradigm="native", backend=f"numba-{numba.__version__}",
        params=PARAMS, prepare=prepare)
def solve(instance: Instance, budget: Budget, seed: int, **params) -> Outcome:
    """Score mode: dfs-breaks and region refills (large-neighbourhood search with sideways
    moves) take turns on the best board, from a fresh start after ``restart_after`` turns
    without a better board when that is on; returns the best full legal board found."""
    return solve_runs(instance, budget, seed, **params)[0]


def solve_runs(instance: Instance, budget: Budget, seed: int, **params
               ) -> tuple[Outcome, dict[str, list[float]]]:
    """:func:`solve`'s outcome, and the per-run record (empty without restarts)."""
    p = {**DEFAULTS, **params}
    t0 = time.perf_counter()
    record: dict[str, list[float]] = {}
    if instance.ncells == 0:
        return Outcome("solved", solution=Solution.empty(0, 0), objective=0.0, t_encode=0.0,
                       t_solve=0.0), record
    seed, tail_rows, max_moves = seed or 0, int(p["tail_rows"]), int(p["max_moves"])
    schedule = schedule_of(p)
    dfs = breaks_search(instance, seed, tail_rows, schedule)
    if dfs is None:
        return Outcome("infeasible", counters={"nodes": 0, "moves": 0, "best_score": -1},
                       t_encode=time.perf_counter() - t0, t_solve=0.0), record
    t_encode = time.perf_counter() - t0
    trace: list[tuple[float, float]] = [(t_encode, float(dfs.best_score))]
    counters = dict.fromkeys(["nodes", "restarts", *SUMMED], 0)
    restarting = int(p["restart_after"]) > 0
    if restarting:
        record.update({"run_scores": [], "run_times": [], "run_starts": [], "run_pinned": []})
    elite = int(p["elite"]) if restarting else 0
    pool: list[tuple[int, np.ndarray]] = []
    pins = 0
    best: Lns | None = None
    runs = 0
    while True:
        run_trace = trace if runs == 0 else []
        started = time.perf_counter() - t0
        run = lns_run(instance, dfs, budget, sub_seed(seed, runs), p, run_trace, t0,
                      max_moves and max_moves - counters["moves"], run_patience(p, pins))
        search, st = run.search, run.search.state
        if restarting:
            score = instance.max_score - search.best_breaks
            record["run_scores"].append(score)
            record["run_times"].append(round(next(
                (t for t, s in run_trace if s >= score and t >= started), started), 3))
            record["run_starts"].append(round(started, 3))
            record["run_pinned"].append(pins)
        elite_insert(pool, search.best, search.best_breaks, elite)
        if runs == 0:
            counters["start_score"] = instance.max_score - run.start_breaks
            counters["start_nodes"] = run.start_nodes
        else:  # the overall best over time: only what beats every earlier run
            top = trace[-1][1]
            for t, s in run_trace:
                if s > top:
                    trace.append((t, s))
                    top = s
        counters["nodes"] += run.dfs.nodes
        counters["restarts"] += int(run.dfs.state[S_RESTARTS])
        for name, slot in SUMMED.items():
            counters[name] += int(st[slot])
        if best is None or search.best_breaks < best.best_breaks:
            best, counters["best_run"] = search, runs
        runs += 1
        if not run.restart or budget.remaining() <= MARGIN_S or (
                max_moves and counters["moves"] >= max_moves):
            break
        dfs, pins = restart_search(instance, pool, sub_seed(seed, runs), p, schedule)
    score = instance.max_score - best.best_breaks
    counters.update({"best_score": score, "lns_restarts": runs - 1})
    return Outcome("solved" if best.best_breaks == 0 else "unknown",
                   solution=best.solution(), objective=float(score), counters=counters,
                   t_encode=t_encode, t_solve=time.perf_counter() - t0 - t_encode,
                   score_trace=trace), record
