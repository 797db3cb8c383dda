"""Placements of edge-matching pieces: which piece, turned how, may stand in which cell.

One data structure, explained once; the five encoders of the family (``cpsat``, ``sat``, ``xcc``,
``clique``, ``ilp``) start from it and turn it into variables, options, vertices or columns.

- **Cells and sides.** Cells are numbered row-major, ``cell = row * cols + col`` (0-based, rows
  from the top). A cell's sides are numbered clockwise from the top: 0=N, 1=E, 2=S, 3=W. A side
  facing out of the board lies on the *frame*; ``frame_sides`` gives the four answers, the
  cell's *frame pattern*. A board has at most nine patterns (four corners, four edges, the
  interior), so whatever depends only on the pattern is computed once per pattern
  (``per_frame_pattern``): on big boards these tables are most of the encoding time.
- **Joins.** A side two cells share is an interior *join*. Horizontal joins come first, row by
  row: the one between (r, c) and (r, c+1) is number ``r * (cols - 1) + c``; then the vertical
  ones, row by row: the one between (r, c) and (r+1, c) is ``rows * (cols - 1) + r * cols + c``.
  Both cells of a join name the same number (``join_of``). ``interior_joins`` lists them in that
  order as (cell, side, neighbour, the neighbour's facing side ``(side + 2) % 4``), the cell
  being the upper or left one. A board has ``rows (cols - 1) + (rows - 1) cols`` joins, its
  ``max_score``.
- **Orientations.** A piece is four colours listed clockwise from the top; turned ``rot``
  clockwise quarter turns it shows listed edge ``(s - rot) % 4`` on side ``s``
  (``instances.edgematch.model``). ``shown`` is the tuple of colours on N, E, S, W.
- **Placements.** A placement puts one piece, turned, in one cell: (cell, piece, rot). Per cell
  it is kept as a ``Placement`` (piece, rot, shown); ``cell_placements`` returns one list per
  cell, in piece then rotation order, and an encoder that numbers placements reads these lists
  cell by cell, so a numbered table of (cell, piece, rot) is row-major, then by piece, then by
  rotation. The lists hold only:

  * *frame-legal* placements: grey (colour 0) exactly on the cell's frame sides, on every outer
    side and on no inner one (``fits_frame``). A corner cell keeps about one orientation of each
    corner piece and nothing else, an edge cell one of each edge piece, an inner cell up to four
    of each inner piece;
  * one rotation per look (``distinct_orientations``): rotations of a piece that show the same
    four colours, as for ``(a, b, a, b)`` or ``(a, a, a, a)``, are the same placement to every
    constraint, since constraints see colours only. Keeping both would give every board with
    that piece two (or four) interchangeable copies to search through, refute or count. The
    lowest such rotation is kept.

- **Hints.** A hint pins a piece at a cell turned ``rot``. The hinted cell keeps only its pinned
  placement, at the hint's own rotation even when a lower one looks the same (the checker wants
  that rotation), and only if it is frame-legal: otherwise the cell has no placement left and
  the board is infeasible. The hinted piece has no placement on any other cell. A hint off the
  board, naming no piece or no rotation is bad input (``ValueError``, naming the hint). Two
  hints on one cell (which no instance file can hold: the reader refuses a second one) are
  both kept, in hint order.
- **Symmetry.** Without hints, a solved board turned a quarter turn (square) or a half turn
  (rectangle) is solved too, so a search meets each solution four (two) times. ``symmetry_pin``
  names the lowest-numbered piece that fits the top-left corner and the cells that break the
  turns: on a square it must stand at the top-left corner, on a rectangle it stays out of the
  two bottom corners; each class of turned boards keeps one member. Encoders apply it only when
  asked (their ``symmetry`` parameter).

Where an encoder differs on purpose, it says so itself: ``cpsat`` keeps every rotation (its
rotation is a variable, which hints fix and the answer is read from) and fixes hinted cells by
constraints instead of pruning; ``ilp`` drops, in its feasibility model, placements that show on
a join a colour the other cell can never show there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from instances.edgematch.model import GREY, Instance, rotated

Frame = tuple[bool, bool, bool, bool]  # per side N, E, S, W: does it lie on the frame?
Join = tuple[int, int, int, int]  # (cell, its side, neighbour, the neighbour's facing side)
Placement = tuple[int, int, tuple[int, ...]]  # (piece, rot, colours shown on N, E, S, W)
T = TypeVar("T")


# --- cells, sides, joins ----------------------------------------------------------------------


def frame_sides(rows: int, cols: int, cell: int) -> Frame:
    """Which of the cell's sides N, E, S, W lie on the frame (and must show grey)."""
    r, c = divmod(cell, cols)
    return (r == 0, c == cols - 1, r == rows - 1, c == 0)


