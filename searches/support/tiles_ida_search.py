"""IDA* for sliding tiles in Python: the search state around the kernel, its chunked driver,
and the shared body of the IDA* solvers.

``IdaSearch.start(instance, heuristic)`` sets up the stack and the start state's heuristic;
``run(nodes)`` runs the kernel (``searches.support.tiles_ida_kernel``; for the PDB kind the
specialised ``tiles_pdb_ida_kernel`` when it applies, unless ``start(..., specialise=False)``)
for at most ``nodes`` more generated nodes, growing the stack when a threshold needs more rows;
``drive`` runs it in chunks under a budget; ``solve_ida`` is what the solvers call:
``infeasible`` by the permutation parity, else ``optimal`` with the moves, or ``unknown`` with
the counters.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from bench.api import Budget, Outcome
from instances.tiles import Instance, Solution
from searches.support import tiles_pdb_ida_kernel
from searches.support.chunked import control, run_in_chunks
from searches.support.tiles_board import DIRS, Board, board_of
from searches.support.tiles_heuristics import (
    LINEAR_CONFLICT,
    MANHATTAN,
    PDB,
    Heuristic,
    heuristic_tables,
    root_h,
)
from searches.support.tiles_ida_kernel import (
    C_DEPTH,
    C_EXPANDED,
    C_ITERATIONS,
    C_NEXT,
    C_NODES,
    C_THRESHOLD,
    CTL_SLOTS,
    EXHAUSTED,
    GROW,
    KERNELS,
    NO_BOUND,
    PAUSED,
    SOLVED,
)

MARGIN_S = 0.02  # kept off the budget for building the answer
FIRST_CHUNK = 200_000
CHUNK_S = 0.05
START_DEPTH = 256  # stack rows allocated first; grown when a threshold needs more


@dataclass
class IdaSearch:
    """One IDA* search in progress: the board, the stack, the control vector."""

    instance: Instance
    tables: Board
    heuristic: Heuristic
    board: np.ndarray
    goal: np.ndarray
    blank_at: np.ndarray
    ptr: np.ndarray
    end: np.ndarray
    came: np.ndarray
    hval: np.ndarray
    hs: np.ndarray
    ctl: np.ndarray
    pos: np.ndarray  # the PDB kinds' views of the state (``pdb_place``)
    status: int = PAUSED
    start_h: int = 0  # h of the start state (pathmax may raise ``hval[0]`` later)
    specialised: tuple | None = None  # the PDB kind's own kernel and its tables, if it applies

    @classmethod
    def start(cls, instance: Instance, heuristic: Heuristic | int = MANHATTAN,
              depth: int = START_DEPTH, specialise: bool = True) -> IdaSearch:
        tables = board_of(instance)
        if isinstance(heuristic, int):
            heuristic = heuristic_tables(tables, heuristic)
        board = tables.state(instance.tiles)
        goal = tables.state(instance.goal_tiles)
        blank = instance.tiles.index(0)
        stack = [np.zeros(depth, np.int64) for _ in range(5)]
        search = cls(instance, tables, heuristic, board, goal, *stack,
                     np.zeros((depth, heuristic.width), np.int64),
                     np.zeros(CTL_SLOTS, np.int64), np.zeros(3 * board.size, np.int64))
        search.blank_at[0] = blank
        search.came[0] = 4
        search.ptr[0] = tables.succ_start[blank * 5 + 4]
        search.end[0] = tables.succ_end[blank * 5 + 4]
        h = int(root_h(heuristic.kind, board, blank, heuristic.t8, heuristic.tu8,
                       heuristic.t64, search.hs, heuristic.arrays, search.pos))
        search.hval[0] = search.start_h = h
        if specialise and heuristic.kind == PDB:
            search.specialised = tiles_pdb_ida_kernel.specialised(heuristic.t64, heuristic.pdb)
        search.ctl[C_THRESHOLD] = h
        search.ctl[C_NEXT] = NO_BOUND
        search.ctl[C_ITERATIONS] = 1
        search.ctl[C_EXPANDED] = 1
        if instance.tiles == instance.goal_tiles:
            search.status = SOLVED
        elif h >= depth - 1:
            search.grow(2 * h + 2)
        return search

    def grow(self, depth: int) -> None:
        """More stack rows (the search state is kept)."""
        old = self.blank_at.size
        for name in ("blank_at", "ptr", "end", "came", "hval"):
            arr = getattr(self, name)
            new = np.zeros(depth, arr.dtype)
            new[:old] = arr
            setattr(self, name, new)
        hs = np.zeros((depth, self.hs.shape[1]), np.int64)
        hs[:old] = self.hs
        self.hs = hs

    def run(self, nodes: int) -> int:
        """At most ``nodes`` more generated nodes; returns PAUSED, SOLVED or EXHAUSTED."""
        if self.status in (SOLVED, EXHAUSTED):
            return self.status
        h, t = self.heuristic, self.tables
        kernel = KERNELS[h.kind]
        P = h.arrays
        cap = self.nodes + nodes
        while True:
            if self.specialised is not None:
                pdb_kernel, T = self.specialised
                status = int(pdb_kernel(self.board, self.goal, self.blank_at, self.ptr, self.end,
                                        self.came, self.hval, self.hs, self.ctl, cap,
                                        t.succ_start, t.succ_end, t.succ_dir, t.succ_cell, h.t64,
                                        T))
            else:
                status = int(kernel(self.board, self.goal, self.blank_at, self.ptr, self.end,
                                    self.came, self.hval, self.hs, self.ctl, cap, t.succ_start,
                                    t.succ_end, t.succ_dir, t.succ_cell, h.t8, h.tu8, h.t64, P,
                                    self.pos))
            if status != GROW:
                break
            self.grow(2 * self.blank_at.size)
        self.status = status
        return status

    nodes = control(C_NODES)
    expanded = control(C_EXPANDED)
    iterations = control(C_ITERATIONS)
    threshold = control(C_THRESHOLD)

    def moves(self) -> str:
        """The blank's moves from the start to the current node (the goal once SOLVED)."""
        depth = int(self.ctl[C_DEPTH])
        return "".join(DIRS[int(d)] for d in self.came[1:depth + 1])

    def counters(self) -> dict[str, float]:
        return {"nodes": self.nodes, "expanded": self.expanded, "iterations": self.iterations,
                "h_start": self.start_h, "threshold": self.threshold}


