"""The issue's cross-check: the attractor and the searches agree on every solved position they
both cover, and every answer passes the family's checker.

Positions: every tic-tac-toe position reachable in play, a sample of Connect Four 4x4 and 5x4
positions (random legal move sequences), and every start of the Nim and tic-tac-toe graphs
(DAGs). Solvers are called as the harness calls them (``solve(instance, budget, seed,
**params)``), never through their kernels.
"""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

import searches.games_attractor  # noqa: F401  (registers the attractor)
import searches.games_search  # noqa: F401  (registers minimax, alphabeta, alphabeta-ordered)
from bench.api import Budget, lookup
from instances.games import Board, GameGraph, board_graph, check, nim_graph, rules

SOLVERS = ("attractor", "minimax", "alphabeta", "alphabeta-ordered")


def solve(name: str, instance, **params):
    spec = lookup(name, "games")
    budget = Budget(60.0, 4000, 1, time.monotonic() + 60.0)
    outcome = spec.solve(instance, budget, 1, **spec.resolve(params))
    assert outcome.status == "optimal", (name, instance, outcome)
    verdict = check(instance, outcome.solution)
    assert verdict.solved, (name, instance, verdict.reason)
    return outcome.objective


def every_tictactoe_line() -> list[tuple[int, ...]]:
    """One move sequence to each tic-tac-toe position where nobody has won yet."""
    seen, out, stack = set(), [], [()]
    while stack:
        moves = stack.pop()
        cells, won = rules.replay(3, 3, 3, False, moves)
        if cells in seen:
            continue
        seen.add(cells)
        out.append(moves)
        if not won:
            stack.extend(moves + (m,) for m in rules.legal_moves(cells, 3, 3, False))
    return out


def test_every_tictactoe_position_gets_one_value_from_every_solver():
    lines = every_tictactoe_line()
    assert len(lines) == 5478
    rng = random.Random(6)
    sample = rng.sample(lines, 150) + [()]
    for moves in sample:
        board = Board(3, 3, 3, False, moves)
        values = {name: solve(name, board) for name in SOLVERS}
        assert len(set(values.values())) == 1, (moves, values)


@pytest.mark.parametrize("width,height,count", [(4, 4, 60), (5, 4, 15)])
def test_connect_four_positions_agree(width, height, count):
    rng = random.Random(width * 10 + height)
    for _ in range(count):
        moves: list[int] = []
        cells, won = rules.replay(width, height, 4, True, ())
        depth = rng.randrange(4, width * height - 2)
        while len(moves) < depth and not won:
            options = rules.legal_moves(cells, width, height, True)
            if not options:
                break
            moves.append(rng.choice(options))
            cells, won = rules.replay(width, height, 4, True, tuple(moves))
        board = Board(width, height, 4, True, tuple(moves))
        values = {name: solve(name, board) for name in SOLVERS
                  if name != "minimax" or width * height - len(moves) <= 14}
        assert len(set(values.values())) == 1, (moves, values)


def with_start(graph: GameGraph, start: int) -> GameGraph:
    return GameGraph(graph.owner, graph.offsets, graph.succ, graph.target, start, graph.name)


@pytest.mark.parametrize("graph", [nim_graph((1, 3, 5, 7)), board_graph(Board(3, 3, 3, False))],
                         ids=["nim-1-3-5-7", "tictactoe-graph"])
def test_the_labelling_and_the_graph_searches_agree_from_every_start(graph):
    labelling = lookup("attractor", "games").solve(
        graph, Budget(60.0, 4000, 1, time.monotonic() + 60.0), 1,
        **lookup("attractor", "games").defaults()).solution
    assert check(graph, labelling).solved
    starts = np.random.default_rng(3).choice(graph.n, size=min(graph.n, 120), replace=False)
    for start in starts.tolist():
        game = with_start(graph, start)
        label, owner = int(labelling.label[start]), int(game.owner[start])
        expected = 0 if label == 0 else (1 if label == owner else -1)
        for name in ("minimax", "alphabeta", "alphabeta-ordered"):
            assert solve(name, game) == expected, (name, start)
