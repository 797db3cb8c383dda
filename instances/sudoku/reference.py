"""The family's own small solver, for the generator: it counts solutions (up to a limit) and the
guesses it needed. Plain Python on bitmasks: singles (naked and hidden) to a fixpoint, then the
cell with the fewest candidates. Not a registered solver, and no solver's code: ``instances/``
depends on nothing else of the project, so the generator brings its own.

A *guess* is a digit tried at a cell that had more than one candidate: the difficulty measure of
the ``sudoku/planted`` ladder by difficulty.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache


@dataclass(frozen=True)
class Geometry:
    box: int
    size: int
    units: tuple[tuple[int, ...], ...]
    row: tuple[int, ...]
    col: tuple[int, ...]
    blk: tuple[int, ...]


@cache
def geometry(box: int) -> Geometry:
    size = box * box
    cells = range(size * size)
    row = tuple(c // size for c in cells)
    col = tuple(c % size for c in cells)
    blk = tuple((r // box) * box + k // box for r, k in zip(row, col, strict=True))
    units = tuple(tuple(c for c in cells if key[c] == i)
                  for key in (row, col, blk) for i in range(size))
    return Geometry(box, size, units, row, col, blk)


@dataclass
class State:
    """A partial grid and, per row, column and box, the digits it holds (as bit masks)."""

    grid: list[int]
    rows: list[int]
    cols: list[int]
    blks: list[int]

    def copy(self) -> State:
        return State(self.grid[:], self.rows[:], self.cols[:], self.blks[:])


@dataclass
class Count:
    solutions: int = 0
    guesses: int = 0
    first: list[int] | None = None
    nodes: int = 0
    limit_hit: bool = field(default=False)


def start(grid: list[int] | tuple[int, ...], g: Geometry) -> State | None:
    """The state of a puzzle's clues; None if two clues clash."""
    state = State([0] * len(grid), [0] * g.size, [0] * g.size, [0] * g.size)
    for cell, digit in enumerate(grid):
        if digit and not place(state, g, cell, digit):
            return None
    return state


def place(state: State, g: Geometry, cell: int, digit: int) -> bool:
    bit = 1 << (digit - 1)
    r, c, b = g.row[cell], g.col[cell], g.blk[cell]
    if (state.rows[r] | state.cols[c] | state.blks[b]) & bit:
        return False
    state.grid[cell] = digit
    state.rows[r] |= bit
    state.cols[c] |= bit
    state.blks[b] |= bit
    return True


def candidates(state: State, g: Geometry, cell: int) -> int:
    full = (1 << g.size) - 1
    return full & ~(state.rows[g.row[cell]] | state.cols[g.col[cell]] | state.blks[g.blk[cell]])


def digit_of_bit(bit: int) -> int:
    return bit.bit_length()


def fill_singles(state: State, g: Geometry) -> bool:
    """Place naked and hidden singles until none is left; False on a contradiction."""
    progress = True
    while progress:
        progress = False
        for cell, digit in enumerate(state.grid):
            if digit == 0:
                cand = candidates(state, g, cell)
                if cand == 0:
                    return False
                if cand & (cand - 1) == 0:
                    place(state, g, cell, digit_of_bit(cand))
                    progress = True
        for unit in g.units:
            seen_once = seen_twice = placed = 0
            for cell in unit:
                if state.grid[cell]:
                    placed |= 1 << (state.grid[cell] - 1)
                else:
                    cand = candidates(state, g, cell)
                    seen_twice |= seen_once & cand
                    seen_once |= cand
            full = (1 << g.size) - 1
            if (seen_once | placed) != full:
                return False
            hidden = seen_once & ~seen_twice & ~placed
            while hidden:
                bit = hidden & -hidden
                hidden ^= bit
                # an earlier single of this pass may have taken the only cell: a contradiction
                cell = next((c for c in unit
                             if not state.grid[c] and candidates(state, g, c) & bit), -1)
                if cell < 0 or not place(state, g, cell, digit_of_bit(bit)):
                    return False
                progress = True
    return True


def count_solutions(grid: list[int] | tuple[int, ...], box: int, limit: int = 2,
                    rng: random.Random | None = None) -> Count:
    """Solutions of a puzzle, up to ``limit``; digits tried in ``rng``'s order if given."""
    g = geometry(box)
    result = Count()
    state = start(grid, g)
    if state is not None:
        _search(state, g, limit, rng, result)
    return result


def _search(state: State, g: Geometry, limit: int, rng: random.Random | None,
            result: Count) -> None:
    result.nodes += 1
    if not fill_singles(state, g):
        return
    best, best_cand, best_count = -1, 0, g.size + 1
    for cell, digit in enumerate(state.grid):
        if digit == 0:
            cand = candidates(state, g, cell)
            count = cand.bit_count()
            if count < best_count:
                best, best_cand, best_count = cell, cand, count
    if best < 0:
        result.solutions += 1
        if result.first is None:
            result.first = state.grid[:]
        return
    digits = [d + 1 for d in range(g.size) if best_cand >> d & 1]
    if rng is not None:
        rng.shuffle(digits)
    for digit in digits:
        result.guesses += 1
        child = state.copy()
        place(child, g, best, digit)
        _search(child, g, limit, rng, result)
        if result.solutions >= limit:
            result.limit_hit = True
            return
