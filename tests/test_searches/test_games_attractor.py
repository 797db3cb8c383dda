"""The ``attractor`` solver: exact labels, layers and strategies on hand-built graphs, Nim and
subtraction games against their rules, random graphs against the seed's layer formula and the
family's checker, and tic-tac-toe / Connect Four boards against their known values and
position counts."""

from __future__ import annotations

import time
from functools import reduce
from operator import xor

import numpy as np
import pytest

from bench.api import Budget, lookup
from instances.games import (
    GENERATORS,
    Board,
    GameGraph,
    GameTree,
    Labelling,
    Line,
    board_graph,
    check,
    parse_known_values,
    rules,
)
from searches import games_attractor as ga
from searches.support import games_attract, games_expand


def budget(seconds: float = 120.0) -> Budget:
    return Budget(seconds, 4000, deadline=time.monotonic() + seconds)


def graph(owner, moves, target=None, start=0) -> GameGraph:
    """A GameGraph from ``moves`` = one list of successors a position."""
    offsets = np.zeros(len(owner) + 1, np.int64)
    offsets[1:] = np.cumsum([len(m) for m in moves])
    succ = np.array([q for m in moves for q in m], dtype=np.int32)
    return GameGraph(np.array(owner, np.int8), offsets, succ,
                     np.array(target if target is not None else [0] * len(owner), np.int8),
                     start)


def solved(instance) -> Labelling:
    outcome = ga.solve(instance, budget(), 1)
    assert outcome.status == "optimal"
    assert check(instance, outcome.solution).solved
    return outcome.solution


def naive_layers(g: GameGraph, player: int) -> np.ndarray:
    """The seed's formula, one layer at a time, position by position:
    A_{k+1} = A_k + {p of P: a move into A_k} + {p of the other, with moves: all moves in A_k}.
    (Targets of the other player have no moves, so they never join.)"""
    layer = np.where(g.target == player, 0, -1)
    k = 0
    while True:
        inside = layer >= 0
        joins = []
        for p in np.flatnonzero(~inside):
            after = g.successors(p)
            if g.owner[p] == player:
                if inside[after].any():
                    joins.append(p)
            elif len(after) and inside[after].all():
                joins.append(p)
        if not joins:
            return layer
        k += 1
        layer[joins] = k


# --- hand-built graphs ------------------------------------------------------------------------


def test_player_two_position_needs_every_move_attracted():
    # 0 (P2): moves to 1 (P1's target) and 2 (a dead end): P2 escapes to the dead end, a draw.
    # 3 (P2): both moves to P1's targets: won by P1 in one move, and P2 plays no strategy.
    g = graph([2, 1, 1, 2, 1], [[1, 2], [], [], [1, 4], []], [0, 1, 0, 0, 1])
    sol = solved(g)
    assert sol.label.tolist() == [0, 1, 0, 1, 1]
    assert sol.layer.tolist() == [-1, 0, -1, 1, 0]
    assert sol.move.tolist() == [-1, -1, -1, -1, -1]


def test_one_good_move_suffices_for_player_one_and_is_the_strategy():
    # 0 (P1): a move to a dead end (1) and one to P1's target (2): won, strategy 2.
    g = graph([1, 2, 1], [[1, 2], [], []], [0, 0, 1])
    sol = solved(g)
    assert sol.label.tolist() == [1, 0, 1]
    assert sol.move.tolist() == [2, -1, -1]
    assert sol.layer.tolist() == [1, -1, 0]


def test_dead_end_is_a_draw_for_either_owner():
    for owner in (1, 2):
        sol = solved(graph([owner], [[]]))
        assert (sol.label.tolist(), sol.move.tolist(), sol.layer.tolist()) == ([0], [-1], [-1])
    outcome = ga.solve(graph([2, 1], [[1], []]), budget(), 1)
    assert outcome.objective == 0


