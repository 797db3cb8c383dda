"""The picture: a chessboard, given queens in black, the answer's queens in blue, the queens
of a pair that attack each other on red squares, the checker's word in the title."""

from __future__ import annotations

from typing import Any

from matplotlib.patches import Rectangle

from nqueens_family.check import check
from nqueens_family.model import Instance, Solution

LIGHT, DARK, ATTACKED = "#f0d9b5", "#b58863", "#f08080"


def attacking(squares: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """The squares of queens that another queen attacks (same row, column or diagonal)."""
    return {square for i, (r1, c1) in enumerate(squares) for r2, c2 in squares[i + 1:]
            if r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)
            for square in ((r1, c1), (r2, c2))}


def draw(figure: Any, instance: Instance, solution: Solution | None, title: str | None) -> None:
    n = instance.n
    side = min(7.0, 0.5 + 0.45 * n)  # inches of board
    figure.set_size_inches(side + 0.4, side + 0.8)
    axes = figure.add_subplot()
    axes.set_xlim(0, n)
    axes.set_ylim(n, 0)
    axes.set_aspect("equal")
    axes.set_axis_off()
    given = list(instance.given)
    placed = [(row, col) for row, col in enumerate(solution.cols if solution else ())
              if row < n and 0 <= col < n and (row, col) not in given]
    red = attacking(given + placed)
    for row in range(n):
        for col in range(n):
            colour = ATTACKED if (row, col) in red else (LIGHT, DARK)[(row + col) % 2]
            axes.add_patch(Rectangle((col, row), 1, 1, facecolor=colour, edgecolor="none"))
    axes.add_patch(Rectangle((0, 0), n, n, facecolor="none", edgecolor="black"))
    for squares, ink in ((given, "black"), (placed, "#1f5fbf")):
        for row, col in squares:
            axes.text(col + 0.5, row + 0.55, "\u265b", ha="center", va="center", color=ink,
                      fontsize=0.7 * 72 * side / n)
    status = f"{len(instance.given)} given"
    if solution is not None:
        verdict = check(instance, solution)
        status += " · " + ("solved" if verdict.solved else verdict.reason)
    axes.set_title(f"{title or instance.name or f'{n} queens'}\n{status}")
