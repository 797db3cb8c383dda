"""The sliding-tiles picture (``FAMILY.picture``): the board at the start or after the moves.

``draw(figure, instance, solution, title)`` fills a fresh matplotlib ``Figure`` (the family
contract's drawer; the harness makes, styles and saves the figure): the board at the start,
or after the solution's moves are applied up to the first illegal one; tiles numbered, a tile
standing on its goal cell tinted green, the blank a dark empty cell. The title holds how many
tiles are home at the start, or the move count and whether the goal is reached (or which
move is illegal).
"""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Rectangle

from instances.drawing import board_axes, points_per_unit, set_title, size_board
from instances.tiles import apply_moves, check

TILE, TILE_HOME = "#f1d9a8", "#bfe3b4"


def draw(figure: Figure, instance: Any, solution: Any, title: str | None) -> None:
    """The board (after ``solution``'s moves) on ``figure``."""
    rows, cols = instance.rows, instance.cols
    if solution is None:
        state, legal = instance.tiles, 0
    else:
        state, legal = apply_moves(instance, solution.moves)
    goal = instance.goal_tiles
    size_board(figure, cols, rows, 0.9, lo=2.6, hi=6.0)
    axes = board_axes(figure, cols, rows)
    unit = points_per_unit(figure, cols, rows)
    axes.add_patch(Rectangle((0, 0), cols, rows, facecolor="#5a5a5a", edgecolor="#3a3a3a",
                             lw=1.5))
    fontsize = max(6.0, min(28.0, unit * 0.42))
    home = 0
    for cell, tile in enumerate(state):
        row, col = divmod(cell, cols)
        if tile == 0:
            axes.add_patch(Rectangle((col + 0.04, row + 0.04), 0.92, 0.92, facecolor="#7a7a7a",
                                     edgecolor="none", gid="blank"))
            continue
        at_home = goal[cell] == tile
        home += at_home
        axes.add_patch(FancyBboxPatch((col + 0.08, row + 0.08), 0.84, 0.84,
                                      boxstyle="round,pad=0,rounding_size=0.1",
                                      facecolor=TILE_HOME if at_home else TILE,
                                      edgecolor="#7a5a20", lw=1.0, gid=f"tile-{tile}"))
        axes.text(col + 0.5, row + 0.53, str(tile), ha="center", va="center",
                  fontsize=fontsize, fontweight="bold", color="#2a2a2a")
    name = title or f"{instance.name or 'sliding tiles'} {rows}x{cols} ({instance.goal})"
    tiles = rows * cols - 1
    if solution is None:
        status = f"start · {home}/{tiles} tiles home"
    else:
        verdict = check(instance, solution)
        moves = len(solution.moves)
        if legal < moves:
            status = f"after {legal} of {moves} moves: {verdict.reason}"
        elif verdict.solved:
            status = f"after {moves} moves: goal reached"
        else:
            status = f"after {moves} moves · {home}/{tiles} tiles home"
    set_title(axes, name, status)


__all__ = ["draw"]
