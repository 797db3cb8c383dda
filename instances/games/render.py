"""Instances and answers for people: a board as rows (top row first), a tree and a graph as
their sizes and value."""

from __future__ import annotations

import numpy as np

from instances.games import rules
from instances.games.model import Board, GameGraph, GameTree, Labelling, Line

STONES = ".XO"


def render(instance: Board | GameTree | GameGraph, solution: Line | Labelling | None = None,
           ) -> str:
    if isinstance(instance, Board):
        return render_board(instance, solution)
    if isinstance(instance, GameTree):
        head = (f"tree: depth {instance.depth}, arity {instance.arity}, "
                f"{instance.values} values in {instance.low}..{instance.high}")
    else:
        head = f"graph: {instance.n} positions, {instance.m} moves, start {instance.start}"
    return head + ("" if solution is None else "\n" + describe(instance, solution))


def describe(instance: Board | GameTree | GameGraph, solution: Line | Labelling) -> str:
    if isinstance(solution, Labelling):
        counts = np.bincount(solution.label, minlength=3)
        return (f"player 1 wins {counts[1]}, player 2 wins {counts[2]}, draws {counts[0]}; "
                f"start: {['draw', 'player 1', 'player 2'][solution.label[instance.start]]}")
    return f"value {solution.value:+d}; line {'-'.join(map(str, solution.moves)) or '(empty)'}"


def render_board(board: Board, solution: Line | None = None) -> str:
    moves = board.moves + (solution.moves if isinstance(solution, Line) else ())
    cells, won = rules.replay(board.width, board.height, board.k, board.gravity, moves)
    rows = ["".join(STONES[cells[r * board.width + c]] for c in range(board.width))
            for r in range(board.height - 1, -1, -1)]
    if solution is not None:
        rows.insert(0, describe(board, solution) + (f" (player {won} wins)" if won else ""))
    return "\n".join(rows)
