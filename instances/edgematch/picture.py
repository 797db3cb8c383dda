"""The edge-matching picture (``FAMILY.picture``): a board drawn as Eternity II is drawn.

``draw(figure, instance, solution, title)`` fills a fresh matplotlib ``Figure`` (the family
contract's drawer; the harness makes, styles and saves the figure):

- with a solution: each cell four coloured triangles (the colour each side shows after the
  piece's rotation), one fixed colour per colour number (``instances.drawing.colour_of``: grey
  is colour 0, the frame), empty cells of a partial board left white, cells the checker could
  not read (a bad piece index or rotation) hatched, every mismatched join between two placed
  cells marked by a red bar on its seam, hint cells outlined (dashed), the checker's score in
  the title; a solution of another board size is not drawn, only named;
- without one: the board with only its hints placed, beside the tray of every piece unturned
  in file order (so the colour set and the hints are both visible).

Boards up to ``EDGEMATCH_NUMBERS_UP_TO`` on a side also carry the colour numbers on the
triangles.
"""

from __future__ import annotations

import math
from typing import Any

from matplotlib import patheffects
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from instances.drawing import (
    board_axes,
    colour_of,
    ink_on,
    points_per_unit,
    set_title,
    size_board,
)
from instances.edgematch import check, rotated

EMPTY = "white"
MISMATCH = "#ff1a1a"
HINT = "black"
# The triangle of each side of a unit cell with its top-left corner at the origin (y down).
SIDE_TRIANGLES = (
    ((0.0, 0.0), (1.0, 0.0), (0.5, 0.5)),  # N
    ((1.0, 0.0), (1.0, 1.0), (0.5, 0.5)),  # E
    ((1.0, 1.0), (0.0, 1.0), (0.5, 0.5)),  # S
    ((0.0, 1.0), (0.0, 0.0), (0.5, 0.5)),  # W
)
# Where a side's colour number is written, relative to the cell's top-left corner.
SIDE_LABELS = ((0.5, 0.2), (0.8, 0.5), (0.5, 0.8), (0.2, 0.5))
EDGEMATCH_NUMBERS_UP_TO = 8  # write colour numbers on the triangles of boards this small


def edgematch_board(instance: Any, solution: Any) -> list[tuple[int, int] | None | str]:
    """The cells to draw: ``(piece, rot)``, None (empty), or ``"?"`` for a cell the checker
    could not read (a bad index: drawn hatched, never a crash)."""
    cells: list[tuple[int, int] | None | str] = []
    for value in getattr(solution, "cells", ()) or ():
        if value is None:
            cells.append(None)
            continue
        try:
            piece, rot = (int(v) for v in value)
        except (TypeError, ValueError):
            cells.append("?")
            continue
        ok = 0 <= piece < len(instance.pieces) and 0 <= rot <= 3
        cells.append((piece, rot) if ok else "?")
    return cells


def shown_sides(instance: Any, cells: list[Any]) -> list[tuple[int, int, int, int] | None]:
    """The colours (N E S W) each placed cell shows, None elsewhere."""
    return [rotated(instance.pieces[v[0]], v[1]) if isinstance(v, tuple) else None
            for v in cells]


def mismatched_joins(instance: Any, solution: Any) -> list[tuple[int, int]]:
    """The interior joins between two placed cells that show different colours, as
    ``(cell, neighbour)`` with the neighbour east or south (the joins the checker does not
    count as matched among those it looks at)."""
    cells = edgematch_board(instance, solution)
    if len(cells) != instance.ncells:
        return []
    shown = shown_sides(instance, cells)
    out = []
    for cell, here in enumerate(shown):
        if here is None:
            continue
        row, col = divmod(cell, instance.cols)
        if col + 1 < instance.cols and shown[cell + 1] is not None:
            if here[1] != shown[cell + 1][3]:
                out.append((cell, cell + 1))
        if row + 1 < instance.rows and shown[cell + instance.cols] is not None:
            if here[2] != shown[cell + instance.cols][0]:
                out.append((cell, cell + instance.cols))
    return out


