"""Minimax and alpha-beta over an explicit game graph from its start, memoised per position.

A ``GameGraph`` is flat arrays: ``owner[p]`` (1 or 2: who moves at ``p``), the moves in CSR
(``succ[offsets[p]:offsets[p + 1]]``) and ``target[p]`` (1 / 2: that player has won at ``p``;
a target has no moves). Values are +1 / 0 / -1 from the point of view of the position's OWNER
(negamax, with the owner tested on every move: the graph need not alternate):

- a target: +1 if it is its owner's target, -1 if the other player's;
- a dead end outside the targets: 0 (a draw: never attracted);
- otherwise the best over the moves ``p -> q`` of ``value(q)`` when ``q`` has the same owner,
  ``-value(q)`` when it has the other.

That recursion is the game's value only when the play cannot go on forever, i.e. when the graph
reachable from the start is a DAG. A cycle is detected during the search: a position entered
while it is still on the stack raises ``ValueError`` (solve it with the attractor, which gives
infinite plays their draw). Minimax meets every reachable position, so it refuses every graph
with a reachable cycle; alpha-beta refuses the ones whose cycle it meets. A value alpha-beta
returns without meeting the cycle is still right: it rests on a finite proof (the explored
part, which is acyclic), and a finite proof holds whatever the unexplored plays do.

The searches (iterative, an explicit stack of frames (position, next move, window, value)
grown by doubling; a chunk stops before entering a position and resumes exactly there,
``searches.support.chunked``):

- ``minimax`` (``prune=False``): every move of every position; with ``table`` each position's
  exact value is stored the first time it is solved (``lo == hi``), so every position is
  expanded once. Without a table the search walks the unfolded tree (tic-tac-toe's graph: the
  549,946 nodes of the game tree, root included).
- ``alphabeta`` (``prune=True``): fail-soft, the usual rule (cut when ``beta <= alpha``), the
  root searched with the window ``(-1, +1)`` -- the values' range, so a first winning move cuts at
  once. The table stores bounds ``lo[p] <= value(p) <= hi[p]`` (int8, initially -1 and +1): a
  result ``v`` searched with the window ``(a, b)`` is an upper bound if ``v <= a``, a lower
  bound if ``v >= b``, exact otherwise; on entry a bound that already decides the window
  returns at once (a table hit), else it narrows the window.
- ``ordered``: the moves of each position sorted once, before the search, by a cheap estimate
  (``ordered_successors``): first the successors that are targets of the player to move (an
  immediate win), last those that are the opponent's targets (an immediate loss), and within
  each class by increasing out-degree (the fewest replies first: the cheapest subtrees and the
  most constrained opponent), ties by the original move order.

The principal variation (``Line.moves``: the positions visited after the start down to a target
or a dead end) is read after the value is known, by a walk: at ``p`` of value ``V`` it takes
the first move ``q`` (in search order) with ``value(q) >= V`` from ``p``'s owner's view, each
test a null-window alpha-beta search from ``q`` reusing the table (minimax's table holds exact
values, so its tests are table hits). The walk's work is the counter ``pv_nodes``, not part of
``nodes``.

Counters: ``nodes`` = positions entered, the start included (every call of the recursive
formulation, table hits included), ``leaves`` = targets and dead ends evaluated, ``cutoffs`` =
positions left before their last move, ``hits`` = entries answered by the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from bench.api import Budget
from searches.support.chunked import ChunkedSearch, Chunking, control

# Slots of the int64 control vector.
C_PLY, C_ENTER, C_RET, C_NODES, C_LEAVES, C_CUTOFFS, C_HITS, C_CYCLE = range(8)
CTL_SLOTS = 8
# What a chunk returns.
PAUSED, DONE, CYCLE, GROW = 0, 1, 2, 3

START_FRAMES = 256
CHUNKING = Chunking(PAUSED)


@njit(cache=True, nogil=True)
def graph_kernel(prune, table, owner, offsets, succ, target, lo, hi, on_stack,
                 pos, ptr, a, b, a0, b0, v, ctl, cap):
    """Run the search until it ends, meets a cycle, needs more frames or has entered ``cap``
    positions; PAUSED, DONE, CYCLE (``ctl[C_CYCLE]`` = the position met again) or GROW.

    The frame of depth ``t``: the position ``pos[t]``; its window ``a[t], b[t]`` (``a`` rises
    with ``v`` on the way; before entry it is the window the position is entered with), the
    window it was searched with ``a0[t], b0[t]`` (after the table narrowed it: the classification
    of the result), its value so far ``v[t]``, its next move ``ptr[t]``. When DONE,
    ``ctl[C_RET]`` is the value of ``pos[0]`` for its owner."""
    ply = ctl[C_PLY]
    entering = ctl[C_ENTER] == 1
    ret = ctl[C_RET]
    nodes = ctl[C_NODES]
    leaves = ctl[C_LEAVES]
    cutoffs = ctl[C_CUTOFFS]
    hits = ctl[C_HITS]
    status = PAUSED
    while True:
        if entering:
            if nodes >= cap:
                break
            if ply + 1 >= pos.shape[0]:
                status = GROW
                break
            p = pos[ply]
            if on_stack[p]:
                ctl[C_CYCLE] = p
                status = CYCLE
                break
            nodes += 1
            alpha = a[ply]
            beta = b[ply]
            answered = False
            if target[p] != 0:
                ret = 1 if target[p] == owner[p] else -1
                leaves += 1
                answered = True
            elif offsets[p] == offsets[p + 1]:
                ret = 0
                leaves += 1
                answered = True
            elif table:
                low = np.int64(lo[p])
                high = np.int64(hi[p])
                if low == high:
                    ret = low
                    answered = True
                elif prune and low >= beta:
                    ret = low
                    answered = True
                elif prune and high <= alpha:
                    ret = high
                    answered = True
                elif prune:
                    alpha = max(alpha, low)
                    beta = min(beta, high)
                if answered:
                    hits += 1
            if not answered:
                a[ply] = alpha
                b[ply] = beta
                a0[ply] = alpha
                b0[ply] = beta
                v[ply] = -2
                e = offsets[p]
                ptr[ply] = e
                on_stack[p] = 1
                q = succ[e]
                pos[ply + 1] = q
                if owner[q] == owner[p]:
                    a[ply + 1] = alpha
                    b[ply + 1] = beta
                else:
                    a[ply + 1] = -beta
                    b[ply + 1] = -alpha
                ply += 1
                continue
            entering = False
            if ply == 0:
                status = DONE
                break
            ply -= 1
        # ``ret`` is the value, for its owner, of the move ``ptr[ply]`` of ``pos[ply]``
        p = pos[ply]
        q = pos[ply + 1]
        val = ret if owner[q] == owner[p] else -ret
        if val > v[ply]:
            v[ply] = val
        cut = False
        if prune:
            if v[ply] > a[ply]:
                a[ply] = v[ply]
            cut = b[ply] <= a[ply]
        e = ptr[ply] + 1
        end = offsets[p + 1]
        if cut or e == end:
            if cut and e < end:
                cutoffs += 1
            ret = v[ply]
            on_stack[p] = 0
            if table:
                if not prune:
                    lo[p] = ret
                    hi[p] = ret
                elif ret <= a0[ply]:
                    hi[p] = min(np.int64(hi[p]), ret)
                elif ret >= b0[ply]:
                    lo[p] = max(np.int64(lo[p]), ret)
                else:
                    lo[p] = ret
                    hi[p] = ret
            if ply == 0:
                status = DONE
                break
            ply -= 1
            continue
        ptr[ply] = e
        q = succ[e]
        pos[ply + 1] = q
        if owner[q] == owner[p]:
            a[ply + 1] = a[ply]
            b[ply + 1] = b[ply]
        else:
            a[ply + 1] = -b[ply]
            b[ply + 1] = -a[ply]
        ply += 1
        entering = True
    ctl[C_PLY] = ply
    ctl[C_ENTER] = 1 if entering else 0
    ctl[C_RET] = ret
    ctl[C_NODES] = nodes
    ctl[C_LEAVES] = leaves
    ctl[C_CUTOFFS] = cutoffs
    ctl[C_HITS] = hits
    return status


def ordered_successors(owner: np.ndarray, offsets: np.ndarray, succ: np.ndarray,
                       target: np.ndarray) -> np.ndarray:
    """``succ`` with each position's moves sorted by the cheap estimate of the module
    docstring: the mover's targets first, the opponent's last, then by increasing out-degree,
    then in the original order (numpy, O(m log m), once before the search)."""
    n = len(owner)
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(offsets))
    hit = target[succ].astype(np.int64)
    mover = owner[src].astype(np.int64)
    rank = np.where(hit == 0, 1, np.where(hit == mover, 0, 2))
    degree = np.diff(offsets)[succ]
    order = np.lexsort((np.arange(len(succ)), degree, rank, src))
    return np.ascontiguousarray(succ[order], dtype=np.int32)


class CycleError(ValueError):
    """The graph reachable from the start has a cycle: minimax and alpha-beta do not apply."""


@dataclass
class GraphSearch:
    """One search of a game graph in progress: the graph's arrays, the table, the stack."""

    owner: np.ndarray
    offsets: np.ndarray
    succ: np.ndarray
    target: np.ndarray
    prune: bool
    table: bool
    lo: np.ndarray
    hi: np.ndarray
    on_stack: np.ndarray
    pos: np.ndarray
    ptr: np.ndarray
    a: np.ndarray
    b: np.ndarray
    a0: np.ndarray
    b0: np.ndarray
    v: np.ndarray
    ctl: np.ndarray
    status: int = PAUSED

    @classmethod
    def start(cls, owner: np.ndarray, offsets: np.ndarray, succ: np.ndarray,
              target: np.ndarray, start: int = 0, *, prune: bool = True, ordered: bool = False,
              table: bool = True) -> GraphSearch:
        """A search from ``start`` (the arrays of a ``GameGraph``); ``ordered`` sorts the moves
        by ``ordered_successors`` first."""
        # Fresh writeable copies: a GameGraph's arrays are read-only, which numba types (and
        # compiles) apart from the writeable arrays ``prepare`` compiled the kernel for.
        owner = np.array(owner, dtype=np.int8)
        offsets = np.array(offsets, dtype=np.int64)
        succ = np.array(succ, dtype=np.int32)
        target = np.array(target, dtype=np.int8)
        if ordered:
            succ = ordered_successors(owner, offsets, succ, target)
        n = len(owner)
        frames = [np.zeros(START_FRAMES, np.int64) for _ in range(7)]
        search = cls(owner, offsets, succ, target, prune, table,
                     np.full(n, -1, np.int8), np.full(n, 1, np.int8), np.zeros(n, np.uint8),
                     *frames, np.zeros(CTL_SLOTS, np.int64))
        search.restart(start, -1, 1)
        return search

    def restart(self, position: int, alpha: int, beta: int) -> None:
        """A new search from ``position`` with the window ``(alpha, beta)``; the table and the
        counters are kept."""
        self.pos[0], self.a[0], self.b[0] = position, alpha, beta
        self.ctl[C_PLY], self.ctl[C_ENTER] = 0, 1
        self.status = PAUSED  # ``on_stack`` is all zero again once a search is DONE

    def grow(self) -> None:
        """Twice the frames (the search state is kept)."""
        for name in ("pos", "ptr", "a", "b", "a0", "b0", "v"):
            old = getattr(self, name)
            new = np.zeros(2 * len(old), old.dtype)
            new[:len(old)] = old
            setattr(self, name, new)

    def run(self, nodes: int) -> int:
        """At most ``nodes`` more positions entered; PAUSED or DONE; CycleError on a cycle."""
        if self.status == DONE:
            return DONE
        cap = self.nodes + nodes
        while True:
            status = int(graph_kernel(self.prune, self.table, self.owner, self.offsets,
                                      self.succ, self.target, self.lo, self.hi, self.on_stack,
                                      self.pos, self.ptr, self.a, self.b, self.a0, self.b0,
                                      self.v, self.ctl, cap))
            if status != GROW:
                break
            self.grow()
        if status == CYCLE:
            raise CycleError(f"the game graph has a cycle reachable from the start (position "
                             f"{int(self.ctl[C_CYCLE])} is reached again from itself): minimax "
                             "and alpha-beta need a DAG; the attractor solves cyclic games")
        self.status = status
        return status

    def finish(self) -> GraphSearch:
        """Run to the end without a budget (tests, benchmarks)."""
        return CHUNKING.finish(self)

    nodes = control(C_NODES)
    leaves = control(C_LEAVES)
    cutoffs = control(C_CUTOFFS)
    hits = control(C_HITS)

    @property
    def value(self) -> int:
        """The value of the searched position for its owner (once DONE)."""
        return int(self.ctl[C_RET])

    def counters(self) -> dict[str, float]:
        return {"nodes": self.nodes, "leaves": self.leaves, "cutoffs": self.cutoffs,
                "hits": self.hits}


