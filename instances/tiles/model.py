"""The sliding-tile puzzle (8-, 15-, 24-puzzle and any rows x cols board): one structure.

- A board of ``rows x cols`` cells, numbered row-major (``cell = row * cols + col``), holds the
  tiles ``1 .. rows*cols - 1`` and the blank ``0``. A state is a tuple: ``state[cell]`` is the
  tile in that cell.
- Two goal conventions, both in use: ``blank-first`` (Korf's lists: ``0 1 2 ... n-1``) and
  ``blank-last`` (``1 2 ... n-1 0``, the usual textbook goal).
- A solution is the list of the blank's moves, a string over ``U D L R`` (the blank goes up,
  down, left, right: the tile there slides the other way). Its length is the solution's cost.
- Solvability: a state can reach its goal exactly when the parity of the permutation that maps
  the goal to it (the blank counted as a tile) equals the parity of the blank's taxicab distance
  to its goal cell (every move is one transposition and moves the blank by one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from instances.common import InstanceError, instance_hash

GOALS = ("blank-first", "blank-last")
MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def goal_state(rows: int, cols: int, goal: str) -> tuple[int, ...]:
    n = rows * cols
    if goal == "blank-first":
        return tuple(range(n))
    if goal == "blank-last":
        return (*range(1, n), 0)
    raise InstanceError(f"goal {goal!r} is not one of {list(GOALS)}")


def permutation_parity(state: tuple[int, ...], goal: tuple[int, ...]) -> int:
    """Parity (0 even, 1 odd) of the permutation taking ``goal`` to ``state``, by cycles."""
    where = {tile: cell for cell, tile in enumerate(goal)}
    seen = [False] * len(state)
    parity = 0
    for start in range(len(state)):
        length = 0
        cell = start
        while not seen[cell]:
            seen[cell] = True
            cell = where[state[cell]]
            length += 1
        if length:
            parity ^= (length - 1) & 1
    return parity


def solvable(state: tuple[int, ...], rows: int, cols: int, goal: str) -> bool:
    target = goal_state(rows, cols, goal)
    blank, blank_goal = state.index(0), target.index(0)
    distance = abs(blank // cols - blank_goal // cols) + abs(blank % cols - blank_goal % cols)
    return permutation_parity(state, target) == distance & 1


@dataclass(frozen=True)
class Instance:
    """A start state on a ``rows x cols`` board with its goal convention. ``name`` is cosmetic."""

    rows: int
    cols: int
    tiles: tuple[int, ...]
    goal: str = "blank-first"
    name: str = ""

    def __post_init__(self) -> None:
        if self.rows < 2 or self.cols < 2:
            raise InstanceError(f"a {self.rows}x{self.cols} board is too small (2x2 at least)")
        tiles = tuple(int(t) for t in self.tiles)
        object.__setattr__(self, "tiles", tiles)
        if sorted(tiles) != list(range(self.rows * self.cols)):
            raise InstanceError(f"a {self.rows}x{self.cols} board holds each of 0.."
                                f"{self.rows * self.cols - 1} once; got {list(tiles)}")
        if self.goal not in GOALS:
            raise InstanceError(f"goal {self.goal!r} is not one of {list(GOALS)}")

    @property
    def ncells(self) -> int:
        return self.rows * self.cols

    @property
    def goal_tiles(self) -> tuple[int, ...]:
        return goal_state(self.rows, self.cols, self.goal)

    @property
    def solvable(self) -> bool:
        return solvable(self.tiles, self.rows, self.cols, self.goal)

    def to_json(self) -> dict[str, Any]:
        return {"family": "tiles", "rows": self.rows, "cols": self.cols,
                "tiles": list(self.tiles), "goal": self.goal, "name": self.name}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Instance:
        return cls(int(data["rows"]), int(data["cols"]), tuple(int(t) for t in data["tiles"]),
                   str(data.get("goal", "blank-first")), str(data.get("name", "")))

    @property
    def instance_id(self) -> str:
        return instance_hash(self.to_json())


@dataclass(frozen=True)
class Solution:
    """The blank's moves, ``U``/``D``/``L``/``R``; its length is the cost."""

    moves: str

    def __post_init__(self) -> None:
        bad = next((m for m in self.moves if m not in MOVES), None)
        if bad is not None:
            raise InstanceError(f"move {bad!r} is not one of U, D, L, R")

    def __len__(self) -> int:
        return len(self.moves)

    def to_json(self, instance: Instance | None = None) -> dict[str, Any]:
        return {"moves": self.moves, "length": len(self.moves)}

    @classmethod
    def from_json(cls, data: dict[str, Any], instance: Instance | None = None) -> Solution:
        return cls(str(data["moves"]).strip().upper())


def apply_moves(instance: Instance, moves: str) -> tuple[tuple[int, ...], int]:
    """The state after the moves, and how many were legal before the first illegal one (the
    whole length if all were)."""
    state = list(instance.tiles)
    blank = state.index(0)
    for done, move in enumerate(moves):
        dr, dc = MOVES[move]
        row, col = divmod(blank, instance.cols)
        row, col = row + dr, col + dc
        if not (0 <= row < instance.rows and 0 <= col < instance.cols):
            return tuple(state), done
        target = row * instance.cols + col
        state[blank], state[target] = state[target], 0
        blank = target
    return tuple(state), len(moves)