def draw_pieces(axes: Any, places: list[tuple[float, float, tuple[int, int, int, int]]],
                unit_points: float, *, gid: str, numbers: bool) -> None:
    """Pieces as four triangles each: ``places`` holds (x, y, sides N E S W) per piece."""
    polygons, colours = [], []
    for x, y, sides in places:
        for side, triangle in enumerate(SIDE_TRIANGLES):
            polygons.append([(x + dx, y + dy) for dx, dy in triangle])
            colours.append(colour_of(sides[side]))
    if not polygons:
        return
    edge_width = min(0.6, max(0.15, unit_points / 80))
    axes.add_collection(PolyCollection(polygons, facecolors=colours, edgecolors="#2b2b2b",
                                       linewidths=edge_width, joinstyle="round", gid=gid))
    if numbers:
        size = max(4.0, min(9.0, unit_points * 0.16))
        for x, y, sides in places:
            for side, (dx, dy) in enumerate(SIDE_LABELS):
                axes.text(x + dx, y + dy, str(sides[side]), ha="center", va="center",
                          fontsize=size, color=ink_on(colour_of(sides[side])))


def draw(figure: Figure, instance: Any, solution: Any, title: str | None) -> None:
    """The board ``solution`` fills (or, without one, the hints and the tray) on ``figure``."""
    name = title or f"{instance.name or 'edge matching'} {instance.rows}x{instance.cols}"
    if solution is None:
        draw_edgematch_tray(figure, instance, name)
        return
    rows, cols = instance.rows, instance.cols
    cells = edgematch_board(instance, solution)
    if len(cells) != rows * cols:
        cells = [None] * (rows * cols)
        note = (f"not drawn: the board is {getattr(solution, 'rows', '?')}x"
                f"{getattr(solution, 'cols', '?')}")
    else:
        note = ""
    verdict = check(instance, solution) if not note else None
    mismatches = mismatched_joins(instance, solution) if not note else []
    placed = sum(isinstance(v, tuple) for v in cells)
    size_board(figure, cols, rows, 0.5, lo=4.5)
    axes = board_axes(figure, cols, rows)
    unit = points_per_unit(figure, cols, rows)
    shown = shown_sides(instance, cells)
    draw_pieces(axes, [(i % cols, i // cols, s) for i, s in enumerate(shown) if s is not None],
                unit, gid="edgematch-triangles",
                numbers=max(rows, cols) <= EDGEMATCH_NUMBERS_UP_TO)
    empty = [Rectangle((i % cols, i // cols), 1, 1) for i, v in enumerate(cells) if v is None]
    for i, value in enumerate(cells):
        if value == "?":
            axes.add_patch(Rectangle((i % cols, i // cols), 1, 1, facecolor="#dddddd",
                                     hatch="xx", edgecolor="#555555", gid=f"bad-{i}"))
    if empty:
        axes.add_collection(PolyCollection([r.get_verts() for r in empty], facecolors=EMPTY,
                                           edgecolors="#c8c8c8", linewidths=0.5,
                                           gid="edgematch-empty"))
    axes.add_patch(Rectangle((0, 0), cols, rows, fill=False, edgecolor="#2b2b2b", lw=1.0))
    draw_hints(axes, instance, unit)
    draw_mismatches(axes, mismatches, cols, unit)
    if note:
        status = note
    else:
        assert verdict is not None
        shown_score = "-" if verdict.score is None else verdict.score
        status = (f"score {shown_score}/{verdict.max_score}"
                  f" · {len(mismatches)} mismatched · {placed}/{rows * cols} placed")
        if not verdict.legal:
            status += f"\nillegal: {verdict.reason}"
    set_title(axes, name, status)


def draw_hints(axes: Any, instance: Any, unit: float) -> None:
    """A dashed outline round each hint cell."""
    width = max(1.2, min(3.0, unit / 14))
    for hint in instance.hints:
        axes.add_patch(Rectangle((hint.col + 0.05, hint.row + 0.05), 0.9, 0.9, fill=False,
                                 edgecolor=HINT, lw=width, linestyle=(0, (3, 1.5)),
                                 gid=f"hint-{hint.row}-{hint.col}"))


def draw_mismatches(axes: Any, joins: list[tuple[int, int]], cols: int, unit: float) -> None:
    """One red bar with a white halo on the seam of each mismatched join."""
    width = max(1.5, min(4.0, unit / 10))
    halo = [patheffects.Stroke(linewidth=width + 2.0, foreground="white"), patheffects.Normal()]
    for cell, other in joins:
        row, col = divmod(cell, cols)
        if other == cell + 1:  # east neighbour: a vertical seam at x = col + 1
            xs, ys = (col + 1, col + 1), (row + 0.15, row + 0.85)
        else:  # south neighbour: a horizontal seam at y = row + 1
            xs, ys = (col + 0.15, col + 0.85), (row + 1, row + 1)
        axes.add_line(Line2D(xs, ys, color=MISMATCH, lw=width, solid_capstyle="round",
                             path_effects=halo, gid=f"mismatch-{cell}-{other}"))


def draw_edgematch_tray(figure: Figure, instance: Any, name: str) -> None:
    """No solution: the board with only its hints, beside every piece unturned in file order."""
    rows, cols, count = instance.rows, instance.cols, len(instance.pieces)
    tray_cols = cols if count == rows * cols else max(1, math.ceil(math.sqrt(count)))
    tray_rows = max(1, math.ceil(count / tray_cols))
    gap = 0.18
    tray_w, tray_h = tray_cols * (1 + gap), tray_rows * (1 + gap)
    scale = min(7.0, max(2.5, 0.45 * max(cols, rows, tray_w, tray_h))) / max(
        cols, rows, tray_w, tray_h)
    figure.set_size_inches(scale * (cols + tray_w) + 1.0, scale * max(rows, tray_h) + 0.9)
    figure.set_layout_engine("constrained")
    board_ax, tray_ax = figure.subplots(1, 2, width_ratios=[cols, tray_w])
    for axes, (w, h) in ((board_ax, (cols, rows)), (tray_ax, (tray_w, tray_h))):
        axes.set_xlim(-0.02 * w, 1.02 * w)
        axes.set_ylim(1.02 * h, -0.02 * h)
        axes.set_aspect("equal")
        axes.set_axis_off()
    unit = 72.0 * scale
    numbers = max(rows, cols) <= EDGEMATCH_NUMBERS_UP_TO
    hinted = [(h.col, h.row, rotated(instance.pieces[h.piece], h.rot)) for h in instance.hints
              if 0 <= h.row < rows and 0 <= h.col < cols]
    board_ax.add_collection(PolyCollection(
        [Rectangle((c, r), 1, 1).get_verts() for r in range(rows) for c in range(cols)],
        facecolors=EMPTY, edgecolors="#c8c8c8", linewidths=0.5, gid="edgematch-empty"))
    draw_pieces(board_ax, hinted, unit, gid="edgematch-triangles", numbers=numbers)
    board_ax.add_patch(Rectangle((0, 0), cols, rows, fill=False, edgecolor="#2b2b2b", lw=1.0))
    draw_hints(board_ax, instance, unit)
    board_ax.set_title(f"board: {len(instance.hints)} hints placed", fontsize=10)
    hint_pieces = {h.piece for h in instance.hints}
    places = [((i % tray_cols) * (1 + gap), (i // tray_cols) * (1 + gap), piece)
              for i, piece in enumerate(instance.pieces)]
    draw_pieces(tray_ax, places, unit, gid="edgematch-tray", numbers=numbers)
    for i, (x, y, _) in enumerate(places):
        if i in hint_pieces:
            tray_ax.add_patch(Rectangle((x - 0.04, y - 0.04), 1.08, 1.08, fill=False,
                                        edgecolor=HINT, lw=1.2, gid=f"tray-hint-{i}"))
    tray_ax.set_title(f"tray: {count} pieces as listed, unturned", fontsize=10)
    colours = instance.colors or max((max(p) for p in instance.pieces), default=0)
    figure.suptitle(f"{name}\n{count} pieces, {colours} colours + grey, "
                    f"{instance.max_score} joins to match", fontsize=11)


__all__ = ["draw", "mismatched_joins"]
