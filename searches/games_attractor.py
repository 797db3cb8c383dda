"""``attractor``: reachability games solved whole, in linear time, by their two attractors.

- ``GameGraph``: the two attractors (``searches.support.games_attract``); the answer is the
  ``Labelling(label, move, layer)`` of every position; the claim ``optimal``, the objective the
  start's value for its owner (+1 / 0 / -1).
- ``Board`` (tic-tac-toe, Connect Four, any m,n,k board, from its start position): the reachable
  positions are first expanded into an explicit graph (``searches.support.games_expand``), then
  the two attractors; the answer is a ``Line(value, moves)``: the value for the side to move at
  the start and a principal variation to a terminal position (the winner plays its strategy,
  the loser the reply with the largest layer -- the longest resistance --, and in a draw both
  play draw-labelled successors, which exist: a drawn position with moves has one). A Board
  whose reachable positions exceed ``max_positions`` is refused with ``unknown`` (counter
  ``refused_positions``, the count reached).
- ``GameTree``: not taken (``accepts``: a suite never pairs the attractor with a tree), and
  refused with a ValueError if given one anyway: a tree has values at its leaves, not targets;
  minimax and alpha-beta solve those.

Counters: ``positions`` (= ``nodes``: every position is visited once), ``moves`` (edges),
``layers`` (the greatest layer), ``attracted`` (positions won by one player, the targets
included); on a Board, ``t_encode`` is the expansion and ``t_solve`` the predecessors plus the
attractors.

Budget: the expansion and the attractors run in chunks (numba cannot read the clock) and stop
with ``unknown`` when the budget ends; the predecessor build is two linear passes, not chunked.
The solver is deterministic: the seed is unused, and so is ``budget.cores`` (one thread).
"""

from __future__ import annotations

import time

import numba
import numpy as np

from bench.api import Budget, Outcome, Param, solver
from instances.games import Board, GameGraph, GameTree, Labelling, Line
from searches.support.chunked import run_in_chunks
from searches.support.games_attract import DONE, PAUSED, GraphSolve
from searches.support.games_expand import REFUSED, Expansion

FIRST_CHUNK = 50_000  # positions of the first chunk (expanded or popped), before the rate is known
MIN_CHUNK = 10_000
CHUNK_S = 0.05
MARGIN_S = 0.05  # kept off the budget for building the answer
DEFAULT_MAX_POSITIONS = 30_000_000


def value_for(label: int, player: int) -> int:
    """+1 / 0 / -1: the game's result for ``player`` when ``label`` wins (0: a draw)."""
    return 0 if label == 0 else (1 if label == player else -1)


def principal_line(owner: np.ndarray, offsets: np.ndarray, succ: np.ndarray,
                   edge_move: np.ndarray, label: np.ndarray, move: np.ndarray,
                   layer: np.ndarray) -> tuple[int, ...]:
    """The moves from position 0 to a position without moves, both sides playing well: the
    winner its strategy (down the layers), the loser the move to the largest layer (the
    longest resistance; the first such move), in a draw each side the first move that keeps
    the draw (a drawn position with moves has one: were every move a win for one player, the
    position would be in an attractor)."""
    moves = []
    p = 0
    while offsets[p] < offsets[p + 1]:
        first, last = int(offsets[p]), int(offsets[p + 1])
        after = succ[first:last]
        won_by = label[p]
        if won_by == owner[p]:
            chosen = int(np.flatnonzero(after == move[p])[0])
        elif won_by:
            chosen = int(np.argmax(layer[after]))
        else:
            chosen = int(np.flatnonzero(label[after] == 0)[0])
        moves.append(int(edge_move[first + chosen]))
        p = int(after[chosen])
    return tuple(moves)


def attractors(owner: np.ndarray, offsets: np.ndarray, succ: np.ndarray, target: np.ndarray,
               budget: Budget) -> GraphSolve | None:
    """Both attractors under the budget; None when it ran out first."""
    solve = GraphSolve.start(owner, offsets, succ, target)
    status = run_in_chunks(solve, budget, PAUSED, PAUSED, first_chunk=FIRST_CHUNK,
                           min_chunk=MIN_CHUNK, chunk_s=CHUNK_S, margin_s=MARGIN_S)
    return solve if status == DONE else None


