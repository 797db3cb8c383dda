"""Games: the attractor on a fixed random game graph, alpha-beta on Connect Four 5x4.

The graph is the family's ``random-graph`` (500,000 positions, 30 % dead ends -- draws --, 1 %
each player's targets, 10 moves from every other position, seed 1: 3.4 M moves; about a third
of the positions drawn, a third won by each player), solved whole by the two attractors
(predecessor lists included). Connect Four 5x4 (a draw, 3.9 M reachable positions) is solved
from the empty board by the registered ``alphabeta`` (transposition table, moves in column
order) and ``alphabeta-ordered`` (and moves sorted by an estimate) solvers.
"""

from __future__ import annotations

import time

import numpy as np

from bench.api import REGISTRY
from bench.plan.registry import load_solvers
from instances.games import GENERATORS, Board
from searches import games_attractor
from searches.support import games_attract

from .common import NUMBA_TIMEOUT, ns_per, open_budget

GRAPH = {"positions": 500_000, "degree": 10, "targets": 0.01, "dead_ends": 0.3}
CONNECT4 = (5, 4)


class AttractorRandomGraph:
    """Both attractors of the fixed random graph: time, time per move, and two
    machine-independent counts: the predecessor moves scanned (the work) and the positions
    won by player 1 (the answer)."""

    timeout = NUMBA_TIMEOUT

    def setup(self) -> None:
        games_attractor.prepare()
        self.graph = GENERATORS["random-graph"](GRAPH, 1).instance

    def _solve(self) -> games_attract.GraphSolve:
        g = self.graph
        solve = games_attract.GraphSolve.start(g.owner, g.offsets, g.succ, g.target)
        while solve.run(1 << 62) == games_attract.PAUSED:
            pass
        return solve

    def time_solve(self) -> None:
        self._solve()

    def track_ns_per_move(self) -> float:
        """1e9 / this = moves per second."""
        start = time.perf_counter()
        self._solve()
        return ns_per(time.perf_counter() - start, self.graph.m)

    track_ns_per_move.unit = "ns/move"

    def track_moves_scanned(self) -> int:
        """Predecessor moves scanned by both attractors (at most the 3.4 M moves: linear)."""
        return self._solve().scanned

    track_moves_scanned.unit = "moves"

    def track_positions_won_by_1(self) -> int:
        """Fixed by the game: a change is a wrong answer, not a slower one."""
        return int(np.count_nonzero(self._solve().label == 1))

    track_positions_won_by_1.unit = "positions"


class AlphaBetaConnect4:
    """Connect Four 5x4 from the empty board: time and nodes of the registered solvers."""

    params = ["alphabeta", "alphabeta-ordered"]
    param_names = ["solver"]
    timeout = NUMBA_TIMEOUT

    def setup(self, solver: str) -> None:
        load_solvers()
        self.spec = REGISTRY[f"games/{solver}"]
        self.spec.prepare()
        self.board = Board(*CONNECT4, 4, True)

    def _solve(self):
        return self.spec.solve(self.board, open_budget(), 0, **self.spec.defaults())

    def time_solve_5x4(self, solver: str) -> None:
        self._solve()

    def track_nodes_5x4(self, solver: str) -> int:
        """Machine-independent: grows if pruning, ordering or the table get worse."""
        return int(self._solve().counters["nodes"])

    track_nodes_5x4.unit = "nodes"