def open_sides(rows: int, cols: int, cell: int) -> list[int]:
    """The cell's sides that face another cell, in side order."""
    frame = frame_sides(rows, cols, cell)
    return [s for s in range(4) if not frame[s]]


def join_of(rows: int, cols: int, cell: int, side: int) -> int | None:
    """The number of the interior join on ``side`` of ``cell``; None on the frame."""
    r, c = divmod(cell, cols)
    horizontal = rows * (cols - 1)
    if side == 0:
        return None if r == 0 else horizontal + (r - 1) * cols + c
    if side == 1:
        return None if c == cols - 1 else r * (cols - 1) + c
    if side == 2:
        return None if r == rows - 1 else horizontal + r * cols + c
    return None if c == 0 else r * (cols - 1) + c - 1


def interior_joins(rows: int, cols: int) -> list[Join]:
    """Every interior join as (cell, its side, neighbour, the neighbour's facing side), the
    list index being the join's number: horizontal joins first (row-major), then vertical."""
    across = [(r * cols + c, 1, r * cols + c + 1, 3)
              for r in range(rows) for c in range(cols - 1)]
    down = [(r * cols + c, 2, (r + 1) * cols + c, 0)
            for r in range(rows - 1) for c in range(cols)]
    return across + down


def per_frame_pattern(instance: Instance, table: Callable[[Frame], T]) -> list[T]:
    """``table(frame)`` for every cell, row-major, computed once per frame pattern (the cells
    of one pattern share one object)."""
    by_frame: dict[Frame, T] = {}
    out = []
    for cell in range(instance.ncells):
        frame = frame_sides(instance.rows, instance.cols, cell)
        if frame not in by_frame:
            by_frame[frame] = table(frame)
        out.append(by_frame[frame])
    return out


# --- orientations -----------------------------------------------------------------------------


def fits_frame(shown: tuple[int, ...], frame: tuple[bool, ...]) -> bool:
    """Grey exactly on the outer sides: the placement is frame-legal."""
    return all((shown[s] == GREY) == frame[s] for s in range(4))


def distinct_orientations(edges: tuple[int, int, int, int]) -> list[tuple[int, tuple[int, ...]]]:
    """(rot, colours shown) per rotation that looks different from the earlier ones: a
    symmetric piece's repeats would only be interchangeable copies of one placement."""
    seen: dict[tuple[int, ...], int] = {}
    for rot in range(4):
        seen.setdefault(rotated(edges, rot), rot)
    return [(rot, shown) for shown, rot in seen.items()]


def frame_legal(instance: Instance, frame: tuple[bool, ...]) -> list[Placement]:
    """The distinct frame-legal orientations of every piece for a cell with this frame."""
    return [(p, rot, shown) for p, edges in enumerate(instance.pieces)
            for rot, shown in distinct_orientations(edges) if fits_frame(shown, frame)]


# --- hints ------------------------------------------------------------------------------------


