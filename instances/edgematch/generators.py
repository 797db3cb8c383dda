"""``edgematch/planted``: solvable boards built the way Eternity II was.

The board is coloured first, then cut into pieces, so the planted board is a solution by
construction. As in Eternity II:

- the outer sides are grey (0);
- joins *along the frame* (between two frame cells, running along the border: horizontal joins
  of the top and bottom rows, vertical joins of the left and right columns) get the frame
  colours ``1..border``;
- every other join (frame-to-inner, inner-inner, and across a 2-wide board) gets the inner
  colours ``border+1..border+inner``;
- within each class the colours are used as equally as possible (counts differ by at most one),
  in a seeded random order;
- pieces equal up to rotation are avoided by a bounded local repair that swaps the colours of two
  joins of the same class (keeping the balance) whenever that does not add duplicates; the
  duplicates left (``P - number of distinct pieces up to rotation``) are reported as
  ``params["duplicates"]``, since small boards with few colours cannot avoid them.

The pieces are then shuffled and each turned back by a random quarter turn ``r``: the stored
edges are the planted ones rotated by ``-r``, and the secret records ``r``, which restores them.
Hints pin planted pieces at Eternity-II-like cells (``HINT_CELLS``).

All randomness comes from one ``random.Random(seed)`` (stable across Python versions and
machines), so the same params and seed give the same instance id everywhere.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from instances.common import Generated, InstanceError, int_param, seed_param
from instances.edgematch.model import E, Hint, Instance, N, S, Solution, W, rotated
from instances.family import Generator

FRAME, INNER = 0, 1
Edges = tuple[int, int, int, int]

PARAMS: dict[str, tuple[Any, str]] = {
    "n": (8, "board side 2..32: an n x n board (rows/cols override it)"),
    "rows": (None, "board rows, 2..32 (default n)"),
    "cols": (None, "board columns, 2..32 (default n)"),
    "border": (None, "frame colours 1..1000, on joins along the frame (default 5, or from "
                     "colors)"),
    "inner": (None, "inner colours 1..1000, on every other join (default 17, or from colors)"),
    "colors": (None, "total colours K, 2..2000; alone it splits as border = max(1, "
                     "round(5K/22)), inner = K - border (Eternity II's 5 + 17 = 22)"),
    "hints": (0, "pinned planted pieces at Eternity-II-like cells: 0..5, or max (as many of "
                 "the five as the board has)"),
}


def hint_cells(rows: int, cols: int) -> list[tuple[int, int]]:
    """Eternity II's hint cells, in order, relative to the board's size and corners.

    On 16x16 these are (8,7) (the starter piece 139), (2,2), (2,13), (13,2), (13,13). On small
    boards a cell that falls off the board or repeats an earlier one is skipped, so a small
    board may have fewer than five.
    """
    wanted = [(rows // 2, cols // 2 - 1), (2, 2), (2, cols - 3), (rows - 3, 2),
              (rows - 3, cols - 3)]
    out: list[tuple[int, int]] = []
    for row, col in wanted:
        if 0 <= row < rows and 0 <= col < cols and (row, col) not in out:
            out.append((row, col))
    return out


# --------------------------------------------------------------------------------------------
# parameters


WHERE = "edgematch/planted"
#: Board sides up to 32 (four times Eternity II's 256 cells): the duplicate repair costs about
#: joins x cells, which stays within seconds at this size.
MAX_SIDE = 32
#: Colours of a class: far above Eternity II's 5 + 17 and any ladder's, and well within int32.
MAX_CLASS_COLOURS = 1000


def _int_param(name: str, value: Any, minimum: int, maximum: int) -> int:
    return int_param(WHERE, name, value, minimum, maximum)


def _hint_count(value: Any, rows: int, cols: int) -> int:
    """How many hints to pin: ``max`` is every hint cell the board has; a number above that is
    refused (a small board has fewer than five distinct hint cells), never quietly lowered."""
    available = len(hint_cells(rows, cols))
    if value == "max":
        return available
    wanted = _int_param("hints", value, 0, 5)
    if wanted > available:
        raise InstanceError(f"{WHERE}: hints={wanted} but a {rows}x{cols} board has only "
                            f"{available} of Eternity II's hint cells (give hints={available} "
                            "or hints=max)")
    return wanted


def _colour_split(params: dict[str, Any]) -> tuple[int, int]:
    """(border, inner) from border/inner/colors, each defaulted as documented in PARAMS."""
    border, inner = (None if params.get(name) is None
                     else _int_param(name, params[name], 1, MAX_CLASS_COLOURS)
                     for name in ("border", "inner"))
    if params.get("colors") is None:
        return (5 if border is None else border), (17 if inner is None else inner)
    total = _int_param("colors", params["colors"], 2, 2 * MAX_CLASS_COLOURS)
    if border is None and inner is None:
        border = max(1, round(total * 5 / 22))
        return border, total - border
    if border is not None and inner is not None:
        if border + inner != total:
            raise InstanceError(f"{WHERE}: colors={total} is not border + inner = {border} + "
                                f"{inner} (parameter 'colors': give two of the three)")
        return border, inner
    given, name = (inner, "inner") if border is None else (border, "border")
    rest = total - given  # type: ignore[operator]
    if not 1 <= rest <= MAX_CLASS_COLOURS:
        raise InstanceError(f"{WHERE}: {name}={given} with colors={total} leaves {rest} "
                            f"colours to the other class (parameter {name!r}: a class has "
                            f"1..{MAX_CLASS_COLOURS})")
    return (rest, given) if border is None else (given, rest)  # type: ignore[return-value]


def _shape(params: dict[str, Any]) -> tuple[int, int]:
    n = _int_param("n", params.get("n", 8), 2, MAX_SIDE)
    rows = n if params.get("rows") is None else _int_param("rows", params["rows"], 2, MAX_SIDE)
    cols = n if params.get("cols") is None else _int_param("cols", params["cols"], 2, MAX_SIDE)
    return rows, cols


# --------------------------------------------------------------------------------------------
# the board's joins and their colours


@dataclass(frozen=True)
class Join:
    """An interior join: cell ``a`` shows side ``side_a``, facing cell ``b``'s ``side_b``."""

    a: int
    side_a: int
    b: int
    side_b: int
    cls: int


