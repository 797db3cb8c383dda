"""Edge matching as exact cover with colours (Knuth's Algorithm C, run by xcover).

Seed 004's point: plain exact cover (Algorithm X) can say "each cell filled once, each piece used
once" but not "neighbours agree on a colour"; Algorithm C's coloured secondary items say it
natively. The model:

- primary items: one per cell (``r3c4``) and one per piece (``p17``, its external id);
- secondary items: one per interior join, ``h3c4`` between cells (3,4) and (3,5), ``v3c4``
  between (3,4) and (4,4);
- one option per placement of ``encoders.support.edgematch_placements``, i.e. per (cell, piece,
  rotation) that shows grey exactly on the cell's frame sides, covering the cell, the piece,
  and each join of the cell coloured with the colour the piece shows there. Rotations of a
  symmetric piece that show the same colours are kept once (the lowest), so the count is of
  distinct coloured boards per piece assignment;
- a hint is the only option of its cell, and its piece has no other option (a hint that shows
  grey off the frame, or colour on it, leaves its cell without options: infeasible).

Counting (``count=True``) counts every solution, symmetric copies included. Without hints, a
solved board turned a quarter turn (square) or a half turn (non-square rectangle) is another
solution, never the same one (pieces are distinct items and only a 1x1 board has a cell that
every turn fixes), so the count is a multiple of the *symmetry factor* 4 (square) or 2
(rectangle), 1 with hints; ``counters["symmetry_factor"]`` gives it and ``classes`` the count
divided by it. Pieces equal up to rotation multiply the count further (their permutations).

xcover has no time or node limit: the search for the first solution (and between two solutions
when counting) runs until it ends, and only the runner's kill at the budget stops it. Counting
checks the budget between solutions and returns ``unknown`` with the first solution and the
partial count when it runs out. The seed is not used: xcover's search is deterministic.
Rotations follow ``instances.edgematch.model``: after ``rot`` clockwise quarter turns side ``s``
shows listed edge ``(s - rot) % 4``.
"""

from __future__ import annotations

import string
import time
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from bench.api import Budget, Outcome, Param, solver
from encoders.support import xcc
from encoders.support.edgematch_placements import (
    Placement,
    cell_placements,
    frame_sides,  # noqa: F401  (re-exported, as the tests reach it)
    join_of,
    open_sides,
)
from encoders.support.margin import stop_time
from instances.common import InstanceError
from instances.edgematch.model import Instance, Solution

# One-character colour names, as dlx2 requires: 0-9a-zA-Z.
CHARS = string.digits + string.ascii_lowercase + string.ascii_uppercase

@dataclass(frozen=True)
class Model:
    """The XCC problem of a board, and the (cell, piece, rot) each option places."""

    problem: xcc.Problem
    placements: tuple[tuple[int, int, int], ...]


# --- items ------------------------------------------------------------------------------------


def join_item(rows: int, cols: int, cell: int, side: int) -> int:
    """The secondary item of the interior join on ``side`` (one facing another cell) of
    ``cell``, counted from the first secondary item: the joins east of each cell (``h``)
    row-major, then those south (``v``), which is the joins' own numbering
    (``edgematch_placements.join_of``)."""
    join = join_of(rows, cols, cell, side)
    if join is None:
        raise ValueError(f"side {side} of cell {cell} lies on the frame: it has no join item")
    return join


def item_names(instance: Instance) -> tuple[list[str], list[str]]:
    """Primary names (cells, then pieces by external id) and secondary names (joins), short
    enough for dlx2 on any board below 1000 x 1000."""
    rows, cols = instance.rows, instance.cols
    cells = [f"r{r}c{c}" for r in range(rows) for c in range(cols)]
    pieces = [f"p{pid}" for pid in instance.ids]
    east = [f"h{r}c{c}" for r in range(rows) for c in range(cols - 1)]
    south = [f"v{r}c{c}" for r in range(rows - 1) for c in range(cols)]
    return cells + pieces, east + south


def top_colour(instance: Instance) -> int:
    """The highest colour of the board (the declared K, or more if a piece shows more)."""
    return max([instance.colors, *(max(p) for p in instance.pieces)])


def colour_names(colours: int) -> tuple[str, ...]:
    """One character per colour 1..K: the colour's own digit or letter (1 is '1', 10 is 'a')
    while K <= 61, all 62 characters shifted down by one at K = 62, and plain numbers beyond,
    which only the DLX export refuses (xcover takes any number of colours)."""
    if colours < len(CHARS):
        return tuple(CHARS[1:colours + 1])
    if colours == len(CHARS):
        return tuple(CHARS)
    return tuple(str(k) for k in range(1, colours + 1))


# --- model ------------------------------------------------------------------------------------


def _options_of_cell(instance: Instance, cell: int, placements: list[Placement]
                     ) -> list[tuple[tuple[int, int, int], tuple]]:
    """((cell, piece, rot), entries) of every option of ``cell``: the cell item, the piece
    item, then each interior join coloured with the colour shown on it."""
    rows, cols, ncells = instance.rows, instance.cols, instance.ncells
    base = ncells + len(instance.pieces)
    sides = open_sides(rows, cols, cell)
    items = [base + join_item(rows, cols, cell, s) for s in sides]
    out = []
    for piece, rot, shown in placements:
        joins = tuple((item, shown[s]) for item, s in zip(items, sides, strict=True))
        out.append(((cell, piece, rot), ((cell, 0), (ncells + piece, 0), *joins)))
    return out


