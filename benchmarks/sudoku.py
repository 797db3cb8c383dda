"""Sudoku: Norvig's solver and the native one, on fixed sets of generated puzzles.

Two sets of the family's own generator (``sudoku/planted``, 9x9, so no data folder is needed):
``minimal``, seeds 1..20 with clues=17 (clues removed until none can go: 22-26 clues left),
and ``guessing``, seeds 101..110 with min_guesses=6 (puzzles on which the reference solver
must guess at least 6 times). The time is per set (divide by 20 or 10 for a puzzle); the search
counters summed over a set are the machine-independent figures.
"""

from __future__ import annotations

from instances.sudoku import GENERATORS, Instance
from searches import sudoku_native, sudoku_norvig

from .common import NUMBA_TIMEOUT, open_budget

SETS = {"minimal": ({"box": 3, "clues": 17, "min_guesses": 0}, range(1, 21)),
        "guessing": ({"box": 3, "clues": 17, "min_guesses": 6}, range(101, 111))}
#: solver name -> (solve function, the counter that counts its search)
SOLVERS = {"norvig": (sudoku_norvig.solve_norvig, "search_calls"),
           "native": (sudoku_native.solve, "nodes")}


def puzzle_set(name: str) -> list[Instance]:
    params, seeds = SETS[name]
    return [GENERATORS["planted"](params, seed).instance for seed in seeds]


class SudokuSets:
    """Each solver through its registered ``solve`` (one call a puzzle, uniqueness proved by
    ``native``, not by Norvig's), on each set."""

    params = (list(SOLVERS), list(SETS))
    param_names = ["solver", "puzzles"]
    timeout = NUMBA_TIMEOUT

    def setup_cache(self) -> dict[str, list[Instance]]:
        return {name: puzzle_set(name) for name in SETS}

    def setup(self, sets: dict[str, list[Instance]], solver: str, puzzles: str) -> None:
        sudoku_native.prepare()
        sudoku_norvig.prepare()
        self.solve, self.counter = SOLVERS[solver]
        self.puzzles = sets[puzzles]

    def _solve_all(self) -> list:
        return [self.solve(puzzle, open_budget(60.0, mem_mb=2000), 0) for puzzle in self.puzzles]

    def time_solve_set(self, sets: dict, solver: str, puzzles: str) -> None:
        self._solve_all()

    def track_search_nodes(self, sets: dict, solver: str, puzzles: str) -> int:
        """Norvig's search calls, or the native solver's nodes, summed over the set."""
        return int(sum(out.counters[self.counter] for out in self._solve_all()))

    track_search_nodes.unit = "nodes"
