"""``sudoku/planted``: a random full grid, then clues removed while the solution stays unique.

The recipe, all of it from one ``random.Random`` per attempt (same params and seed, same puzzle on
every machine):

1. a full grid: the reference solver fills an empty board, trying digits in a random order
   (``random.Random(seed)``);
2. the cells in a random order; each cell's clue is removed if the puzzle still has exactly one
   solution, kept otherwise; stop when ``clues`` remain. If the pass ends first, the puzzle is
   minimal (no clue can go) and has more clues than asked: ``clues_reached`` says how many.
   Since the decisions do not depend on the target, the puzzles of one seed are nested: a ladder
   by clue count (36, 34, ... down to the minimum) removes clues from the same grid;
3. ``min_guesses`` > 0 asks for difficulty: attempts ``seed``, ``seed + 10**6``,
   ``seed + 2 * 10**6``, ... are made until the reference solver needs at least that many
   guesses to prove the puzzle unique (``guesses``, ``attempt`` are recorded).

Bounds keep one call within seconds: the uniqueness checks of a 16x16 or 25x25 grid explode
below some clue count (the floors ``MIN_CLUES``), and a difficulty that no attempt reaches
costs every attempt (at most ``MAX_ATTEMPTS`` per box side). A node budget in the reference
solver would bound both more tightly than these floors.

Parameters reach the results table as ``p_*`` columns, with ``clues_reached`` and ``guesses``.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from instances.common import Generated, InstanceError, int_param, seed_param
from instances.family import Generator
from instances.sudoku.model import BOXES, Instance, Solution
from instances.sudoku.reference import count_solutions

WHERE = "sudoku/planted"
#: The fewest clues asked for, per box side (see the module docstring for the times).
MIN_CLUES = {2: 0, 3: 0, 4: 106, 5: 330}
#: Attempts at a difficulty, per box side, before giving up (a few seconds each way).
MAX_ATTEMPTS = {2: 1000, 3: 150, 4: 4, 5: 2}
MAX_GUESSES = 100_000
ATTEMPT_STRIDE = 10**6


def full_grid(box: int, rng: random.Random) -> list[int]:
    """A random complete grid (the reference solver on an empty board, digits shuffled)."""
    found = count_solutions([0] * box**4, box, limit=1, rng=rng)
    assert found.first is not None, "an empty board always has a solution"
    return found.first


class Removal:
    """One attempt's grid and its clue removal, carried only as far as a target needs.

    The decisions do not depend on the target, so one object serves every target of the same
    (box, seed): a clue ladder or a search for difficulty pays each uniqueness check once.
    """

    def __init__(self, box: int, seed: int):
        self.box = box
        rng = random.Random(seed)
        self.solution = full_grid(box, rng)
        self.grid = self.solution[:]
        self.order = list(range(len(self.grid)))
        rng.shuffle(self.order)
        self.next = 0
        self.removed: list[int] = []

    def down_to(self, target: int) -> list[int]:
        """The puzzle with ``target`` clues, or the minimal one if no more clue can go."""
        ncells = len(self.solution)
        while ncells - len(self.removed) > target and self.next < len(self.order):
            cell = self.order[self.next]
            self.next += 1
            kept, self.grid[cell] = self.grid[cell], 0
            if count_solutions(self.grid, self.box, limit=2).solutions == 1:
                self.removed.append(cell)
            else:
                self.grid[cell] = kept
        grid = self.solution[:]
        for cell in self.removed[:max(0, ncells - target)]:
            grid[cell] = 0
        return grid


@lru_cache(maxsize=512)
def removal(box: int, seed: int) -> Removal:
    return Removal(box, seed)


@lru_cache(maxsize=4096)
def puzzle_at(box: int, seed: int, target: int) -> tuple[tuple[int, ...], int]:
    """The puzzle of an attempt at a target, and the guesses the reference solver needs."""
    grid = removal(box, seed).down_to(target)
    return tuple(grid), count_solutions(grid, box, limit=2).guesses


def make_planted(params: dict[str, Any], seed: int) -> Generated:
    box = int_param(WHERE, "box", params.get("box", 3), min(BOXES), max(BOXES))
    size = box * box
    floor = MIN_CLUES[box]
    target = int_param(WHERE, "clues", params.get("clues", 30), floor, box**4,
                       f"for box={box}" + (f": below {floor} the uniqueness checks of a "
                                           f"{size}x{size} grid take minutes" if floor else ""))
    min_guesses = int_param(WHERE, "min_guesses", params.get("min_guesses", 0), 0, MAX_GUESSES)
    seed = seed_param(WHERE, seed)
    attempts = MAX_ATTEMPTS[box] if min_guesses else 1
    for attempt in range(attempts):
        grid, guesses = puzzle_at(box, seed + ATTEMPT_STRIDE * attempt, target)
        if guesses >= min_guesses:
            break
    else:
        raise InstanceError(f"sudoku/planted: no puzzle with clues={target} needed "
                            f"{min_guesses} guesses in {attempts} attempts (the most for "
                            f"box={box}); ask for fewer guesses or more clues")
    solution = removal(box, seed + ATTEMPT_STRIDE * attempt).solution
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
        "clues": (30, "target clue count (the puzzle stays unique; may stop above it); at "
                      "least 106 for box 4, 330 for box 5"),
        "min_guesses": (0, "difficulty: least guesses the reference solver needs (attempts: "
                           "1000, 150, 4, 2 for box 2..5)"),
    },
    make=make_planted,
    doc=__doc__ or "",
)