def build(instance: Instance) -> Model:
    """The XCC model of ``instance`` (see the module docstring for its shape): an option per
    placement of ``edgematch_placements.cell_placements``."""
    placements, options = [], []
    for cell, legal in enumerate(cell_placements(instance)):
        for placement, entries in _options_of_cell(instance, cell, legal):
            placements.append(placement)
            options.append(entries)
    primary, secondary = item_names(instance)
    problem = xcc.Problem(tuple(primary), tuple(secondary), tuple(options),
                          colour_names(top_colour(instance)))
    return Model(problem, tuple(placements))


def to_solution(instance: Instance, model: Model, chosen: list[int]) -> Solution:
    """The board of a set of chosen options."""
    cells: list[tuple[int, int] | None] = [None] * instance.ncells
    for k in chosen:
        cell, piece, rot = model.placements[k]
        cells[cell] = (piece, rot)
    return Solution(instance.rows, instance.cols, tuple(cells))


def symmetry_factor(instance: Instance) -> int:
    """How many solutions each solution stands for by turning the whole board: 4 on a square
    board without hints, 2 on a rectangle without hints, else 1 (see the module docstring)."""
    if instance.hints or instance.ncells <= 1:
        return 1
    return 4 if instance.rows == instance.cols else 2


# --- export -----------------------------------------------------------------------------------


def write_dlx(instance: Instance, path: str | Path, **_params: object) -> None:
    """Write the model in Knuth's DLX format within dlx2's limits (names of at most 8
    characters, one-character colours), or raise InstanceError saying why it cannot."""
    top = top_colour(instance)
    if top > len(CHARS):
        raise InstanceError(f"the DLX export cannot represent {top} colours: dlx2 colour names "
                            f"are one character, and 0-9a-zA-Z gives {len(CHARS)}", str(path))
    model = build(instance)
    if reason := xcc.dlx_problems(model.problem):
        raise InstanceError(f"the DLX export cannot represent this {instance.rows}x"
                            f"{instance.cols} board: {reason}", str(path))
    xcc.write_dlx(model.problem, path, comments=_comments(instance))


def _comments(instance: Instance) -> list[str]:
    """The header of an exported file: what the names and colours mean."""
    names = colour_names(top_colour(instance))
    legend = " ".join(f"{k}={c}" for k, c in enumerate(names, start=1) if str(k) != c)
    return [f"edge matching {instance.name or instance.instance_id}: {instance.rows}x"
            f"{instance.cols}, {len(instance.pieces)} pieces, {instance.colors} colours "
            f"(cliffbench xcc model)",
            "rRcC: cell (R,C); pN: piece id N; hRcC: join east of cell (R,C); vRcC: join south",
            "an option places one piece, turned, in one cell; joins carry the colours shown",
            "colours are written as themselves" + (f", except {legend}" if legend else "")]


# --- solving ----------------------------------------------------------------------------------


def prepare() -> None:
    """Import xcover (its numba kernel is compiled, or loaded from numba's cache, on import)
    and solve a toy, so that no timed run pays for it."""
    toy = xcc.Problem(("a", "b"), ("x",), (((0, 0), (2, 1)), ((1, 0), (2, 1)), ((1, 0), (2, 2))),
                      ("1", "2"))
    xcc.count_solutions(toy)


def _first(instance: Instance, model: Model) -> tuple[Outcome, int]:
    chosen = xcc.first_solution(model.problem)
    if chosen is None:
        return Outcome("infeasible"), 0
    return Outcome("solved", solution=to_solution(instance, model, chosen)), 1


def _count(instance: Instance, model: Model, budget: Budget) -> tuple[Outcome, int, bool]:
    """Count within the budget; ``unknown`` (with the first board and the partial count) when
    the budget ran out between two solutions."""
    stop = stop_time(budget)
    count = xcc.count_solutions(model.problem, deadline=stop)
    board = None if count.first is None else to_solution(instance, model, count.first)
    if not count.complete:
        return Outcome("unknown", solution=board), count.solutions, False
    status = "solved" if board is not None else "infeasible"
    return Outcome(status, solution=board), count.solutions, True


PARAMS = [
    Param("count", False, "count every solution (symmetric copies included; see the "
          "symmetry_factor counter) instead of stopping at the first"),
]


@solver("xcc", family="edgematch", paradigm="xcc", backend=f"xcover-{version('xcover')}",
        params=PARAMS, prepare=prepare, exports={"dlx": write_dlx})
def solve(instance: Instance, budget: Budget, seed: int, count: bool = False) -> Outcome:
    """Exact cover with colours (Algorithm C): cells and pieces primary, joins coloured."""
    model, t_encode = xcc.encoded(build, instance)
    counters: dict[str, float] = {"symmetry_factor": symmetry_factor(instance)}
    if budget.remaining() <= 0:
        return xcc.sized(Outcome("unknown", counters=counters), model.problem, t_encode, 0.0)
    start = time.perf_counter()
    if count:
        out, found, complete = _count(instance, model, budget)
        counters["count_complete"] = int(complete)
        if complete:
            counters["classes"] = found // counters["symmetry_factor"]
    else:
        out, found = _first(instance, model)
    out.counters = {**counters, "solutions": found}
    return xcc.sized(out, model.problem, t_encode, time.perf_counter() - start)

