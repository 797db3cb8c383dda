"""Minimax and alpha-beta on a uniform game tree, in numba.

The tree is flat arrays: ``arity ** depth`` leaf values in level order (child ``c`` of node
``i`` at depth ``t`` is node ``i * arity + c`` at depth ``t + 1``), MAX at the root, levels
alternating. The searches are the textbook recursive ones made iterative, nothing more:

- ``minimax``: every child of every node, ``max`` at MAX nodes, ``min`` at MIN nodes;
- ``alphabeta`` (fail-soft): a MAX node starts at ``v = -inf``, searches
  each child with the window ``(a, beta)`` where ``a = max(alpha, v)`` is the best score MAX is
  already sure of, and stops (a cut) as soon as ``beta <= a``; a MIN node symmetrically with
  ``(alpha, b)``, ``b = min(beta, v)``, cutting when ``b <= alpha``. The root is searched with
  ``(-inf, +inf)``, so its value is exactly minimax's. ``strict=True`` cuts only when
  ``beta < a`` (less pruning, the same value): the variant some texts print
  (``perf/games_alphabeta_trees.py`` prints the share of the tree each rule explores).

Move ordering is a per-level array of keys (``keys[key_at[t] + j]`` for node ``j`` at depth
``t``): a MAX node tries its children by decreasing key, a MIN node by increasing key, ties in
index order (a stable insertion sort of ``arity`` entries, into a preallocated row per depth).
Three orderings (``order_keys``):

- ``none``: children in index order (no keys);
- ``estimate``: the tree's static estimates ``GameTree.estimates(t)`` of the nodes above the
  leaves (the partial sums of an incremental tree; zeros on an iid tree: no information).
  Children that are leaves stay in index order: a leaf's estimate is its value
  (``estimates(depth) == leaves()``), so sorting them by it would read every leaf of a frontier
  node before the search, uncounted -- the oracle's ordering at the last level for free.
  Reading an estimate of an inner node is not counted as a visit;
- ``oracle``: the true minimax value of every node, computed beforehand by numpy, level by
  level. Alpha-beta then explores the minimal tree: with distinct leaf values exactly
  ``b^ceil(d/2) + b^floor(d/2) - 1`` leaves (Knuth and Moore 1975; 31 for depth 4, arity 4).
  A reference, not a solver: it knows the answer before it starts.

Iterative: an explicit stack of (node, next child, alpha, beta, v) per depth plus the children's
order, so that a chunk stops before entering any node and resumes exactly there
(``searches.support.chunked``: numba cannot read the clock). The principal variation is a
triangular table: when a child improves ``v`` at depth ``t``, row ``t`` becomes that child
followed by row ``t + 1`` (the child's own variation). With fail-soft alpha-beta the root's
variation ends at a leaf whose value is the root value: along it every value lies strictly
inside its node's window (so it is exact), and the child that last improved ``v`` returned
exactly ``v``.

Counters (the same for every solver of the family): ``nodes`` = nodes entered, the root
included (every call of the recursive formulation: minimax on depth 4, arity 4 enters all
341), ``leaves`` = leaf values read, ``cutoffs`` = nodes left before their last child (a cut
condition met at the last child prunes nothing and is not counted).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from bench.api import Budget
from searches.support.chunked import ChunkedSearch, Chunking, control

INF = np.int64(1) << np.int64(62)  # beyond any leaf value (|values| < 2^62)
ORDERS = ("none", "estimate", "oracle")

# Slots of the int64 control vector: the current depth, whether the node at that depth is
# still to be entered (1) or has a child's value to take (0), the child's value, counters.
C_PLY, C_ENTER, C_RET, C_NODES, C_LEAVES, C_CUTOFFS = range(6)
CTL_SLOTS = 6
# What a chunk returns.
PAUSED, DONE = 0, 1

CHUNKING = Chunking(PAUSED)


@njit(cache=True, nogil=True, inline="always")
def sort_children(order, ply, first, keys, is_max, arity):
    """``order[ply, :arity]``: the children by decreasing key at a MAX node, increasing at a
    MIN node, ties in index order (a stable insertion sort; ``keys[first + c]`` is child
    ``c``'s key)."""
    for c in range(arity):
        key = keys[first + c]
        j = c
        while j > 0:
            other = keys[first + order[ply, j - 1]]
            if (key > other) if is_max else (key < other):
                order[ply, j] = order[ply, j - 1]
                j -= 1
            else:
                break
        order[ply, j] = c


@njit(cache=True, nogil=True)
def tree_kernel(prune, strict, leaves, ordered, keys, key_at, arity, depth,
                node, cur, order, alpha, beta, v, pv, ctl, cap):
    """Run the search until it ends or ``cap`` nodes have been entered; PAUSED or DONE.

    ``prune``: alpha-beta (else minimax); ``strict``: cut on ``beta < alpha`` instead of
    ``beta <= alpha``; ``ordered``: children by ``keys`` (else index order). The frame of depth
    ``t``: ``node[t]`` (its index within its level), ``cur[t]`` (the child being searched, as a
    rank in ``order[t]``), the window it was entered with ``alpha[t], beta[t]``, its value so
    far ``v[t]``, its variation ``pv[t, t:depth]``. When DONE, ``ctl[C_RET]`` is the root's
    value and ``pv[0]`` its variation."""
    ply = ctl[C_PLY]
    entering = ctl[C_ENTER] == 1
    ret = ctl[C_RET]
    nodes = ctl[C_NODES]
    nleaves = ctl[C_LEAVES]
    cutoffs = ctl[C_CUTOFFS]
    status = PAUSED
    while True:
        if entering:
            if nodes >= cap:
                break
            nodes += 1
            if ply == depth:  # a leaf: its value goes up
                ret = leaves[node[ply]]
                nleaves += 1
                entering = False
                if ply == 0:
                    status = DONE
                    break
                ply -= 1
            else:
                is_max = ply % 2 == 0
                v[ply] = -INF if is_max else INF
                cur[ply] = 0
                first = node[ply] * arity
                c = 0
                if ordered:
                    sort_children(order, ply, key_at[ply + 1] + first, keys, is_max, arity)
                    c = order[ply, 0]
                node[ply + 1] = first + c
                alpha[ply + 1] = alpha[ply]
                beta[ply + 1] = beta[ply]
                ply += 1
                continue
        # ``ret`` is the value of the child ``cur[ply]`` of the node at ``ply``
        k = cur[ply]
        c = order[ply, k] if ordered else k
        if ply % 2 == 0:
            improved = ret > v[ply]
        else:
            improved = ret < v[ply]
        if improved:
            v[ply] = ret
            pv[ply, ply] = c
            for j in range(ply + 1, depth):
                pv[ply, j] = pv[ply + 1, j]
        if ply % 2 == 0:
            a = max(alpha[ply], v[ply])
            b = beta[ply]
        else:
            a = alpha[ply]
            b = min(beta[ply], v[ply])
        k += 1
        cut = prune and ((b < a) if strict else (b <= a))
        if cut or k == arity:
            if cut and k < arity:
                cutoffs += 1
            ret = v[ply]
            if ply == 0:
                status = DONE
                break
            ply -= 1
            continue
        cur[ply] = k
        c = order[ply, k] if ordered else k
        node[ply + 1] = node[ply] * arity + c
        alpha[ply + 1] = a
        beta[ply + 1] = b
        ply += 1
        entering = True
    ctl[C_PLY] = ply
    ctl[C_ENTER] = 1 if entering else 0
    ctl[C_RET] = ret
    ctl[C_NODES] = nodes
    ctl[C_LEAVES] = nleaves
    ctl[C_CUTOFFS] = cutoffs
    return status


# --- orderings ---------------------------------------------------------------------------------


def minimax_levels(leaves: np.ndarray, arity: int, depth: int) -> list[np.ndarray]:
    """The minimax value of every node, one int64 array per depth (numpy, bottom up)."""
    levels = [np.asarray(leaves, dtype=np.int64)]
    for t in range(depth - 1, -1, -1):
        below = levels[0].reshape(-1, arity)
        levels.insert(0, below.max(axis=1) if t % 2 == 0 else below.min(axis=1))
    return levels


def flat_levels(levels: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per-depth arrays as one ``keys`` array and the offsets ``key_at`` of each depth."""
    key_at = np.zeros(len(levels) + 1, dtype=np.int64)
    np.cumsum([len(level) for level in levels], out=key_at[1:])
    keys = np.concatenate(levels).astype(np.int64) if levels else np.zeros(0, np.int64)
    return keys, key_at


def order_keys(tree, order: str, levels: list[np.ndarray] | None = None
               ) -> tuple[np.ndarray, np.ndarray] | None:
    """The keys of ``order`` for a ``GameTree`` (None for ``none``, and for estimates that
    carry nothing). ``levels``: ``tree.levels()`` if already drawn."""
    if order == "none":
        return None
    if order not in ORDERS:
        raise ValueError(f"tree ordering {order!r} is not one of {ORDERS}")
    if levels is None:
        levels = tree.levels()
    if order == "oracle":
        return flat_levels(minimax_levels(levels[-1], tree.arity, tree.depth))
    above = levels[:-1]  # the leaves' own "estimates" are their values: not used
    if not any(level.any() for level in above):
        return None  # no information (iid trees): sorting on zeros keeps the index order
    return flat_levels([*above, np.zeros(tree.arity ** tree.depth, np.int64)])


def perfect_ordering_leaves(arity: int, depth: int) -> int:
    """Leaves alpha-beta visits on a tree with distinct leaf values under perfect ordering
    (Knuth and Moore): ``b^ceil(d/2) + b^floor(d/2) - 1``."""
    return arity ** ((depth + 1) // 2) + arity ** (depth // 2) - 1


# --- the search in Python ----------------------------------------------------------------------


@dataclass
class TreeSearch:
    """One minimax or alpha-beta search in progress on flat arrays."""

    leaves: np.ndarray
    arity: int
    depth: int
    prune: bool
    strict: bool
    ordered: bool
    keys: np.ndarray
    key_at: np.ndarray
    node: np.ndarray
    cur: np.ndarray
    order: np.ndarray
    alpha: np.ndarray
    beta: np.ndarray
    v: np.ndarray
    pv: np.ndarray
    ctl: np.ndarray
    status: int = PAUSED

    @classmethod
    def start(cls, leaves: np.ndarray, arity: int, depth: int, *, prune: bool = True,
              keys: tuple[np.ndarray, np.ndarray] | None = None,
              strict: bool = False) -> TreeSearch:
        """A search of the tree of ``leaves`` (``arity ** depth`` values in level order);
        ``keys`` = ``(keys, key_at)`` of an ordering (``order_keys``), None for index
        order."""
        leaves = np.ascontiguousarray(leaves, dtype=np.int64)
        if arity < 1 or depth < 0 or leaves.shape != (arity ** depth,):
            raise ValueError(f"a tree of arity {arity} and depth {depth} has {arity ** depth} "
                             f"leaves, not {leaves.shape}")
        if keys is None:
            flat, key_at = np.zeros(1, np.int64), np.zeros(depth + 2, np.int64)
        else:
            flat, key_at = keys
        rows = depth + 1
        search = cls(leaves, arity, depth, prune, strict, keys is not None, flat, key_at,
                     np.zeros(rows, np.int64), np.zeros(rows, np.int64),
                     np.zeros((rows, arity), np.int64), np.zeros(rows, np.int64),
                     np.zeros(rows, np.int64), np.zeros(rows, np.int64),
                     np.zeros((rows, max(depth, 1)), np.int64), np.zeros(CTL_SLOTS, np.int64))
        search.alpha[0], search.beta[0] = -INF, INF
        search.ctl[C_ENTER] = 1
        return search

    def restart(self, leaves: np.ndarray, keys: tuple[np.ndarray, np.ndarray] | None = None
                ) -> TreeSearch:
        """The same search on another tree of the same shape (new leaves, and new keys when
        ordered), the counters zeroed: benchmarks reuse one stack over thousands of trees."""
        self.leaves = np.ascontiguousarray(leaves, dtype=np.int64)
        if self.leaves.shape != (self.arity ** self.depth,):
            raise ValueError(f"{self.leaves.shape} leaves for a tree of {self.arity ** self.depth}")
        if self.ordered:
            if keys is None:
                raise ValueError("an ordered search needs the new tree's keys")
            self.keys, self.key_at = keys
        self.ctl[:] = 0
        self.ctl[C_ENTER] = 1
        self.node[0] = 0
        self.status = PAUSED
        return self

    def run(self, nodes: int) -> int:
        """At most ``nodes`` more nodes entered; returns PAUSED or DONE."""
        if self.status == DONE:
            return DONE
        self.status = int(tree_kernel(self.prune, self.strict, self.leaves, self.ordered,
                                      self.keys, self.key_at, self.arity, self.depth,
                                      self.node, self.cur, self.order, self.alpha, self.beta,
                                      self.v, self.pv, self.ctl, self.nodes + nodes))
        return self.status

    def finish(self) -> TreeSearch:
        """Run to the end without a budget (tests, benchmarks)."""
        return CHUNKING.finish(self)

    nodes = control(C_NODES)
    leaf_count = control(C_LEAVES)
    cutoffs = control(C_CUTOFFS)

    @property
    def value(self) -> int:
        """The root's value (once DONE)."""
        return int(self.ctl[C_RET])

    def line(self) -> tuple[int, ...]:
        """The principal variation: child indices from the root to a leaf of the root value."""
        return tuple(int(c) for c in self.pv[0, :self.depth])

    def counters(self) -> dict[str, float]:
        return {"nodes": self.nodes, "leaves": self.leaf_count, "cutoffs": self.cutoffs}


def tree_search(tree, *, prune: bool = True, order: str = "none", strict: bool = False,
                leaves: np.ndarray | None = None) -> TreeSearch:
    """A search of a ``GameTree`` ready to run (``leaves`` = ``tree.leaves()`` if already
    drawn; else the tree is drawn once, its estimates with it)."""
    levels = None
    if leaves is None:
        levels = tree.levels()
        leaves = levels[-1]
    elif order == "oracle":
        levels = [leaves]  # minimax needs only the leaves
    return TreeSearch.start(leaves, tree.arity, tree.depth, prune=prune,
                            keys=order_keys(tree, order, levels), strict=strict)


def drive(search: ChunkedSearch, budget: Budget, max_nodes: int = 0) -> int:
    """Run chunks until the search ends, ``max_nodes`` (0 = no limit) or the budget ends."""
    return CHUNKING.drive(search, budget, max_nodes)


def prepare() -> None:
    """Compile (or load from numba's cache) the kernel, on a tiny tree."""
    leaves = np.arange(16, dtype=np.int64)
    TreeSearch.start(leaves, 2, 4, prune=False).finish()
    TreeSearch.start(leaves, 2, 4, keys=flat_levels(minimax_levels(leaves, 2, 4))).finish()
