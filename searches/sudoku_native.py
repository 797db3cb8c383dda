"""``native``: the compiled sudoku solver. Strong deduction at every node, binary MRV branching,
counting up to two solutions to prove uniqueness.

On hard puzzles the fast solvers differ first by how many guesses they need, and only then by
the cost of a node (the lesson of the tdoku benchmarks, t-dillon.github.io/tdoku). So every
node runs, to a fixpoint, naked and hidden singles, locked candidates (pointing and claiming,
rows and columns) and tdoku's triads (a box-line segment holds exactly ``box`` digits: naked
and hidden subsets on segments); the branch is a cell with the fewest candidates, ties going to
the cell whose candidates touch the most near-solved peers (``searches.support.sudoku_modes``).
And a node is cheap: bitsets, no allocation, a preallocated stack of states copied on each
guess. Two kernels:

- 9x9 (``fast9``, the default; ``searches.support.sudoku_band9``): one 27-bit word per
  (digit, band), JCZSolve's layout; locked candidates are tdoku's band and stack
  *configurations* (a digit's 6 possible placements in a band), by table look-up;
- any box side 2..5, and 9x9 with ``fast9=False`` (``searches.support.sudoku_general``): one
  candidate bitmask per cell, a propagation queue, hidden singles on the units that changed,
  locked candidates and subsets over the box-line segments.

Both reach the same fixpoint and take the same branches: the same guesses and nodes on every
puzzle. ``deduction`` stops at ``singles`` or ``locked``, and ``branching="first"`` takes the
first cell with the fewest candidates (plain MRV): ``deduction=singles, branching=first`` is
the plain baseline of ``perf/sudoku_native.py``, which prints the guesses per puzzle of each
setting beside tdoku's.

Counters: ``guesses`` = branching decisions as tdoku counts them (``num_guesses``): a guess
``cell = v`` whose alternative is ``cell != v``, propagated in the parent state; so a cell
tried out to its k-th value costs k - 1 guesses. ``nodes`` = states propagated (the root,
each guess, each negation). ``solutions`` (with ``unique``) is 0, 1 or 2 when the count is
complete. ``fast9`` = 1 when the 9x9 kernel ran.

Budget: the search runs in chunks of nodes (numba cannot read the clock); between chunks the
budget is checked, and a chunk is sized from the node rate measured so far so that it ends
before the budget does. Stopped by the budget (or ``max_nodes``), the answer is ``unknown``:
with the first grid and ``solutions_found`` = 1 when one was found but uniqueness was not
proved yet (the encoders' rule: a count cut short never reads as "unique"). The clues are
placed and propagated (the root node) before the first look at the clock. The search is
deterministic: the seed is unused, and so is ``budget.cores`` (one thread).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numba
import numpy as np

from bench.api import Budget, Outcome, Outcomes, Param, solver
from instances.sudoku import Instance, Solution
from instances.sudoku.model import answer_texts, grid_rows
from searches.support import sudoku_band9 as band9
from searches.support import sudoku_batch
from searches.support import sudoku_general as general
from searches.support import sudoku_modes as modes
from searches.support.chunked import control, run_in_chunks

# Kept off the budget for building the answer, so the solver returns before the watchdog fires.
MARGIN_S = 0.02
FIRST_CHUNK = 2_000  # nodes of the first chunk, before the node rate is known
CHUNK_S = 0.05  # seconds a chunk aims at once the rate is known
BRANCHINGS = ("weighted", "first")


@dataclass
class Search:
    """One counting search in progress: its kernel, its state arrays and its control vector."""

    instance: Instance
    fast9: bool
    mode: int  # deduction level | FIRST_MRV
    limit: int
    state: np.ndarray
    stack: np.ndarray
    frames: np.ndarray
    ctl: np.ndarray
    out: np.ndarray
    grid: np.ndarray
    work: tuple[np.ndarray, ...] = ()  # the general kernel's scratch arrays and tables
    feasible: bool = True  # False: the root propagation failed (no solution)

    @classmethod
    def start(cls, instance: Instance, limit: int, mode: int = modes.SUBSETS,
              fast9: bool = True) -> Search:
        """Allocate everything (call ``root`` next)."""
        grid = np.asarray(instance.grid, dtype=np.int64)
        ncells = instance.ncells
        ctl = np.zeros(modes.CTL_SLOTS, dtype=np.int64)
        ctl[modes.C_NODES] = 1
        out = np.zeros(ncells, dtype=np.int64)
        fast9 = fast9 and instance.box == 3
        if fast9:
            state = np.zeros(band9.WORK9, dtype=np.int64)
            stack = np.zeros((ncells + 1, band9.STATE9), dtype=np.int64)
            frames = np.zeros(ncells + 1, dtype=np.int64)
            return cls(instance, True, mode, limit, state, stack, frames, ctl, out, grid)
        width = ncells + 3 * instance.size  # candidates, then each unit's placed digits
        state = np.zeros(width, dtype=np.int64)
        stack = np.zeros((ncells + 1, width), dtype=np.int64)
        frames = np.zeros(ncells + 1, dtype=np.int64)
        work = general.general_scratch(instance.box) + general.general_tables(instance.box)
        return cls(instance, False, mode, limit, state, stack, frames, ctl, out, grid, work)

    def root(self) -> Search:
        """Place the clues and propagate: the root node (``feasible`` False if it fails)."""
        if self.fast9:
            self.feasible = bool(band9.init9(self.grid, self.state, self.mode & 3))
        else:
            self.feasible = bool(general.init_general(self.grid, self.state, *self.work,
                                                     self.mode & 3))
        return self

    def run(self, nodes: int) -> int:
        """Search ``nodes`` more nodes at most; PAUSED or DONE."""
        if not self.feasible:
            return modes.DONE
        cap = self.nodes + nodes
        if self.fast9:
            return int(band9.search9(self.state, self.stack, self.frames, self.ctl,
                                      self.limit, cap, self.mode, self.out))
        return int(general.search_general(self.state, self.stack, self.frames, self.ctl,
                                         self.limit, cap, *self.work, self.mode, self.out))

    nodes = control(modes.C_NODES)
    guesses = control(modes.C_GUESSES)
    solutions = control(modes.C_SOLUTIONS)

    def first(self) -> Solution:
        return Solution(self.instance.box, tuple(self.out.tolist()))


def drive(search: Search, budget: Budget, max_nodes: int) -> int:
    """Run chunks until the search is done, ``max_nodes`` (0 = no limit) or the budget ends."""
    return run_in_chunks(search, budget, modes.PAUSED, modes.PAUSED, first_chunk=FIRST_CHUNK,
                         min_chunk=100, max_nodes=max_nodes, chunk_s=CHUNK_S, margin_s=MARGIN_S)


@cache
def _tiny_puzzles() -> tuple[Instance, ...]:
    return (Instance(2, (1, 0, 0, 4) + (0,) * 12),
            Instance(3, tuple(int(c) for c in "1" + "0" * 80)))


def prepare() -> None:
    """Compile (or load from numba's cache) both kernels once per worker, on tiny puzzles."""
    for instance in _tiny_puzzles():
        for mode in (modes.SUBSETS, modes.SINGLES | modes.FIRST_MRV):
            Search.start(instance, 2, mode).root().run(100)
    for box in (2, 3, 4, 5):
        general.general_tables(box)
    solve_batch(_tiny_puzzles()[1:], Budget(1.0, 100, deadline=time.monotonic() + 1.0), 0)


PARAMS = [
    Param("unique", True, "count up to 2 solutions (proves uniqueness); False: stop at the first"),
    Param("deduction", "subsets", "singles (naked, hidden), locked (+ pointing, claiming) or "
          "subsets (+ tdoku's triads: segment naked/hidden subsets)", choices=modes.LEVELS),
    Param("branching", "weighted", "weighted: fewest candidates, then the cell touching the most "
          "near-solved peers; first: the first cell with the fewest (plain MRV)",
          choices=BRANCHINGS),
    Param("fast9", True, "9x9 puzzles on the band-word kernel (False: the per-cell kernel)"),
    Param("max_nodes", 0, "stop after this many nodes (0 = only the time budget)", min=0),
]


#: The nodes a puzzle may take inside the batch kernel; one that needs more is searched again
#: by the per-call solver under its own budget (the kernel cannot read the clock).
BATCH_NODE_CAP = 20_000


def solve_batch(instances: Sequence[Instance], budget: Budget, seed: int, unique: bool = True,
                deduction: str = "subsets", branching: str = "weighted", fast9: bool = True,
                max_nodes: int = 0) -> Outcomes:
    """The batch entry (``block`` ladders): the 9x9 puzzles in one call of the throughput
    kernel (``sudoku_batch.batch9_timed``), the others one ``solve`` call each; the outcomes
    as columns, the kernel's straight from its arrays.

    A puzzle's ``t_wall`` is its share of the kernel call by its cycle-counter ticks, plus an
    equal share of the Python around the call (arrays in, outcomes out). A puzzle the kernel
    stopped at ``BATCH_NODE_CAP`` nodes (or ``max_nodes``) is searched again by ``solve``
    with what is left of its own budget (``budget.wall_s`` less its kernel time), unless
    ``max_nodes`` stopped it; its time is both parts. Claims and counters are those of
    ``solve`` on the same puzzle."""
    t0 = time.perf_counter()
    n = len(instances)
    mode = modes.LEVELS.index(deduction) | (modes.FIRST_MRV if branching == "first" else 0)
    box = getattr(instances, "box", None)  # one box side for all (PuzzleLines: none made)
    boxes = [box] * n if box is not None else [inst.box for inst in instances]
    fast = ([] if not fast9 else list(range(n)) if boxes.count(3) == n
            else [i for i, box in enumerate(boxes) if box == 3])
    params = dict(unique=unique, deduction=deduction, branching=branching, fast9=fast9,
                  max_nodes=max_nodes)
    claimed: list[str] = ["unknown"] * n
    answers: list[str | None] = [None] * n
    walls = [0.0] * n
    counters: dict[str, list[float | None]] = {name: [None] * n for name in BATCH_COUNTERS}
    again = list(range(n)) if not fast else [i for i, box in enumerate(boxes) if box != 3]
    if fast:
        again += _kernel_columns(instances if len(fast) == n else [instances[i] for i in fast],
                                 fast, unique, mode, max_nodes, claimed, answers, walls,
                                 counters)
    for i in sorted(again):
        left = max(0.0, budget.wall_s - walls[i])
        s0 = time.perf_counter()
        outcome = solve(instances[i], Budget(left, budget.mem_mb, budget.cores,
                                             time.monotonic() + left), seed, **params)
        walls[i] += time.perf_counter() - s0
        claimed[i] = outcome.status
        answers[i] = None if outcome.solution is None else _answer_text(outcome.solution)
        for name in counters:
            counters[name][i] = outcome.counters.get(name)
    shared = max(0.0, (time.perf_counter() - t0 - sum(walls)) / max(n, 1))
    return Outcomes(claimed, answers, [w + shared for w in walls],
                    {k: v for k, v in counters.items() if v.count(None) != n})


#: The claim of each kind ``_kernel_columns`` tells apart: 0 unknown, 1 solved, 2 infeasible.
_CLAIM_OF = ("unknown", "solved", "infeasible")
#: The counters a batch reports (those ``solve`` gives).
BATCH_COUNTERS = ("nodes", "guesses", "fast9", "solutions", "solutions_found")


def _kernel_columns(puzzles: list[Instance], where: list[int], unique: bool, mode: int,
                    max_nodes: int, claimed: list[str], answers: list[str | None],
                    walls: list[float], counters: dict[str, list[float | None]]) -> list[int]:
    """The 9x9 ``puzzles`` (at ``where`` in the batch) in one kernel call, their claims,
    answers, times and counters written into the columns as ``solve`` would give them; the
    places of those the kernel stopped at its node cap (to be searched again)."""
    n = len(puzzles)
    grids = grid_rows(puzzles)
    out = np.zeros((n, 81), dtype=np.int64)
    counts, guesses, nodes, finished, ticks = (np.zeros(n, dtype=np.int64) for _ in range(5))
    cap = min(BATCH_NODE_CAP, max_nodes) if max_nodes else BATCH_NODE_CAP
    k0 = time.perf_counter()
    sudoku_batch.batch9_timed(grids, 2 if unique else 1, mode, cap, out, counts, guesses, nodes,
                              finished, ticks)
    per_tick = (time.perf_counter() - k0) / max(int(ticks.sum()), 1)
    done = finished.astype(bool)
    has = counts > 0
    solved = has & (done | (not unique))
    every = bool(solved.all())  # the usual chunk: one claim, an answer each
    texts = answer_texts(3, out if every else out[has])
    capped = (~done) & ~((max_nodes > 0) & (nodes >= max_nodes))
    walls_of = (ticks * per_tick).tolist()
    if every:
        claims_of, answer_of = ["solved"] * n, texts
    else:
        kinds = np.where(done & ~has, 2, np.where(solved, 1, 0)).tolist()
        claims_of = [_CLAIM_OF[kind] for kind in kinds]
        answer_of = [None] * n
        for j, text in zip(np.flatnonzero(has).tolist(), texts, strict=True):
            answer_of[j] = text
    counted = {"nodes": nodes.tolist(), "guesses": guesses.tolist(), "fast9": [1] * n}
    if unique:  # a finished search's count is exact; a stopped one's is what it found
        found = counts.tolist()
        if done.all():
            counted["solutions"], counted["solutions_found"] = found, [None] * n
        else:
            ended = done.tolist()
            counted["solutions"] = [c if e else None for c, e in zip(found, ended, strict=True)]
            counted["solutions_found"] = [c if c and not e else None
                                          for c, e in zip(found, ended, strict=True)]
    if where == list(range(len(answers))):  # the whole batch: each column at once
        claimed[:], walls[:], answers[:] = claims_of, walls_of, answer_of
        for name, values in counted.items():
            counters[name][:] = values
    else:
        for j, i in enumerate(where):
            claimed[i], walls[i], answers[i] = claims_of[j], walls_of[j], answer_of[j]
            for name, values in counted.items():
                counters[name][i] = values[j]
    return [where[j] for j in np.flatnonzero(capped).tolist()]


def _answer_text(solution: Solution) -> str:
    """The JSON text of one answer (as ``answer_texts`` writes many)."""
    return answer_texts(solution.box, np.array([solution.grid]))[0]


@solver("native", family="sudoku", paradigm="native", backend=f"numba-{numba.__version__}",
        params=PARAMS, prepare=prepare, batch=solve_batch)
def solve(instance: Instance, budget: Budget, seed: int, unique: bool = True,
          deduction: str = "subsets", branching: str = "weighted", fast9: bool = True,
          max_nodes: int = 0) -> Outcome:
    """Bitsets; singles, locked candidates, triads; binary weighted-MRV search counting to 2."""
    t0 = time.perf_counter()
    mode = modes.LEVELS.index(deduction) | (modes.FIRST_MRV if branching == "first" else 0)
    search = Search.start(instance, 2 if unique else 1, mode, fast9)
    t_encode = time.perf_counter() - t0
    status = drive(search.root(), budget, max_nodes)
    t_solve = time.perf_counter() - t0 - t_encode
    counters: dict[str, float] = {"nodes": search.nodes, "guesses": search.guesses,
                                  "fast9": int(search.fast9)}
    done = status == modes.DONE
    found = search.solutions
    board = search.first() if found else None
    if done and found == 0:
        claim = "infeasible"
    elif found and (done or not unique):
        claim = "solved"
    else:
        claim = "unknown"
    if unique and done:
        counters["solutions"] = found
    elif unique and found:
        counters["solutions_found"] = found
    return Outcome(claim, solution=board, counters=counters, t_encode=t_encode, t_solve=t_solve)
