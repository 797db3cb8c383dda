"""``attractor``: reachability games solved whole, in linear time (the seed's chapter 27.2).

A game graph is flat arrays: ``owner[p]`` (1 or 2, who moves at ``p``), the moves in CSR
(``succ[offsets[p]:offsets[p + 1]]``) and ``target[p]`` (1 / 2: that player has won at ``p``;
play stops there). The attractor of player ``P`` is the set of positions from which ``P`` forces
the play into its targets, layer by layer (the seed's formula)::

    A_0 = targets of P,
    A_{k+1} = A_k + {p of P: SOME move p -> q with q in A_k} + {p of the other: ALL moves in A_k}

It is computed backwards, as the seed's OCaml does, in time O(n + m):

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

The whole game is two attractors, player 1's then player 2's, sharing the arrays: ``label`` 1 /
2 where that player forces a win, 0 (a draw) where neither does -- the play can be kept out of
both players' targets forever, or driven to a dead end. The winner's memoryless strategy goes
down the layers: ``move[p]`` is the successor that attracted ``p`` (layer ``layer[p] - 1``), kept
only where the winner is ``p``'s owner (-1 elsewhere, the Labelling's convention).

Instances:

- ``GameGraph``: the answer is the ``Labelling(label, move, layer)`` of every position; the
  claim ``optimal``, the objective the start's value for its owner (+1 / 0 / -1).
- ``Board`` (tic-tac-toe, Connect Four, any m,n,k board, from its start position): the reachable
  positions are first expanded into an explicit graph, in numba (``expand``: breadth first from
  the start, a hash set of position keys; a position where the last mover has won or the board
  is full is terminal, without moves; the one won by ``P``'s move is ``P``'s target); then the
  two attractors; the answer is a ``Line(value, moves)``: the value for the side to move at the
  start and a principal variation to a terminal position (the winner plays its strategy, the
  loser the reply with the largest layer -- the longest resistance --, and in a draw both play
  draw-labelled successors, which exist: a drawn position with moves has one).
- ``GameTree``: not taken (``accepts``: a suite never pairs the attractor with a tree), and
  refused with a ValueError if given one anyway: a tree has values at its leaves, not targets;
  minimax and alpha-beta solve those.

Counters: ``positions`` (= ``nodes``: every position is visited once), ``moves`` (edges),
``layers`` (the greatest layer), ``attracted`` (positions won by one player, the targets
included); on a Board, ``t_encode`` is the expansion and ``t_solve`` the predecessors plus the
attractors.

Memory. A GameGraph of n positions and m moves costs, on top of the instance, 8 n + 4 m bytes
of predecessors and 17 n of label, layer, move, counters and queue: 25 n + 4 m. A Board is
allocated for ``min(positions_bound, max_positions + 64)`` positions (``positions_bound``
ignores wins: 1.25-1.8 times the reachable count on small Connect Four boards) and 3 moves a
position, grown by doubling when short. While it is expanded a position costs its two words
16, owner and target 2, offset 8, and 2-4 hash slots of 16 bytes (the table is a power of two,
at most half full), a move 5 (successor, column or cell); the table and the words are then let
go, and the attractors add 25 bytes a position and 4 a move. Measured peak: 128 bytes a
reachable position on Connect Four 5x4, 144 on 4x5 (resident size over the interpreter's). So
``max_positions`` = 30 million (the default) means about 4 GB at worst. A Board whose reachable
positions exceed ``max_positions`` is refused with ``unknown`` (counter ``refused_positions``,
the count reached): the expansion stops as soon as the count passes the limit, so the memory
never goes past what ``max_positions`` positions need -- but the positions up to the limit are
expanded first (Connect Four 7x6: 11 s of CPU and 2.2 GB for 30 million), as the bound alone
cannot tell (7x6's is 16 times too large).

Speed (``bench/perf/games_attractor_rate.py``, one core shared with other jobs, so CPU time,
two runs): a random graph of 1.1 M positions and 10.8 M moves takes 0.155-0.175 s for the
predecessors (62-70 M moves/s) and 0.13-0.15 s for both attractors (71-84 M moves/s): 33-38 M
moves/s together. Prefetching matters: without it the attractors ran 2.7 times slower (each
pop's predecessor list is a cache miss). Connect Four 5x4 expands at 3.2-4.6 M positions/s and
is solved in 1.1-1.6 s; 4x5 in 0.3-0.4 s; 4x4 in 0.03 s.

Budget: the expansion and the attractors run in chunks (numba cannot read the clock) and stop
with ``unknown`` when the budget ends; the predecessor build is two linear passes, not chunked.
The solver is deterministic: the seed is unused, and so is ``budget.cores`` (one thread).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from math import comb

import numba
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from bench.api import Budget, Outcome, Param, solver
from instances.games import Board, GameGraph, GameTree, Labelling, Line
from searches import games_bitboard as bb
from searches.chunked import run_in_chunks
from searches.numba_cache import forget_stale_cache

# ---------------------------------------------------------------------------------------------
# predecessors and attractors on flat arrays

PAUSED, DONE = 0, 1
# How far ahead the loops prefetch (in queue entries / moves): measured on 1 M positions x 10
# moves, the attractor runs 2.7 times faster with them (its reads hop across the whole graph).
AHEAD_NEAR, AHEAD_FAR = 16, 32
# the attractor's control vector: queue head, queue tail, positions popped, moves scanned
Q_HEAD, Q_TAIL, C_POPS, C_SCANNED = 0, 1, 2, 3
CTL_SLOTS = 4


@intrinsic
def prefetch(typingctx, array, index):
    """Hint the CPU to load ``array[index]``'s cache line (LLVM ``prefetch``; never faults, so
    ``index`` may be anything within the array's bounds or near them)."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        arrty, idxty = signature.args
        ary = context.make_array(arrty)(context, builder, args[0])
        idx = context.cast(builder, args[1], idxty, types.intp)
        ptr = cgutils.get_item_pointer(context, builder, arrty, ary, [idx], wraparound=False)
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        # read, keep in all cache levels, data cache
        builder.call(fn, [builder.bitcast(ptr, byte_ptr), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(array, index), codegen


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



# ---------------------------------------------------------------------------------------------
# a Board's reachable positions as an explicit graph

# what an expansion chunk returns besides PAUSED and DONE: the arrays are too small
NEED_ROOM = 2
# what Expansion.run returns when the positions pass max_positions
REFUSED = 3
# the expansion's control vector: positions expanded (the BFS head), positions found, moves
X_HEAD, X_COUNT, X_EDGES = 0, 1, 2
X_SLOTS = 3
# never a key: a gravity or packed key with every bit set would have stones on the sentinels,
# and a base-3 key is below 3^40
EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)
FIBONACCI = np.uint64(0x9E3779B97F4A7C15)  # 2^64 / golden ratio: multiplicative hashing
MAX_MOVES = 64  # a board has at most 64 cells (games_bitboard's words)


@njit(cache=True, inline="always")
def home_slot(key, shift):
    """The key's first slot in a table of ``2^(64 - shift)`` (Fibonacci hashing: the top bits
    of ``key * 2^64 / phi``, which spread Tromp's and the packed keys' regular bits)."""
    return np.int64((key * FIBONACCI) >> np.uint64(shift))


@njit(cache=True)
def expand(geo: np.ndarray, cur: np.ndarray, mask: np.ndarray, owner: np.ndarray,
           target: np.ndarray, offsets: np.ndarray, succ: np.ndarray, edge_move: np.ndarray,
           table: np.ndarray, shift: int, ctl: np.ndarray, max_expand: int) -> int:
    """Expand positions breadth first; PAUSED after ``max_expand``, NEED_ROOM, or DONE.

    The positions found so far are ``cur[:count], mask[:count]`` (position 0 the start), in
    the order they were found, which is the queue: ``ctl[X_HEAD]`` is the next to expand.
    Expanding position ``i`` sets its owner (the player to move: player 1 on an even number
    of stones), its target (the player who just moved, if that move made ``k`` in a row; then
    no moves, like a full board) and its moves ``succ[offsets[i]:offsets[i + 1]]`` with their
    Board move (column or cell) in ``edge_move``, in the natural move order. A child is looked
    up in ``table`` (interleaved ``key, id`` pairs, ``EMPTY`` keys free, linear probing) and
    added when new. A position is expanded only when its children all fit (NEED_ROOM
    otherwise: the caller grows the arrays and calls again), so a chunk never stops inside a
    position.
    """
    head = ctl[X_HEAD]
    count = ctl[X_COUNT]
    e = ctl[X_EDGES]
    capacity = cur.shape[0]
    edge_capacity = succ.shape[0]
    slots_mask = (table.shape[0] >> 1) - 1
    bits = np.empty(MAX_MOVES, dtype=np.int64)
    keys = np.empty(MAX_MOVES, dtype=np.uint64)
    home = np.empty(MAX_MOVES, dtype=np.int64)
    stop = head + max_expand
    status = DONE
    while head < count:
        if head >= stop:
            status = PAUSED
            break
        c = cur[head]
        m = mask[head]
        mover = 1 + (bb.popcount(m) & 1)  # the player to move
        owner[head] = mover
        offsets[head] = e
        if bb.mover_won(c, m, geo):
            target[head] = 3 - mover
        else:
            target[head] = 0
            if not bb.is_full(m, geo):
                moves = bb.legal_bits(m, geo, bits)
                if count + moves > capacity or e + moves > edge_capacity:
                    status = NEED_ROOM
                    break
                # the children's keys and home slots first, their slots prefetched, then the
                # probes: the table misses of one position overlap
                for j in range(moves):
                    c2, m2 = bb.play(c, m, bits[j])
                    key = bb.position_key(c2, m2, geo)
                    keys[j] = key
                    home[j] = home_slot(key, shift)
                    prefetch(table, 2 * home[j])
                for j in range(moves):
                    key = keys[j]
                    slot = home[j]
                    while True:
                        found = table[2 * slot]
                        if found == key:
                            child = np.int64(table[2 * slot + 1])
                            break
                        if found == EMPTY:
                            child = count
                            table[2 * slot] = key
                            table[2 * slot + 1] = np.uint64(child)
                            c2, m2 = bb.play(c, m, bits[j])
                            cur[child] = c2
                            mask[child] = m2
                            count += 1
                            break
                        slot = (slot + 1) & slots_mask
                    succ[e] = child
                    edge_move[e] = bb.move_of_bit(bits[j], geo)
                    e += 1
        head += 1
        offsets[head] = e
    ctl[X_HEAD] = head
    ctl[X_COUNT] = count
    ctl[X_EDGES] = e
    return status


@njit(cache=True)
def rehash(old: np.ndarray, table: np.ndarray, shift: int) -> None:
    """Move every ``key, id`` pair of ``old`` into the larger, empty ``table``."""
    slots_mask = (table.shape[0] >> 1) - 1
    for s in range(old.shape[0] >> 1):
        key = old[2 * s]
        if key != EMPTY:
            slot = home_slot(key, shift)
            while table[2 * slot] != EMPTY:
                slot = (slot + 1) & slots_mask
            table[2 * slot] = key
            table[2 * slot + 1] = old[2 * s + 1]


# The expansion compiles in games_bitboard's primitives: recompile it when that file changes.
forget_stale_cache([expand], bb.__file__)


def positions_bound(board: Board) -> int:
    """An upper bound on the positions reachable from the board's start: every way to add
    ``t`` stones (each column filled from below, with gravity; any ``t`` empty cells, without),
    coloured alternately from the player to move (``C(t, ceil(t / 2))``), summed over ``t``;
    wins are ignored, so it counts too many (Connect Four 4x4: 201,755 for 161,029; 5x4:
    5,621,939 for 3,945,711; 7x6: 7.1e13 for 4.5e12). Exact integers (Python's)."""
    cells = board.cells()
    if board.gravity:
        ways = [1]  # ways[t]: the column fillings that add t stones
        for col in range(board.width):
            free = sum(1 for row in range(board.height) if cells[row * board.width + col] == 0)
            grown = [0] * (len(ways) + free)
            for t, count in enumerate(ways):
                for add in range(free + 1):
                    grown[t + add] += count
            ways = grown
    else:
        free = cells.count(0)
        ways = [comb(free, t) for t in range(free + 1)]
    return sum(count * comb(t, (t + 1) // 2) for t, count in enumerate(ways))


@dataclass
class Expansion:
    """A Board's reachable positions being expanded into a graph, a chunk at a time.

    ``run(n)`` expands at most ``n`` positions (``nodes``: the positions expanded so far) and
    grows the arrays by doubling when a position's children would not fit; it returns
    ``REFUSED`` once more than ``max_positions`` positions are found. ``graph()`` gives the
    finished graph's arrays.
    """

    geo: np.ndarray
    cur: np.ndarray
    mask: np.ndarray
    owner: np.ndarray
    target: np.ndarray
    offsets: np.ndarray
    succ: np.ndarray
    edge_move: np.ndarray
    table: np.ndarray
    shift: int
    ctl: np.ndarray
    max_positions: int
    bound: int

    @classmethod
    def start(cls, board: Board, max_positions: int, capacity: int = 0) -> Expansion:
        """Allocate for ``min(positions_bound, max_positions)`` positions (or ``capacity``, to
        test the growth) and place the start."""
        geo = bb.geometry_of(board)
        if not bb.key_is_unique(geo):
            raise ValueError(f"a {board.width}x{board.height} board has no unique position key "
                             f"in 64 bits (games_bitboard): too large to expand")
        bound = positions_bound(board)
        most_moves = board.width if board.gravity else board.ncells
        capacity = capacity or max(16, min(bound, max_positions + most_moves))
        edges = capacity * min(most_moves, 3)
        table, shift = cls.new_table(capacity)
        expansion = cls(geo, *cls.arrays(capacity, edges), table, shift,
                        np.zeros(X_SLOTS, np.int64), max_positions, bound)
        cur, mask = bb.position_of(board, geo)
        expansion.cur[0], expansion.mask[0] = cur, mask
        rehash(np.array([bb.position_key(cur, mask, geo), 0], dtype=np.uint64),
               expansion.table, expansion.shift)
        expansion.ctl[X_COUNT] = 1
        return expansion

    @staticmethod
    def arrays(capacity: int, edges: int) -> tuple[np.ndarray, ...]:
        return (np.empty(capacity, np.uint64), np.empty(capacity, np.uint64),
                np.empty(capacity, np.int8), np.empty(capacity, np.int8),
                np.zeros(capacity + 1, np.int64), np.empty(edges, np.int32),
                np.empty(edges, np.int8))

    @staticmethod
    def new_table(capacity: int) -> tuple[np.ndarray, int]:
        """An empty table of ``2^b >= 2 * capacity`` slots (at most half full) and its shift."""
        bits = max(4, (2 * capacity - 1).bit_length())
        return np.full(2 << bits, EMPTY, dtype=np.uint64), 64 - bits

    @property
    def nodes(self) -> int:
        return int(self.ctl[X_HEAD])

    @property
    def positions(self) -> int:
        return int(self.ctl[X_COUNT])

    @property
    def moves(self) -> int:
        return int(self.ctl[X_EDGES])

    def run(self, nodes: int) -> int:
        """Expand ``nodes`` positions more at most: PAUSED, DONE or REFUSED."""
        target_head = self.nodes + nodes
        while True:
            status = expand(self.geo, self.cur, self.mask, self.owner, self.target,
                            self.offsets, self.succ, self.edge_move, self.table, self.shift,
                            self.ctl, target_head - self.nodes)
            if self.positions > self.max_positions:
                return REFUSED
            if status != NEED_ROOM:
                return status
            self.grow()

    def grow(self) -> None:
        """Double what is short: the positions (and the table with them) or the moves."""
        most = MAX_MOVES
        count, edges = self.positions, self.moves
        if count + most > self.cur.shape[0]:
            capacity = min(2 * self.cur.shape[0], self.max_positions + most)
            capacity = max(capacity, count + most)
            for name in ("cur", "mask", "owner", "target", "offsets"):
                old = getattr(self, name)
                new = np.zeros(capacity + (name == "offsets"), old.dtype)
                new[:old.shape[0]] = old
                setattr(self, name, new)
            table, shift = self.new_table(capacity)
            rehash(self.table, table, shift)
            self.table, self.shift = table, shift
        if edges + most > self.succ.shape[0]:
            size = 2 * self.succ.shape[0] + most
            for name in ("succ", "edge_move"):
                old = getattr(self, name)
                new = np.empty(size, old.dtype)
                new[:edges] = old[:edges]
                setattr(self, name, new)

    def graph(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``owner, offsets, succ, target, edge_move`` of the finished expansion (views); the
        positions' words and the table are let go."""
        n, m = self.positions, self.moves
        self.cur = self.mask = self.table = np.empty(0, np.uint64)
        return (self.owner[:n], self.offsets[:n + 1], self.succ[:m], self.target[:n],
                self.edge_move[:m])


# ---------------------------------------------------------------------------------------------
# the solver

FIRST_CHUNK = 50_000  # positions of the first chunk (expanded or popped), before the rate is known
MIN_CHUNK = 10_000
CHUNK_S = 0.05
MARGIN_S = 0.05  # kept off the budget for building the answer
DEFAULT_MAX_POSITIONS = 30_000_000


def value_for(label: int, player: int) -> int:
    """+1 / 0 / -1: the game's result for ``player`` when ``label`` wins (0: a draw)."""
    return 0 if label == 0 else (1 if label == player else -1)


def principal_line(owner: np.ndarray, offsets: np.ndarray, succ: np.ndarray,
                   edge_move: np.ndarray, label: np.ndarray, move: np.ndarray,
                   layer: np.ndarray) -> tuple[int, ...]:
    """The moves from position 0 to a position without moves, both sides playing well: the
    winner its strategy (down the layers), the loser the move to the largest layer (the
    longest resistance; the first such move), in a draw each side the first move that keeps
    the draw (a drawn position with moves has one: were every move a win for one player, the
    position would be in an attractor)."""
    moves = []
    p = 0
    while offsets[p] < offsets[p + 1]:
        first, last = int(offsets[p]), int(offsets[p + 1])
        after = succ[first:last]
        won_by = label[p]
        if won_by == owner[p]:
            chosen = int(np.flatnonzero(after == move[p])[0])
        elif won_by:
            chosen = int(np.argmax(layer[after]))
        else:
            chosen = int(np.flatnonzero(label[after] == 0)[0])
        moves.append(int(edge_move[first + chosen]))
        p = int(after[chosen])
    return tuple(moves)


def attractors(owner: np.ndarray, offsets: np.ndarray, succ: np.ndarray, target: np.ndarray,
               budget: Budget) -> GraphSolve | None:
    """Both attractors under the budget; None when it ran out first."""
    solve = GraphSolve.start(owner, offsets, succ, target)
    status = run_in_chunks(solve, budget, PAUSED, PAUSED, first_chunk=FIRST_CHUNK,
                           min_chunk=MIN_CHUNK, chunk_s=CHUNK_S, margin_s=MARGIN_S)
    return solve if status == DONE else None


def graph_counters(solve: GraphSolve, n: int, m: int) -> dict[str, float]:
    return {"nodes": n, "positions": n, "moves": m, "layers": int(solve.layer.max(initial=0)),
            "targets": solve.targets, "attracted": int(np.count_nonzero(solve.label)),
            "t_predecessors": solve.t_pred}


def solve_graph(graph: GameGraph, budget: Budget) -> Outcome:
    t0 = time.perf_counter()
    solve = attractors(graph.owner, graph.offsets, graph.succ, graph.target, budget)
    t_solve = time.perf_counter() - t0
    if solve is None:
        return Outcome("unknown", counters={"nodes": graph.n, "positions": graph.n,
                                            "moves": graph.m}, t_encode=0.0, t_solve=t_solve)
    value = value_for(int(solve.label[graph.start]), int(graph.owner[graph.start]))
    return Outcome("optimal", solution=Labelling(solve.label, solve.move, solve.layer),
                   objective=value, counters=graph_counters(solve, graph.n, graph.m),
                   t_encode=0.0, t_solve=t_solve)


def solve_board(board: Board, budget: Budget, max_positions: int) -> Outcome:
    t0 = time.perf_counter()
    expansion = Expansion.start(board, max_positions)
    status = run_in_chunks(expansion, budget, PAUSED, PAUSED, first_chunk=FIRST_CHUNK,
                           min_chunk=MIN_CHUNK, chunk_s=CHUNK_S, margin_s=MARGIN_S)
    t_encode = time.perf_counter() - t0
    found = {"positions": expansion.positions, "moves": expansion.moves,
             "expanded": expansion.nodes, "positions_bound": expansion.bound}
    if status == REFUSED:
        return Outcome("unknown", counters={"refused_positions": expansion.positions,
                                            "max_positions": max_positions, **found},
                       t_encode=t_encode)
    if status != DONE:
        return Outcome("unknown", counters=found, t_encode=t_encode)
    owner, offsets, succ, target, edge_move = expansion.graph()
    del expansion
    solve = attractors(owner, offsets, succ, target, budget)
    t_solve = time.perf_counter() - t0 - t_encode
    if solve is None:
        return Outcome("unknown", counters=found, t_encode=t_encode, t_solve=t_solve)
    value = value_for(int(solve.label[0]), int(owner[0]))
    line = principal_line(owner, offsets, succ, edge_move, solve.label, solve.move, solve.layer)
    return Outcome("optimal", solution=Line(value, line), objective=value,
                   counters=graph_counters(solve, len(owner), len(succ)),
                   t_encode=t_encode, t_solve=t_solve)


def prepare() -> None:
    """Compile (or load from numba's cache) every kernel: a small board with and without
    gravity, and a small graph."""
    budget = Budget(60.0, 1024)
    solve_board(Board(3, 3, 3, False, (4, 0, 8)), budget, DEFAULT_MAX_POSITIONS)
    solve_board(Board(4, 4, 4, True, (0, 1, 2, 3) * 3), budget, DEFAULT_MAX_POSITIONS)
    # a GameGraph's arrays are read-only: numba compiles the kernels for them separately
    solve_graph(GameGraph(np.array([1, 2, 1]), np.array([0, 1, 2, 2]), np.array([1, 2]),
                          np.array([0, 0, 1])), budget)


PARAMS = [
    Param("max_positions", DEFAULT_MAX_POSITIONS, "a Board with more reachable positions is "
          "refused (unknown): about 120 bytes a position", min=1),
]


def takes(instance: object) -> bool:
    """The instances the attractor solves: reachability games (graphs, boards), not trees."""
    return isinstance(instance, (Board, GameGraph))


@solver("attractor", family="games", paradigm="native", backend=f"numba-{numba.__version__}",
        params=PARAMS, prepare=prepare, accepts=takes)
def solve(instance: Board | GameGraph | GameTree, budget: Budget, seed: int,
          max_positions: int = DEFAULT_MAX_POSITIONS) -> Outcome:
    """Two attractors in linear time (predecessor lists, a counter per position); a Board is
    expanded into its graph of reachable positions first."""
    if isinstance(instance, GameGraph):
        return solve_graph(instance, budget)
    if isinstance(instance, Board):
        return solve_board(instance, budget, max_positions)
    raise ValueError("the attractor solves reachability games (a GameGraph, or a Board as the "
                     "graph of its positions), not valued game trees: use minimax or alphabeta "
                     f"for a {type(instance).__name__}")
