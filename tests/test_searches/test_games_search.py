"""minimax, alphabeta, alphabeta-ordered on trees and explicit graphs: the seed's 200-tree check,
exact node counts, the minimal tree, pausing, Nim against Bouton's rule, cycles refused."""

from __future__ import annotations

import time
from functools import reduce
from operator import xor

import numpy as np
import pytest

from bench.api import Budget, lookup
from instances.games import GENERATORS, GameGraph, GameTree, Line, board_graph, check
from instances.games.model import Board
from searches import games_search  # noqa: F401  (registers the solvers)
from searches.support.games_graph_search import CycleError, GraphSearch, solve_graph
from searches.support.games_tree import (
    PAUSED,
    TreeSearch,
    flat_levels,
    minimax_levels,
    perfect_ordering_leaves,
    tree_search,
)

SOLVERS = ("minimax", "alphabeta", "alphabeta-ordered")


def budget(seconds: float = 60.0) -> Budget:
    return Budget(wall_s=seconds, mem_mb=2000, deadline=time.monotonic() + seconds)


def leaf_of(line: tuple[int, ...], arity: int) -> int:
    leaf = 0
    for c in line:
        leaf = leaf * arity + c
    return leaf


# --- trees ---------------------------------------------------------------------------------------


def test_the_seeds_200_trees_alphabeta_equals_minimax():
    """The seed's check: 200 random trees of depth 4, arity 4; alpha-beta's value is minimax's
    on all 200, minimax enters all 341 nodes (256 leaves), and each line reaches a leaf of the
    root's value."""
    equal = 0
    explored = []
    for seed in range(1, 201):
        tree = GENERATORS["tree"]({"depth": 4, "arity": 4}, seed).instance
        leaves = tree.leaves()
        mm = tree_search(tree, prune=False, leaves=leaves).finish()
        ab = tree_search(tree, leaves=leaves).finish()
        assert (mm.nodes, mm.leaf_count, mm.cutoffs) == (341, 256, 0)
        assert mm.value == int(minimax_levels(leaves, 4, 4)[0][0])
        equal += ab.value == mm.value
        for search in (mm, ab):
            assert int(leaves[leaf_of(search.line(), 4)]) == search.value
        assert ab.nodes < 341 and ab.leaf_count < 256
        explored.append(ab.nodes)
    assert equal == 200
    # the fraction is the benchmark's business; here only that it is about half
    assert 0.4 < np.mean(explored) / 341 < 0.6


def test_alphabeta_on_the_first_tree_counts_exactly():
    """Seed 1's tree, pinned: a change of window or cut rule moves these counts."""
    tree = GENERATORS["tree"]({"depth": 4, "arity": 4}, 1).instance
    ab = tree_search(tree).finish()
    strict = tree_search(tree, strict=True).finish()
    mm = tree_search(tree, prune=False).finish()
    assert ab.value == strict.value == mm.value
    assert strict.nodes >= ab.nodes
    # recomputed by a plain recursive alpha-beta (the seed's OCaml in Python) below
    assert (ab.nodes, ab.leaf_count) == recursive_alphabeta_counts(tree.leaves(), 4, 4)
    assert (strict.nodes, strict.leaf_count) == recursive_alphabeta_counts(
        tree.leaves(), 4, 4, strict=True)


def recursive_alphabeta_counts(leaves, arity, depth, strict=False):
    """The seed's alphabeta, recursive, counting calls and leaves: a second implementation."""
    count = [0, 0]

    def ab(node, d, alpha, beta, maximising):
        count[0] += 1
        if d == depth:
            count[1] += 1
            return int(leaves[node])
        v = -np.inf if maximising else np.inf
        for c in range(arity):
            child = node * arity + c
            if maximising:
                v = max(v, ab(child, d + 1, alpha, beta, False))
                alpha = max(alpha, v)
            else:
                v = min(v, ab(child, d + 1, alpha, beta, True))
                beta = min(beta, v)
            if (beta < alpha) if strict else (beta <= alpha):
                break
        return v

    ab(0, 0, -np.inf, np.inf, True)
    return tuple(count)


