"""Negamax over m,n,k board positions (tic-tac-toe, Connect Four): minimax and alpha-beta, with
move ordering and a transposition table as switches, in numba, resumable in chunks.

Values are ternary, for the side to move: +1 win, 0 draw, -1 loss. The three switches:

- ``prune=False``: minimax, the full search: every child of every node is searched, even after
  a win has been found (so without the table the nodes are the whole game tree: 549,946 for
  tic-tac-toe, the root included). ``prune=True``: alpha-beta (fail-soft negamax): the root's
  window is ``(-1, 1)``, each child is searched with ``(-beta, -alpha)`` as alpha rises, and a
  node stops as soon as a child's value reaches ``beta``. With values in ``{-1, 0, 1}`` the
  window ``(-1, 1)`` is as good as an infinite one (a result ``<= -1`` or ``>= 1`` is exact),
  and once a draw is found the later children get the null window ``(-1, 0)``: the search only
  asks "does this child lose?" -- the weak solving of Pons's Connect Four solver.
- ``ordered``: the children sorted by a cheap estimate (a stable sort, so ties keep the natural
  order: columns left to right, or cells in Board order): immediate wins first, then the moves
  that fill a cell where the opponent would complete ``k`` in a row (blocks), then the others
  by the number of the mover's open threats after the move (empty cells that would complete
  ``k``; Pons's ordering), then the number of ``k``-windows through the cell (the centre first:
  the classic tic-tac-toe 4/3/2 weights, Allis's Connect Four table); with gravity a move that
  puts a stone right under an opponent's winning cell comes last. Ordering never adds or
  removes a child, so minimax visits the same nodes in either order.
- ``table``: a transposition table (the game graph is a DAG): ``2 ** table_bits`` slots of a
  uint64 key (``games_bitboard.position_key``, unique) and one byte, indexed by Fibonacci
  hashing of the key, replace-always (the newest search result is the one most likely to be
  needed again: Pons's choice). Minimax stores exact values; alpha-beta stores the result with
  its kind: exact, lower bound (it failed high, ``>= beta``) or upper bound (failed low,
  ``<= alpha``; fail-soft results are bounds in their direction). A probe returns at once on an
  exact value or a bound outside the window, else narrows the window. A bound at an extreme
  (a lower bound of +1, an upper bound of -1) is stored as exact.

Counters (the family's convention): ``nodes`` = positions visited, the root included (every
call of the recursive formulation: terminal positions and table hits too); ``leaves`` = the
terminal positions (a win for the player who just moved, or a full board); ``tt_hits`` = probes
that answered without a search; ``cutoffs`` = nodes that stopped with children left unsearched;
``pv_nodes`` = the nodes of the principal-line extraction (below), not in ``nodes``;
``table_entries`` = occupied slots at the end.

The principal line. Once the root value ``v`` is known, each step from a position of value
``v`` plays the first child (in the search's order) with value ``-v`` for the opponent. Every
child is worth at least ``-v`` to the opponent, so alpha-beta needs one null-window search per
child tried, with window ``(-v, -v + 1)``: a result ``<= -v`` proves the child's value is
``-v``. Minimax searches the child in full. A terminal child is judged by the rules, and at a
lost position (``v = -1``) every child is worth ``+1`` to the opponent, so the first is taken
without a search. The searches share the main search's table (warm: most answers are hits),
and stop at a terminal position. The line is a sequence of Board moves (columns with gravity,
else cells) from the start position.

The kernel is iterative: per ply the position, the moves, the next move's index, the window and
the best value so far, and a control vector (ply, phase, returned value, counters), so a chunk
stops before any node and the next one resumes it exactly: pausing never changes the nodes.
The eight switch combinations are eight compiled kernels (the switches are constants in each).

``perf/games_connect4.py`` solves Connect Four from the empty board on every board of at most
28 cells with each variant, against John Tromp's values, and prints nodes, times and rates.

Boards that do not fit a word (``width * (height + 1) > 64``) raise ValueError (from
``games_bitboard.geometry``), and so does ``table=True`` on a board without a unique key (no
gravity and more than 40 cells).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from bench.api import Budget
from searches.support import games_bitboard as bb
from searches.support.chunked import ChunkedSearch, Chunking, control
from searches.support.games_bitboard import G_GRAVITY, G_NCELLS, G_WIDTH, ONE
from searches.support.intrinsics import popcount
from searches.support.numba_cache import forget_stale_cache, own_dispatchers

#: The files this module's kernels compile code from (see ``numba_cache``).
JIT_SOURCES = (__file__, *bb.JIT_SOURCES)

# Slots of the int64 control vector.
C_PLY, C_PHASE, C_RET, C_NODES, C_LEAVES, C_HITS, C_CUTOFFS = range(7)
CTL_SLOTS = 7
ENTER, NEXT, RETURN = 0, 1, 2  # phases: visit the node at the ply; try its next child; return
PAUSED, DONE = 0, 1  # what a chunk returns
EXACT, LOWER, UPPER = 0, 1, 2  # transposition-table entry kinds
FIB = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: 2**64 / golden ratio

# Ordering scores (see the module docstring): win > block > under a threat > the rest.
WIN_SCORE = 1 << 50
BLOCK_SCORE = 1 << 40
UNDER_THREAT = -(1 << 30)
THREAT_WEIGHT = 1 << 12  # beats any count of windows through a cell

CHUNKING = Chunking(PAUSED)


# --- the kernel -------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def order_moves(cur, mask, geo, wts, moves, at, n, scores):
    """Sort ``moves[at:at + n]`` by the estimate of the module docstring (stable, descending)."""
    free = bb.playable(mask, geo)
    board = geo[bb.G_BOARD]
    opp = cur ^ mask
    my_wins = bb.winning_cells(cur, geo) & free
    opp_wins = bb.winning_cells(opp, geo) & ~mask & board
    gravity = geo[G_GRAVITY] != 0
    for i in range(n):
        bit = moves[at + i]
        b = ONE << np.uint64(bit)
        if b & my_wins:
            s = WIN_SCORE
        elif b & opp_wins:
            s = BLOCK_SCORE
        else:
            after = mask | b
            threats = bb.winning_cells(cur | b, geo) & ~after & board
            s = popcount(threats) * THREAT_WEIGHT + wts[bit]
            if gravity and (b << ONE) & opp_wins:
                s += UNDER_THREAT
        scores[i] = s
    for i in range(1, n):  # insertion sort: n <= 64, usually 7 or 9
        s = scores[i]
        m = moves[at + i]
        j = i - 1
        while j >= 0 and scores[j] < s:
            scores[j + 1] = scores[j]
            moves[at + j + 1] = moves[at + j]
            j -= 1
        scores[j + 1] = s
        moves[at + j + 1] = m


@njit(cache=True, nogil=True)
def tt_store(tt_keys, tt_vals, shift, key, value, kind):
    slot = (key * FIB) >> shift
    if kind == LOWER and value == 1:
        kind = EXACT
    elif kind == UPPER and value == -1:
        kind = EXACT
    tt_keys[slot] = key
    tt_vals[slot] = 1 + (value + 1) + 3 * kind


@njit(cache=True, nogil=True, inline="always")
def negamax(prune, ordered, table, geo, wts, cur_s, mask_s, moves, nmov, idx, alpha, beta,
            best, low, tt_keys, tt_vals, shift, ctl, cap, scores):
    """Run the search until ``ctl[C_NODES]`` reaches ``cap`` (PAUSED) or the root's value is
    known (DONE, the value in ``ctl[C_RET]``). ``prune``/``ordered``/``table`` are constants of
    each compiled wrapper. Per ply ``d``: the position ``cur_s[d], mask_s[d]``, its moves
    ``moves[d * M: d * M + nmov[d]]``, the next one's index ``idx[d]``, the window
    ``alpha[d], beta[d]`` (``low[d]``: alpha after the table narrowed it, for the entry's kind)
    and ``best[d]``."""
    M = moves.size // cur_s.size
    d = ctl[C_PLY]
    phase = ctl[C_PHASE]
    ret = ctl[C_RET]
    nodes = ctl[C_NODES]
    leaves = ctl[C_LEAVES]
    hits = ctl[C_HITS]
    cutoffs = ctl[C_CUTOFFS]
    status = PAUSED
    while True:
        if phase == ENTER:
            if nodes >= cap:
                break
            nodes += 1
            cur = cur_s[d]
            mask = mask_s[d]
            if bb.mover_won(cur, mask, geo):
                leaves += 1
                ret = -1
                phase = RETURN
                continue
            if bb.is_full(mask, geo):
                leaves += 1
                ret = 0
                phase = RETURN
                continue
            a = alpha[d]
            b = beta[d]
            if table:
                key = bb.position_key(cur, mask, geo)
                slot = (key * FIB) >> shift
                code = np.int64(tt_vals[slot])
                if code != 0 and tt_keys[slot] == key:
                    v = (code - 1) % 3 - 1
                    kind = (code - 1) // 3
                    if (not prune or kind == EXACT or (kind == LOWER and v >= b)
                            or (kind == UPPER and v <= a)):
                        hits += 1
                        ret = v
                        phase = RETURN
                        continue
                    if kind == LOWER and v > a:  # a bound inside the window narrows it
                        a = v
                        alpha[d] = a
                    elif kind == UPPER and v < b:
                        b = v
                        beta[d] = b
            low[d] = a
            n = bb.legal_bits(mask, geo, moves[d * M:(d + 1) * M])
            if ordered:
                order_moves(cur, mask, geo, wts, moves, d * M, n, scores)
            nmov[d] = n
            idx[d] = 0
            best[d] = -2
            phase = NEXT
        elif phase == NEXT:
            i = idx[d]
            if i < nmov[d]:
                idx[d] = i + 1
                c, m = bb.play(cur_s[d], mask_s[d], moves[d * M + i])
                cur_s[d + 1] = c
                mask_s[d + 1] = m
                if prune:
                    alpha[d + 1] = -beta[d]
                    beta[d + 1] = -alpha[d]
                d += 1
                phase = ENTER
            else:
                v = best[d]
                if table:
                    key = bb.position_key(cur_s[d], mask_s[d], geo)
                    kind = EXACT
                    if prune:
                        if v >= beta[d]:
                            kind = LOWER
                        elif v <= low[d]:
                            kind = UPPER
                    tt_store(tt_keys, tt_vals, shift, key, v, kind)
                ret = v
                phase = RETURN
        else:  # RETURN: ``ret`` is the value of the node at ply d, for its side to move
            if d == 0:
                status = DONE
                break
            d -= 1
            v = -ret
            if v > best[d]:
                best[d] = v
            if prune:
                if v > alpha[d]:
                    alpha[d] = v
                if alpha[d] >= beta[d]:
                    if idx[d] < nmov[d]:
                        cutoffs += 1
                    idx[d] = nmov[d]  # no more children: NEXT stores and returns
            phase = NEXT
    ctl[C_PLY] = d
    ctl[C_PHASE] = phase
    ctl[C_RET] = ret
    ctl[C_NODES] = nodes
    ctl[C_LEAVES] = leaves
    ctl[C_HITS] = hits
    ctl[C_CUTOFFS] = cutoffs
    return status


def _wrapper(prune: bool, ordered: bool, table: bool):
    """A compiled kernel with the three switches as constants (LLVM drops the dead branches)."""
    def kernel(geo, wts, cur_s, mask_s, moves, nmov, idx, alpha, beta, best, low, tt_keys,
               tt_vals, shift, ctl, cap, scores):
        return negamax(prune, ordered, table, geo, wts, cur_s, mask_s, moves, nmov, idx, alpha,
                       beta, best, low, tt_keys, tt_vals, shift, ctl, cap, scores)
    kernel.__name__ = kernel.__qualname__ = (
        f"negamax_{'ab' if prune else 'mm'}{'_ord' if ordered else ''}{'_tt' if table else ''}")
    return njit(cache=True, nogil=True)(kernel)


VARIANTS = list(itertools.product((False, True), repeat=3))  # (prune, ordered, table)
KERNELS = {flags: _wrapper(*flags) for flags in VARIANTS}
# The kernels compile in the bitboard functions (inlined): recompile them when those files change.
forget_stale_cache([*own_dispatchers(__name__), *KERNELS.values()], *JIT_SOURCES)


# --- the search in Python ---------------------------------------------------------------------


def window_weights(geo: np.ndarray) -> np.ndarray:
    """Per bit, the number of ``k``-windows (rows, columns, diagonals) through the cell."""
    width, height, k = (int(geo[s]) for s in (G_WIDTH, bb.G_HEIGHT, bb.G_K))
    wts = np.zeros(64, np.int64)
    for row, col in itertools.product(range(height), range(width)):
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            cells = [(row + i * dr, col + i * dc) for i in range(k)]
            if all(0 <= r < height and 0 <= c < width for r, c in cells):
                for r, c in cells:
                    wts[int(geo[bb.G_CELLBIT + r * width + c])] += 1
    return wts


@dataclass
class Table:
    """A transposition table shared by the searches of one solve (``bits = 0``: none)."""

    bits: int
    keys: np.ndarray = field(init=False)
    vals: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        size = 1 << self.bits
        self.keys = np.zeros(size, np.uint64)
        self.vals = np.zeros(size, np.int8)

    @property
    def shift(self) -> np.uint64:
        return np.uint64(64 - self.bits) if self.bits else np.uint64(63)

    def entries(self) -> int:
        return int(np.count_nonzero(self.vals)) if self.bits else 0


@dataclass
class BoardSearch:
    """One negamax search in progress from one position (its stack and control vector)."""

    geo: np.ndarray
    wts: np.ndarray
    flags: tuple[bool, bool, bool]
    table: Table
    cur_s: np.ndarray
    mask_s: np.ndarray
    moves: np.ndarray
    nmov: np.ndarray
    idx: np.ndarray
    alpha: np.ndarray
    beta: np.ndarray
    best: np.ndarray
    low: np.ndarray
    scores: np.ndarray
    ctl: np.ndarray
    status: int = PAUSED

    @classmethod
    def start(cls, geo: np.ndarray, wts: np.ndarray, cur: int, mask: int, *, prune: bool,
              ordered: bool, table: Table, alpha: int = -1, beta: int = 1) -> BoardSearch:
        """A search of the position ``(cur, mask)`` with the root window ``(alpha, beta)``
        (alpha-beta only; minimax ignores it)."""
        ncells = int(geo[G_NCELLS])
        plies = ncells - int(mask).bit_count() + 2
        width = int(geo[G_WIDTH]) if geo[G_GRAVITY] else ncells
        ints = [np.zeros(plies, np.int64) for _ in range(6)]  # nmov .. low
        search = cls(geo, wts, (prune, ordered, table.bits > 0), table,
                     np.zeros(plies, np.uint64), np.zeros(plies, np.uint64),
                     np.zeros(plies * width, np.int64), *ints,
                     np.zeros(width, np.int64), np.zeros(CTL_SLOTS, np.int64))
        search.cur_s[0] = cur
        search.mask_s[0] = mask
        search.alpha[0] = alpha
        search.beta[0] = beta
        search.ctl[C_PHASE] = ENTER
        return search

    def run(self, nodes: int) -> int:
        """At most ``nodes`` more nodes; PAUSED or DONE."""
        if self.status == DONE:
            return DONE
        t = self.table
        self.status = int(KERNELS[self.flags](
            self.geo, self.wts, self.cur_s, self.mask_s, self.moves, self.nmov, self.idx,
            self.alpha, self.beta, self.best, self.low, t.keys, t.vals, t.shift, self.ctl,
            self.nodes + nodes, self.scores))
        return self.status

    nodes = control(C_NODES)
    leaves = control(C_LEAVES)
    tt_hits = control(C_HITS)
    cutoffs = control(C_CUTOFFS)

    @property
    def value(self) -> int:
        """The root's result (exact for minimax and for alpha-beta within its window)."""
        return int(self.ctl[C_RET])


def drive(search: ChunkedSearch, budget: Budget, max_nodes: int = 0) -> int:
    """Run chunks until the search ends, ``max_nodes`` (0 = no limit) or the budget ends."""
    return CHUNKING.drive(search, budget, max_nodes)


@dataclass
class BoardResult:
    """``status``: "optimal" (value and line proved) or "unknown" (the budget or ``max_nodes``
    ran out; ``value`` is set when only the line extraction was cut short)."""

    status: str
    value: int | None
    line: tuple[int, ...]
    counters: dict[str, float]


def principal_line(geo: np.ndarray, wts: np.ndarray, cur: int, mask: int, value: int, *,
                   prune: bool, ordered: bool, table: Table, budget: Budget,
                   ) -> tuple[tuple[int, ...], int, bool]:
    """The moves from ``(cur, mask)`` (of ``value``) to a terminal position along children of
    value ``-value`` (see the module docstring); returns the line, the nodes its searches
    visited and whether it reached the end within the budget."""
    line: list[int] = []
    nodes = 0
    cur, mask = np.uint64(cur), np.uint64(mask)
    buf = np.zeros(64, np.int64)
    scores = np.zeros(64, np.int64)
    while not bb.mover_won(cur, mask, geo) and not bb.is_full(mask, geo):
        n = bb.legal_bits(mask, geo, buf)
        if ordered:
            order_moves(cur, mask, geo, wts, buf, 0, n, scores)
        chosen = None
        for bit in buf[:n]:
            c, m = (np.uint64(x) for x in bb.play(cur, mask, int(bit)))  # one signature
            if bb.mover_won(c, m, geo):
                child = -1
            elif bb.is_full(m, geo):
                child = 0
            elif value == -1:
                child = 1  # every child of a lost position is won for the opponent
            else:
                search = BoardSearch.start(geo, wts, c, m, prune=prune, ordered=ordered,
                                           table=table, alpha=-value, beta=-value + 1)
                status = drive(search, budget)
                nodes += search.nodes
                if status != DONE:
                    return tuple(line), nodes, False
                child = search.value
                if prune and child <= -value:  # the null window proved ``<= -value``
                    child = -value
            if child == -value:
                chosen = (int(bit), c, m)
                break
        if chosen is None:
            raise AssertionError("no child has the value the search gave its parent")
        bit, cur, mask = chosen
        line.append(int(bb.move_of_bit(bit, geo)))
        value = -value
    return tuple(line), nodes, True


def solve_position(geo: np.ndarray, cur: int, mask: int, budget: Budget, *, prune: bool,
                   ordered: bool, table: bool, table_bits: int = 22,
                   max_nodes: int = 0) -> BoardResult:
    """``solve_board`` on a position given by its bitboards."""
    if table and not bb.key_is_unique(geo):
        raise ValueError("this board has no unique position key: solve it without the table")
    wts = window_weights(geo)
    tt = Table(table_bits if table else 0)
    search = BoardSearch.start(geo, wts, cur, mask, prune=prune, ordered=ordered, table=tt)
    status = drive(search, budget, max_nodes)
    counters: dict[str, float] = {"nodes": search.nodes, "leaves": search.leaves,
                                  "tt_hits": search.tt_hits, "cutoffs": search.cutoffs,
                                  "pv_nodes": 0}
    if status != DONE:
        counters["table_entries"] = tt.entries()
        return BoardResult("unknown", None, (), counters)
    value = search.value
    line, pv_nodes, complete = principal_line(geo, wts, cur, mask, value, prune=prune,
                                              ordered=ordered, table=tt, budget=budget)
    counters["pv_nodes"] = pv_nodes
    counters["table_entries"] = tt.entries()
    return BoardResult("optimal" if complete else "unknown", value, line, counters)


def solve_board(board, budget: Budget, *, prune: bool, ordered: bool, table: bool,
                table_bits: int = 22, max_nodes: int = 0) -> BoardResult:
    """The value (+1/0/-1 for the player to move) and a principal line of a ``Board``'s start
    position; ``max_nodes`` (0 = no limit) caps the main search's nodes."""
    geo = bb.geometry_of(board)
    cur, mask = bb.position_of(board, geo)
    return solve_position(geo, cur, mask, budget, prune=prune, ordered=ordered, table=table,
                          table_bits=table_bits, max_nodes=max_nodes)


def prepare_board() -> None:
    """Compile (or load from numba's cache) the eight kernels and the line's helpers, on a
    tic-tac-toe position (a few milliseconds once compiled; about 10 s of compilation)."""
    geo = bb.geometry(3, 3, 3, False)
    cells = (1, 2, 1, 0, 2, 0, 0, 0, 0)  # X to move; a few moves of search, a line of five
    cur, mask = bb.position_from_cells(cells, 1, geo)
    budget = Budget(wall_s=600, mem_mb=0)
    for prune, ordered, table in VARIANTS:
        solve_position(geo, cur, mask, budget, prune=prune, ordered=ordered, table=table,
                       table_bits=4)
