"""The depth-first search both native edge-matching solvers run: one numba kernel, two variants.

The board is filled in a fixed order of cells (depth ``d`` is both the number of placed cells and
the position in that order); each cell's candidates are one list of a flat array, found by the
cell's key (its class and the colours its west and north neighbours show), so a node is one
load of ``used[piece]`` per candidate and a handful of stores. Backtracking is chronological.
The tables are the solver's: ``edgematch_dfs`` (exact matches only, row-major) and
``edgematch_breaks`` (lists sorted by cost, any scan order).

- exact (``exact_chunk``, dfs-restarts): every list holds exact matches only; the deepest
  board reached is kept (``best``, depth in ``state[S_BEST]``) and a full board ends the search
  as SOLVED.
- scored (``scored_chunk``, dfs-breaks): each list entry has a cost (``ccost``: the joins it
  breaks), sorted increasing; at depth d with B breaks so far an entry of cost k is taken when
  ``B + k <= allow[d]`` and ``k <= cell_max``, and the list is left at the first entry over
  (``brk[d]`` is the breaks of cells 0..d-1; ``brk[0]`` stays 0). A full board is recorded
  (``state[S_BEST]`` its breaks, ``state[S_BOARDS]`` the count), the allowance refitted to it
  (``fit_schedule``: every later board must beat it) and backtracked from; a board of no break
  is SOLVED.

Both are one body (``dfs_body``) with the variant a constant of each compiled wrapper, so LLVM
drops the other variant's branches.

Randomized restarts: each run shuffles the lists of ``seg_lo``/``seg_hi`` with a seeded
splitmix64 generator (no global state) and stops after a node limit given by the schedule
(``luby``: unit x Luby sequence, ``geometric``: unit x factor^i, ``none``: a single run). Numba
cannot read the clock, so the search runs in chunks: a chunk continues from the state (all in
arrays) for at most a given number of nodes and returns PAUSED, SOLVED or EXHAUSTED (the run's
tree is done), and ``drive`` checks the budget in between. Chunk boundaries never change the
search: the same seed and parameters give the same node counts and the same boards whatever the
chunk size.
"""

from __future__ import annotations

import time
from typing import Protocol

import numpy as np
from numba import njit

from bench.api import Budget
from searches.support import restarts
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.restarts import run_length

RESTART_MODES = ("luby", "geometric", "none")  # by position: restarts.MODE_*
#: What this module's kernels compile in (``searches.support.numba_cache``).
JIT_SOURCES = (__file__, *restarts.JIT_SOURCES)

# Kept off the budget for building the answer, so the solver returns before the watchdog fires.
MARGIN_S = 0.02

# Slots of the int64 state vector the kernel reads and writes back. S_BEST: the deepest depth
# reached (exact), or the fewest breaks of a full board (scored); S_BOARDS: full boards found.
S_DEPTH, S_NODES, S_RUN_END, S_RESTARTS, S_BEST, S_BOARDS = range(6)
STATE_SLOTS = 6

# What a chunk returns.
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


# --- the break allowance (scored) -------------------------------------------------------------


@njit(cache=True, nogil=True)
def fit_schedule(shape, slack, best, allow) -> None:
    """The break allowance per depth for beating a board of ``best`` breaks: the fraction
    ``shape[d]`` of best - 1 (plus ``slack`` once breaks are allowed at all), never more than
    best - 1. Tying the curve to the best board makes the schedule self-tuning: each
    improvement tightens every depth in proportion, so breaks stay spread over the board
    instead of being spent as soon as some are allowed."""
    top = best - 1
    for d in range(shape.size):
        a = 0
        if shape[d] > 0.0:
            a = np.int64(shape[d] * top) + slack
        allow[d] = min(a, top)


@njit(cache=True, nogil=True, inline="always")
def allowance(allow, d, b, cell_max) -> int:
    """Breaks a placement at depth d may still cost: the schedule (which includes the bound of
    the best board) or the per-cell cap, whichever is less."""
    lim = allow[d] - b
    if cell_max < lim:
        lim = cell_max
    return lim


# --- the search -------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def begin_run(cand, lstart, cell_key, west, north, seg_lo, seg_hi, board, cur, stop, used,
              ecol, scol, state, rng, mode, unit, factor) -> None:
    """Empty the board, reshuffle the lists and open depth 0 for a new run."""
    for i in range(state[S_DEPTH]):
        used[board[i] >> 2] = 0
    shuffle_lists(cand, seg_lo, seg_hi, rng)
    key = cell_key[0] + ecol[west[0]] + scol[north[0]]
    cur[0] = lstart[key]
    stop[0] = lstart[key + 1]
    state[S_DEPTH] = 0
    state[S_RUN_END] = state[S_NODES] + run_length(mode, unit, factor, state[S_RESTARTS])


