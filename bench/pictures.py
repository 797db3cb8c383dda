"""Pictures of boards: an instance, or the board a solution leads to, as SVG or PNG.

One picture per family, drawn the way people draw that puzzle, so a run can be looked at rather
than read as a list of numbers:

- edge matching as Eternity II is drawn: each cell four coloured triangles (the colour each side
  shows after the piece's rotation), one fixed colour per colour number (grey is colour 0, the
  frame), empty cells of a partial board left white, every mismatched join between two placed
  cells marked by a red bar on its seam, hint cells outlined (dashed), the checker's score in
  the title; boards up to 8x8 also carry the colour numbers. Without a solution: the board with
  only its hints placed, beside the tray of every piece unturned in file order (so the colour
  set and the hints are both visible);
- Sudoku: the grid with box lines, clues bold black on grey, filled digits blue, cells whose
  digit repeats in a unit (or overwrites a clue) tinted red; any box side 2..5;
- sliding tiles: the board at the start or after the solution's moves, tiles numbered (a tile
  standing on its goal cell is tinted green), the blank empty, the move count in the title;
- games: an m,n,k board at its start or after a ``Line`` (Connect Four as red and yellow discs in
  a blue frame, row 0 at the bottom; tic-tac-toe as X and O); the line's stones carry their move
  number, a finished game's winning discs are ringed (struck through on boards without
  gravity). A ``GameTree`` or ``GameGraph`` is a text card (sizes, the answer's value, the
  checker's word).

Every picture comes out of ``draw_figure`` inside one small style (``STYLE``: the figures' style
of ``bench.figstyle`` with larger type, applied over matplotlib's defaults in a context manager:
the caller's rcParams neither change nor reach the picture) as a ``Picture``, a Figure whose own
``savefig`` applies the style again (a fixed ``svg.hashsalt``) and metadata without dates or
versions, so the same input gives the same bytes however it is saved. No pyplot (no global
figure list, nothing to close); PNG goes through Agg.
"""

from __future__ import annotations

import colorsys
import io
import math
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib import patheffects
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyBboxPatch, Rectangle

from bench.figstyle import STYLE as FIGURE_STYLE
from instances.common import InstanceError

#: The figures' style (``bench.figstyle``: its font, fixed SVG hash salt, font embedding), with
#: the type larger and the resolution lower: a board is looked at alone, not set in a column.
STYLE: dict[str, Any] = {
    **FIGURE_STYLE,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.grid": False,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "savefig.dpi": 120,
    "path.simplify": False,
}
#: Metadata written into the files: no dates, no matplotlib version (identical bytes).
METADATA: dict[str, dict[str, str | None]] = {
    "svg": {"Date": None, "Creator": "cliffbench"},
    "png": {"Software": None},
}
FORMATS = ("svg", "png")

#: Colour 0, the grey of the frame.
GREY = "#9b9b9b"
#: Colours 1, 2, ... : Kelly's colours of maximum contrast (white, black and grey left out; the
#: two nearest the others moved past 22, the colours of Eternity II), then more, hand-picked to
#: stay apart from them; beyond the list, hues spaced by the golden angle (``colour_of``).
PALETTE: tuple[str, ...] = (
    "#f3c300", "#875692", "#f38400", "#a1caf1", "#be0032", "#c2b280", "#008856", "#e68fac",
    "#0067a5", "#f99379", "#604e97", "#5cd69e", "#b3446c", "#dcd300", "#882d17", "#8db600",
    "#654522", "#c8a2ff", "#2b3d26", "#1ce6ff", "#ff4ad6", "#003f7f", "#f6a600", "#e25822",
    "#1a1a1a", "#ffff99", "#9c6b2f", "#00584e", "#ffc4e1", "#7a0a8a",
)
EMPTY = "white"
MISMATCH = "#ff1a1a"
HINT = "black"
CLUE_INK, FILLED_INK, CONFLICT = "black", "#1f5fbf", "#f6c6c6"
TILE, TILE_HOME = "#f1d9a8", "#bfe3b4"
C4_FRAME, C4_STONES = "#1f4fbf", ("white", "#d7261e", "#f5c400")


@contextmanager
def style() -> Iterator[None]:
    """The pictures' rc settings over matplotlib's defaults for the duration of a draw or a
    save, and only then: the caller's rcParams reach neither the picture nor its bytes."""
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        matplotlib.rcParams.update(STYLE)
        yield