def drive(search: IdaSearch, budget: Budget, max_nodes: int = 0) -> int:
    """Run chunks until the search ends, ``max_nodes`` (0 = no limit) or the budget ends."""
    return run_in_chunks(search, budget, search.status, PAUSED, first_chunk=FIRST_CHUNK,
                         min_chunk=10_000, max_nodes=max_nodes, chunk_s=CHUNK_S, margin_s=MARGIN_S)


def solve_ida(instance: Instance, budget: Budget, heuristic: Heuristic | int,
              max_nodes: int = 0) -> Outcome:
    """The shared body of the IDA* solvers: infeasible by parity, else search and claim."""
    if not instance.solvable:  # the permutation parity is a proof: no search needed
        return Outcome("infeasible", counters={"nodes": 0})
    t0 = time.perf_counter()
    search = IdaSearch.start(instance, heuristic)
    t_encode = time.perf_counter() - t0
    status = drive(search, budget, max_nodes)
    t_solve = time.perf_counter() - t0 - t_encode
    counters = search.counters()
    if status == SOLVED:
        moves = search.moves()
        return Outcome("optimal", solution=Solution(moves), objective=len(moves),
                       counters=counters, t_encode=t_encode, t_solve=t_solve)
    return Outcome("unknown", counters=counters, t_encode=t_encode, t_solve=t_solve)


def tiny_instances() -> list[Instance]:
    """Boards that exercise every kernel in a few nodes (for ``prepare``)."""
    return [Instance(3, 3, (1, 2, 3, 4, 5, 6, 0, 7, 8), "blank-last"),
            Instance(4, 4, (4, 1, 2, 3, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))]


def prepare(kinds: tuple[int, ...] = (MANHATTAN, LINEAR_CONFLICT)) -> None:
    """Compile (or load from numba's cache) the kernels of ``kinds`` once per worker (a solver
    compiles its own only)."""
    for kind in kinds:
        for instance in tiny_instances():
            IdaSearch.start(instance, kind).run(1000)
