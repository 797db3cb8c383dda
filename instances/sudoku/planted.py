"""``sudoku/planted``: a random full grid, then clues removed while the solution stays unique.

The recipe, all of it from one ``random.Random`` per attempt (same params and seed, same puzzle on
every machine):

1. a full grid: the reference solver fills an empty board, trying digits in a random order;
2. the cells in a random order; each cell's clue is removed if the puzzle still has exactly one
   solution, kept otherwise; stop when ``clues`` remain. If the pass ends first, the puzzle is
   minimal (no clue can go) and has more clues than asked: ``clues_reached`` says how many.
   Since the decisions do not depend on the target, the puzzles of one seed are nested: a ladder
   by clue count (36, 34, ... down to the minimum) removes clues from the same grid;
3. ``min_guesses`` > 0 asks for difficulty: attempts ``seed``, ``seed + 10**6``,
   ``seed + 2 * 10**6``, ... are made until the reference solver needs at least that many
   guesses to prove the puzzle unique (``guesses``, ``attempt`` are recorded).

Parameters reach the results table as ``p_*`` columns, with ``clues_reached`` and ``guesses``.
"""

from __future__ import annotations

import random
from typing import Any

from instances import Generator
from instances.common import Generated, InstanceError
from instances.sudoku.model import BOXES, Instance, Solution
from instances.sudoku.reference import count_solutions

MAX_ATTEMPTS = 1000
ATTEMPT_STRIDE = 10**6


def full_grid(box: int, rng: random.Random) -> list[int]:
    """A random complete grid (the reference solver on an empty board, digits shuffled)."""
    found = count_solutions([0] * box**4, box, limit=1, rng=rng)
    assert found.first is not None, "an empty board always has a solution"
    return found.first


def remove_clues(solution: list[int], box: int, target: int, rng: random.Random) -> list[int]:
    """Clues removed in a random order while the solution stays unique, down to ``target``."""
    grid = solution[:]
    order = list(range(len(grid)))
    rng.shuffle(order)
    clues = len(grid)
    for cell in order:
        if clues <= target:
            break
        kept, grid[cell] = grid[cell], 0
        if count_solutions(grid, box, limit=2).solutions == 1:
            clues -= 1
        else:
            grid[cell] = kept
    return grid


def make_planted(params: dict[str, Any], seed: int) -> Generated:
    box, target, min_guesses = int(params["box"]), int(params["clues"]), int(params["min_guesses"])
    if box not in BOXES:
        raise InstanceError(f"sudoku/planted: box={box} is not one of {list(BOXES)}")
    if not 0 <= target <= box**4:
        raise InstanceError(f"sudoku/planted: clues={target} is outside 0..{box**4}")
    if min_guesses < 0:
        raise InstanceError(f"sudoku/planted: min_guesses={min_guesses} is negative")
    for attempt in range(MAX_ATTEMPTS if min_guesses else 1):
        rng = random.Random(seed + ATTEMPT_STRIDE * attempt)
        solution = full_grid(box, rng)
        grid = remove_clues(solution, box, target, rng)
        guesses = count_solutions(grid, box, limit=2).guesses
        if guesses >= min_guesses:
            break
    else:
        raise InstanceError(f"sudoku/planted: no puzzle with clues={target} needed "
                            f"{min_guesses} guesses in {MAX_ATTEMPTS} attempts")
    clues = sum(v != 0 for v in grid)
    name = f"planted-b{box}-c{clues}-s{seed}"
    resolved = {"box": box, "clues": target, "min_guesses": min_guesses,
                "clues_reached": clues, "guesses": guesses, "attempt": attempt}
    return Generated(Instance(box, tuple(grid), name), Solution(box, tuple(solution)), True,
                     resolved, known_solutions=1)


PLANTED = Generator(
    family="sudoku",
    name="planted",
    params={
        "box": (3, "box side: 2 (4x4), 3 (9x9), 4 (16x16), 5 (25x25)"),
        "clues": (30, "target clue count (the puzzle stays unique; may stop above it)"),
        "min_guesses": (0, "difficulty: least guesses the reference solver needs"),
    },
    make=make_planted,
    doc=__doc__ or "",
)
