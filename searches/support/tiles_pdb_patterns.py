"""Pattern databases for the sliding-tile puzzles: the patterns and partitions a table is about.

A *pattern* is a set of tiles (never the blank); its *placement* in a state is the tuple of the
cells of its tiles, ranked by ``searches.support.tiles_rank``. A *partition* is a list of
disjoint patterns (4-4-4-3, 5-5-5, 6-6-3, 7-8 of the 15-puzzle, 6-6-6-6 of the 24-puzzle,
presets below, or explicit tile lists). The table of a pattern holds, for each placement, a
distance to the goal placement in an abstract space, under one of two rules for the blank:

- ``ignored``: the abstract state is the placement; a pattern tile moves to an adjacent cell
  that no other pattern tile holds, at cost 1 (as if the blank were wherever needed). The
  graph is undirected with unit costs, so the sum over a partition is consistent.
- ``minimized`` (Korf & Felner's disjoint databases): the abstract state is the placement and
  the blank's region (its connected component among the cells free of the pattern); moves of
  the other tiles cost 0 (the blank roams its region for free), a pattern tile next to the
  region moves into it at cost 1. The table keeps, per placement, the least distance over the
  regions; larger than ``ignored``, still additive, no longer consistent.

The tables are built by ``tiles_pdb_build``, encoded by ``tiles_pdb_encode``, summed over a
partition by ``tiles_pdb_lookup`` and kept on disk by ``tiles_pdb_store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from searches.support.tiles_rank import count

RULES = ("ignored", "minimized")
GOALS = ("blank-first", "blank-last")

# Presets, as tile lists for the blank-first goal (Korf's). For the blank-last goal they are
# rotated by half a turn, tile t -> n - t, which maps one goal onto the other cell by cell: so
# the blank-last 4-4-4-3 is (1-4)(5-8)(9-12)(13-15), the tiles-notebook suite's. 5-5-5 is the
# partition on which the issue measured Korf's 100 (38.91 ignored, 40.51 minimized). Of the 6-6-3
# shapes tried (minimized, mean on Korf's 100 without / with the reflection): two 3x2 blocks beside
# the first column 42.37 / 43.27 (kept), rows 1-6, 7-12 41.95 / 42.73, lower halves with 1-3 on
# top 41.29 / 42.23, 2x3 blocks 40.05 / 41.03. 6-6-6-6 is Korf & Felner's 24-puzzle partition.
PRESETS: dict[int, dict[str, tuple[tuple[int, ...], ...]]] = {
    9: {
        "4-4": ((1, 2, 3, 4), (5, 6, 7, 8)),
        "3-3-2": ((1, 2, 3), (4, 5, 6), (7, 8)),
        "2-2-2-2": ((1, 2), (3, 4), (5, 6), (7, 8)),
        "8": ((1, 2, 3, 4, 5, 6, 7, 8),),
    },
    16: {
        "4-4-4-3": ((1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15)),
        "5-5-5": ((1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15)),
        "6-6-3": ((1, 4, 5, 8, 9, 12), (2, 3, 6, 7, 10, 11), (13, 14, 15)),
        "7-8": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
    },
    25: {
        "6-6-6-6": ((1, 2, 5, 6, 7, 12), (3, 4, 8, 9, 13, 14), (10, 11, 15, 16, 20, 21),
                    (17, 18, 19, 22, 23, 24)),
    },
}
PUZZLES = {8: (3, 3), 15: (4, 4), 24: (5, 5)}


class PDBError(ValueError):
    """A pattern, partition, rule or encoding that cannot be used, with the reason."""


# --- the board and the patterns ---------------------------------------------------------------


def goal_cells(rows: int, cols: int, goal: str) -> np.ndarray:
    """``out[tile]`` = the tile's goal cell (tile 0 is the blank)."""
    n = rows * cols
    if goal == "blank-first":
        return np.arange(n, dtype=np.int64)
    if goal == "blank-last":
        return np.array([n - 1, *range(n - 1)], dtype=np.int64)
    raise PDBError(f"goal {goal!r} is not one of {list(GOALS)}")


