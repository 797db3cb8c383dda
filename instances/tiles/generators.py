"""The two generators of the family.

``tiles/scramble``: the seed notebook's random walk, exactly: ``random.Random(seed)``, from the
goal, at each step a uniform choice among the blank's neighbours (listed up, down, left, right)
whose move does not return to the previous state. So ``scramble`` of the 15-puzzle's blank-last
goal, 100 steps, seed 11, is the notebook's demo instance (7, 12, 11, 2, 10, 0, 4, 6, 9, 3, 5,
8, 13, 15, 1, 14). The walk read backwards is a solution (the secret; not an optimal one).

``tiles/random``: a uniform solvable state: a uniform permutation, and when it is unsolvable,
tiles 1 and 2 swapped (a bijection between the unsolvable and the solvable states, so the
result is uniform over the solvable ones).
"""

from __future__ import annotations

import random
from typing import Any

from instances import Generator
from instances.common import Generated, InstanceError
from instances.tiles.model import GOALS, Instance, Solution, goal_state, solvable

BACK = {"U": "D", "D": "U", "L": "R", "R": "L"}


def neighbours(cell: int, rows: int, cols: int) -> list[tuple[int, str]]:
    """The blank's moves from ``cell`` in the notebook's order: up, down, left, right."""
    row, col = divmod(cell, cols)
    out = []
    if row > 0:
        out.append((cell - cols, "U"))
    if row < rows - 1:
        out.append((cell + cols, "D"))
    if col > 0:
        out.append((cell - 1, "L"))
    if col < cols - 1:
        out.append((cell + 1, "R"))
    return out


def _board(params: dict[str, Any], name: str) -> tuple[int, int, str]:
    rows, cols, goal = int(params["rows"]), int(params["cols"]), str(params["goal"])
    if rows < 2 or cols < 2:
        raise InstanceError(f"tiles/{name}: a {rows}x{cols} board is too small (2x2 at least)")
    if goal not in GOALS:
        raise InstanceError(f"tiles/{name}: goal={goal!r} is not one of {list(GOALS)}")
    return rows, cols, goal


def make_scramble(params: dict[str, Any], seed: int) -> Generated:
    rows, cols, goal = _board(params, "scramble")
    steps = int(params["steps"])
    if steps < 0:
        raise InstanceError(f"tiles/scramble: steps={steps} is negative")
    rng = random.Random(seed)
    state, previous = goal_state(rows, cols, goal), None
    walk = []
    for _ in range(steps):
        blank = state.index(0)
        options = []
        for target, move in neighbours(blank, rows, cols):
            after = list(state)
            after[blank], after[target] = after[target], 0
            if tuple(after) != previous:
                options.append((tuple(after), move))
        previous = state
        state, move = rng.choice(options)
        walk.append(move)
    back = "".join(BACK[m] for m in reversed(walk))
    instance = Instance(rows, cols, state, goal, f"scramble-{rows}x{cols}-{steps}-s{seed}")
    resolved = {"rows": rows, "cols": cols, "goal": goal, "steps": steps}
    return Generated(instance, Solution(back), True, resolved)


def make_random(params: dict[str, Any], seed: int) -> Generated:
    rows, cols, goal = _board(params, "random")
    rng = random.Random(seed)
    tiles = list(range(rows * cols))
    rng.shuffle(tiles)
    if not solvable(tuple(tiles), rows, cols, goal):
        a, b = tiles.index(1), tiles.index(2)
        tiles[a], tiles[b] = tiles[b], tiles[a]
    instance = Instance(rows, cols, tuple(tiles), goal, f"random-{rows}x{cols}-s{seed}")
    return Generated(instance, None, True, {"rows": rows, "cols": cols, "goal": goal})


_BOARD = {"rows": (4, "board rows"), "cols": (4, "board columns"),
          "goal": ("blank-last", "blank-last (the notebook) or blank-first (Korf)")}

SCRAMBLE = Generator("tiles", "scramble",
                     {**_BOARD, "steps": (100, "random-walk length (no immediate undo)")},
                     make_scramble, __doc__ or "")
RANDOM = Generator("tiles", "random",
                   {**_BOARD, "goal": ("blank-first", "blank-first (Korf) or blank-last")},
                   make_random, __doc__ or "")