def graph_counters(solve: GraphSolve, n: int, m: int) -> dict[str, float]:
    return {"nodes": n, "positions": n, "moves": m, "layers": int(solve.layer.max(initial=0)),
            "targets": solve.targets, "attracted": int(np.count_nonzero(solve.label)),
            "t_predecessors": solve.t_pred}


def solve_graph(graph: GameGraph, budget: Budget) -> Outcome:
    t0 = time.perf_counter()
    solve = attractors(graph.owner, graph.offsets, graph.succ, graph.target, budget)
    t_solve = time.perf_counter() - t0
    if solve is None:
        return Outcome("unknown", counters={"nodes": graph.n, "positions": graph.n,
                                            "moves": graph.m}, t_encode=0.0, t_solve=t_solve)
    value = value_for(int(solve.label[graph.start]), int(graph.owner[graph.start]))
    return Outcome("optimal", solution=Labelling(solve.label, solve.move, solve.layer),
                   objective=value, counters=graph_counters(solve, graph.n, graph.m),
                   t_encode=0.0, t_solve=t_solve)


def solve_board(board: Board, budget: Budget, max_positions: int) -> Outcome:
    t0 = time.perf_counter()
    expansion = Expansion.start(board, max_positions)
    status = run_in_chunks(expansion, budget, PAUSED, PAUSED, first_chunk=FIRST_CHUNK,
                           min_chunk=MIN_CHUNK, chunk_s=CHUNK_S, margin_s=MARGIN_S)
    t_encode = time.perf_counter() - t0
    found = {"positions": expansion.positions, "moves": expansion.moves,
             "expanded": expansion.nodes, "positions_bound": expansion.bound}
    if status == REFUSED:
        return Outcome("unknown", counters={"refused_positions": expansion.positions,
                                            "max_positions": max_positions, **found},
                       t_encode=t_encode)
    if status != DONE:
        return Outcome("unknown", counters=found, t_encode=t_encode)
    owner, offsets, succ, target, edge_move = expansion.graph()
    del expansion
    solve = attractors(owner, offsets, succ, target, budget)
    t_solve = time.perf_counter() - t0 - t_encode
    if solve is None:
        return Outcome("unknown", counters=found, t_encode=t_encode, t_solve=t_solve)
    value = value_for(int(solve.label[0]), int(owner[0]))
    line = principal_line(owner, offsets, succ, edge_move, solve.label, solve.move, solve.layer)
    return Outcome("optimal", solution=Line(value, line), objective=value,
                   counters=graph_counters(solve, len(owner), len(succ)),
                   t_encode=t_encode, t_solve=t_solve)


def prepare() -> None:
    """Compile (or load from numba's cache) every kernel: a small board with and without
    gravity, and a small graph."""
    budget = Budget(60.0, 1024)
    solve_board(Board(3, 3, 3, False, (4, 0, 8)), budget, DEFAULT_MAX_POSITIONS)
    solve_board(Board(4, 4, 4, True, (0, 1, 2, 3) * 3), budget, DEFAULT_MAX_POSITIONS)
    # a GameGraph's arrays are read-only: numba compiles the kernels for them separately
    solve_graph(GameGraph(np.array([1, 2, 1]), np.array([0, 1, 2, 2]), np.array([1, 2]),
                          np.array([0, 0, 1])), budget)


PARAMS = [
    Param("max_positions", DEFAULT_MAX_POSITIONS, "a Board with more reachable positions is "
          "refused (unknown): about 120 bytes a position", min=1),
]


def takes(instance: object) -> bool:
    """The instances the attractor solves: reachability games (graphs, boards), not trees."""
    return isinstance(instance, (Board, GameGraph))


@solver("attractor", family="games", paradigm="native", backend=f"numba-{numba.__version__}",
        params=PARAMS, prepare=prepare, accepts=takes)
def solve(instance: Board | GameGraph | GameTree, budget: Budget, seed: int,
          max_positions: int = DEFAULT_MAX_POSITIONS) -> Outcome:
    """Two attractors in linear time (predecessor lists, a counter per position); a Board is
    expanded into its graph of reachable positions first."""
    if isinstance(instance, GameGraph):
        return solve_graph(instance, budget)
    if isinstance(instance, Board):
        return solve_board(instance, budget, max_positions)
    raise ValueError("the attractor solves reachability games (a GameGraph, or a Board as the "
                     "graph of its positions), not valued game trees: use minimax or alphabeta "
                     f"for a {type(instance).__name__}")
