"""The games picture (``FAMILY.picture``): an m,n,k board as it is played, or a card.

``draw(figure, instance, solution, title)`` fills a fresh matplotlib ``Figure`` (the family
contract's drawer; the harness makes, styles and saves the figure):

- a ``Board`` at its start, or after a ``Line`` (its moves played up to the first illegal one,
  or the first after a win): Connect Four (gravity) as red and yellow discs in a blue frame,
  row 0 at the bottom; tic-tac-toe and other boards without gravity as X and O on a grid. The
  line's stones carry their move number; a finished game's winning run is ringed (discs) or
  struck through (no gravity). The title names the board, who is to move, and the line's
  value, legality and outcome;
- a ``GameTree`` or ``GameGraph``: a text card (``instances.drawing.text_card``) of the
  family's ``render`` (sizes, the answer's value) and the checker's word on the answer.
"""

from __future__ import annotations

from typing import Any

from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyBboxPatch

from instances.drawing import (
    board_axes,
    checked_line,
    ink_on,
    points_per_unit,
    set_title,
    size_board,
    text_card,
)
from instances.games import Board, Line, check, render, rules

C4_FRAME, C4_STONES = "#1f4fbf", ("white", "#d7261e", "#f5c400")
BOARD_NAMES = {"tictactoe": "tic-tac-toe", "connect4": "Connect Four", "mnk": "m,n,k-game"}


def draw(figure: Figure, instance: Any, solution: Any, title: str | None) -> None:
    """A board (after ``solution``'s line) or, for a tree or graph, a card, on ``figure``."""
    if isinstance(instance, Board):
        draw_game_board(figure, instance, solution, title)
    else:
        draw_game_card(figure, instance, solution, title)


def winning_cells(cells: tuple[int, ...], width: int, height: int, k: int) -> list[int]:
    """The cells of a ``k``-in-a-row of one player (the first found), or []."""
    for cell, stone in enumerate(cells):
        if not stone:
            continue
        row, col = divmod(cell, width)
        for dcol, drow in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = [cell]
            r, c = row + drow, col + dcol
            while 0 <= r < height and 0 <= c < width and cells[r * width + c] == stone:
                run.append(r * width + c)
                r, c = r + drow, c + dcol
            if len(run) >= k:
                return run
    return []


def draw_game_board(figure: Figure, board: Any, solution: Any, title: str | None) -> None:
    """An m,n,k board at its start, or after ``solution`` when it is a ``Line``."""
    width, height = board.width, board.height
    line = tuple(solution.moves) if isinstance(solution, Line) else ()
    numbered, problem = move_numbers(board, line)
    legal = line[:len(numbered)]
    cells, won = rules.replay(width, height, board.k, board.gravity, board.moves + legal)
    start_cells = rules.replay(width, height, board.k, board.gravity, board.moves)[0]
    size_board(figure, width, height, 0.75, lo=2.6, hi=7.0)
    axes = board_axes(figure, width, height, y_up=True)
    unit = points_per_unit(figure, width, height)
    if board.gravity:
        draw_discs(axes, board, cells, unit)
    else:
        draw_crosses(axes, board, cells, unit)
    fontsize = max(5.0, min(16.0, unit * 0.28))
    for cell, number in numbered.items():
        row, col = divmod(cell, width)
        ink = "black" if (board.gravity and cells[cell] == 2) else (
            "white" if board.gravity else "#555555")
        dx, dy = (0.0, 0.0) if board.gravity else (-0.37, 0.37)  # no gravity: top-left
        axes.text(col + 0.5 + dx, row + 0.5 + dy, str(number), ha="center", va="center",
                  fontsize=fontsize if board.gravity else fontsize * 0.6, color=ink,
                  fontweight="bold")
    if won:
        run = winning_cells(cells, width, height, board.k)
        if run and board.gravity:  # rings round the winning discs
            for cell in run:
                row, col = divmod(cell, width)
                axes.add_patch(Circle((col + 0.5, row + 0.5), 0.33, fill=False,
                                      edgecolor=ink_on(C4_STONES[cells[cell]]),
                                      lw=max(1.5, unit / 25),
                                      gid=f"winning-{cell}"))
        elif run:  # a stroke through the row
            ends = sorted(run)
            (r0, c0), (r1, c1) = divmod(ends[0], width), divmod(ends[-1], width)
            axes.add_line(Line2D((c0 + 0.5, c1 + 0.5), (r0 + 0.5, r1 + 0.5), color="#111111",
                                 lw=max(2.0, unit / 12), alpha=0.8, solid_capstyle="round",
                                 gid="winning-line"))
    kind = BOARD_NAMES[board.kind]
    size = f"{width}x{height}"
    name = title or (board.name if size in board.name else f"{board.name or kind} {size}") + (
        f", k={board.k}" if board.kind == "mnk" else "")
    mover = "XO"[board.to_move - 1] if not board.gravity else ("red", "yellow")[board.to_move - 1]
    played = sum(1 for v in start_cells if v)
    status = f"start: {played} stones, {mover} to move"
    if isinstance(solution, Line):
        status += f"\nline of {len(line)} moves, value {solution.value:+d} for {mover}"
        if problem:
            status += f"\nnot legal: {problem} (drawn up to the move before)"
        elif won:
            winner = "XO"[won - 1] if not board.gravity else ("red", "yellow")[won - 1]
            status += f" · {winner} wins"
        elif not rules.legal_moves(cells, width, height, board.gravity):
            status += " · draw"
    set_title(axes, name, status)


