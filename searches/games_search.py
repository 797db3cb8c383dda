"""``minimax``, ``alphabeta``, ``alphabeta-ordered``: the classic game-tree searches as solvers
of the games family, each dispatching on the kind of instance.

- ``GameTree``: ``searches.support.games_tree`` (uniform valued trees, the root's minimax value
  and a principal variation of child indices). ``alphabeta-ordered`` sorts children by the tree's
  static estimates (``order="estimate"``) or, as a reference, by their true minimax values
  (``order="oracle"``: the minimal tree, computed beforehand; trees only).
- ``GameGraph``: ``searches.support.games_graph_search`` (an explicit game from its start,
  memoised per position with ``table``; a cycle reachable from the start is refused with a
  ValueError). ``alphabeta-ordered`` tries the mover's immediate wins first, then successors by
  increasing out-degree.
- ``Board``: ``searches.support.games_board.solve_board`` (bitboards, transposition table).

Each returns ``Outcome("optimal", solution=Line(value, moves), objective=value)`` with the
value for the player to move at the start (a tree's minimax value), or ``unknown`` when the
budget or ``max_nodes`` ran out first. Counters: ``nodes`` (positions entered, the root
included), ``leaves``, ``cutoffs`` and the search's own (``hits`` for tables, ``pv_nodes`` for a
graph's principal variation walk). The searches are deterministic: the seed is unused, and so
is ``budget.cores`` (one thread).
"""

from __future__ import annotations

import time

import numba

from bench.api import Budget, Outcome, Param, solver
from instances.games import Board, GameGraph, GameTree, Line
from searches.support import games_board, games_graph_search, games_tree

BACKEND = f"numba-{numba.__version__}"
ORDERS = ("estimate", "oracle")


def solve_tree(tree: GameTree, budget: Budget, prune: bool, order: str,
               max_nodes: int) -> Outcome:
    t0 = time.perf_counter()
    search = games_tree.tree_search(tree, prune=prune, order=order)
    t_encode = time.perf_counter() - t0
    status = games_tree.drive(search, budget, max_nodes)
    t_solve = time.perf_counter() - t0 - t_encode
    counters = {**search.counters(), "tree_nodes": tree.node_count}
    if status != games_tree.DONE:
        return Outcome("unknown", counters=counters, t_encode=t_encode, t_solve=t_solve)
    value = search.value
    return Outcome("optimal", solution=Line(value, search.line()), objective=value,
                   counters=counters, t_encode=t_encode, t_solve=t_solve)


def solve_graph(graph: GameGraph, budget: Budget, prune: bool, ordered: bool, table: bool,
                max_nodes: int) -> Outcome:
    t0 = time.perf_counter()
    result = games_graph_search.solve_graph(graph, budget, prune=prune, ordered=ordered,
                                            table=table, max_nodes=max_nodes)
    t_solve = time.perf_counter() - t0
    if result.status != "optimal":
        return Outcome("unknown", counters=result.counters, t_solve=t_solve)
    return Outcome("optimal", solution=Line(result.value, result.line), objective=result.value,
                   counters=result.counters, t_solve=t_solve)


def solve_board(board: Board, budget: Budget, prune: bool, ordered: bool, table: bool,
                max_nodes: int) -> Outcome:
    t0 = time.perf_counter()
    result = games_board.solve_board(board, budget, prune=prune, ordered=ordered, table=table,
                                     max_nodes=max_nodes)
    t_solve = time.perf_counter() - t0
    counters = dict(result.counters)
    if result.status == "optimal":
        return Outcome("optimal", solution=Line(result.value, tuple(result.line)),
                       objective=result.value, counters=counters, t_solve=t_solve)
    return Outcome("unknown", counters=counters, t_solve=t_solve)


def dispatch(instance: Board | GameTree | GameGraph, budget: Budget, *, prune: bool,
             order: str, table: bool, max_nodes: int) -> Outcome:
    """One of the three searches on any kind of instance (``order``: none, estimate or
    oracle)."""
    if isinstance(instance, GameTree):
        return solve_tree(instance, budget, prune, order, max_nodes)
    if order == "oracle":
        raise ValueError("order='oracle' (children sorted by their true minimax values) "
                         "applies to game trees only: it is the minimal tree's reference; use "
                         "order='estimate' on graphs and boards")
    if isinstance(instance, GameGraph):
        return solve_graph(instance, budget, prune, order != "none", table, max_nodes)
    if isinstance(instance, Board):
        return solve_board(instance, budget, prune, order != "none", table, max_nodes)
    raise TypeError(f"{type(instance).__name__} is not a games instance (Board, GameTree or "
                    "GameGraph)")


def prepare() -> None:
    """Compile (or load from numba's cache) the tree, graph and board kernels."""
    games_tree.prepare()
    games_graph_search.prepare()
    games_board.prepare_board()


TABLE = Param("table", True, "transposition table (a memo per position) on graphs and boards; "
              "trees have no transpositions and ignore it")
MAX_NODES = Param("max_nodes", 0, "stop after this many nodes (0 = only the time budget)", min=0)
ORDER = Param("order", "estimate", "estimate: the cheap static estimate; oracle: children by "
              "their true minimax value (trees only: the minimal tree, a reference)",
              choices=ORDERS)


@solver("minimax", family="games", paradigm="native", backend=BACKEND,
        params=[TABLE, MAX_NODES], prepare=prepare)
def solve_minimax(instance: Board | GameTree | GameGraph, budget: Budget, seed: int,
                  table: bool = True, max_nodes: int = 0) -> Outcome:
    """Minimax: every move searched; memoised on graphs and boards."""
    return dispatch(instance, budget, prune=False, order="none", table=table,
                    max_nodes=max_nodes)


@solver("alphabeta", family="games", paradigm="native", backend=BACKEND,
        params=[TABLE, MAX_NODES], prepare=prepare)
def solve_alphabeta(instance: Board | GameTree | GameGraph, budget: Budget, seed: int,
                    table: bool = True, max_nodes: int = 0) -> Outcome:
    """Alpha-beta (fail-soft, cut when beta <= alpha), moves in their order."""
    return dispatch(instance, budget, prune=True, order="none", table=table,
                    max_nodes=max_nodes)


@solver("alphabeta-ordered", family="games", paradigm="native", backend=BACKEND,
        params=[TABLE, MAX_NODES, ORDER], prepare=prepare)
def solve_alphabeta_ordered(instance: Board | GameTree | GameGraph, budget: Budget, seed: int,
                            table: bool = True, max_nodes: int = 0,
                            order: str = "estimate") -> Outcome:
    """Alpha-beta with moves sorted by a cheap estimate (or, on trees, by an oracle)."""
    return dispatch(instance, budget, prune=True, order=order, table=table,
                    max_nodes=max_nodes)