class Picture(Figure):
    """A Figure whose ``savefig`` always writes identical bytes for identical pictures: the
    style (with its fixed ``svg.hashsalt``) and ``METADATA`` are applied at save time too, so a
    caller that saves the figure itself (the HTML report) gets the same file as ``draw``."""

    def savefig(self, fname: Any, *args: Any, **kwargs: Any) -> None:
        fmt = kwargs.get("format")
        if fmt is None and isinstance(fname, (str, Path)):
            fmt = Path(fname).suffix.lower().lstrip(".")
        if fmt in METADATA:
            kwargs.setdefault("metadata", METADATA[fmt])
        with style():
            super().savefig(fname, *args, **kwargs)


def colour_of(colour: int) -> str:
    """The fixed colour of a colour number: grey for 0, ``PALETTE`` for 1..30, then hues spaced
    by the golden angle (distinct, and the same for the same number on every board)."""
    if colour <= 0:
        return GREY
    if colour <= len(PALETTE):
        return PALETTE[colour - 1]
    hue = ((colour - len(PALETTE)) * 0.618033988749895) % 1.0
    red, green, blue = colorsys.hsv_to_rgb(hue, 0.55 + 0.35 * (colour % 2), 0.85)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def family_of(instance: Any) -> str:
    """The family an instance belongs to, from the module that defines its type."""
    module = type(instance).__module__
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "instances" and parts[1] in DRAWERS:
        return parts[1]
    raise TypeError(f"no picture for a {type(instance).__name__} (from {module})")


def draw_figure(instance: Any, solution: Any = None, *, title: str | None = None) -> Figure:
    """The picture of an instance (or of the board ``solution`` leads to) as a Figure.

    ``title`` replaces the first title line (the instance's name); the line with the score or
    the move count stays below it. ``figure.savefig`` (or ``save_figure``, ``figure_bytes``)
    writes deterministic bytes.
    """
    with style():
        return DRAWERS[family_of(instance)](instance, solution, title)


def save_figure(figure: Figure, out: str | Path | io.IOBase, fmt: str | None = None) -> None:
    """Write a picture as SVG or PNG (by ``fmt``, else by the file's suffix) with identical
    bytes for identical figures."""
    if fmt is None:
        fmt = Path(str(out)).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ValueError(f"pictures are {' or '.join(FORMATS)}, not {fmt!r} ({out})")
    with style():
        figure.savefig(out, format=fmt, metadata=METADATA[fmt])  # also for a plain Figure


def figure_bytes(figure: Figure, fmt: str = "svg") -> bytes:
    """A saved picture in memory (the HTML report embeds these)."""
    buffer = io.BytesIO()
    save_figure(figure, buffer, fmt)
    return buffer.getvalue()


def draw(instance: Any, solution: Any = None, out: str | Path | None = None, *,
         title: str | None = None) -> Path:
    """Draw an instance (and solution) to ``out``, an ``.svg`` or ``.png`` file; returns it.
    Another suffix is an ``InstanceError`` (bad input: the CLI prints it as one line), raised
    before anything is drawn or written."""
    if out is None:
        raise InstanceError("a picture needs an output file, .svg or .png")
    out = Path(out)
    fmt = out.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise InstanceError(f"pictures are .svg or .png, not {out.suffix or 'no suffix'!r}",
                            path=str(out))
    figure = draw_figure(instance, solution, title=title)
    out.parent.mkdir(parents=True, exist_ok=True)
    save_figure(figure, out, fmt)
    return out


def show(spec: str, solution_path: str | Path | None = None, out: str | Path | None = None, *,
         data_dir: str | Path | None = None, title: str | None = None) -> Path:
    """``cliffbench show INSTANCE [SOLUTION] --out FILE``: resolve one instance spec, read the
    solution file (the family's format or ``cliffbench solve --json`` output), draw."""
    import instances
    from bench.specs import resolve_one

    ref = resolve_one(spec, data_dir)
    solution = None
    if solution_path is not None:
        solution = instances.family(ref.family).read_solution(Path(solution_path), ref.instance)
    return draw(ref.instance, solution, out, title=title)


# --- shared pieces --------------------------------------------------------------------------


def board_axes(figure: Figure, width: float, height: float, *, y_up: bool = False) -> Any:
    """Axes showing ``0..width`` x ``0..height`` board units, square, without ticks; rows grow
    downwards unless ``y_up``."""
    axes = figure.add_subplot()
    axes.set_xlim(-0.02 * width, 1.02 * width)
    limits = (-0.02 * height, 1.02 * height)
    axes.set_ylim(limits if y_up else limits[::-1])
    axes.set_aspect("equal")
    axes.set_axis_off()
    return axes


def board_figure(width: float, height: float, inches_per_unit: float, *,
                 lo: float = 3.0, hi: float = 9.0, title_lines: int = 2) -> Figure:
    """A figure sized to the board: the longer side between ``lo`` and ``hi`` inches, room for
    the title lines on top."""
    longest = max(width, height)
    scale = min(hi, max(lo, longest * inches_per_unit)) / longest
    extra = 0.3 + 0.22 * title_lines
    return Picture(figsize=(width * scale + 0.3, height * scale + extra), layout="constrained")