@pytest.mark.parametrize("seed", range(1, 41))
def test_recursive_and_iterative_alphabeta_agree(seed):
    rng = np.random.default_rng(seed)
    depth, arity = int(rng.integers(1, 6)), int(rng.integers(2, 5))
    leaves = rng.integers(-5, 6, arity ** depth)
    for strict in (False, True):
        search = TreeSearch.start(leaves, arity, depth, strict=strict).finish()
        assert (search.nodes, search.leaf_count) == recursive_alphabeta_counts(
            leaves, arity, depth, strict)


@pytest.mark.parametrize("depth,arity", [(4, 4), (3, 3), (5, 2), (6, 3), (1, 5), (2, 4)])
def test_perfect_ordering_visits_the_minimal_tree(depth, arity):
    """Children sorted by their true value: exactly b^ceil(d/2) + b^floor(d/2) - 1 leaves when
    the leaf values are distinct (Knuth and Moore); 31 for depth 4, arity 4."""
    for seed in range(1, 11):
        tree = GameTree(depth, arity, low=-10**12, high=10**12, seed=seed)
        leaves = tree.leaves()
        assert len(np.unique(leaves)) == len(leaves)
        search = tree_search(tree, order="oracle", leaves=leaves).finish()
        assert search.leaf_count == perfect_ordering_leaves(arity, depth)
        assert search.value == int(minimax_levels(leaves, arity, depth)[0][0])
        assert int(leaves[leaf_of(search.line(), arity)]) == search.value
    assert perfect_ordering_leaves(4, 4) == 31


def test_the_oracle_never_visits_more_leaves_than_the_minimal_tree_with_ties():
    """With ties (-3..3) the cut on ``beta <= alpha`` prunes at least as much."""
    for seed in range(1, 51):
        tree = GameTree(4, 4, low=-3, high=3, seed=seed)
        search = tree_search(tree, order="oracle").finish()
        assert search.leaf_count <= 31


def test_pausing_and_resuming_gives_the_same_search():
    for seed in (1, 2, 3):
        tree = GameTree(6, 3, values="incremental", low=-50, high=50, seed=seed)
        for prune, order in ((False, "none"), (True, "none"), (True, "estimate"),
                             (True, "oracle")):
            whole = tree_search(tree, prune=prune, order=order).finish()
            for chunk in (1, 7, 100):
                paused = tree_search(tree, prune=prune, order=order)
                runs = 0
                while paused.run(chunk) == PAUSED:
                    runs += 1
                assert runs >= whole.nodes // chunk - 1
                assert paused.counters() == whole.counters()
                assert (paused.value, paused.line()) == (whole.value, whole.line())


def test_the_estimate_ordering_cuts_more_on_incremental_trees():
    """On incremental trees (a node's partial sum is an informative estimate) sorting by it
    explores fewer nodes than index order, on average over seeds."""
    plain, ordered = [], []
    for seed in range(1, 31):
        tree = GameTree(6, 4, values="incremental", low=-100, high=100, seed=seed)
        a = tree_search(tree).finish()
        b = tree_search(tree, order="estimate").finish()
        assert a.value == b.value
        plain.append(a.nodes)
        ordered.append(b.nodes)
    assert np.mean(ordered) < 0.8 * np.mean(plain)


def test_the_estimate_ordering_is_index_order_on_iid_trees():
    """An iid tree's estimates carry no information (zeros), and leaves are never sorted by
    their own values: the search is the unordered one, count for count."""
    for seed in range(1, 11):
        tree = GameTree(5, 4, seed=seed)
        assert tree_search(tree, order="estimate").finish().counters() == \
            tree_search(tree).finish().counters()


def test_tree_solvers_through_the_registry_and_the_checker():
    tree = GENERATORS["tree"]({"depth": 5, "arity": 3, "values": "incremental"}, 7).instance
    values = set()
    for name in SOLVERS:
        out = lookup(name, "games").solve(tree, budget(), 0)
        assert out.status == "optimal"
        verdict = check(tree, out.solution)
        assert verdict.solved, verdict
        assert out.objective == out.solution.value == verdict.score
        values.add(out.objective)
    assert len(values) == 1
    oracle = lookup("alphabeta-ordered", "games").solve(tree, budget(), 0, order="oracle")
    assert oracle.objective in values
    assert lookup("minimax", "games").solve(tree, budget(), 0).counters["nodes"] == \
        tree.node_count


