"""The attractors of a reachability game on flat arrays, in linear time.

A game graph is flat arrays: ``owner[p]`` (1 or 2, who moves at ``p``), the moves in CSR
(``succ[offsets[p]:offsets[p + 1]]``) and ``target[p]`` (1 / 2: that player has won at ``p``;
play stops there). The attractor of player ``P`` is the set of positions from which ``P`` forces
the play into its targets, layer by layer::

    A_0 = targets of P,
    A_{k+1} = A_k + {p of P: SOME move p -> q with q in A_k} + {p of the other: ALL moves in A_k}

It is computed backwards in time O(n + m):

- predecessor lists in CSR, built from the successor CSR by a counting sort (two passes over
  the moves, no sorting, no per-position lists): ``build_predecessors``;
- a queue seeded with ``P``'s targets, and a counter per position: how many of its moves must
  still be attracted before it joins. The counter starts at 1 on ``P``'s positions (ONE good move
  suffices: the exists of the formula) and at the out-degree on the other player's (ALL moves:
  the for-all). Popping ``q`` decrements the counter of every predecessor; the one that reaches 0
  joins. A position without moves is nobody's predecessor, so it never joins unless it is a
  target; positions already labelled (targets of either player, the other player's
  attractor) start at 0, so decrements take them below 0, never to 0: the loop over the
  predecessors reads and writes one int32 per move and tests nothing else (``attract``);
- the queue is first-in first-out, so positions are popped in the order of their layer and a
  joining position's layer is one more than the popped successor's: for a position of ``P`` that
  is the first attracted successor (the least layer: its strategy move, recorded as it joins),
  for the other player's the last one (the greatest layer). The layer is then exactly the ``k`` at
  which the position enters ``A_k``: the number of moves within which ``P`` forces its target.

The whole game is two attractors, player 1's then player 2's, sharing the arrays (``GraphSolve``,
resumable a chunk of pops at a time): ``label`` 1 / 2 where that player forces a win, 0 (a
draw) where neither does -- the play can be kept out of both players' targets forever, or
driven to a dead end. The winner's memoryless strategy goes down the layers: ``move[p]`` is the
successor that attracted ``p`` (layer ``layer[p] - 1``), kept only where the winner is ``p``'s
owner (-1 elsewhere, the Labelling's convention). The loops prefetch the lists the queue says
come next (each pop's predecessor list is otherwise a cache miss).

Memory: on top of the graph, 8 n + 4 m bytes of predecessors and 17 n of label, layer, move,
counters and queue: 25 n + 4 m for n positions and m moves.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from searches.support import intrinsics
from searches.support.intrinsics import prefetch
from searches.support.numba_cache import forget_stale_cache, own_dispatchers

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *intrinsics.JIT_SOURCES)

PAUSED, DONE = 0, 1
# How far ahead the loops prefetch (in queue entries / moves): measured on 1 M positions x 10
# moves, the attractor runs 2.7 times faster with them (its reads hop across the whole graph).
AHEAD_NEAR, AHEAD_FAR = 16, 32
# the attractor's control vector: queue head, queue tail, positions popped, moves scanned
Q_HEAD, Q_TAIL, C_POPS, C_SCANNED = 0, 1, 2, 3
CTL_SLOTS = 4


@njit(cache=True)
def build_predecessors(offsets: np.ndarray, succ: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The predecessor lists in CSR (``pred[pred_off[q]:pred_off[q + 1]]``), by a counting sort.

    The in-degree of ``q`` is counted into slot ``q + 2``; after the prefix sum slot ``q + 1``
    holds where ``q``'s list starts and serves as its fill cursor, so that once every move is
    placed it holds where the list ends, i.e. where ``q + 1``'s starts: one array, no copy.
    Each list comes out in increasing order of predecessor. The fill's reads and writes land
    anywhere in the arrays: the cursor and the slot of a move ``AHEAD_FAR`` / ``AHEAD_NEAR``
    moves on are prefetched (the slot read may be stale by then; it only hints a cache line).
    """
    n = offsets.shape[0] - 1
    m = succ.shape[0]
    off = np.zeros(n + 2, dtype=np.int64)
    for e in range(m):
        off[succ[e] + 2] += 1
    for q in range(2, n + 2):
        off[q] += off[q - 1]
    pred = np.empty(m, dtype=np.int32)
    for p in range(n):
        for e in range(offsets[p], offsets[p + 1]):
            if e + AHEAD_FAR < m:
                prefetch(off, succ[e + AHEAD_FAR] + 1)
                prefetch(pred, off[succ[e + AHEAD_NEAR] + 1])
            slot = off[succ[e] + 1]
            pred[slot] = p
            off[succ[e] + 1] = slot + 1
    return off[: n + 1], pred


@njit(cache=True)
def mark_targets(target: np.ndarray, label: np.ndarray, layer: np.ndarray,
                 move: np.ndarray) -> int:
    """Every target labelled with its winner at layer 0; every other position a draw so far
    (label 0, layer -1, move -1). Returns the number of targets."""
    count = 0
    for p in range(target.shape[0]):
        t = target[p]
        move[p] = -1
        if t != 0:
            label[p] = t
            layer[p] = 0
            count += 1
        else:
            label[p] = 0
            layer[p] = -1
    return count