def points_per_unit(figure: Figure, units: float, longest_units: float) -> float:
    """About how many points one board unit spans (for font sizes and line widths)."""
    inches = figure.get_figwidth() - 0.3
    return 72.0 * inches / max(units, longest_units)


def ink_on(colour: str) -> str:
    """Black or white, whichever reads on ``colour``."""
    red, green, blue = matplotlib.colors.to_rgb(colour)
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.5 else "white"


def set_title(axes: Any, first: str, rest: str) -> None:
    """The title: the name, then the status lines, each wrapped to the figure's width."""
    fontsize = matplotlib.rcParams["axes.titlesize"]
    width = max(30, int(axes.figure.get_figwidth() * 72 / (0.56 * float(fontsize))))
    lines = [part for line in (first + ("\n" + rest if rest else "")).split("\n")
             for part in textwrap.wrap(line, width) or [""]]
    axes.set_title("\n".join(lines), loc="center")


# --- edge matching --------------------------------------------------------------------------

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
    from instances.edgematch import rotated

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


def draw_edgematch(instance: Any, solution: Any, title: str | None) -> Figure:
    from instances.edgematch import check

    name = title or f"{instance.name or 'edge matching'} {instance.rows}x{instance.cols}"
    if solution is None:
        return draw_edgematch_tray(instance, name)
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
    figure = board_figure(cols, rows, 0.5, lo=4.5)
    axes = board_axes(figure, cols, rows)
    unit = points_per_unit(figure, cols, rows)
    shown = shown_sides(instance, cells)
    draw_pieces(axes, [(i % cols, i // cols, s) for i, s in enumerate(shown) if s is not None],
                unit, gid="edgematch-triangles", numbers=max(rows, cols) <= EDGEMATCH_NUMBERS_UP_TO)
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
    return figure


def draw_hints(axes: Any, instance: Any, unit: float) -> None:
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


def draw_edgematch_tray(instance: Any, name: str) -> Figure:
    """No solution: the board with only its hints, beside every piece unturned in file order."""
    from instances.edgematch import rotated

    rows, cols, count = instance.rows, instance.cols, len(instance.pieces)
    tray_cols = cols if count == rows * cols else max(1, math.ceil(math.sqrt(count)))
    tray_rows = max(1, math.ceil(count / tray_cols))
    gap = 0.18
    tray_w, tray_h = tray_cols * (1 + gap), tray_rows * (1 + gap)
    scale = min(7.0, max(2.5, 0.45 * max(cols, rows, tray_w, tray_h))) / max(
        cols, rows, tray_w, tray_h)
    figure = Picture(figsize=(scale * (cols + tray_w) + 1.0, scale * max(rows, tray_h) + 0.9),
                    layout="constrained")
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
    return figure


# --- Sudoku ---------------------------------------------------------------------------------


def sudoku_conflicts(instance: Any, grid: tuple[int, ...]) -> set[int]:
    """Cells whose digit repeats in one of its units, or overwrites a clue."""
    from instances.sudoku import units

    bad = {cell for cell, (clue, value) in enumerate(zip(instance.grid, grid, strict=True))
           if clue and value != clue}
    for _, cells in units(instance.box):
        seen: dict[int, list[int]] = {}
        for cell in cells:
            if grid[cell]:
                seen.setdefault(grid[cell], []).append(cell)
        for where in seen.values():
            if len(where) > 1:
                bad.update(where)
    return bad


def draw_sudoku(instance: Any, solution: Any, title: str | None) -> Figure:
    from instances.sudoku import check
    from instances.sudoku.model import symbol

    box, size = instance.box, instance.size
    grid = instance.grid if solution is None else tuple(solution.grid)
    if len(grid) != len(instance.grid):
        raise ValueError(f"a {len(grid)}-cell grid for a {size}x{size} puzzle")
    figure = board_figure(size, size, 0.42, lo=3.2, hi=9.0)
    axes = board_axes(figure, size, size)
    unit = points_per_unit(figure, size, size)
    conflicts = sudoku_conflicts(instance, grid) if solution is not None else set()
    clue_cells = [i for i, v in enumerate(instance.grid) if v]
    axes.add_collection(PolyCollection(
        [Rectangle((i % size, i // size), 1, 1).get_verts() for i in clue_cells],
        facecolors="#ececec", edgecolors="none", gid="sudoku-clue-cells"))
    if conflicts:
        axes.add_collection(PolyCollection(
            [Rectangle((i % size, i // size), 1, 1).get_verts() for i in sorted(conflicts)],
            facecolors=CONFLICT, edgecolors="none", gid="sudoku-conflicts"))
    thin = [((k, 0), (k, size)) for k in range(1, size) if k % box] + \
           [((0, k), (size, k)) for k in range(1, size) if k % box]
    thick = [((k, 0), (k, size)) for k in range(0, size + 1, box)] + \
            [((0, k), (size, k)) for k in range(0, size + 1, box)]
    axes.add_collection(LineCollection(thin, colors="#9a9a9a", linewidths=0.6))
    axes.add_collection(LineCollection(thick, colors="black", linewidths=max(1.5, unit / 18),
                                       capstyle="projecting"))
    fontsize = max(4.0, min(22.0, unit * 0.55))
    for cell, value in enumerate(grid):
        if not value:
            continue
        row, col = divmod(cell, size)
        clue = instance.grid[cell] == value
        axes.text(col + 0.5, row + 0.53, symbol(value), ha="center", va="center",
                  fontsize=fontsize, fontweight="bold" if clue else "normal",
                  color=CLUE_INK if clue else FILLED_INK,
                  gid=f"{'clue' if clue else 'filled'}-{row}-{col}")
    name = title or f"{instance.name or 'Sudoku'} {size}x{size}"
    status = f"{instance.clues} clues"
    if solution is not None:
        verdict = check(instance, solution)
        filled = sum(1 for c, v in zip(instance.grid, grid, strict=True) if v and not c)
        status += f" · {filled} filled · " + (
            "solved" if verdict.solved else
            (f"legal, {verdict.reason}" if verdict.legal else f"illegal: {verdict.reason}"))
    set_title(axes, name, status)
    return figure


# --- sliding tiles --------------------------------------------------------------------------


def draw_tiles(instance: Any, solution: Any, title: str | None) -> Figure:
    from instances.tiles import apply_moves, check

    rows, cols = instance.rows, instance.cols
    if solution is None:
        state, legal = instance.tiles, 0
    else:
        state, legal = apply_moves(instance, solution.moves)
    goal = instance.goal_tiles
    figure = board_figure(cols, rows, 0.9, lo=2.6, hi=6.0)
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
    return figure


# --- games ----------------------------------------------------------------------------------

BOARD_NAMES = {"tictactoe": "tic-tac-toe", "connect4": "Connect Four", "mnk": "m,n,k-game"}


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


def draw_games(instance: Any, solution: Any, title: str | None) -> Figure:
    from instances.games import Board

    if isinstance(instance, Board):
        return draw_game_board(instance, solution, title)
    return draw_game_card(instance, solution, title)


def draw_game_board(board: Any, solution: Any, title: str | None) -> Figure:
    from instances.games import Line, rules

    width, height = board.width, board.height
    line = tuple(solution.moves) if isinstance(solution, Line) else ()
    numbered, problem = move_numbers(board, line)
    legal = line[:len(numbered)]
    cells, won = rules.replay(width, height, board.k, board.gravity, board.moves + legal)
    start_cells = rules.replay(width, height, board.k, board.gravity, board.moves)[0]
    figure = board_figure(width, height, 0.75, lo=2.6, hi=7.0)
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
    return figure


def move_numbers(board: Any, line: tuple[int, ...]) -> tuple[dict[int, int], str]:
    """The cell each move of ``line`` puts a stone on, numbered from 1, up to the first move
    that is illegal (or comes after a win), and what is wrong with that move ("" if none)."""
    from instances.games import rules

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


def draw_game_card(instance: Any, solution: Any, title: str | None) -> Figure:
    """A game tree or graph: a card with its sizes and the answer's value (and the verdict)."""
    from instances.games import check, render

    text = render(instance, solution)
    if solution is not None:
        verdict = check(instance, solution)
        text += "\nchecked: " + ("correct" if verdict.solved else verdict.reason or "legal")
    figure = Picture(figsize=(6.0, 0.45 + 0.19 * (text.count("\n") + 1)), layout="constrained")
    axes = figure.add_subplot()
    axes.set_axis_off()
    axes.text(0.0, 1.0, text, ha="left", va="top", family="DejaVu Sans Mono", fontsize=9,
              wrap=True, transform=axes.transAxes, gid="card")
    kind = "game tree" if type(instance).__name__ == "GameTree" else "game graph"
    axes.set_title(title or (f"{kind}: {instance.name}" if instance.name else kind), loc="left")
    return figure


DRAWERS = {
    "edgematch": draw_edgematch,
    "sudoku": draw_sudoku,
    "tiles": draw_tiles,
    "games": draw_games,
}

__all__ = ["DRAWERS", "METADATA", "PALETTE", "STYLE", "colour_of", "draw", "draw_figure",
           "family_of", "figure_bytes", "mismatched_joins", "save_figure", "show", "style"]
