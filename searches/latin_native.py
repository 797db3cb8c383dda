"""``native``: quasigroup completion by randomised backtracking with restarts (the search whose
heavy-tailed run times restarts cure: Gomes, Selman and Kautz, AAAI 1998; with Crato, JAR 2000).

The kernel is ``searches.support.latin_kernel``: bitsets per row, column and symbol, forward
checking after each placement (a cell of the placed cell's row or column left without a value
is a dead end at once), singles propagated (``propagation``: ``fc`` places none, ``naked`` the
cells left with one value, ``hidden`` also a symbol left with one place in a row or a column,
the unit propagation of the 3-D encoding), MRV branching on the cells (or, ``branching=3d``, on
cells, row-symbol and column-symbol pairs alike) with ties broken at random and values tried in
random order, from a generator seeded by the run's seed. ``restarts``: ``luby`` (``restart_base``
fails x Luby's sequence), ``geometric`` (``restart_base`` x ``restart_factor``^i) or ``off``.

Claims: ``solved`` with the completed square; ``infeasible`` when the givens repeat a symbol, the
root propagation fails, or a run exhausts its tree (with restarts too: an exhausted run has
searched everything; Luby and geometric cutoffs grow without bound, so the search is complete
under every schedule); ``unknown`` at the budget or ``max_nodes``, without an answer (the family
has no partial score).

Counters: ``nodes`` (decisions), ``fails`` (dead ends), ``restarts``, ``forced`` (placements
made by propagation). Budget: the kernel runs in chunks of nodes (numba cannot read the clock)
sized from the measured node rate, the budget checked in between; chunking never changes the
search. One thread (``budget.cores`` is ignored). Orders up to 64 (``accepts``).
"""

from __future__ import annotations

import time

import numba

from bench.api import Budget, Outcome, Param, solver
from instances.latin.model import Instance, Solution
from searches.support.latin_kernel import (
    BRANCHINGS,
    CHUNKING,
    EXHAUSTED,
    MAX_ORDER,
    PROPAGATIONS,
    RESTART_MODES,
    SOLVED,
    Search,
)


def fits(instance: Instance) -> bool:
    """Orders up to 64: the kernel keeps each row's, column's and symbol's set in one uint64."""
    return instance.order <= MAX_ORDER


def start(instance: Instance, seed: int, propagation: str = "hidden", branching: str = "cells",
          restarts: str = "luby", restart_base: int = 100,
          restart_factor: float = 1.5) -> Search:
    """The search of one instance, root propagated, first run open."""
    return Search.start(instance.order, instance.cells_array(), seed, propagation, branching,
                        restarts, restart_base, restart_factor)


def prepare() -> None:
    """Compile (or load from numba's cache) the kernels once, on an empty square of order 5
    (a search, with restarts) under every propagation and branching."""
    tiny = Instance(5, (-1,) * 25)
    for propagation in PROPAGATIONS:
        for branching in BRANCHINGS:
            start(tiny, 1, propagation, branching, "geometric", 1).finish()


PARAMS = [
    Param("restarts", "luby", "restart schedule: luby (restart_base x Luby's sequence), "
          "geometric (restart_base x restart_factor^i) or off (one run)", choices=RESTART_MODES),
    Param("restart_base", 100, "fails (dead ends) of the shortest run", min=1),
    Param("restart_factor", 1.5, "growth of geometric runs", min=1.0),
    Param("propagation", "hidden", "fc: forward checking only; naked: also place cells left with "
          "one value; hidden: also symbols left with one place in a row or column",
          choices=PROPAGATIONS),
    Param("branching", "cells", "cells: MRV on the empty cells; 3d: MRV on cells, row-symbol and "
          "column-symbol pairs", choices=BRANCHINGS),
    Param("max_nodes", 0, "stop after this many nodes (0 = only the time budget)", min=0),
]


@solver("native", family="latin", paradigm="native", backend=f"numba-{numba.__version__}",
        params=PARAMS, prepare=prepare, accepts=fits)
def solve(instance: Instance, budget: Budget, seed: int, restarts: str = "luby",
          restart_base: int = 100, restart_factor: float = 1.5, propagation: str = "hidden",
          branching: str = "cells", max_nodes: int = 0) -> Outcome:
    """Forward checking, singles, random-tie MRV backtracking with restarts (bitsets, numba)."""
    t0 = time.perf_counter()
    search = start(instance, seed or 0, propagation, branching, restarts, restart_base,
                   restart_factor)
    t_encode = time.perf_counter() - t0
    status = CHUNKING.drive(search, budget, max_nodes)
    t_solve = time.perf_counter() - t0 - t_encode
    if status == SOLVED:
        return Outcome("solved", solution=Solution.from_array(instance.order, search.square()),
                       counters=search.counters(), t_encode=t_encode, t_solve=t_solve)
    claim = "infeasible" if status == EXHAUSTED else "unknown"
    return Outcome(claim, counters=search.counters(), t_encode=t_encode, t_solve=t_solve)