def board_joins(rows: int, cols: int) -> list[Join]:
    """Every interior join, with its class: FRAME along the frame, INNER elsewhere."""
    joins = []
    for row in range(rows):
        for col in range(cols):
            cell = row * cols + col
            if col + 1 < cols:
                along = row in (0, rows - 1)
                joins.append(Join(cell, E, cell + 1, W, FRAME if along else INNER))
            if row + 1 < rows:
                along = col in (0, cols - 1)
                joins.append(Join(cell, S, cell + cols, N, FRAME if along else INNER))
    return joins


def _balanced(count: int, first: int, colours: int, rng: random.Random) -> list[int]:
    """``count`` colours from ``first..first+colours-1``, each used equally (+-1), shuffled."""
    out = [first + i % colours for i in range(count)]
    rng.shuffle(out)
    return out


def _canonical(edges: Edges) -> Edges:
    """A piece's representative up to rotation: duplicates have equal representatives."""
    return min(rotated(edges, r) for r in range(4))


class _Board:
    """A coloured board: each join's colour, and each cell's edges derived from them."""

    def __init__(self, rows: int, cols: int, joins: list[Join], colour: list[int]):
        self.joins, self.colour = joins, colour
        self.ncells = rows * cols
        self.side_join = [[-1] * 4 for _ in range(self.ncells)]
        for j, join in enumerate(joins):
            self.side_join[join.a][join.side_a] = j
            self.side_join[join.b][join.side_b] = j

    def edges(self, cell: int) -> Edges:
        return tuple(self.colour[j] if j >= 0 else 0 for j in self.side_join[cell])  # type: ignore[return-value]

    def duplicates(self) -> int:
        return self.ncells - len({_canonical(self.edges(c)) for c in range(self.ncells)})


def _swap(values: list[int], i: int, j: int) -> None:
    values[i], values[j] = values[j], values[i]


