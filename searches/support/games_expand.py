"""A game board's reachable positions as an explicit game graph, expanded in numba.

``Expansion.start(board, max_positions)`` places the start position of a ``Board``
(tic-tac-toe, Connect Four, any m,n,k board; bitboards of ``games_bitboard``); ``run(n)``
expands at most ``n`` more positions breadth first, with a hash set of position keys (open
addressing, Fibonacci hashing, at most half full), and ``graph()`` gives the arrays of
``games_attract``: ``owner``, ``offsets``, ``succ``, ``target`` (a position where the last
mover has won is that player's target; it and a full board are terminal, without moves) and
``edge_move`` (the Board move of each edge). Position 0 is the start.

Memory. The arrays are allocated for ``min(positions_bound, max_positions + 64)`` positions
(``positions_bound`` ignores wins, so it counts too many) and 3 moves a position, grown by
doubling when short. While it is expanded a position costs its two words 16 bytes, owner and
target 2, offset 8, and 2-4 hash slots of 16 bytes, a move 5 (successor, column or cell); the
table and the words are let go by ``graph()``. Once more than ``max_positions`` positions are
found, ``run`` returns ``REFUSED``: the memory never goes past what ``max_positions``
positions need, but those are expanded first, as the bound alone cannot tell.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np
from numba import njit

from instances.games import Board
from searches.support import games_attract
from searches.support import games_bitboard as bb
from searches.support.games_attract import DONE, PAUSED
from searches.support.intrinsics import popcount, prefetch
from searches.support.numba_cache import forget_stale_cache, own_dispatchers

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *bb.JIT_SOURCES, *games_attract.JIT_SOURCES)

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
        mover = 1 + (popcount(m) & 1)  # the player to move
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


forget_stale_cache(own_dispatchers(__name__), *JIT_SOURCES)
