"""Sudoku as exact cover (Knuth's Algorithm C run by xcover; no colours needed).

Knuth's own formulation (TAOCP 7.2.2.1, and his dlx programs' sudoku example), ``4 * size**2``
primary items, each to be covered exactly once:

- ``pRC``: cell (R, C) is filled;
- ``rRD``: row R holds digit D; ``cCD``: column C holds D; ``bBD``: box B holds D;

and one option per (cell, digit) the clues allow, covering those four items: a clue cell has
only its clue's option, a blank cell an option per digit that no clue of its row, column or
box shows (``encoders.support.sudoku_model.candidates``). Names are three characters: the kind, the
index 0..size-1 as one character of ``0-9a-p``, the digit as its symbol ``1-9A-P`` (so every
board up to 25x25 fits dlx2's 8-character limit).

Uniqueness (``unique=True``) takes up to two solutions from xcover's lazy generator: the
search for the second resumes where the first stopped, and stops at the second, or at the end
of the tree (exactly one). xcover has no time or node limit of its own: the search between two
solutions runs until it ends, so the budget is only checked once the first solution is back
(past the deadline the run is ``unknown``, with the first grid and no ``solutions``), and the
runner's kill is the limit otherwise. The seed is not used: the search is deterministic.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from bench.api import Budget, Outcome, Param, solver
from encoders.support import xcc
from encoders.support.margin import stop_time
from encoders.support.sudoku_model import INDEX, SYMBOLS, answer, box_index, candidates
from instances.sudoku import Instance


@dataclass(frozen=True)
class Model:
    """The exact cover problem of a puzzle, and the (cell, digit) each option places."""

    problem: xcc.Problem
    placements: tuple[tuple[int, int], ...]


def item_names(size: int) -> list[str]:
    """Cells ``pRC`` row-major, then ``rRD``, ``cCD``, ``bBD`` (index-major, then digit): the
    item of (kind k, index i, digit d) is number ``k * size**2 + i * size + d - 1``."""
    cells = [f"p{INDEX[r]}{INDEX[c]}" for r in range(size) for c in range(size)]
    return cells + [f"{kind}{INDEX[i]}{SYMBOLS[d]}" for kind in "rcb" for i in range(size)
                    for d in range(size)]


def build(instance: Instance) -> Model:
    """The model of ``instance``: an option per allowed (cell, digit), see the docstring."""
    box, size = instance.box, instance.size
    area = size * size
    options, placements = [], []
    for cell, digits in enumerate(candidates(instance)):
        row, col = divmod(cell, size)
        rows, cols = area + row * size - 1, 2 * area + col * size - 1
        boxes = 3 * area + box_index(box, cell) * size - 1
        for d in digits:
            options.append(((cell, 0), (rows + d, 0), (cols + d, 0), (boxes + d, 0)))
            placements.append((cell, d))
    problem = xcc.Problem(tuple(item_names(size)), (), tuple(options))
    return Model(problem, tuple(placements))


def to_grid(instance: Instance, model: Model, chosen: list[int]) -> tuple[int, ...]:
    grid = [0] * instance.ncells
    for k in chosen:
        cell, d = model.placements[k]
        grid[cell] = d
    return tuple(grid)


def write_dlx(instance: Instance, path: str | Path, **_params: object) -> None:
    """``cliffbench export PUZZLE --to dlx FILE``: Knuth's DLX format (dlx1/dlx2 read it)."""
    size = instance.size
    xcc.write_dlx(build(instance).problem, path, comments=[
        f"sudoku {instance.name or instance.instance_id}: {size}x{size}, {instance.clues} "
        "clues (cliffbench xcc model)",
        "pRC: cell (R,C) filled; rRD / cCD / bBD: row R / column C / box B holds digit D",
        f"R, C, B are 0-based, written {INDEX[:size]}; digits are {SYMBOLS[:size]}",
        "one option per (cell, digit) the clues allow"])


def prepare() -> None:
    """Import xcover (its numba kernel compiles or loads from cache) and solve a 4x4 board."""
    from instances.sudoku import parse_line

    xcc.count_solutions(build(parse_line("1" + "." * 15)).problem)


PARAMS = [
    Param("unique", True, "take a second solution from the search (stop at 2) and report "
          "counters['solutions'] = 0, 1 or 2"),
]


@solver("xcc", family="sudoku", paradigm="xcc", backend=f"xcover-{version('xcover')}",
        params=PARAMS, prepare=prepare, exports={"dlx": write_dlx})
def solve(instance: Instance, budget: Budget, seed: int, unique: bool = True) -> Outcome:
    """Exact cover: cell, row-digit, column-digit and box-digit items, an option per candidate."""
    model, t_encode = xcc.encoded(build, instance)
    problem = model.problem
    start = time.perf_counter()
    grid, proved, second = None, budget.remaining() > 0, None
    if proved:
        stop = stop_time(budget)
        count = xcc.count_solutions(problem, deadline=stop, most=2 if unique else 1)
        if count.first is not None:
            grid = to_grid(instance, model, count.first)
            if unique and count.complete:
                second = count.solutions == 2
    out = answer(instance.box, grid, proved, second, unique)
    return xcc.sized(out, problem, t_encode, time.perf_counter() - start)