def move_numbers(board: Any, line: tuple[int, ...]) -> tuple[dict[int, int], str]:
    """The cell each move of ``line`` puts a stone on, numbered from 1, up to the first move
    that is illegal (or comes after a win), and what is wrong with that move ("" if none)."""
    w, h, k, gravity = board.width, board.height, board.k, board.gravity
    cells, won = rules.replay(w, h, k, gravity, board.moves)
    out: dict[int, int] = {}
    player = board.to_move
    for number, move in enumerate(line, 1):
        if won:
            return out, f"move {number} ({move}) comes after the game is won"
        try:
            cells, cell = rules.play(cells, w, h, gravity, move, player)
        except ValueError as exc:
            return out, f"move {number}: {exc}"
        out[cell] = number
        won = rules.makes_line(cells, w, h, k, cell)
        player = 3 - player
    return out, ""


def draw_discs(axes: Any, board: Any, cells: tuple[int, ...], unit: float) -> None:
    """Connect Four: a blue frame with a hole per cell, discs red (first player) and yellow."""
    axes.add_patch(FancyBboxPatch((0, 0), board.width, board.height,
                                  boxstyle="round,pad=0.02,rounding_size=0.15",
                                  facecolor=C4_FRAME, edgecolor="#10307a", lw=1.5))
    for cell, stone in enumerate(cells):
        row, col = divmod(cell, board.width)
        axes.add_patch(Circle((col + 0.5, row + 0.5), 0.4, facecolor=C4_STONES[stone],
                              edgecolor="#10307a", lw=max(0.5, unit / 60),
                              gid=f"stone-{stone}-{cell}" if stone else f"hole-{cell}"))


def draw_crosses(axes: Any, board: Any, cells: tuple[int, ...], unit: float) -> None:
    """Tic-tac-toe and other boards without gravity: grid lines, X (first player) and O."""
    w, h = board.width, board.height
    grid = [((k, 0), (k, h)) for k in range(1, w)] + [((0, k), (w, k)) for k in range(1, h)]
    axes.add_collection(LineCollection(grid, colors="#333333", linewidths=max(1.0, unit / 25)))
    stroke = max(1.5, unit / 12)
    for cell, stone in enumerate(cells):
        row, col = divmod(cell, w)
        x, y = col + 0.5, row + 0.5
        if stone == 1:
            for sign in (1, -1):
                axes.add_line(Line2D((x - 0.3, x + 0.3), (y - 0.3 * sign, y + 0.3 * sign),
                                     color="#c0392b", lw=stroke, solid_capstyle="round",
                                     gid=f"stone-1-{cell}" if sign == 1 else None))
        elif stone == 2:
            axes.add_patch(Circle((x, y), 0.3, fill=False, edgecolor="#1f5fbf", lw=stroke,
                                  gid=f"stone-2-{cell}"))


def draw_game_card(figure: Figure, instance: Any, solution: Any, title: str | None) -> None:
    """A game tree or graph: a card with its sizes and the answer's value (and the verdict)."""
    text = render(instance, solution)
    if solution is not None:
        text += "\n" + checked_line(check(instance, solution))
    kind = "game tree" if type(instance).__name__ == "GameTree" else "game graph"
    text_card(figure, text, title or (f"{kind}: {instance.name}" if instance.name else kind))


__all__ = ["draw", "move_numbers", "winning_cells"]
