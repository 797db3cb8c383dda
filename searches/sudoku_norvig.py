"""Norvig's Sudoku solver ("Solving Every Sudoku Puzzle", 2006) as seed 002 teaches it, and two of
the seed's exercises as solvers of their own, so that what each rule buys can be measured.

- ``norvig``: the essay. ``values`` maps every square to the string of its candidate digits;
  ``assign(values, s, d)`` eliminates every other digit of ``s``, and ``eliminate`` applies the
  essay's two rules: (1) a square reduced to one value removes it from its peers; (2) a unit
  with one place left for a digit puts it there. ``search`` picks the square with the fewest
  candidates (MRV; ties go to the first square, row-major), and tries its digits in order on a
  copy of ``values``; it stops at the first solution.
- ``norvig-noprop``: the exercise "solve without propagation": the grid holds only assigned
  digits, a square's candidates are computed from its peers' current values when search needs
  them, and ``assign`` only checks that no peer holds the digit. Same search, same MRV.
- ``norvig+hidden-singles+naked-pairs``: the essay plus the exercises' two rules, run over all
  units until neither changes anything, at every search node. Hidden singles is the essay's rule
  (2) as a pass over all units; since rule (2) already fires for every unit of a square that
  loses a digit, the pass is expected to find nothing (``hidden_single_assignments`` shows it).
  Naked pairs: two squares of a unit with the same two candidates remove both from the rest of
  the unit (``naked_pair_eliminations`` counts the digits removed).

The structure (squares, units, peers) is built once per box size. Squares are cell numbers
(row-major) instead of the essay's names 'A1'..'I9', so 4x4, 16x16 and 25x25 need no naming
scheme; digits are ``ALPHABET[:size]``; units are listed as in the essay: columns, rows, boxes.

Counters: ``search_calls`` (= ``nodes``: every call, so one plus the branches tried, those
that failed at once in ``assign`` included), ``assignments`` (calls of assign that fixed a
square: clues, guesses, and rule (2) or hidden singles where they fixed one), ``backtracks``
(branches that failed). The budget is looked at every ``BUDGET_CHECK_EVERY``
search calls (the first included); when it has expired the search unwinds and answers
"unknown". Everything is pure Python: this is the reference the compiled solvers are measured
against, not a fast solver.
"""

from __future__ import annotations

import functools
import platform
import sys
from contextlib import contextmanager
from dataclasses import asdict, dataclass

from bench.api import Budget, Outcome, solver
from instances.sudoku import Instance, Solution

ALPHABET = "123456789ABCDEFGHIJKLMNOP"
BOXES = (2, 3, 4, 5)
BACKEND = f"python-{platform.python_version()}"
BUDGET_CHECK_EVERY = 256

# Rule (1) and (2) recurse through eliminate/assign; on 25x25 grids a chain of consequences can
# be a few thousand calls deep. Python 3.11 keeps Python-to-Python calls off the C stack, and
# the chain below is written with plain loops (no all(generator)), so a higher limit is safe.
RECURSION_LIMIT = 50_000