def test_cycle_is_a_draw():
    # 0 (P1) -> 1 (P2); 1 -> 0 or P1's target 2: P2 keeps cycling, nobody wins.
    g = graph([1, 2, 1], [[1], [0, 2], []], [0, 0, 1])
    assert solved(g).label.tolist() == [0, 0, 1]
    # Give P1 a way out of the cycle into its target: 0 wins at layer 1, and 1, whose moves
    # both lead into P1's attractor, at layer 2 (the largest successor layer plus one).
    g = graph([1, 2, 1, 1], [[1, 3], [0, 2], [], []], [0, 0, 1, 1])
    sol = solved(g)
    assert sol.label.tolist() == [1, 1, 1, 1]
    assert sol.layer.tolist() == [1, 2, 0, 0]
    assert sol.move.tolist() == [3, -1, -1, -1]


def test_layers_are_the_shortest_forced_win_and_the_strategy_goes_down():
    # P2 owns a chain 0 -> 1 -> 2 -> P2's target 3, with a shortcut 0 -> 4 -> 3 (4: P1's, whose
    # only move is to 3); P1 at 5 can enter at 0 or go to its own target 6.
    owner = [2, 2, 2, 1, 1, 1, 2]
    moves = [[1, 4], [2], [3], [], [3], [0, 6], []]
    g = graph(owner, moves, [0, 0, 0, 2, 0, 0, 1])
    sol = solved(g)
    assert sol.label.tolist() == [2, 2, 2, 2, 2, 1, 1]
    assert sol.layer.tolist() == [2, 2, 1, 0, 1, 1, 0]
    assert sol.move.tolist() == [4, 2, 3, -1, -1, 6, -1]
    assert ga.solve(g, budget(), 1).objective == 1  # the start 0 is P2's and P2 wins
    outcome = ga.solve(GameGraph(g.owner, g.offsets, g.succ, g.target, start=5), budget(), 1)
    assert outcome.objective == 1 and outcome.counters["layers"] == 2


def test_counters_and_the_kernel_without_the_solver():
    g = graph([1, 2, 1], [[1, 2], [], []], [0, 0, 1])
    outcome = ga.solve(g, budget(), 1)
    assert outcome.counters["positions"] == outcome.counters["nodes"] == 3
    assert outcome.counters["moves"] == 2 and outcome.counters["attracted"] == 2
    label, move, layer = games_attract.solve_arrays(g.owner, g.offsets, g.succ, g.target)
    assert label.tolist() == [1, 0, 1] and move.tolist() == [2, -1, -1]


def test_predecessors_are_the_moves_reversed():
    rng = np.random.default_rng(3)
    offsets = np.concatenate([[0], np.cumsum(rng.integers(0, 5, 40))]).astype(np.int64)
    succ = rng.integers(0, 40, offsets[-1]).astype(np.int32)
    pred_off, pred = games_attract.build_predecessors(offsets, succ)
    mine = sorted((int(pred[i]), q) for q in range(40) for i in range(pred_off[q], pred_off[q + 1]))
    theirs = sorted((p, int(succ[e])) for p in range(40) for e in range(offsets[p], offsets[p + 1]))
    assert mine == theirs
    assert all(np.all(np.diff(pred[pred_off[q]:pred_off[q + 1]]) >= 0) for q in range(40))


def test_a_tree_is_not_taken_and_refused_with_a_reason():
    spec = lookup("attractor", "games")
    assert not spec.applies_to(GameTree(2, 2))
    assert spec.applies_to(Board(3, 3, 3, False)) and spec.applies_to(graph([1], [[]]))
    with pytest.raises(ValueError, match="not valued game trees"):
        ga.solve(GameTree(2, 2), budget(), 1)


# --- random graphs against the seed's formula -------------------------------------------------


