"""Quasigroup completion as exact cover (Knuth's Algorithm C run by xcover; no colours needed).

A Latin square is an exact cover of three kinds of primary items, each covered exactly once:

- ``pR_C``: cell (R, C) is filled;
- ``rR_V``: row R holds symbol V; ``cC_V``: column C holds V;

by one option per (cell, symbol), covering its three items. Given cells are taken out with
what they cover: a given cell contributes no option, and its cell, row-symbol and column-symbol
items are not items at all. What is left is an item per hole, an item per (row, symbol) the
row's given cells do not show and per (column, symbol) likewise, and an option per hole and
candidate (``encoders.support.latin_model.candidates``: a symbol no given cell of its row or
column shows). Every option's items exist, and an item no option covers (a hole without
candidates, a symbol a line misses and none of its holes can take) leaves no solution. Two
given cells of a row with one symbol leave that row more missing symbols than holes: again no
solution, as the instance has none. Names are at most 8 characters (dlx2's limit) up to order
200, indices and symbols 0-based.

xcover's search is deterministic (the seed is not used) and has no time or node limit of its
own: it runs until its first solution or the end of the tree, so the runner's kill is the limit
of a long search. A solution back after the deadline still counts (the run is ``solved``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import numpy as np

from bench.api import Budget, Outcome, solver
from encoders.support import xcc
from encoders.support.latin_model import answer, completed, placements, shown
from instances.latin.model import HOLE, Instance


@dataclass(frozen=True)
class Model:
    """The exact cover problem of an instance, and the (cell, symbol) each option places."""

    problem: xcc.Problem
    cells: np.ndarray
    symbols: np.ndarray


def build(instance: Instance) -> Model:
    """The model of ``instance``: items and options as the module docstring says."""
    n = instance.order
    holes = np.nonzero(np.asarray(instance.cells) == HOLE)[0]
    in_row, in_col = shown(instance)
    row_items, col_items = np.nonzero(~in_row), np.nonzero(~in_col)  # (line, symbol) pairs
    names = ([f"p{c // n}_{c % n}" for c in holes.tolist()]
             + [f"r{r}_{v}" for r, v in zip(*(a.tolist() for a in row_items), strict=True)]
             + [f"c{c}_{v}" for c, v in zip(*(a.tolist() for a in col_items), strict=True)])
    index = np.full(3 * n * n, -1, dtype=np.int64)  # kind * n*n + line * n + symbol -> item
    index[holes] = np.arange(len(holes))
    first = len(holes)
    index[n * n + row_items[0] * n + row_items[1]] = first + np.arange(len(row_items[0]))
    first += len(row_items[0])
    index[2 * n * n + col_items[0] * n + col_items[1]] = first + np.arange(len(col_items[0]))
    cells, symbols = placements(instance)
    rows, cols = np.divmod(cells, n)
    items = np.stack([index[cells], index[n * n + rows * n + symbols],
                      index[2 * n * n + cols * n + symbols]], axis=1)
    options = tuple(((a, 0), (b, 0), (c, 0)) for a, b, c in items.tolist())
    return Model(xcc.Problem(tuple(names), (), options), cells, symbols)


def write_dlx(instance: Instance, path: str | Path, **_params: object) -> None:
    """``cliffbench export INSTANCE --to dlx FILE``: Knuth's DLX format (dlx1/dlx2 read it)."""
    xcc.write_dlx(build(instance).problem, path, comments=[
        f"latin square {instance.name or instance.instance_id}: order {instance.order}, "
        f"{instance.holes} holes (cliffbench xcc model)",
        "pR_C: cell (R,C) filled; rR_V / cC_V: row R / column C holds symbol V (0-based)",
        "given cells and what they cover are left out; one option per hole and candidate"])


def prepare() -> None:
    """Import xcover (its numba kernel compiles or loads from cache) and solve an order-3
    square."""
    xcc.first_solution(build(Instance(3, (0, -1, -1, -1, -1, -1, -1, -1, 1))).problem)


@solver("xcc", family="latin", paradigm="xcc", backend=f"xcover-{version('xcover')}",
        prepare=prepare, exports={"dlx": write_dlx})
def solve(instance: Instance, budget: Budget, seed: int) -> Outcome:
    """Exact cover: cell, row-symbol and column-symbol items, an option per hole and candidate."""
    model, t_encode = xcc.encoded(build, instance)
    start = time.perf_counter()
    square, proved = None, budget.remaining() > 0
    if proved:
        chosen = xcc.first_solution(model.problem)
        if chosen is not None:
            square = completed(instance, model.cells[chosen], model.symbols[chosen])
    out = answer(square, proved)
    return xcc.sized(out, model.problem, t_encode, time.perf_counter() - start)