def _repair(board: _Board, rng: random.Random, budget: int) -> None:
    """Swap colours of same-class joins to remove duplicate pieces, never adding any.

    Bounded by ``budget`` attempted swaps: boards with few colours keep some duplicates, and a
    generator must finish. Swaps within a class keep the colour balance and the frame rule.
    """
    by_class = {cls: [j for j, join in enumerate(board.joins) if join.cls == cls]
                for cls in (FRAME, INNER)}
    forms = [_canonical(board.edges(c)) for c in range(board.ncells)]
    counts = Counter(forms)

    def update(cells: set[int]) -> None:
        for c in cells:
            counts[forms[c]] -= 1
            if not counts[forms[c]]:
                del counts[forms[c]]
            forms[c] = _canonical(board.edges(c))
            counts[forms[c]] += 1

    for _ in range(budget):
        duplicated = [c for c in range(board.ncells) if counts[forms[c]] > 1]
        if not duplicated:
            return
        cell = rng.choice(duplicated)
        j1 = rng.choice([j for j in board.side_join[cell] if j >= 0])
        j2 = rng.choice(by_class[board.joins[j1].cls])
        if board.colour[j1] == board.colour[j2]:
            continue
        before = len(counts)
        touched = {board.joins[j1].a, board.joins[j1].b, board.joins[j2].a, board.joins[j2].b}
        _swap(board.colour, j1, j2)
        update(touched)
        if len(counts) < before:  # fewer distinct pieces = more duplicates: undo
            _swap(board.colour, j1, j2)
            update(touched)


def colour_board(rows: int, cols: int, border: int, inner: int,
                 rng: random.Random) -> _Board:
    """The planted board: balanced colours per class, then the duplicate repair."""
    joins = board_joins(rows, cols)
    colour = [0] * len(joins)
    for cls, first, count in ((FRAME, 1, border), (INNER, border + 1, inner)):
        members = [j for j, join in enumerate(joins) if join.cls == cls]
        for j, c in zip(members, _balanced(len(members), first, count, rng), strict=True):
            colour[j] = c
    board = _Board(rows, cols, joins, colour)
    _repair(board, rng, budget=10 * len(joins))
    return board


# --------------------------------------------------------------------------------------------
# the generator


def _name(rows: int, cols: int, border: int, inner: int, hints: int, seed: int) -> str:
    shape = f"n{rows}" if rows == cols else f"r{rows}c{cols}"
    return f"planted_{shape}_b{border}_i{inner}_h{hints}_s{seed}"


def make_planted(params: dict[str, Any], seed: int) -> Generated:
    """Build a planted board (see the module docstring); the secret is the planted solution."""
    rows, cols = _shape(params)
    border, inner = _colour_split(params)
    wanted = _hint_count(params.get("hints", 0), rows, cols)
    seed = seed_param(WHERE, seed)
    rng = random.Random(seed)
    board = colour_board(rows, cols, border, inner, rng)
    order = list(range(board.ncells))
    rng.shuffle(order)  # order[k] = the cell whose piece becomes piece k
    turns = [rng.randrange(4) for _ in order]
    pieces = tuple(rotated(board.edges(cell), -turns[k] % 4) for k, cell in enumerate(order))
    cells: list[tuple[int, int] | None] = [None] * board.ncells
    for k, cell in enumerate(order):
        cells[cell] = (k, turns[k])
    hints = tuple(Hint(cells[r * cols + c][0], r, c, cells[r * cols + c][1])  # type: ignore[index]
                  for r, c in hint_cells(rows, cols)[:wanted])
    instance = Instance(rows=rows, cols=cols, colors=border + inner, pieces=pieces, hints=hints,
                        name=_name(rows, cols, border, inner, len(hints), seed),
                        border_colors=border, inner_colors=inner)
    out: dict[str, Any] = {"rows": rows, "cols": cols}
    if rows == cols:
        out["n"] = rows
    out.update(border_colors=border, inner_colors=inner, colors=border + inner,
               hints=len(hints), seed=seed, duplicates=board.duplicates())
    return Generated(instance, secret=Solution(rows, cols, tuple(cells)), feasible=True,
                     params=out, source="edgematch/planted")


PLANTED = Generator(family="edgematch", name="planted", params=PARAMS, make=make_planted,
                    doc="solvable boards coloured like Eternity II (frame/inner colour classes, "
                        "balanced colours, few duplicate pieces), shuffled and rotated")