def check_hints(instance: Instance) -> None:
    """A hint off the board, naming no piece or with a bad rotation is bad input."""
    for h in instance.hints:
        if not (0 <= h.row < instance.rows and 0 <= h.col < instance.cols
                and 0 <= h.piece < len(instance.pieces) and 0 <= h.rot < 4):
            raise ValueError(f"hint {h} does not fit a {instance.rows}x{instance.cols} board "
                             f"of {len(instance.pieces)} pieces")


def pins_by_cell(instance: Instance) -> dict[int, list[tuple[int, int]]]:
    """Hinted (piece, rot) per cell, in hint order, after ``check_hints``; two different hints
    on one cell are kept both."""
    check_hints(instance)
    pins: dict[int, list[tuple[int, int]]] = {}
    for h in instance.hints:
        pins.setdefault(h.row * instance.cols + h.col, []).append((h.piece, h.rot))
    return pins


def hint_positions(instance: Instance, table: Sequence[tuple[int, int, int]]) -> list[int]:
    """Where each hint's placement (cell, piece, rot) stands in a numbered ``table`` (0-based),
    in hint order. A hint whose placement is not in the table (not frame-legal, or pruned) has
    none: its cell is left without that placement, which already says the board is
    infeasible."""
    index = {placement: i for i, placement in enumerate(table)}
    cols = instance.cols
    found = (index.get((h.row * cols + h.col, h.piece, h.rot)) for h in instance.hints)
    return [i for i in found if i is not None]


# --- the placements ---------------------------------------------------------------------------


def cell_placements(instance: Instance) -> list[list[Placement]]:
    """Per cell, its placements: the frame-legal ones of the unhinted pieces, one per look, or
    on a hinted cell only its pinned placement (its exact rotation, even a symmetric repeat),
    if that is frame-legal. See the module docstring."""
    pins = pins_by_cell(instance)
    hinted = {piece for pairs in pins.values() for piece, _ in pairs}
    legal = per_frame_pattern(instance, lambda frame: frame_legal(instance, frame))
    out = []
    for cell, options in enumerate(legal):
        if cell in pins:
            frame = frame_sides(instance.rows, instance.cols, cell)
            shown = [(p, r, rotated(instance.pieces[p], r)) for p, r in pins[cell]]
            out.append([pl for pl in shown if fits_frame(pl[2], frame)])
        else:
            out.append([pl for pl in options if pl[0] not in hinted])
    return out


def join_domains(shown: Sequence[np.ndarray], joins: Sequence[Join]) -> list[np.ndarray]:
    """Per join, the sorted colours both of its cells can show there; ``shown[cell]`` holds the
    colours (rows N, E, S, W) of the cell's placements."""
    return [np.intersect1d(shown[a][:, side_a], shown[b][:, side_b])
            for a, side_a, b, side_b in joins]


# --- symmetry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SymmetryPin:
    """The piece that breaks a hintless board's turns: on a square it must take ``home`` (the
    top-left corner) and so stands on none of the cells ``barred``, the others; on a rectangle
    ``home`` is None and ``barred`` are the two bottom corners (bottom-left, bottom-right)."""

    piece: int
    home: int | None
    barred: tuple[int, ...]


def symmetry_pin(instance: Instance, per_cell: Sequence[Sequence[tuple]]) -> SymmetryPin | None:
    """The pin of the lowest piece that fits the top-left corner, read from ``per_cell``: per
    cell its orientations, each tuple starting with the piece (``cell_placements``, or an
    encoder's own tables). None where nothing is to break: the board has hints, a single row
    or column, or no piece fits the corner."""
    rows, cols = instance.rows, instance.cols
    if instance.hints or rows < 2 or cols < 2 or not per_cell[0]:
        return None
    first = min(orientation[0] for orientation in per_cell[0])
    if rows == cols:
        return SymmetryPin(first, 0, tuple(range(1, rows * cols)))
    return SymmetryPin(first, None, ((rows - 1) * cols, rows * cols - 1))