# --- the structure of a grid ------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """The essay's global tables for one box size: its digits, squares, units and peers.

    ``units[s]`` holds the column, row and box of square ``s`` (the essay's order);
    ``peers[s]`` the other squares of those units, sorted.
    """

    box: int
    digits: str
    squares: tuple[int, ...]
    unitlist: tuple[tuple[int, ...], ...]
    units: tuple[tuple[tuple[int, ...], ...], ...]
    peers: tuple[tuple[int, ...], ...]


@functools.cache
def layout(box: int) -> Layout:
    """Build the tables once per box size (2, 3, 4 or 5)."""
    if box not in BOXES:
        raise ValueError(f"box {box} is not one of {BOXES}")
    size = box * box
    squares = tuple(range(size * size))
    columns = [tuple(r * size + c for r in range(size)) for c in range(size)]
    rows = [tuple(r * size + c for c in range(size)) for r in range(size)]
    boxes = [tuple((br * box + i) * size + bc * box + j for i in range(box) for j in range(box))
             for br in range(box) for bc in range(box)]
    unitlist = tuple(columns + rows + boxes)
    units = tuple(tuple(u for u in unitlist if s in u) for s in squares)
    peers = tuple(tuple(sorted(set().union(*units[s]) - {s})) for s in squares)
    return Layout(box, ALPHABET[:size], squares, unitlist, units, peers)


# --- counting and stopping --------------------------------------------------------------------


@dataclass
class Counters:
    search_calls: int = 0
    assignments: int = 0
    backtracks: int = 0


@dataclass
class RuleCounters(Counters):
    hidden_single_assignments: int = 0
    naked_pair_eliminations: int = 0


class OutOfTime(Exception):
    """The budget expired: unwinds the search."""


class Contradiction(Exception):
    """A rule of the exercises found a square or a unit with no way left."""


# --- search, shared by the three solvers ------------------------------------------------------


class Backtracking:
    """Depth-first search over copies of ``values``; the subclasses say what a grid holds, how a
    digit is assigned and which square is the most constrained."""

    counters_type: type[Counters] = Counters

    def __init__(self, layout_: Layout, budget: Budget) -> None:
        self.layout = layout_
        self.budget = budget
        self.count = self.counters_type()

    def solve(self, clues: tuple[int, ...]) -> dict[int, str] | None:
        """The solution as {square: digit}, or None when there is none."""
        return self.search(self.parse_grid(clues))

    def parse_grid(self, clues: tuple[int, ...]) -> dict[int, str] | None:
        """Assign every clue (0 = blank) to a fresh grid; None if the clues contradict each
        other (or, with propagation, leave a square or a unit with no way)."""
        values = self.empty_grid()
        for s, clue in zip(self.layout.squares, clues, strict=True):
            if clue and not self.assign(values, s, self.layout.digits[clue - 1]):
                return None
        return values

    def search(self, values: dict[int, str] | None) -> dict[int, str] | None:
        """Try each candidate of the most constrained square, depth first (the essay's search)."""
        self.tick()
        if values is None:
            return None
        choice = self.most_constrained(values)
        if choice is None:
            return values
        s, candidates = choice
        for d in candidates:
            result = self.search(self.assign(values.copy(), s, d))
            if result:
                return result
            self.count.backtracks += 1
        return None

    def tick(self) -> None:
        """Count a search call; every so often, give up if the budget has expired."""
        self.count.search_calls += 1
        if self.count.search_calls % BUDGET_CHECK_EVERY == 1 and self.budget.expired():
            raise OutOfTime

    def empty_grid(self) -> dict[int, str]:
        raise NotImplementedError

    def assign(self, values: dict[int, str], s: int, d: str) -> dict[int, str] | None:
        raise NotImplementedError

    def most_constrained(self, values: dict[int, str]) -> tuple[int, str] | None:
        raise NotImplementedError


# --- the essay --------------------------------------------------------------------------------


class Norvig(Backtracking):
    """Candidates for every square, narrowed by the essay's two propagation rules."""

    def empty_grid(self) -> dict[int, str]:
        return dict.fromkeys(self.layout.squares, self.layout.digits)

    def assign(self, values: dict[int, str], s: int, d: str) -> dict[int, str] | None:
        """Eliminate every other digit of ``s``; None on a contradiction."""
        other_values = values[s].replace(d, "")
        if other_values:
            self.count.assignments += 1
        for d2 in other_values:
            if not self.eliminate(values, s, d2):
                return None
        return values

    def eliminate(self, values: dict[int, str], s: int, d: str) -> bool:
        """Remove ``d`` from ``s`` and propagate; False on a contradiction."""
        if d not in values[s]:
            return True
        values[s] = values[s].replace(d, "")
        if not values[s]:
            return False
        if len(values[s]) == 1 and not self.eliminate_from_peers(values, s, values[s]):
            return False
        return self.place_where_only_one_place(values, s, d)

    def eliminate_from_peers(self, values: dict[int, str], s: int, d: str) -> bool:
        """Rule (1): ``s`` holds ``d`` alone, so none of its peers can."""
        for s2 in self.layout.peers[s]:
            if not self.eliminate(values, s2, d):
                return False
        return True

    def place_where_only_one_place(self, values: dict[int, str], s: int, d: str) -> bool:
        """Rule (2): ``s`` lost ``d``; a unit of ``s`` with one place left for ``d`` puts it
        there, one with none is a contradiction."""
        for u in self.layout.units[s]:
            dplaces = [s2 for s2 in u if d in values[s2]]
            if not dplaces:
                return False
            if len(dplaces) == 1 and not self.assign(values, dplaces[0], d):
                return False
        return True

    def most_constrained(self, values: dict[int, str]) -> tuple[int, str] | None:
        """MRV: the first unsolved square with the fewest candidates; None when all are solved."""
        open_squares = [(len(values[s]), s) for s in self.layout.squares if len(values[s]) > 1]
        if not open_squares:
            return None
        _, s = min(open_squares)
        return s, values[s]


# --- exercise: without propagation ------------------------------------------------------------


class NoPropagation(Backtracking):
    """Only assigned digits are kept ('' = blank); candidates come from the peers on demand."""

    def empty_grid(self) -> dict[int, str]:
        return dict.fromkeys(self.layout.squares, "")

    def assign(self, values: dict[int, str], s: int, d: str) -> dict[int, str] | None:
        """Put ``d`` in ``s`` if no peer holds it (no elimination, no propagation)."""
        if values[s] and values[s] != d:
            return None
        if any(values[p] == d for p in self.layout.peers[s]):
            return None
        values[s] = d
        self.count.assignments += 1
        return values

    def candidates(self, values: dict[int, str], s: int) -> str:
        """The digits no peer of ``s`` holds."""
        taken = {values[p] for p in self.layout.peers[s]}
        return "".join(d for d in self.layout.digits if d not in taken)

    def most_constrained(self, values: dict[int, str]) -> tuple[int, str] | None:
        """MRV over the blank squares, candidates computed now; None when none is blank.

        The scan stops at the first square with no candidate (a dead end: no later square can
        be smaller, and ties go to the first square), so the choice is the one a full scan makes."""
        best: tuple[int, str] | None = None
        for s in self.layout.squares:
            if not values[s]:
                candidates = self.candidates(values, s)
                if best is None or len(candidates) < len(best[1]):
                    best = (s, candidates)
                    if not candidates:
                        break
        return best


# --- exercises: hidden singles and naked pairs over all units ---------------------------------


class NorvigWithRules(Norvig):
    """The essay, plus hidden singles and naked pairs to a fixpoint at every search node."""

    counters_type = RuleCounters

    def search(self, values: dict[int, str] | None) -> dict[int, str] | None:
        return super().search(self.apply_rules(values))

    def apply_rules(self, values: dict[int, str] | None) -> dict[int, str] | None:
        """Run both rules over all units until neither changes anything; None on a
        contradiction."""
        if values is None:
            return None
        try:
            changed = True
            while changed:
                changed = self.hidden_singles(values)
                changed = self.naked_pairs(values) or changed
        except Contradiction:
            return None
        return values

    def hidden_singles(self, values: dict[int, str]) -> bool:
        """A digit with one place left in a unit goes there. True if a square was fixed."""
        changed = False
        for u in self.layout.unitlist:
            for d in self.layout.digits:
                dplaces = [s for s in u if d in values[s]]
                if not dplaces:
                    raise Contradiction
                if len(dplaces) == 1 and len(values[dplaces[0]]) > 1:
                    self.count.hidden_single_assignments += 1
                    if not self.assign(values, dplaces[0], d):
                        raise Contradiction
                    changed = True
        return changed

    def naked_pairs(self, values: dict[int, str]) -> bool:
        """Two squares of a unit with the same two candidates: those two digits go in those two
        squares, so the rest of the unit loses them. True if a digit was removed."""
        changed = False
        for u in self.layout.unitlist:
            twos = [s for s in u if len(values[s]) == 2]
            for i, a in enumerate(twos):
                for b in twos[i + 1:]:
                    if len(values[a]) == 2 and values[a] == values[b]:
                        changed = self.eliminate_pair(values, u, a, b, values[a]) or changed
        return changed

    def eliminate_pair(self, values: dict[int, str], unit: tuple[int, ...], a: int, b: int,
                       pair: str) -> bool:
        """Remove both digits of ``pair`` from the squares of ``unit`` other than ``a``, ``b``."""
        changed = False
        for s in unit:
            if s == a or s == b:
                continue
            for d in pair:
                if d in values[s]:
                    self.count.naked_pair_eliminations += 1
                    changed = True
                    if not self.eliminate(values, s, d):
                        raise Contradiction
        return changed


# --- the registered solvers -------------------------------------------------------------------


@contextmanager
def deep_recursion(limit: int = RECURSION_LIMIT):
    """Let the propagation chains of big grids recurse (restores the old limit)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def run(method: type[Backtracking], instance: Instance, budget: Budget) -> Outcome:
    """Solve with one of the three methods and say what happened, with the counters."""
    search = method(layout(instance.box), budget)
    try:
        with deep_recursion():
            values = search.solve(tuple(instance.grid))
    except OutOfTime:
        return Outcome("unknown", counters=counters(search))
    if values is None:
        return Outcome("infeasible", counters=counters(search))
    digits = search.layout.digits
    answer = [digits.index(values[s]) + 1 for s in search.layout.squares]
    return Outcome("solved", solution=Solution.from_array(instance.box, answer),
                   counters=counters(search))


def counters(search: Backtracking) -> dict[str, float]:
    return {**asdict(search.count), "nodes": search.count.search_calls}


def prepare() -> None:
    """Build the tables of every box size once per worker (25x25 takes a noticeable moment)."""
    for box in BOXES:
        layout(box)


@solver("norvig", family="sudoku", paradigm="native", backend=BACKEND, prepare=prepare)
def solve_norvig(instance: Instance, budget: Budget, seed: int) -> Outcome:
    """Norvig's essay: candidates, elimination with his two rules, MRV search on copies."""
    return run(Norvig, instance, budget)


@solver("norvig-noprop", family="sudoku", paradigm="native", backend=BACKEND, prepare=prepare)
def solve_noprop(instance: Instance, budget: Budget, seed: int) -> Outcome:
    """The essay's search without propagation: MRV over candidates computed from the peers."""
    return run(NoPropagation, instance, budget)


@solver("norvig+hidden-singles+naked-pairs", family="sudoku", paradigm="native",
        backend=BACKEND, prepare=prepare)
def solve_with_rules(instance: Instance, budget: Budget, seed: int) -> Outcome:
    """Norvig plus hidden singles and naked pairs over all units, to a fixpoint at every node."""
    return run(NorvigWithRules, instance, budget)
