"""What a quotient of the state space explains, counted exactly on a small world of tiles.

A pattern database is a quotient of the state space: it projects the full state onto a poorer
alphabet (where the pattern's tiles are), solves there, and lifts the answer back. This module
measures that sentence exactly, on a world small enough to enumerate: ``n_tiles`` labelled tiles
placed injectively on a ``rows x cols`` board, the other cells free (the default world: 6 tiles
on a 3x3 board, ``9 * 8 * 7 * 6 * 5 * 4 = 60,480`` states). The state ``X`` is uniform over every
placement, so each quantity below is an exact count, not an estimate.

The tiles are split into two groups, ``A`` and ``B`` (by default tiles 1-3 and 4-6, indices
0-2 and 3-5); ``X_A`` and ``X_B`` are the cells of each group's tiles, in tile order. Three
descriptions of a state:

- the full state ``X`` (the reference: it explains everything);
- the occupancy quotient ``S_B``: which cells group B holds, without its arrangement (the
  coarsest pattern of a PDB of group B; ``C(9, 3) = 84`` sets, fibres of 720 states);
- the row profile ``Q'``: how many B tiles each board row holds (10 profiles), coarser still.

What is measured, and why:

- the chain rule ``H(X) = H(pi(X)) + H(X | pi(X))`` for each quotient, with ``H(X | pi(X))``
  computed fibre by fibre. It holds for any partition (a theorem, not a criterion): it says what
  a quotient keeps and what it loses, not whether it is a good one;
- the witness ``I(X_A; X_B | Q)``. The groups interact marginally (``I(X_A; X_B) = 2.070389``
  bits: they compete for cells). Given ``S_B`` the interaction is exactly 0: once it is known
  which cells B holds, A's placement in the other cells and B's arrangement inside its own cells
  are independent. ``S_B`` is exactly the information the two groups exchange. The too-coarse
  ``Q'`` leaves a residue (1.582975 bits): two states with the same row profile deprive A of
  different cells. The hierarchy ``I >= I(.|Q') >= I(.|S_B)`` is checked on the counts;
- whether the quotient commutes with the puzzle's dynamics. The move ``mu`` is a
  deterministic policy: the smallest tile (lowest index) next to a free cell moves to the
  smallest free cell next to it. A fibre of ``S_B`` *commutes* when ``S_B(mu(x))`` is the same
  for every state ``x`` of the fibre, i.e. when the successor's quotient is determined by the
  quotient alone, so that ``mu`` passes to the quotient on that fibre. 80 of the 84 fibres do,
  by contingency rather than structure: ``mu`` prefers group A (the small tiles), whose moves
  leave ``S_B`` unchanged; in the other 4 fibres some placements of A leave no A tile mobile,
  a B tile moves, and which one depends on B's arrangement, which the quotient threw away. The
  group control (``Z_n -> Z_d``, ``x mod d``) commutes on every pair by structure: that is the
  regularity Ruzsa-type inequalities need, and what a puzzle quotient lacks (real PDBs track
  the blank for that reason).

Everything is NumPy over the array of all placements. ``python -m
searches.support.tiles_quotient`` prints the table for the default world.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class World:
    """The enumerated world: ``n_tiles`` labelled tiles on a ``rows x cols`` board, two groups.

    ``group_a`` and ``group_b`` are disjoint tuples of tile indices (tile ``i`` is the puzzle's
    tile ``i + 1``); they need not cover every tile. The tile order matters only to the move
    policy, which tries the lowest index first.
    """

    rows: int = 3
    cols: int = 3
    n_tiles: int = 6
    group_a: tuple[int, ...] = (0, 1, 2)
    group_b: tuple[int, ...] = (3, 4, 5)
    _states: list = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        a, b = set(self.group_a), set(self.group_b)
        if not 0 < self.n_tiles <= self.ncells:
            raise ValueError(f"{self.n_tiles} tiles do not fit {self.rows}x{self.cols} cells")
        if a & b or not a or not b or not (a | b) <= set(range(self.n_tiles)):
            raise ValueError("groups must be disjoint, non-empty sets of tile indices")
        if self.ncells > 62:
            raise ValueError("occupancy bitmasks hold at most 62 cells")

    @property
    def ncells(self) -> int:
        return self.rows * self.cols

    def states(self) -> np.ndarray:
        """All placements, shape ``(P(ncells, n_tiles), n_tiles)``: row = cell of each tile."""
        if not self._states:
            self._states.append(placements(self.ncells, self.n_tiles))
        return self._states[0]


def placements(ncells: int, k: int) -> np.ndarray:
    """Every injective placement of ``k`` tiles on ``ncells`` cells, in lexicographic order
    (the order of ``itertools.permutations(range(ncells), k)``), as an int64 array."""
    out = np.zeros((1, 0), dtype=np.int64)
    cells = np.arange(ncells, dtype=np.int64)
    for _ in range(k):
        n = len(out)
        grown = np.concatenate([np.repeat(out, ncells, axis=0), np.tile(cells, n)[:, None]], axis=1)
        fresh = (grown[:, :-1] != grown[:, -1:]).all(axis=1)
        out = grown[fresh]
    return out


# --- the descriptions of a state: one integer label per state ---------------------------------


def sub_config(states: np.ndarray, tiles: tuple[int, ...], ncells: int) -> np.ndarray:
    """``X_G``: the cells of group ``G``'s tiles in tile order, as one mixed-radix integer."""
    key = np.zeros(len(states), dtype=np.int64)
    for t in tiles:
        key = key * ncells + states[:, t]
    return key