def neighbour_masks(rows: int, cols: int) -> np.ndarray:
    """``out[cell]`` = bitmask of the cells adjacent to ``cell``."""
    out = np.zeros(rows * cols, dtype=np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < rows and 0 <= cc < cols:
                out[cell] |= 1 << (rr * cols + cc)
    return out


@dataclass(frozen=True)
class Pattern:
    """A set of tiles on a board with a goal convention: what one table is about."""

    rows: int
    cols: int
    goal: str
    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.goal not in GOALS:
            raise PDBError(f"goal {self.goal!r} is not one of {list(GOALS)}")
        if self.rows < 2 or self.cols < 2 or self.rows * self.cols > 62:
            raise PDBError(f"a {self.rows}x{self.cols} board is not supported (2x2 .. 62 cells)")
        tiles = tuple(sorted(int(t) for t in self.tiles))
        object.__setattr__(self, "tiles", tiles)
        if not tiles:
            raise PDBError("a pattern needs at least one tile")
        if 0 in tiles:
            raise PDBError("the blank (0) belongs to no pattern: the sum over a partition "
                           "is admissible only when each move is charged to one pattern")
        if len(set(tiles)) != len(tiles):
            raise PDBError(f"pattern {list(tiles)} lists a tile twice")
        if tiles[-1] >= self.n:
            raise PDBError(f"tile {tiles[-1]} is not on a {self.rows}x{self.cols} board "
                           f"(tiles 1..{self.n - 1})")

    @property
    def n(self) -> int:
        return self.rows * self.cols

    @property
    def k(self) -> int:
        return len(self.tiles)

    @property
    def size(self) -> int:
        """Number of placements, the entries of the table."""
        return count(self.n, self.k)

    def goal_placement(self) -> np.ndarray:
        cells = goal_cells(self.rows, self.cols, self.goal)
        return cells[np.array(self.tiles, dtype=np.int64)]

    def goal_blank(self) -> int:
        return int(goal_cells(self.rows, self.cols, self.goal)[0])

    def manhattan_rows(self) -> np.ndarray:
        """``out[i, cell]`` = taxicab distance of the pattern's i-th tile at ``cell`` to its
        goal cell (the Manhattan part the nibble encodings leave out of the table)."""
        goal = self.goal_placement()
        cells = np.arange(self.n)
        return (np.abs(cells[None, :] // self.cols - goal[:, None] // self.cols)
                + np.abs(cells[None, :] % self.cols - goal[:, None] % self.cols)).astype(np.int64)

    @property
    def label(self) -> str:
        return "-".join(map(str, self.tiles))


@dataclass(frozen=True)
class Partition:
    """Disjoint patterns on one board and goal (not necessarily covering every tile)."""

    rows: int
    cols: int
    goal: str
    patterns: tuple[tuple[int, ...], ...]
    name: str = ""

    def __post_init__(self) -> None:
        pats = tuple(Pattern(self.rows, self.cols, self.goal, p).tiles for p in self.patterns)
        if not pats:
            raise PDBError("a partition needs at least one pattern")
        seen: dict[int, int] = {}
        for j, tiles in enumerate(pats):
            for t in tiles:
                if t in seen:
                    raise PDBError(f"tile {t} is in patterns {seen[t] + 1} and {j + 1}: the "
                                   "patterns of a partition must be disjoint")
                seen[t] = j
        object.__setattr__(self, "patterns", pats)

    @property
    def n(self) -> int:
        return self.rows * self.cols

    def pattern(self, j: int) -> Pattern:
        return Pattern(self.rows, self.cols, self.goal, self.patterns[j])

    @property
    def covers(self) -> bool:
        return sorted(t for p in self.patterns for t in p) == list(range(1, self.n))

    @property
    def label(self) -> str:
        return self.name or "/".join(",".join(map(str, p)) for p in self.patterns)


def preset(name: str, rows: int, cols: int, goal: str) -> tuple[tuple[int, ...], ...]:
    n = rows * cols
    table = PRESETS.get(n) if rows == cols else None
    if not table or name not in table:
        known = sorted(PRESETS.get(n, {})) if rows == cols else []
        raise PDBError(f"no preset partition {name!r} for the {rows}x{cols} board"
                       f"{' (presets: ' + ', '.join(known) + ')' if known else ''}; give "
                       "tile lists such as 1,2,3/4,5,6")
    pats = table[name]
    if goal == "blank-last":
        pats = tuple(tuple(sorted(n - t for t in p)) for p in pats)
    return tuple(sorted(pats, key=min)) if goal == "blank-last" else pats


def partition(spec: str | Sequence[Sequence[int]], rows: int, cols: int,
              goal: str = "blank-first") -> Partition:
    """A preset name (``5-5-5``), tile lists ``1,2,3,6,7/4,5,8,9,12/...`` or a sequence of
    sequences of tiles."""
    if isinstance(spec, str):
        text = spec.strip()
        if "," in text or "/" in text:  # tile lists (one tile alone: "5,")
            try:
                pats = tuple(tuple(int(t) for t in part.split(",") if t.strip())
                             for part in text.split("/"))
            except ValueError:
                raise PDBError(f"partition {spec!r}: expected a preset name or tile lists "
                               "such as 1,2,3/4,5,6") from None
            return Partition(rows, cols, goal, pats)
        return Partition(rows, cols, goal, preset(text, rows, cols, goal), text)
    return Partition(rows, cols, goal, tuple(tuple(int(t) for t in p) for p in spec))


def puzzle_shape(puzzle: int | str) -> tuple[int, int]:
    """8, 15, 24 (or ``RxC``) -> (rows, cols)."""
    text = str(puzzle).lower()
    if "x" in text:
        r, c = text.split("x", 1)
        return int(r), int(c)
    if int(text) not in PUZZLES:
        raise PDBError(f"puzzle {puzzle!r}: expected 8, 15, 24 or ROWSxCOLS")
    return PUZZLES[int(text)]