def test_max_nodes_stops_with_unknown():
    tree = GameTree(8, 4, seed=3)
    out = lookup("minimax", "games").solve(tree, budget(), 0, max_nodes=1000)
    assert out.status == "unknown"
    assert out.counters["nodes"] == 1000


def test_a_depth_zero_tree_is_its_leaf():
    search = tree_search(GameTree(0, 3, seed=5)).finish()
    assert (search.nodes, search.leaf_count, search.line()) == (1, 1, ())
    assert search.value == int(GameTree(0, 3, seed=5).leaves()[0])


def test_flat_levels_offsets():
    keys, key_at = flat_levels(minimax_levels(np.arange(8), 2, 3))
    assert key_at.tolist() == [0, 1, 3, 7, 15]
    assert keys[0] == 5  # max(min(max(0,1),max(2,3)), min(max(4,5),max(6,7)))


# --- graphs --------------------------------------------------------------------------------------


@pytest.mark.parametrize("heaps", ["1-2-3", "1-3-5-7", "3-4-5", "2-2", "1", "4-4-1", "2-5-6"])
@pytest.mark.parametrize("name", SOLVERS)
def test_nim_against_boutons_rule(heaps, name):
    graph = GENERATORS["nim"]({"heaps": heaps}, 1).instance
    sizes = [int(h) for h in heaps.split("-")]
    bouton = 1 if reduce(xor, sizes, 0) else -1
    out = lookup(name, "games").solve(graph, budget(), 0)
    assert out.status == "optimal"
    assert out.objective == out.solution.value == bouton
    verdict = check(graph, out.solution)
    assert verdict.solved, verdict
    assert verdict.score == bouton


@pytest.mark.parametrize("heaps", [(1, 2, 3), (3, 4, 5), (2, 2), (1, 1, 2)])
def test_nim_without_a_table(heaps):
    graph = GENERATORS["nim"]({"heaps": "-".join(map(str, heaps))}, 1).instance
    bouton = 1 if reduce(xor, heaps, 0) else -1
    for prune in (False, True):
        for ordered in (False, True):
            result = solve_graph(graph, prune=prune, ordered=ordered, table=False)
            assert result.value == bouton
            assert check(graph, Line(result.value, result.line)).solved


@pytest.mark.parametrize("n", range(0, 13))
def test_subtraction_games(n):
    graph = GENERATORS["subtraction"]({"n": n, "take": "1-2-3"}, 1).instance
    for name in SOLVERS:
        out = lookup(name, "games").solve(graph, budget(), 0)
        assert out.objective == (-1 if n % 4 == 0 else 1)
        assert check(graph, out.solution).solved


def test_tictactoe_graph_minimax_without_a_table_walks_the_game_tree():
    """The family's node convention: the whole game tree with the root, 549,946 nodes, of which
    255,168 are complete games; with a table every position is expanded once (5,478)."""
    graph = board_graph(Board(3, 3, 3, False))
    assert graph.n == 5478
    plain = solve_graph(graph, prune=False, table=False)
    assert (plain.value, plain.counters["nodes"], plain.counters["leaves"]) == \
        (0, 549_946, 255_168)
    memo = solve_graph(graph, prune=False, table=True)
    assert memo.value == 0
    # every position is entered once by its first move in, then by table hits
    assert memo.counters["nodes"] == graph.m + 1
    expanded = memo.counters["nodes"] - memo.counters["hits"] - memo.counters["leaves"]
    assert expanded == int((np.diff(graph.offsets) > 0).sum()) == 5478 - 958
    for name in SOLVERS:
        out = lookup(name, "games").solve(graph, budget(), 0)
        assert out.objective == 0
        assert check(graph, out.solution).solved


def test_tictactoe_graph_alphabeta_without_a_table_counts_exactly():
    """Pinned: the seed's alpha-beta, moves in cell order, no table, on tic-tac-toe's graph (the
    bitboard search of ``searches.support.games_board`` counts the same on the Board)."""
    graph = board_graph(Board(3, 3, 3, False))
    result = solve_graph(graph, prune=True, table=False)
    counters = result.counters
    assert (result.value, counters["nodes"], counters["leaves"], counters["cutoffs"]) == \
        (0, 16_811, 6_740, 3_807)


