"""The IDA* solvers ``ida-manhattan`` and ``ida-lc`` for sliding tiles (Korf 1985).

Both run the IDA* kernel of ``searches.support.tiles_ida_kernel`` through
``searches.support.tiles_ida_search.solve_ida``, with Manhattan distance or Manhattan plus
linear conflict (``searches.support.tiles_heuristics``): ``optimal`` with the moves, or
``infeasible`` by the permutation parity without a search, or ``unknown`` when the budget or
``max_nodes`` ends first (``threshold`` is then a proven lower bound). ``nodes`` follows Korf's
convention (nodes generated, the start state not counted). The seed is unused: the search is
deterministic. ``ida-pdb`` (pattern databases) is registered by ``searches.tiles_pdb_search``.
"""

from __future__ import annotations

import numba

from bench.api import Budget, Outcome, Param, solver
from instances.tiles import Instance
from searches.support.tiles_heuristics import LINEAR_CONFLICT, MANHATTAN
from searches.support.tiles_ida_search import prepare, solve_ida


def prepare_manhattan() -> None:
    prepare((MANHATTAN,))


def prepare_linear_conflict() -> None:
    prepare((LINEAR_CONFLICT,))


PARAMS = [Param("max_nodes", 0, "stop after this many generated nodes (0 = only the time budget)",
                min=0)]
BACKEND = f"numba-{numba.__version__}"


@solver("ida-manhattan", family="tiles", paradigm="native", backend=BACKEND, params=PARAMS,
        prepare=prepare_manhattan)
def solve_manhattan(instance: Instance, budget: Budget, seed: int, max_nodes: int = 0) -> Outcome:
    """IDA* with Manhattan distance (Korf 1985): iterative, incremental, U-L-R-D, no undo."""
    return solve_ida(instance, budget, MANHATTAN, max_nodes)


@solver("ida-lc", family="tiles", paradigm="native", backend=BACKEND, params=PARAMS,
        prepare=prepare_linear_conflict)
def solve_linear_conflict(instance: Instance, budget: Budget, seed: int,
                          max_nodes: int = 0) -> Outcome:
    """IDA* with Manhattan + linear conflict (Hansson, Mayer & Yung 1992)."""
    return solve_ida(instance, budget, LINEAR_CONFLICT, max_nodes)