@njit(cache=True, nogil=True, inline="always")
def dfs_body(scored, cand, ccost, lstart, cell_key, west, north, o_east, o_south, seg_lo,
             seg_hi, shape, slack, allow, board, cur, stop, used, ecol, scol, brk, best, state,
             rng, mode, unit, factor, cell_max, stop_at) -> int:
    """Continue the search until ``stop_at`` nodes in total, the end (SOLVED) or an exhausted
    run; return PAUSED, SOLVED or EXHAUSTED with the state saved in the arrays. ``scored`` is a
    constant of each wrapper; the exact variant ignores ``ccost``, ``shape``, ``slack``,
    ``allow``, ``brk`` and ``cell_max``.

    ``c``/``e`` are the cursor into and the end of depth d's candidate list; they are saved in
    ``cur``/``stop`` when going deeper and reloaded on backtracking. A node is a placement.
    The loop ends at depth n (SOLVED: a scored board with breaks is backtracked from at once),
    below 0 (EXHAUSTED) or in between (PAUSED).
    ``ecol[d]``/``scol[d]`` are the east/south colours the cell placed at depth d shows (slot n:
    grey, for a neighbour off the board); ``west[d]``/``north[d]`` the depths (slots) of its
    west and north neighbours.
    """
    n = cell_key.size
    d = state[S_DEPTH]
    nodes = state[S_NODES]
    run_end = state[S_RUN_END]
    best_v = state[S_BEST]
    next_check = min(run_end, stop_at)
    c = cur[d]
    e = stop[d]
    b = 0
    lim = 0
    boards = 0
    if scored:
        b = brk[d]
        lim = allowance(allow, d, b, cell_max)
        boards = state[S_BOARDS]
    while True:
        if c < e:
            k = 0
            if scored:
                k = ccost[c]
                if k > lim:
                    c = e
                    continue
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
            if scored:
                b += k
                brk[d] = b
                if d == n:
                    boards += 1
                    best_v = b
                    best[:] = board[:n]
                    fit_schedule(shape, slack, best_v, allow)
                    if b == 0:
                        break
                    d -= 1
                    used[p] = 0
                    b = brk[d]
                else:
                    key = cell_key[d] + ecol[west[d]] + scol[north[d]]
                    c = lstart[key]
                    e = lstart[key + 1]
                lim = allowance(allow, d, b, cell_max)
            else:
                if d > best_v:
                    best_v = d
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
                    if scored:
                        b = 0
                        lim = allowance(allow, d, b, cell_max)
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
            if scored:
                b = brk[d]
                lim = allowance(allow, d, b, cell_max)
    state[S_NODES] = nodes
    state[S_RUN_END] = run_end
    state[S_BEST] = best_v
    if scored:
        state[S_BOARDS] = boards
    if d < 0:
        state[S_DEPTH] = 0
        return EXHAUSTED
    state[S_DEPTH] = d
    if d == n:
        return SOLVED
    cur[d] = c
    stop[d] = e
    return PAUSED


@njit(cache=True, nogil=True)
def exact_chunk(cand, lstart, cell_key, west, north, o_east, o_south, seg_lo, seg_hi,
                board, cur, stop, used, ecol, scol, best, state, rng, mode, unit, factor,
                stop_at) -> int:
    """The exact variant of ``dfs_body`` (its scored-only arguments are placeholders)."""
    unused = np.zeros(1, np.int64)
    return dfs_body(False, cand, unused, lstart, cell_key, west, north, o_east, o_south,
                    seg_lo, seg_hi, np.zeros(1), 0, unused, board, cur, stop, used, ecol, scol,
                    unused, best, state, rng, mode, unit, factor, 0, stop_at)


@njit(cache=True, nogil=True)
def scored_chunk(cand, ccost, lstart, cell_key, west, north, o_east, o_south, seg_lo, seg_hi,
                 shape, slack, allow, board, cur, stop, used, ecol, scol, brk, best, state,
                 rng, mode, unit, factor, cell_max, stop_at) -> int:
    """The scored variant of ``dfs_body``."""
    return dfs_body(True, cand, ccost, lstart, cell_key, west, north, o_east, o_south, seg_lo,
                    seg_hi, shape, slack, allow, board, cur, stop, used, ecol, scol, brk, best,
                    state, rng, mode, unit, factor, cell_max, stop_at)


# --- the driver -------------------------------------------------------------------------------


class ChunkedBoardSearch(Protocol):
    """What ``drive`` needs of a search in progress."""

    @property
    def nodes(self) -> int: ...

    @property
    def best_score(self) -> int: ...

    def run(self, nodes: int) -> int: ...

    def next_run(self) -> bool: ...


def drive(search: ChunkedBoardSearch, budget: Budget, max_nodes: int, chunk_nodes: int,
          trace: list[tuple[float, float]], t0: float, max_runs: int = 0) -> int:
    """Run chunks until SOLVED, ``max_nodes`` (0 = no limit) or the end of the budget; an
    EXHAUSTED chunk ends the search unless ``search.next_run()`` begins another run. Appends
    (seconds since ``t0``, best score) to ``trace`` at each improvement. A chunk is shortened to
    what the measured node rate says fits in the remaining time, so a short budget is not
    overrun by a whole chunk. ``max_runs`` (0 = no limit): also stop, PAUSED, once that many
    runs have begun in this call, so that a search whose every run is exhausted within a few
    nodes (its tree under the schedule is tiny), which pays a round of Python a run, cannot hold
    its caller for millions of runs before ``max_nodes``."""
    rate = 0.0
    status = PAUSED
    runs = 0
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
        if status == EXHAUSTED and search.next_run():
            status = PAUSED
            runs += 1
            if runs == max_runs:
                break
    return status


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