def drive(search: ChunkedSearch, budget: Budget, max_nodes: int = 0) -> int:
    """Run chunks until the search ends, ``max_nodes`` (0 = no limit) or the budget ends."""
    return CHUNKING.drive(search, budget, max_nodes)


def principal_variation(search: GraphSearch, start: int, value: int,
                        budget: Budget | None = None) -> list[int] | None:
    """The positions after ``start`` down to a target or a dead end along moves that keep
    ``value`` (the start's value for its owner); None if the budget ran out.
    Each move is tested by a null-window alpha-beta search reusing the table (the module
    docstring); the search's ``prune`` is switched on for the walk and restored after."""
    owner, offsets, succ, target = search.owner, search.offsets, search.succ, search.target
    prune = search.prune
    search.prune = True
    line: list[int] = []
    seen = {start}
    p, V = start, value
    try:
        while target[p] == 0 and offsets[p] < offsets[p + 1]:
            chosen = -1
            for e in range(offsets[p], offsets[p + 1]):
                q = int(succ[e])
                same = owner[q] == owner[p]
                if V == -1:  # every move loses: the first is as good as any
                    chosen = q
                    break
                # value(q) from p's view >= V, tested with a null window in q's view
                search.restart(q, V - 1, V) if same else search.restart(q, -V, -V + 1)
                if budget is None:
                    search.finish()
                elif drive(search, budget) != DONE:
                    return None
                r = search.value
                if (r >= V) if same else (r <= -V):
                    chosen = q
                    break
            if chosen < 0:  # cannot happen when ``value`` is the true value
                raise AssertionError(f"no move of position {p} keeps the value {V}")
            if owner[chosen] != owner[p]:
                V = -V
            p = chosen
            if p in seen:
                raise CycleError(f"the game graph has a cycle reachable from the start "
                                 f"(position {p} is reached again along the principal "
                                 "variation): minimax and alpha-beta need a DAG")
            seen.add(p)
            line.append(p)
    finally:
        search.prune = prune
    return line


