"""Edge matching as a clique problem (igraph): the reduction seed 004 calls elegant but hopeless.

Seed 004 ("Clique maximale"): vertices are the legal placements, edges join two mutually
compatible placements, and a full board is a clique of ``rows * cols`` vertices. This module
builds exactly that graph, so the ladder can show where the reduction stops being practical:

- a vertex per placement (cell, piece, rot) that shows grey exactly on the cell's frame sides;
  a rotation of a symmetric piece showing the same colours as a lower one is kept once; a
  hinted cell has only its hint's placement, and a hinted piece appears nowhere else;
- an edge between two placements on different cells, of different pieces, that show the same
  colour on their shared join if the cells are neighbours. Two placements of one cell are never
  joined, so a clique holds at most one placement per cell and the clique number is at most
  ``rows * cols``: a clique of that size *is* a solved board, and a smaller clique number
  proves the board infeasible;
- ``symmetry="hints"`` (as in ``cpsat``): on a board without hints, the lowest corner piece is
  kept only at the top-left corner (square) or out of the two bottom corners (rectangle),
  since turning a solved board gives another one.

The graph is dense, and that is the finding: every pair of non-neighbouring cells (all but
``2 rows cols - rows - cols`` of the ``C(rows cols, 2)`` pairs) joins every pair of distinct
pieces, so the edges grow like V^2 / 2 with V ~ (number of pieces) x 4 rotations on the inner
cells. Planted boards with 5 frame + 17 inner colours (5 hints / none): 0.3 / 0.7 M edges at
6x6, 8.7 / 15 M at 8x8, 33 / 49 M at 9x9, 100 / 140 M at 10x10, 1.1 / 1.2 x 10^10 at 16x16
(Eternity II). The edges are counted exactly from per-cell piece counts *before* anything
quadratic is allocated, and a board whose count exceeds ``max_edges`` is refused (``unknown``
with the counters ``refused_edges`` and ``estimated_peak_mb``) instead of running out of
memory; so is one whose estimated peak exceeds the run's memory budget.

Building. The compatibility of two cells is one vectorised NumPy block (different pieces,
equal colours on the shared join) written into a boolean upper-triangular adjacency matrix.
igraph's abi3 wheels have no zero-copy way in: an (m, 2) edge array is read pair by pair, and
a list of pairs costs Python objects per edge, while ``Graph.Adjacency`` on the matrix as lists
is the fastest way in. Memory at the peak is about 16 bytes per vertex pair (the Python lists
and igraph's float copy of the matrix) plus 48 bytes per edge (igraph's edge vector and graph),
plus V^2 / 8 bytes for Cliquer's bitset copy when the search starts: about 90 bytes per edge on
these dense graphs, so the default ``max_edges`` of 50 M is about 4 GB.

Search. igraph has three exact searches, and only one stops at the first board:

- ``Graph.cliques(min=k, max=k, max_results=1)`` runs Cliquer (Ostergard's branch and bound,
  bounded by the clique sizes of vertex prefixes and a greedy colouring order): it first
  searches for *one* clique of size k and stops there, and ``max_results=1`` stops the
  enumeration after the first hit. Without a board it exhausts the bounded search, which proves
  the clique number is below k. This is the default, ``search="first"``; it needs igraph >= 1.0
  (``max_results`` is new in 1.0; in 0.11 the call lists every board).
- ``largest_cliques()`` and ``clique_number()`` both enumerate *every maximal clique*
  (Bron-Kerbosch with pivoting, no size bound) and keep the largest: on this graph every
  partial board that cannot be extended is a maximal clique, so they pay for all of them.
  ``search="largest"`` runs ``largest_cliques`` for comparison, and reports the exact clique
  number and the number of maximum cliques (when it is ``rows * cols``: every solved board,
  with its turned copies unless the symmetry pin removed them).

Neither search has a time limit and the Python call cannot be interrupted from inside: the
runner's watchdog kills the worker at the budget plus its grace, which is recorded as
``timeout``. Piece indices are the instance's 0..P-1; rotations follow
``instances.edgematch.model`` (after ``rot`` clockwise quarter turns side ``s`` shows listed
edge ``(s - rot) % 4``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from importlib.metadata import version

import numpy as np

from bench.api import Budget, Outcome, Param, solver
from encoders.support.edgematch_placements import (
    Placement,
    cell_placements,
    interior_joins,
    symmetry_pin,
)
from instances.edgematch.model import Instance, Solution

SEARCHES = ("first", "largest")
SYMMETRY = ("hints", "none")


@dataclass(frozen=True)
class Placements:
    """The vertices: per vertex its cell, piece, rotation and the colours it shows (N, E, S, W).

    Vertices are grouped by cell in row-major order, so cell ``c`` owns the vertex range
    ``start[c]:start[c + 1]``: the adjacency matrix is then made of per-cell-pair blocks, and
    filling only blocks with ``a < b`` makes it upper-triangular.
    """

    cell: np.ndarray
    piece: np.ndarray
    rot: np.ndarray
    shown: np.ndarray
    start: np.ndarray

    @property
    def count(self) -> int:
        return len(self.cell)

    def block(self, cell: int) -> slice:
        return slice(int(self.start[cell]), int(self.start[cell + 1]))


# --- vertices ---------------------------------------------------------------------------------


def pin_symmetry(instance: Instance, per_cell: list[list[Placement]]) -> None:
    """On a board without hints, keep the lowest top-left corner piece at the top-left corner
    only (square: a quarter turn brings any corner there) or out of the bottom corners
    (rectangle: a half turn swaps top and bottom). Each class of turned boards keeps one
    (``edgematch_placements.symmetry_pin``)."""
    pin = symmetry_pin(instance, per_cell)
    if pin is None:
        return
    if pin.home is not None:
        per_cell[pin.home] = [v for v in per_cell[pin.home] if v[0] == pin.piece]
    for cell in pin.barred:
        per_cell[cell] = [v for v in per_cell[cell] if v[0] != pin.piece]


def placements(instance: Instance, symmetry: str = "hints") -> Placements:
    """Every vertex of the graph (see the module docstring), grouped by cell: the placements of
    ``edgematch_placements.cell_placements``, less those the symmetry pin removes."""
    per_cell = cell_placements(instance)
    if symmetry == "hints":
        pin_symmetry(instance, per_cell)
    sizes = [len(vs) for vs in per_cell]
    flat = [(cell, p, r, *shown) for cell, vs in enumerate(per_cell) for p, r, shown in vs]
    table = np.asarray(flat, dtype=np.int32).reshape(len(flat), 7)
    start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    return Placements(table[:, 0], table[:, 1], table[:, 2], table[:, 3:], start)


# --- edges ------------------------------------------------------------------------------------


def compatible(pl: Placements, a: int, b: int, side: int | None) -> np.ndarray:
    """The block of edges between cells a and b: different pieces, and if b is a's neighbour on
    ``side`` (E or S), the colour a shows there equals the one b shows on the opposite side."""
    sa, sb = pl.block(a), pl.block(b)
    ok = pl.piece[sa, None] != pl.piece[None, sb]
    if side is not None:
        ok &= pl.shown[sa, side, None] == pl.shown[None, sb, (side + 2) % 4]
    return ok


def count_edges(instance: Instance, pl: Placements) -> int:
    """The exact edge count, in memory linear in the vertices: all pairs of vertices on
    different cells, less those of one piece, computed from per-cell piece counts; then the
    neighbour pairs (a few blocks) replaced by their colour-checked blocks."""
    ncells, npieces = instance.ncells, len(instance.pieces)
    counts = np.zeros((ncells, npieces), dtype=np.int64)
    np.add.at(counts, (pl.cell, pl.piece), 1)
    sizes = counts.sum(axis=1)
    per_piece = counts.sum(axis=0)
    all_pairs = (int(sizes.sum()) ** 2 - int((sizes ** 2).sum())) // 2
    same_piece = (int((per_piece ** 2).sum()) - int((counts ** 2).sum())) // 2
    total = all_pairs - same_piece
    for a, side, b, _ in interior_joins(instance.rows, instance.cols):
        blind = int(sizes[a] * sizes[b] - counts[a] @ counts[b])
        total += int(compatible(pl, a, b, side).sum()) - blind
    return total


def adjacency(instance: Instance, pl: Placements) -> np.ndarray:
    """The upper-triangular boolean adjacency matrix, one vectorised block per cell pair."""
    matrix = np.zeros((pl.count, pl.count), dtype=bool)
    facing = {(a, b): side for a, side, b, _ in interior_joins(instance.rows, instance.cols)}
    for a in range(instance.ncells):
        for b in range(a + 1, instance.ncells):
            matrix[pl.block(a), pl.block(b)] = compatible(pl, a, b, facing.get((a, b)))
    return matrix


def build_graph(instance: Instance, pl: Placements) -> object:
    """The igraph graph of the board (see the module docstring for why it goes through an
    adjacency matrix, and what that costs)."""
    import igraph

    matrix = adjacency(instance, pl)
    rows = matrix.tolist()
    del matrix
    return igraph.Graph.Adjacency(rows, mode="upper")


# --- search -----------------------------------------------------------------------------------


@dataclass
class Found:
    """What a search found: a clique of size k (vertex ids) or None, and what it knows."""

    clique: tuple[int, ...] | None
    clique_number: int | None = None
    cliques: int | None = None


def search_first(graph: object, k: int) -> Found:
    """Cliquer, bounded to size exactly k, stopped at the first clique found. The clique number
    is k when one is found (no clique can be larger), unknown (only < k) otherwise."""
    found = graph.cliques(min=k, max=k, max_results=1)
    if not found:
        return Found(None)
    return Found(tuple(found[0]), clique_number=k)


def search_largest(graph: object, k: int) -> Found:
    """Every maximum clique (Bron-Kerbosch over all maximal cliques): the exact clique number,
    and how many maximum cliques there are."""
    largest = graph.largest_cliques()
    number = len(largest[0]) if largest else 0
    clique = tuple(largest[0]) if number == k else None
    return Found(clique, clique_number=number, cliques=len(largest))


def to_solution(instance: Instance, pl: Placements, clique: tuple[int, ...]) -> Solution:
    """The board of a clique of rows * cols vertices (one per cell)."""
    cells: list[tuple[int, int] | None] = [None] * instance.ncells
    for v in clique:
        cells[int(pl.cell[v])] = (int(pl.piece[v]), int(pl.rot[v]))
    return Solution(instance.rows, instance.cols, tuple(cells))


# --- solver -----------------------------------------------------------------------------------


def prepare() -> None:
    """Import igraph and find a triangle, so that no timed run pays the import."""
    import igraph

    igraph.Graph.Full(3).cliques(min=3, max=3, max_results=1)


#: Measured peak of building a graph: a boolean adjacency matrix of 16 bytes per vertex pair
#: in Python lists, about 48 bytes per edge inside igraph, over an interpreter of ~150 MB.
BYTES_PER_PAIR, BYTES_PER_EDGE, BASELINE_MB = 16, 48, 150


def estimated_peak_mb(vertices: int, edges: int) -> float:
    return (BYTES_PER_PAIR * vertices**2 + BYTES_PER_EDGE * edges) / 2**20 + BASELINE_MB


def _encode(instance: Instance, symmetry: str, max_edges: int, mem_mb: int
            ) -> tuple[Placements, object | None, dict[str, float]]:
    """Vertices, the exact edge count, and the graph unless it is refused or pointless (a
    cell without any placement: no board, no need for a graph). A graph is refused when it
    has more than ``max_edges`` edges or would not fit in the run's memory budget."""
    pl = placements(instance, symmetry)
    edges = count_edges(instance, pl)
    counters: dict[str, float] = {"vertices": pl.count, "edges": edges}
    peak = estimated_peak_mb(pl.count, edges)
    if edges > max_edges or peak > mem_mb:
        counters["refused_edges"] = edges
        counters["estimated_peak_mb"] = peak
        return pl, None, counters
    if np.any(np.diff(pl.start) == 0):
        counters["empty_cells"] = int(np.sum(np.diff(pl.start) == 0))
        return pl, None, counters
    return pl, build_graph(instance, pl), counters


