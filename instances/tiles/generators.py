"""The two generators of the family.

``tiles/scramble``: a random walk of the blank: ``random.Random(seed)``, from the goal, at each
step a uniform choice among the blank's neighbours (listed up, down, left, right) whose move
does not return to the previous state. So ``scramble`` of the 15-puzzle's blank-last goal, 100
steps, seed 11, is (7, 12, 11, 2, 10, 0, 4, 6, 9, 3, 5, 8, 13, 15, 1, 14), the demo instance of
the notebook this project grew from. The walk read backwards is a solution (the secret; not an
optimal one).

``tiles/random``: a uniform solvable state: a uniform permutation, and when it is unsolvable,
tiles 1 and 2 swapped (a bijection between the unsolvable and the solvable states, so the
result is uniform over the solvable ones).
"""

from __future__ import annotations

import random
from typing import Any

from instances.common import Generated, choice_param, int_param, seed_param
from instances.family import Generator
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


WHERE = "tiles/{}"
#: Board sides up to 32 (1,023 tiles; the 24-puzzle is 5 x 5).
MAX_SIDE = 32
#: Walk length: a step costs about a microsecond (the 24-puzzle ladders walk 100).
MAX_STEPS = 1_000_000


def _board(params: dict[str, Any], name: str) -> tuple[int, int, str]:
    where = WHERE.format(name)
    rows = int_param(where, "rows", params["rows"], 2, MAX_SIDE)
    cols = int_param(where, "cols", params["cols"], 2, MAX_SIDE)
    return rows, cols, choice_param(where, "goal", params["goal"], GOALS)


def scramble_walk(rows: int, cols: int, goal: str, steps: int,
                  rng: random.Random) -> tuple[tuple[int, ...], str]:
    """The walk: the state after ``steps`` moves and the moves, as U/D/L/R.

    A neighbour whose state equals the previous one is dropped; after a single move
    that is exactly the neighbour the blank came from, so each step costs O(1), not a copy of
    the board per neighbour (the choices, hence the walk, are the same).
    """
    state = list(goal_state(rows, cols, goal))
    blank, came_from = state.index(0), -1
    walk = []
    for _ in range(steps):
        options = [(cell, move) for cell, move in neighbours(blank, rows, cols)
                   if cell != came_from]
        target, move = rng.choice(options)
        state[blank], state[target] = state[target], 0
        came_from, blank = blank, target
        walk.append(move)
    return tuple(state), "".join(walk)


def make_scramble(params: dict[str, Any], seed: int) -> Generated:
    rows, cols, goal = _board(params, "scramble")
    steps = int_param(WHERE.format("scramble"), "steps", params["steps"], 0, MAX_STEPS)
    seed = seed_param(WHERE.format("scramble"), seed)
    state, walk = scramble_walk(rows, cols, goal, steps, random.Random(seed))
    back = "".join(BACK[m] for m in reversed(walk))
    instance = Instance(rows, cols, state, goal, f"scramble-{rows}x{cols}-{steps}-s{seed}")
    resolved = {"rows": rows, "cols": cols, "goal": goal, "steps": steps}
    return Generated(instance, Solution(back), True, resolved)


def make_random(params: dict[str, Any], seed: int) -> Generated:
    rows, cols, goal = _board(params, "random")
    seed = seed_param(WHERE.format("random"), seed)
    rng = random.Random(seed)
    tiles = list(range(rows * cols))
    rng.shuffle(tiles)
    if not solvable(tuple(tiles), rows, cols, goal):
        a, b = tiles.index(1), tiles.index(2)
        tiles[a], tiles[b] = tiles[b], tiles[a]
    instance = Instance(rows, cols, tuple(tiles), goal, f"random-{rows}x{cols}-s{seed}")
    return Generated(instance, None, True, {"rows": rows, "cols": cols, "goal": goal})


_BOARD = {"rows": (4, "board rows, 2..32"), "cols": (4, "board columns, 2..32"),
          "goal": ("blank-last", "blank-last (1 2 ... 0) or blank-first (Korf: 0 1 2 ...)")}

SCRAMBLE = Generator("tiles", "scramble",
                     {**_BOARD, "steps": (100, "random-walk length, 0..10**6 (no immediate "
                                                "undo)")},
                     make_scramble, __doc__ or "")
RANDOM = Generator("tiles", "random",
                   {**_BOARD, "goal": ("blank-first", "blank-first (Korf) or blank-last")},
                   make_random, __doc__ or "")
