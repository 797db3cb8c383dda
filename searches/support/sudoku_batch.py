"""The throughput kernel of the ``native`` sudoku solver: many 9x9 puzzles in one call, each
under a node cap, each timed by the CPU's cycle counter.

``batch9_timed(grids, limit, mode, node_cap, out, counts, guesses, nodes, finished, ticks)``
runs ``sudoku_band9``'s search on every row of ``grids`` (n, 81) with work arrays allocated
once for the whole call: puzzle ``i`` is searched until ``limit`` solutions or ``node_cap``
nodes; ``finished[i]`` is 1 when its search is complete (its count is then exact), 0 when the
cap stopped it; ``ticks[i]`` is the cycle-counter ticks it took (root propagation included),
which the caller turns into seconds by timing the whole call (``searches.sudoku_native``'s
``solve_batch``). Same tree, same counters as the per-call solver on every puzzle it finishes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from searches.support import sudoku_band9 as band9
from searches.support.intrinsics import cycle_counter
from searches.support.numba_cache import forget_stale_cache, own_dispatchers
from searches.support.sudoku_modes import C_GUESSES, C_NODES, C_SOLUTIONS, CTL_SLOTS, DONE

JIT_SOURCES = (__file__, *band9.JIT_SOURCES)


@njit(cache=True)
def batch9_timed(grids, limit, mode, node_cap, out, counts, guesses, nodes, finished, ticks):
    """Search every grid of ``grids`` under ``node_cap`` nodes each; see the module doc."""
    F = np.zeros(band9.WORK9, dtype=np.int64)
    stack = np.zeros((82, band9.STATE9), dtype=np.int64)
    frames = np.zeros(82, dtype=np.int64)
    ctl = np.zeros(CTL_SLOTS, dtype=np.int64)
    for i in range(grids.shape[0]):
        t0 = cycle_counter()
        for k in range(CTL_SLOTS):
            ctl[k] = 0
        ctl[C_NODES] = 1
        status = DONE
        if band9.init9(grids[i], F, mode & 3):
            status = band9.search9(F, stack, frames, ctl, limit, node_cap, mode, out[i])
        counts[i] = ctl[C_SOLUTIONS]
        guesses[i] = ctl[C_GUESSES]
        nodes[i] = ctl[C_NODES]
        finished[i] = 1 if status == DONE else 0
        ticks[i] = cycle_counter() - t0


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