@njit(cache=True)
def seed_attractor(player: int, owner: np.ndarray, offsets: np.ndarray, label: np.ndarray,
                   remaining: np.ndarray, queue: np.ndarray, ctl: np.ndarray) -> None:
    """Start ``player``'s attractor: its targets queued, each position's counter set.

    The counter is the number of attracted successors still needed: 1 on ``player``'s
    positions, the out-degree on the other's (0 on a dead end: it never joins), 0 on positions
    already labelled (they never join again: decrements take them below 0, never to 0).
    """
    tail = 0
    for p in range(owner.shape[0]):
        if label[p] != 0:
            remaining[p] = 0
            if label[p] == player:  # a target: only targets are labelled before the attractor
                queue[tail] = p
                tail += 1
        elif owner[p] == player:
            remaining[p] = 1
        else:
            remaining[p] = offsets[p + 1] - offsets[p]
    ctl[Q_HEAD] = 0
    ctl[Q_TAIL] = tail


@njit(cache=True)
def attract(player: int, owner: np.ndarray, pred_off: np.ndarray, pred: np.ndarray,
            remaining: np.ndarray, label: np.ndarray, layer: np.ndarray, move: np.ndarray,
            queue: np.ndarray, ctl: np.ndarray, max_pops: int) -> int:
    """Run ``player``'s attractor for ``max_pops`` positions at most; PAUSED or DONE.

    The queue lives in ``queue[ctl[Q_HEAD]:ctl[Q_TAIL]]``; a position is queued once, when it
    joins, so ``queue`` of n slots never overflows and ends holding the attractor in the order
    of its layers. The positions queued ``AHEAD_FAR`` and ``AHEAD_NEAR`` pops on have their
    list bounds and then their list and layer prefetched: the queue says which lists come next,
    and without the hint each pop waits for a cache miss.
    """
    head = ctl[Q_HEAD]
    tail = ctl[Q_TAIL]
    stop = head + max_pops
    scanned = 0
    while head < tail and head < stop:
        if head + AHEAD_FAR < tail:
            prefetch(pred_off, queue[head + AHEAD_FAR])
        if head + AHEAD_NEAR < tail:
            ahead = queue[head + AHEAD_NEAR]
            prefetch(pred, pred_off[ahead])
            prefetch(layer, ahead)
        q = queue[head]
        head += 1
        joined = layer[q] + 1
        start = pred_off[q]
        end = pred_off[q + 1]
        scanned += end - start
        for i in range(start, end):
            p = pred[i]
            r = remaining[p] - 1
            remaining[p] = r
            if r == 0:
                label[p] = player
                layer[p] = joined
                move[p] = q if owner[p] == player else -1
                queue[tail] = p
                tail += 1
    ctl[C_POPS] += head - ctl[Q_HEAD]
    ctl[C_SCANNED] += scanned
    ctl[Q_HEAD] = head
    ctl[Q_TAIL] = tail
    return DONE if head == tail else PAUSED


def solve_arrays(owner: np.ndarray, offsets: np.ndarray, succ: np.ndarray,
                 target: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The whole game at once, without a budget: ``(label, move, layer)`` (tests, benchmarks)."""
    solve = GraphSolve.start(owner, offsets, succ, target)
    while solve.run(1 << 62) == PAUSED:
        pass
    return solve.label, solve.move, solve.layer


@dataclass
class GraphSolve:
    """The two attractors of one game graph in progress, resumable a chunk at a time.

    ``run(n)`` pops at most ``n`` positions, moving from player 1's attractor to player 2's;
    ``nodes`` counts the positions popped so far (the chunk driver's unit).
    """

    owner: np.ndarray
    offsets: np.ndarray
    pred_off: np.ndarray
    pred: np.ndarray
    label: np.ndarray
    layer: np.ndarray
    move: np.ndarray
    remaining: np.ndarray
    queue: np.ndarray
    ctl: np.ndarray
    player: int = 1
    targets: int = 0
    t_pred: float = 0.0

    @classmethod
    def start(cls, owner: np.ndarray, offsets: np.ndarray, succ: np.ndarray,
              target: np.ndarray) -> GraphSolve:
        """Build the predecessors, label the targets and seed player 1's attractor."""
        n = owner.shape[0]
        if succ.shape[0] >= 2**31:
            raise ValueError(f"{succ.shape[0]} moves: the counters are int32 (at most 2^31 - 1)")
        t = time.perf_counter()
        pred_off, pred = build_predecessors(offsets, succ)
        t_pred = time.perf_counter() - t
        label = np.empty(n, dtype=np.int8)
        layer = np.empty(n, dtype=np.int32)
        move = np.empty(n, dtype=np.int32)
        targets = mark_targets(target, label, layer, move)
        remaining = np.empty(n, dtype=np.int32)
        queue = np.empty(n, dtype=np.int32)
        ctl = np.zeros(CTL_SLOTS, dtype=np.int64)
        seed_attractor(1, owner, offsets, label, remaining, queue, ctl)
        return cls(owner, offsets, pred_off, pred, label, layer, move, remaining, queue, ctl,
                   1, targets, t_pred)

    @property
    def nodes(self) -> int:
        return int(self.ctl[C_POPS])

    @property
    def scanned(self) -> int:
        return int(self.ctl[C_SCANNED])

    def run(self, nodes: int) -> int:
        """Pop ``nodes`` positions more at most; PAUSED, or DONE once both attractors are."""
        while nodes > 0:
            before = self.nodes
            status = attract(self.player, self.owner, self.pred_off, self.pred,
                             self.remaining, self.label, self.layer, self.move, self.queue,
                             self.ctl, nodes)
            nodes -= self.nodes - before
            if status == PAUSED:
                return PAUSED
            if self.player == 2:
                return DONE
            self.player = 2
            seed_attractor(2, self.owner, self.offsets, self.label, self.remaining, self.queue,
                           self.ctl)
        return PAUSED


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