def _outcome(instance: Instance, pl: Placements, graph: object | None,
             counters: dict[str, float], search: str) -> Outcome:
    """Run the search (if there is a graph) and turn what it found into a claim."""
    if "refused_edges" in counters:
        return Outcome("unknown")
    if graph is None:
        return Outcome("infeasible")
    run = search_first if search == "first" else search_largest
    found = run(graph, instance.ncells)
    if found.clique_number is not None:
        counters["clique_number"] = found.clique_number
    if found.cliques is not None:
        counters["cliques"] = found.cliques
    if found.clique is None:
        return Outcome("infeasible")
    return Outcome("solved", solution=to_solution(instance, pl, found.clique))


PARAMS = [
    Param("search", "first", "'first': Cliquer bounded to size rows*cols, stopped at the "
          "first board; 'largest': every maximum clique (Bron-Kerbosch), for the exact "
          "clique number and the number of boards", choices=SEARCHES),
    Param("symmetry", "hints", "'hints': when the board has no hints, pin the lowest corner "
          "piece to break the board's rotations; 'none': add nothing", choices=SYMMETRY),
    Param("max_edges", 50_000_000, "refuse (status unknown, counter refused_edges) a graph "
          "with more edges than this, counted before it is built (~90 bytes per edge at the "
          "peak)", min=0),
]


@solver("clique", family="edgematch", paradigm="clique", backend=f"igraph-{version('igraph')}",
        params=PARAMS, prepare=prepare)
def solve(instance: Instance, budget: Budget, seed: int, search: str = "first",
          symmetry: str = "hints", max_edges: int = 50_000_000) -> Outcome:
    """Clique of rows*cols compatible placements (igraph/Cliquer); dense, small boards only."""
    start = time.perf_counter()
    pl, graph, counters = _encode(instance, symmetry, max_edges, budget.mem_mb)
    t_encode = time.perf_counter() - start
    sizes = {"model_vars": pl.count, "model_constraints": int(counters["edges"])}
    if graph is not None and budget.remaining() <= 0:
        return Outcome("unknown", counters=counters, t_encode=t_encode, t_solve=0.0, **sizes)
    start = time.perf_counter()
    out = _outcome(instance, pl, graph, counters, search)
    out.t_encode, out.t_solve = t_encode, time.perf_counter() - start
    out.counters = counters
    out.model_vars, out.model_constraints = sizes["model_vars"], sizes["model_constraints"]
    return out