@dataclass
class GraphResult:
    """What a graph search found: ``status`` "optimal" (value and line known) or "unknown"."""

    status: str
    value: int | None
    line: tuple[int, ...]
    counters: dict[str, float]


def solve_graph(graph, budget: Budget | None = None, *, prune: bool = True,
                ordered: bool = False, table: bool = True, max_nodes: int = 0) -> GraphResult:
    """Minimax (``prune=False``) or alpha-beta from ``graph.start``; CycleError (a ValueError)
    on a cycle met. ``budget`` None: no time limit (tests). ``max_nodes`` bounds the value's
    search; the principal variation's walk after it is bounded by the budget only."""
    search = GraphSearch.start(graph.owner, graph.offsets, graph.succ, graph.target,
                               graph.start, prune=prune, ordered=ordered, table=table)
    if budget is None:
        status = search.finish().status
    else:
        status = drive(search, budget, max_nodes)
    counters = search.counters()
    if status != DONE:
        return GraphResult("unknown", None, (), counters)
    value = search.value
    before = search.nodes
    line = principal_variation(search, graph.start, value, budget)
    counters["pv_nodes"] = search.nodes - before
    if line is None:
        return GraphResult("unknown", value, (), counters)
    return GraphResult("optimal", value, tuple(line), counters)


def prepare() -> None:
    """Compile (or load from numba's cache) the kernel, on a three-position graph."""
    owner = np.array([1, 2, 1], np.int8)
    offsets = np.array([0, 2, 3, 3], np.int64)
    succ = np.array([1, 2, 2], np.int32)
    target = np.array([0, 0, 1], np.int8)
    for prune in (False, True):
        GraphSearch.start(owner, offsets, succ, target, prune=prune).finish()
