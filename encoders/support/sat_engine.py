"""Running a pysat engine under a harness budget: which engines, how each is stopped, the clauses.

The SAT encoders of every family (``edgematch_sat``, ``sudoku_sat``) build a ``Cnf`` and hand
it here: ``make_engine`` loads it into a pysat solver, ``run_engine`` solves within the budget,
``engine_stats`` and ``work_counters`` read the work back, ``write_dimacs`` writes it out.

Time limits: pysat's solvers have no wall-clock limit of their own. The MiniSat family
(glucose*, gluecard*, maple*, mergesat3, minicard, minisat*) is stopped by a ``threading.Timer``
calling ``interrupt()`` during ``solve_limited(expect_interrupt=True)`` and then answers
``unknown``. CaDiCaL (every version), Lingeling and Kissat cannot be interrupted through pysat:
they run unlimited and the runner's watchdog kills the worker at the budget plus its grace
(status ``timeout``, not ``unknown``). Two ways around that were tried and rejected, because
they change the search they time: CaDiCaL resumed in conflict-budget slices (every call restarts
its schedules), and a do-nothing IPASIR-UP propagator that adds the empty clause at the deadline
(it multiplied the conflicts of one plain call).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np
from pysat.solvers import Solver

# How each engine is held to the budget (see the module docstring).
INTERRUPTIBLE = ("glucose3", "glucose4", "glucose42", "gluecard3", "gluecard4", "maplechrono",
                 "maplecm", "maplesat", "mergesat3", "minicard", "minisat22", "minisatep")
UNLIMITED = ("cadical103", "cadical153", "cadical195", "cadical300", "lingeling", "kissat404")
ENGINES = UNLIMITED + INTERRUPTIBLE
# Engines whose ``configure`` takes CaDiCaL's ``seed`` option; the others are deterministic.
SEEDED = ("cadical153", "cadical195", "cadical300")
CHUNK = 100_000  # clauses handed to pysat per call (as Python lists: keep them short-lived)


@dataclass
class Cnf:
    """Clauses in blocks, counted as they come. A block whose clauses all have one length (the
    bulk: conflicts, pairwise at-most-one, seam links, every Sudoku block) is an int32 array of
    shape (k, length), some 15 times smaller than Python lists: a 10x10 edge-matching conflict
    model (5 M clauses) takes 40 MB until it is loaded, a 25x25 Sudoku 750 k clauses."""

    nvars: int = 0
    nclauses: int = 0
    blocks: list[np.ndarray | list[list[int]]] = field(default_factory=list)

    def new_vars(self, count: int) -> int:
        """Reserve ``count`` fresh variables; returns the first."""
        first = self.nvars + 1
        self.nvars += count
        return first

    def add(self, clauses: list[list[int]]) -> None:
        """Clauses as lists; an all-binary batch is stored as an array."""
        if not clauses:
            return
        if all(len(c) == 2 for c in clauses):
            self.add_array(np.asarray(clauses, dtype=np.int32))
        else:
            self.blocks.append(clauses)
            self.nclauses += len(clauses)

    def add_array(self, block: np.ndarray) -> None:
        """Clauses of one length as the rows of a (k, length) integer array."""
        if len(block):
            self.blocks.append(block.astype(np.int32, copy=False))
            self.nclauses += len(block)

    def chunks(self) -> Iterator[list[list[int]]]:
        """The clauses in order as lists of lists (what pysat and DIMACS want), an array block
        at most ``CHUNK`` clauses at a time."""
        for block in self.blocks:
            if isinstance(block, np.ndarray):
                for start in range(0, len(block), CHUNK):
                    yield block[start:start + CHUNK].tolist()
            else:
                yield block


def write_dimacs(out: TextIO, comments: Iterable[str], cnf: Cnf,
                 units: list[int] | tuple[int, ...] = ()) -> None:
    """DIMACS CNF to ``out``: ``c`` comment lines, the problem line, the clauses, then a unit
    clause per literal of ``units`` (clues, which the solver takes as assumptions instead)."""
    out.write("\n".join([*(f"c {line}" for line in comments),
                         f"p cnf {cnf.nvars} {cnf.nclauses + len(units)}"]) + "\n")
    for chunk in cnf.chunks():
        out.writelines(" ".join([*map(str, clause), "0"]) + "\n" for clause in chunk)
    out.writelines(f"{lit} 0\n" for lit in units)


def model_of(true: set[int] | frozenset[int], nvars: int) -> list[int]:
    """A model in pysat's form (``v`` or ``-v`` for each variable 1..``nvars``) of the set of
    true variables another program reported; a variable it left out is false."""
    return [v if v in true else -v for v in range(1, nvars + 1)]


def make_engine(engine: str, cnf: Cnf, seed: int) -> Any:
    """A pysat solver holding the clauses; CaDiCaL gets the run's seed. Only the engines of
    ``ENGINES`` are taken: for them the module knows how the budget holds."""
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r}: expected one of {ENGINES}")
    sat = Solver(name=engine)
    if engine in SEEDED:
        sat.configure({"seed": int(seed) % (2**31)})
    for chunk in cnf.chunks():
        sat.append_formula(chunk)
    return sat


def run_engine(sat: Any, engine: str, seconds: float,
               assumptions: list[int] | tuple[int, ...] = ()) -> bool | None:
    """Solve under ``assumptions`` within ``seconds`` where the engine can be stopped; None when
    it was, or when no time is left. The MiniSat family is interrupted by a timer (the call
    releases the GIL), and the interrupt flag is cleared after, so a kept solver can go on."""
    if seconds <= 0:
        return None
    if engine not in INTERRUPTIBLE:
        # CaDiCaL, Lingeling, Kissat: the runner's kill is the limit
        return sat.solve(assumptions=list(assumptions))
    timer = threading.Timer(seconds, sat.interrupt)
    timer.daemon = True
    timer.start()
    try:
        return sat.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
    finally:
        timer.cancel()
        sat.clear_interrupt()


def engine_stats(sat: Any) -> dict[str, float]:
    """Conflicts, decisions, restarts, propagations (Kissat exposes none through pysat); they
    add up over the solver's life."""
    try:
        return {k: float(v) for k, v in sat.accum_stats().items()}
    except NotImplementedError:
        return {}


def work_counters(after: dict[str, float], before: dict[str, float] | None = None
                  ) -> dict[str, float]:
    """The engine's work since ``before`` (statistics read before a run on a kept solver), and
    ``nodes`` = its decisions, as CP-SAT's branches: the search's choices."""
    work = {k: v - (before or {}).get(k, 0.0) for k, v in after.items()}
    if "decisions" in work:
        work["nodes"] = work["decisions"]
    return work