def occupancy(states: np.ndarray, tiles: tuple[int, ...]) -> np.ndarray:
    """``S_G``: the set of cells group ``G`` holds (its arrangement forgotten), as a bitmask."""
    return (np.int64(1) << states[:, list(tiles)]).sum(axis=1)


def row_profile(states: np.ndarray, tiles: tuple[int, ...], rows: int, cols: int) -> np.ndarray:
    """``Q'``: how many of group ``G``'s tiles each board row holds, as one integer.

    A function of ``S_G`` (so a coarser quotient): it keeps the count per row, not the cells.
    """
    per_row = np.zeros((len(states), rows), dtype=np.int64)
    for t in tiles:
        np.add.at(per_row, (np.arange(len(states)), states[:, t] // cols), 1)
    key = np.zeros(len(states), dtype=np.int64)
    for r in range(rows):
        key = key * (len(tiles) + 1) + per_row[:, r]
    return key


# --- exact information from counts ------------------------------------------------------------


def entropy_of_counts(counts: np.ndarray) -> float:
    """Entropy in bits of the distribution ``counts / counts.sum()``.

    Written ``log2 T - sum(c log2 c) / T`` so that uniform counts give ``log2 T - log2 c`` with
    one rounding, not a sum of many small products.
    """
    c = np.asarray(counts, dtype=np.float64)
    c = c[c > 0]
    total = c.sum()
    return float(math.log2(total) - (c * np.log2(c)).sum() / total)


def joint_counts(*labels: np.ndarray) -> np.ndarray:
    """Counts of the distinct tuples ``(labels[0][s], labels[1][s], ...)`` over the states."""
    return np.unique(np.stack(labels, axis=1), axis=0, return_counts=True)[1]


def entropy(*labels: np.ndarray) -> float:
    """Joint entropy (bits) of the labels under the uniform distribution over the states."""
    return entropy_of_counts(joint_counts(*labels))


def mutual_information(a: np.ndarray, b: np.ndarray) -> float:
    """``I(A; B) = H(A) + H(B) - H(A, B)``: how much the two descriptions tell about each other."""
    return entropy(a) + entropy(b) - entropy(a, b)


def conditional_mutual_information(a: np.ndarray, b: np.ndarray, q: np.ndarray) -> float:
    """``I(A; B | Q) = H(A, Q) + H(B, Q) - H(A, B, Q) - H(Q)``: the interaction ``Q`` leaves."""
    return entropy(a, q) + entropy(b, q) - entropy(a, b, q) - entropy(q)


def fibre_mutual_information(
    a: np.ndarray, b: np.ndarray, q: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``I(A; B)`` inside each fibre of ``Q``.

    Returns the fibre labels, their sizes and the mutual information within each fibre (the
    exact law of the states in it). The size-weighted mean is ``I(A; B | Q)``.
    """
    fibres, inverse, sizes = np.unique(q, return_inverse=True, return_counts=True)
    order = np.argsort(inverse, kind="stable")
    starts = np.concatenate([[0], np.cumsum(sizes)])
    info = np.array(
        [
            mutual_information(a[order[lo:hi]], b[order[lo:hi]])
            for lo, hi in zip(starts[:-1], starts[1:], strict=True)
        ]
    )
    return fibres, sizes, info


def chain_rule(q: np.ndarray) -> tuple[float, float, float]:
    """``(H(pi(X)), H(X | pi(X)), H(X))`` for a uniform ``X`` and the quotient labels ``q``.

    ``H(X | pi(X))`` is computed fibre by fibre (uniform inside a fibre of size ``n_q``: it is
    ``log2 n_q``), independently of ``H(pi(X))``, so the sum checks the chain rule.
    """
    sizes = np.unique(q, return_counts=True)[1].astype(np.float64)
    total = sizes.sum()
    h_given = float((sizes / total * np.log2(sizes)).sum())
    return entropy_of_counts(sizes), h_given, math.log2(total)


# --- the dynamics and the commutation of a quotient with it -----------------------------------


def neighbours(rows: int, cols: int) -> np.ndarray:
    """``nbr[cell]``: the 4-neighbours of each cell in increasing order, padded with -1."""
    nbr = np.full((rows * cols, 4), -1, dtype=np.int64)
    for c in range(rows * cols):
        r, k = divmod(c, cols)
        near = [
            (r + dr) * cols + k + dk
            for dr, dk in ((-1, 0), (0, -1), (0, 1), (1, 0))
            if 0 <= r + dr < rows and 0 <= k + dk < cols
        ]
        nbr[c, : len(near)] = sorted(near)
    return nbr


def policy_move(states: np.ndarray, world: World) -> np.ndarray:
    """The deterministic move ``mu`` (module docstring) applied to every state.

    The lowest-index tile with a free neighbouring cell moves to its lowest free neighbour; a
    state where no tile can move (a full board) is its own successor.
    """
    n = len(states)
    rows = np.arange(n)
    free = np.ones((n, world.ncells + 1), dtype=bool)  # column ncells: the -1 padding, never free
    free[:, -1] = False
    free[rows[:, None], states] = False
    nbr = neighbours(world.rows, world.cols)
    nxt = states.copy()
    moved = np.zeros(n, dtype=bool)
    for t in range(world.n_tiles):
        near = nbr[states[:, t]]
        open_ = free[rows[:, None], near]  # near == -1 reads the padding column
        target = near[rows, open_.argmax(axis=1)]
        go = ~moved & open_.any(axis=1)
        nxt[go, t] = target[go]
        moved |= go
    return nxt


def commutation(q: np.ndarray, q_next: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each fibre of ``q``: the number of distinct ``q_next`` values its states reach.

    ``q_next[s]`` is the quotient of the successor of state ``s``. A fibre commutes with the
    dynamics when that number is 1: the successor's quotient is then determined by the quotient
    alone (the move passes to the quotient). Returns the fibre labels and the counts.
    """
    pairs = np.unique(np.stack([q, q_next], axis=1), axis=0)
    fibres, distinct = np.unique(pairs[:, 0], return_counts=True)
    return fibres, distinct


def group_commutation(n: int = 9, d: int = 3) -> int:
    """The group control: pairs ``(x, t)`` of ``Z_n`` with ``pi(x + t) == pi(x) + t`` in ``Z_d``.

    ``pi(x) = x mod d`` is a homomorphism when ``d`` divides ``n``: all ``n * n`` pairs commute,
    by structure (the fibres are cosets, translates of one another).
    """
    x, t = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    return int(((x + t) % n % d == (x % d + t) % d).sum())


def cells_of(mask: int) -> list[int]:
    """The cells of an occupancy bitmask, in increasing order."""
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


# --- the report -------------------------------------------------------------------------------


def report(world: World | None = None) -> dict:
    """Every number of the module docstring for ``world`` (default: 6 tiles on 3x3, groups 1-3
    and 4-6), as a dict."""
    world = world or World()
    states = world.states()
    x_a = sub_config(states, world.group_a, world.ncells)
    x_b = sub_config(states, world.group_b, world.ncells)
    s_b = occupancy(states, world.group_b)
    q_p = row_profile(states, world.group_b, world.rows, world.cols)

    h_sb, h_x_sb, h_x = chain_rule(s_b)
    h_qp, h_x_qp, _ = chain_rule(q_p)
    sb_sizes = np.unique(s_b, return_counts=True)[1]
    qp_sizes = np.unique(q_p, return_counts=True)[1]

    successors = policy_move(states, world)
    fibres, distinct = commutation(s_b, occupancy(successors, world.group_b))
    _, distinct_qp = commutation(
        q_p, row_profile(successors, world.group_b, world.rows, world.cols)
    )
    size_of = dict(zip(*np.unique(s_b, return_counts=True), strict=True))
    split = fibres[distinct > 1]
    worst = int(fibres[np.argmax(distinct)])
    return {
        "states": len(states),
        "H(X)": h_x,
        "H(X_A)": entropy(x_a),
        "H(X_B)": entropy(x_b),
        "H(X_A,X_B)": entropy(x_a, x_b),
        "S_B fibres": len(sb_sizes),
        "S_B fibre sizes": sorted({int(s) for s in sb_sizes}),
        "H(S_B)": h_sb,
        "H(X|S_B)": h_x_sb,
        "chain rule residual S_B": h_x - (h_sb + h_x_sb),
        "Q' fibres": len(qp_sizes),
        "Q' fibre sizes": sorted((int(s) for s in qp_sizes), reverse=True),
        "H(Q')": h_qp,
        "H(X|Q')": h_x_qp,
        "chain rule residual Q'": h_x - (h_qp + h_x_qp),
        "I(X_A;X_B)": mutual_information(x_a, x_b),
        "I(X_A;X_B|S_B)": conditional_mutual_information(x_a, x_b, s_b),
        "I(X_A;X_B|Q')": conditional_mutual_information(x_a, x_b, q_p),
        "S_B commuting fibres": int((distinct == 1).sum()),
        "S_B states in non-commuting fibres": int(sum(size_of[f] for f in split)),
        "S_B non-commuting fibres": sorted(cells_of(int(f)) for f in split),
        "S_B most successors": (cells_of(worst), int(distinct.max())),
        "Q' commuting fibres": int((distinct_qp == 1).sum()),
        "group Z_9 -> Z_3 commuting pairs": group_commutation(9, 3),
    }


def main() -> None:
    """Print the report of the default world as a two-column table."""
    world = World()
    numbers = report(world)
    print(
        f"{world.rows}x{world.cols} board, {world.n_tiles} tiles, "
        f"A = {world.group_a}, B = {world.group_b} (tile indices)"
    )
    width = max(map(len, numbers))
    for name, value in numbers.items():
        shown = str(value)
        if isinstance(value, float):  # exact zeros show their rounding residue
            shown = f"{value:.6f}" if abs(value) > 1e-6 else f"{value:.2e}"
        print(f"  {name:<{width}}  {shown}")


if __name__ == "__main__":
    main()