@pytest.mark.parametrize("name", SOLVERS)
def test_boards_go_to_the_board_search(name):
    board = GENERATORS["tictactoe"]({"moves": "4"}, 1).instance
    for table in (True, False):
        out = lookup(name, "games").solve(board, budget(), 0, table=table)
        assert out.status == "optimal"
        assert out.objective == out.solution.value == 0
        assert check(board, out.solution).solved


def random_dag(n: int, degree: int, seed: int) -> GameGraph:
    """A random game on a DAG: moves only to higher positions; some targets, some dead ends."""
    rng = np.random.default_rng(seed)
    owner = rng.integers(1, 3, n).astype(np.int8)
    target = np.where(rng.random(n) < 0.15, rng.integers(1, 3, n), 0).astype(np.int8)
    target[0] = 0
    offsets, succ = [0], []
    for p in range(n):
        if target[p] == 0 and p < n - 1 and rng.random() > 0.05:
            succ.extend(rng.integers(p + 1, n, rng.integers(1, degree + 1)).tolist())
        offsets.append(len(succ))
    return GameGraph(owner, np.array(offsets), np.array(succ, dtype=np.int32), target)


@pytest.mark.parametrize("seed", range(1, 31))
def test_random_dags_agree_with_the_checkers_attractors(seed):
    graph = random_dag(60, 3, seed)
    values = set()
    for prune in (False, True):
        for ordered in (False, True):
            for table in (True, False):
                result = solve_graph(graph, prune=prune, ordered=ordered, table=table)
                verdict = check(graph, Line(result.value, result.line))
                assert verdict.solved, (prune, ordered, table, verdict)
                values.add(result.value)
    assert len(values) == 1


def test_graph_search_pauses_and_resumes():
    graph = GENERATORS["nim"]({"heaps": "2-3-4"}, 1).instance
    for prune in (False, True):
        whole = GraphSearch.start(graph.owner, graph.offsets, graph.succ, graph.target,
                                  prune=prune, ordered=True).finish()
        for chunk in (1, 5, 33):
            paused = GraphSearch.start(graph.owner, graph.offsets, graph.succ, graph.target,
                                       prune=prune, ordered=True)
            while paused.run(chunk) == PAUSED:
                pass
            assert paused.counters() == whole.counters()
            assert paused.value == whole.value


def test_deep_graphs_grow_the_stack():
    """A chain of 5,000 positions (a subtraction game taking 1) is deeper than the first
    stack."""
    graph = GENERATORS["subtraction"]({"n": 5000, "take": "1"}, 1).instance
    out = lookup("alphabeta", "games").solve(graph, budget(), 0)
    assert out.objective == -1  # 5000 is even: the player to move loses
    assert len(out.solution.moves) == 5000
    assert check(graph, out.solution).solved


def cyclic_graph() -> GameGraph:
    """0 (player 1) -> 1 (player 2) -> 0, and 1 -> 2, player 1's target: the cycle is the
    first move tried at both positions."""
    return GameGraph(np.array([1, 2, 1]), np.array([0, 1, 3, 3]),
                     np.array([1, 0, 2], dtype=np.int32), np.array([0, 0, 1]))


@pytest.mark.parametrize("name", SOLVERS)
def test_a_cycle_is_refused(name):
    with pytest.raises(ValueError, match="cycle"):
        lookup(name, "games").solve(cyclic_graph(), budget(), 0)


def test_a_self_loop_is_refused_with_table_or_without():
    graph = GameGraph(np.array([1]), np.array([0, 1]), np.array([0], dtype=np.int32),
                      np.array([0]))
    for table in (True, False):
        with pytest.raises(CycleError, match="position 0"):
            solve_graph(graph, prune=False, table=table)


def test_the_oracle_is_refused_on_graphs():
    graph = GENERATORS["nim"]({"heaps": "1-2"}, 1).instance
    with pytest.raises(ValueError, match="trees only"):
        lookup("alphabeta-ordered", "games").solve(graph, budget(), 0, order="oracle")


def test_a_start_on_a_target_is_its_value():
    graph = GameGraph(np.array([2]), np.array([0, 0]), np.zeros(0, np.int32), np.array([1]))
    out = lookup("alphabeta", "games").solve(graph, budget(), 0)
    assert (out.objective, out.solution.moves) == (-1, ())
    assert check(graph, out.solution).solved