def random_dead_ends(n: int, seed: int) -> GameGraph:
    """Out-degrees 0-3 (dead ends and cycles galore), targets without moves."""
    rng = np.random.default_rng(seed)
    target = np.where(rng.random(n) < 0.1, rng.integers(1, 3, n), 0)
    degree = np.where(target == 0, rng.integers(0, 4, n), 0)
    offsets = np.concatenate([[0], np.cumsum(degree)])
    return GameGraph(rng.integers(1, 3, n), offsets, rng.integers(0, n, offsets[-1]), target)


@pytest.mark.parametrize("kind, seed, size, degree, targets", [
    ("generator", 1, 300, 3, 0.05), ("generator", 2, 300, 2, 0.02), ("generator", 3, 300, 1, 0.1),
    ("generator", 4, 300, 0, 0.1), ("generator", 5, 300, 5, 0.01), ("generator", 6, 300, 3, 0.3),
    ("dead-ends", 7, 1, 0, 0), ("dead-ends", 8, 5, 0, 0), ("dead-ends", 9, 60, 0, 0),
    ("dead-ends", 10, 400, 0, 0),
])
def test_random_graphs_equal_the_naive_fixed_point(kind, seed, size, degree, targets):
    if kind == "generator":
        g = GENERATORS["random-graph"]({"positions": size, "degree": degree,
                                        "targets": targets}, seed).instance
    else:
        g = random_dead_ends(size, seed)
    sol = solved(g)
    first, second = naive_layers(g, 1), naive_layers(g, 2)
    assert not np.any((first >= 0) & (second >= 0))
    assert sol.label.tolist() == np.where(first >= 0, 1, np.where(second >= 0, 2, 0)).tolist()
    assert sol.layer.tolist() == np.maximum(first, second).tolist()
    for p in range(g.n):
        winner = sol.label[p]
        if winner and winner == g.owner[p] and not g.target[p]:
            q = sol.move[p]
            assert q in g.successors(p).tolist()
            assert sol.label[q] == winner and sol.layer[q] == sol.layer[p] - 1
        else:
            assert sol.move[p] == -1


def test_a_big_random_graph_is_accepted_by_the_checker():
    g = GENERATORS["random-graph"]({"positions": 100_000, "degree": 4, "targets": 0.02}, 11)
    sol = solved(g.instance)
    assert 0 < np.count_nonzero(sol.label == 0) < g.instance.n  # draws and wins both occur


# --- games from rules -------------------------------------------------------------------------


def nim_heaps(g: GameGraph, heaps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The heaps of every position of ``nim_graph(heaps)``, replaying its move order (take
    1..size from heap 0, then heap 1, ...); every position must get the same heaps from every
    predecessor, which checks the replay."""
    sizes: list[tuple[int, ...] | None] = [None] * g.n
    sizes[g.start] = heaps
    for p in range(g.n):  # positions are numbered breadth first: parents come first
        here = sizes[p]
        assert here is not None
        children = [here[:i] + (here[i] - t,) + here[i + 1:]
                    for i in range(len(here)) for t in range(1, here[i] + 1)]
        after = g.successors(p).tolist()
        assert len(after) == len(children)
        for q, child in zip(after, children, strict=True):
            assert sizes[q] in (None, child)
            sizes[q] = child
    return sizes  # type: ignore[return-value]


@pytest.mark.parametrize("heaps", ["1-3-5-7", "3-4-5", "1-2-3", "2-2", "6", "4-1-2-6"])
def test_nim_follows_boutons_rule_everywhere(heaps):
    generated = GENERATORS["nim"]({"heaps": heaps})
    g = generated.instance
    outcome = ga.solve(g, budget(), 1)
    sol = outcome.solution
    assert check(g, sol).solved
    assert outcome.objective == generated.known_optimum
    for p, sizes in enumerate(nim_heaps(g, tuple(int(h) for h in heaps.split("-")))):
        mover_wins = reduce(xor, sizes, 0) != 0
        assert sol.label[p] == (g.owner[p] if mover_wins else 3 - g.owner[p]), sizes
    assert not np.any(sol.label == 0)  # Nim has no draws


@pytest.mark.parametrize("n", range(0, 14))
def test_subtraction_games_lose_on_multiples_of_four(n):
    generated = GENERATORS["subtraction"]({"n": n, "take": "1-2-3"})
    outcome = ga.solve(generated.instance, budget(), 1)
    assert outcome.objective == (-1 if n % 4 == 0 else 1) == generated.known_optimum


def test_tictactoe_is_a_draw_over_5478_positions():
    board = Board(3, 3, 3, False)
    outcome = ga.solve(board, budget(), 1)
    assert outcome.status == "optimal" and outcome.objective == 0
    assert outcome.counters["positions"] == 5478 and outcome.counters["nodes"] == 5478
    assert isinstance(outcome.solution, Line) and outcome.solution.value == 0
    assert len(outcome.solution.moves) == 9  # a draw ends on the full board
    assert check(board, outcome.solution).solved


def test_the_expanded_graph_is_the_familys_board_graph():
    """Breadth first in the natural move order, the numba expansion numbers positions exactly
    as the family's plain-Python builder does: the same arrays."""
    for board in (Board(3, 3, 3, False), Board(4, 4, 4, True, (1, 2, 1, 2, 0, 3))):
        expansion = games_expand.Expansion.start(board, 10**6)
        assert expansion.run(10**9) == games_attract.DONE
        owner, offsets, succ, target, _ = expansion.graph()
        theirs = board_graph(board)
        for mine, ref in ((owner, theirs.owner), (offsets, theirs.offsets),
                          (succ, theirs.succ), (target, theirs.target)):
            assert mine.tolist() == ref.tolist()


@pytest.mark.parametrize("board", [
    Board(3, 3, 3, True), Board(4, 3, 3, True), Board(2, 4, 2, False), Board(3, 3, 2, False),
    # 30 cells without gravity: the base-3 key; 21 stones already played
    Board(6, 5, 4, False, (26, 2, 6, 24, 27, 5, 15, 8, 10, 18, 7, 21, 12, 14, 3, 0, 20, 28, 19,
                           17, 4)),
    Board(6, 5, 5, True, (2, 1, 5, 0, 5, 4, 3, 4, 0, 0, 0, 0, 1, 1, 3, 1, 5, 2)),
], ids=lambda b: f"{b.width}x{b.height}k{b.k}{'g' if b.gravity else ''}{len(b.moves)}")
def test_mnk_boards_expand_as_the_family_builds_them(board):
    expansion = games_expand.Expansion.start(board, 10**6)
    assert expansion.run(10**9) == games_attract.DONE
    theirs = board_graph(board)
    for mine, ref in zip(expansion.graph()[:4],
                         (theirs.owner, theirs.offsets, theirs.succ, theirs.target), strict=True):
        assert mine.tolist() == ref.tolist()
    outcome = ga.solve(board, budget(), 1)
    labels = solved(theirs).label
    assert outcome.objective == (0 if labels[0] == 0 else 1 if labels[0] == theirs.owner[0]
                                 else -1)
    assert check(board, outcome.solution).solved


def test_graph_form_and_board_form_agree_on_tictactoe():
    g = GENERATORS["tictactoe"]({"form": "graph"}).instance
    sol = solved(g)
    assert g.n == 5478 and sol.label[0] == 0
    assert ga.solve(Board(3, 3, 3, False), budget(), 1).counters["layers"] == int(sol.layer.max())


@pytest.mark.parametrize("moves", [(4,), (0,), (1,), (0, 1), (0, 4), (4, 0, 8), (0, 3, 1),
                                   (4, 1, 0), (0, 8, 2, 4)])
def test_tictactoe_positions_match_plain_negamax(moves):
    board = Board(3, 3, 3, False, moves)
    outcome = ga.solve(board, budget(), 1)
    truth = rules.negamax_value(board.cells(), 3, 3, 3, False, {})
    assert outcome.objective == outcome.solution.value == truth
    assert check(board, outcome.solution).solved


@pytest.mark.parametrize("moves", [(3, 3, 3, 1, 1, 0), (0, 0, 0, 1, 1, 1, 2), (2, 2, 3, 3, 4, 4),
                                   (0, 1, 2, 3, 4, 0, 1, 2)])
def test_connect4_5x4_midgames_match_the_checker(moves):
    board = Board(5, 4, 4, True, moves)
    outcome = ga.solve(board, budget(), 1)
    verdict = check(board, outcome.solution)
    assert verdict.solved and verdict.score == outcome.objective


def test_a_won_start_is_lost_for_the_side_to_move():
    board = Board(4, 4, 4, True, (0, 1, 0, 1, 0, 1, 0))  # four in column 0
    outcome = ga.solve(board, budget(), 1)
    assert outcome.objective == -1 and outcome.solution.moves == ()
    assert outcome.counters["positions"] == 1 and check(board, outcome.solution).solved


def test_connect4_4x4_is_a_draw_over_161029_positions():
    board = Board(4, 4, 4, True)
    outcome = ga.solve(board, budget(), 1)
    assert outcome.objective == 0 and outcome.counters["positions"] == 161_029
    assert check(board, outcome.solution).solved


def test_connect4_4x5_is_a_draw_over_1706255_positions():
    board = Board(4, 5, 4, True)
    outcome = ga.solve(board, budget(), 1)
    assert outcome.objective == 0 and outcome.counters["positions"] == 1_706_255
    assert check(board, outcome.solution).solved


@pytest.mark.slow
def test_connect4_5x4_is_a_draw_over_3945711_positions():
    board = Board(5, 4, 4, True)
    outcome = ga.solve(board, budget(), 1)
    assert outcome.objective == 0 and outcome.counters["positions"] == 3_945_711
    assert check(board, outcome.solution).solved


def test_a_board_beyond_max_positions_is_refused():
    outcome = ga.solve(Board(4, 4, 4, True), budget(), 1, max_positions=10_000)
    assert outcome.status == "unknown" and outcome.solution is None
    assert outcome.counters["refused_positions"] > 10_000


def test_growing_the_arrays_changes_nothing():
    """Room for 16 positions and 48 moves at first: the arrays and the table double many
    times on the way, and the graph comes out the same."""
    board = Board(4, 4, 4, True)
    grown = games_expand.Expansion.start(board, 10**6, capacity=16)
    while (status := grown.run(1000)) == games_attract.PAUSED:
        pass
    assert status == games_attract.DONE and grown.positions == 161_029
    sized = games_expand.Expansion.start(board, 10**6)
    assert sized.run(10**9) == games_attract.DONE
    for mine, ref in zip(grown.graph(), sized.graph(), strict=True):
        assert np.array_equal(mine, ref)


def test_an_expired_budget_answers_unknown():
    expired = Budget(1.0, 4000, deadline=time.monotonic() - 1)
    assert ga.solve(Board(4, 4, 4, True), expired, 1).status == "unknown"
    g = GENERATORS["random-graph"]({"positions": 1000, "degree": 3}, 1).instance
    assert ga.solve(g, expired, 1).status == "unknown"


def test_registered():
    spec = lookup("attractor", "games")
    assert spec.paradigm == "native" and spec.backend.startswith("numba")
    assert spec.defaults() == {"max_positions": ga.DEFAULT_MAX_POSITIONS}
    spec.prepare()


@pytest.mark.data
def test_known_values(shared_data):
    known = parse_known_values((shared_data / "games" / "known_values.tsv").read_text())
    seen = 0
    for generated in known:
        instance = generated.instance
        if isinstance(instance, Board) and instance.ncells > 16:
            continue  # 5x4 and 4x5: their own tests; 7x6: far beyond max_positions
        outcome = ga.solve(instance, budget(), 1)
        assert outcome.objective == generated.known_optimum, instance
        if "positions" in generated.params:
            assert outcome.counters["positions"] == generated.params["positions"]
        seen += 1
    assert seen >= 5
