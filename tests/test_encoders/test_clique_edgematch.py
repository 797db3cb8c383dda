"""The max-clique edge-matching solver: its boards check as solved, its graph is the one counted
by hand, and it refuses a graph too big to build instead of running out of memory.

Every solved board is re-checked with the family's independent checker. The 2x2 board below
is small enough to count its graph by hand (see ``test_graph_of_a_2x2_board``).
"""

from __future__ import annotations

import time

import pytest

import encoders.edgematch_clique as ec
from bench.api import REGISTRY, Budget
from instances.edgematch import Hint, Instance, check

from helpers import budget
from helpers import planted as planted_board

SPEC = REGISTRY["edgematch/clique"]

# A 2x2 board stored as it is solved (no turns): every cell a corner, joins coloured 1 (top),
# 2 (bottom), 3 (left) and 4 (right). Pieces, clockwise from the top: A, B / C, D.
HAND = ((0, 1, 3, 0), (0, 0, 4, 1), (3, 2, 0, 0), (4, 0, 0, 2))


def run(instance: Instance, **params):
    return SPEC.solve(instance, budget(), seed=1, **SPEC.resolve(params))


def planted(n: int, hints: int | str, seed: int = 1, **more) -> Instance:
    """Seed 004's colours (5 frame + 17 inner), as the ladder uses them."""
    return planted_board(n, hints, border=5, inner=17, seed=seed, **more)


def hand_board(pieces=HAND, hints=()) -> Instance:
    return Instance(rows=2, cols=2, colors=4, pieces=tuple(pieces), hints=tuple(hints))


def test_registered_with_its_declaration():
    assert SPEC.family == "edgematch" and SPEC.paradigm == "clique"
    assert SPEC.backend.startswith("igraph-")
    assert SPEC.defaults() == {"search": "first", "symmetry": "hints",
                               "max_edges": 50_000_000}
    SPEC.prepare()


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("hints", [0, "max"])
def test_solves_planted_boards(n, hints):
    instance = planted(n, hints)
    out = run(instance)
    assert out.status == "solved"
    verdict = check(instance, out.solution)
    assert verdict.solved, verdict.reason
    assert out.counters["clique_number"] == n * n
    assert out.model_vars == out.counters["vertices"] > 0
    assert out.model_constraints == out.counters["edges"] > 0
    assert out.t_encode >= 0 and out.t_solve >= 0


@pytest.mark.parametrize("symmetry", ec.SYMMETRY)
@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 4), (4, 3)])
def test_solves_rectangles(rows, cols, symmetry):
    instance = planted(rows, 0, seed=3, rows=rows, cols=cols)
    out = run(instance, symmetry=symmetry)
    assert out.status == "solved"
    assert check(instance, out.solution).solved


def test_hints_are_kept():
    instance = planted(5, hints="max", seed=2)
    out = run(instance)
    for h in instance.hints:
        assert out.solution.cells[h.row * instance.cols + h.col] == (h.piece, h.rot)


@pytest.mark.parametrize("n,hints", [(4, 0), (5, "max"), (6, "max")])
def test_edge_count_matches_the_built_graph(n, hints):
    instance = planted(n, hints)
    pl = ec.placements(instance)
    graph = ec.build_graph(instance, pl)
    assert graph.vcount() == pl.count
    assert graph.ecount() == ec.count_edges(instance, pl)


def test_graph_of_a_2x2_board():
    """By hand. Each corner piece fits each corner in one rotation: 4 vertices per cell, 16.
    The two diagonal cell pairs join every pair of distinct pieces: 2 x (16 - 4) = 24. Each of
    the four joins is matched by 4 (piece, piece) pairs, all of distinct pieces: 16. So 40
    edges, and the 4 turns of the board are the 4 maximum cliques.

    With the symmetry pin, the top-left cell keeps piece A alone and A leaves the other cells:
    1 + 3 x 3 = 10 vertices; A's two joins match one piece each (2), the diagonal from A joins
    3, the other diagonal 3 x 3 - 3 = 6, and the two joins without A keep 2 pairs each: 15."""
    instance = hand_board()
    pl = ec.placements(instance, symmetry="none")
    assert (pl.count, ec.count_edges(instance, pl)) == (16, 40)
    assert ec.build_graph(instance, pl).ecount() == 40
    out = run(instance, symmetry="none", search="largest")
    assert (out.model_vars, out.model_constraints) == (16, 40)
    assert out.counters["clique_number"] == 4 and out.counters["cliques"] == 4
    assert check(instance, out.solution).solved

    pinned = run(instance, search="largest")
    assert (pinned.model_vars, pinned.model_constraints) == (10, 15)
    assert pinned.counters["cliques"] == 1
    assert pinned.solution.cells[0] == (0, 0)


@pytest.mark.parametrize("search", ec.SEARCHES)
def test_an_unsolvable_board_is_infeasible(search):
    """D shows 5 where B shows 4: the right-hand join can never match in any turn."""
    instance = hand_board(HAND[:3] + ((5, 0, 0, 2),))
    out = run(instance, search=search)
    assert out.status == "infeasible" and out.solution is None
    if search == "largest":
        assert out.counters["clique_number"] == 3


def test_a_hint_off_the_frame_leaves_a_cell_empty():
    """A hint turned so its grey faces the board leaves its cell without a vertex."""
    out = run(hand_board(hints=[Hint(0, 0, 0, 1)]))
    assert out.status == "infeasible"
    assert out.counters["empty_cells"] == 1


def test_a_hinted_piece_appears_nowhere_else():
    instance = hand_board(hints=[Hint(3, 1, 1, 0)])
    pl = ec.placements(instance)
    assert pl.cell[pl.piece == 3].tolist() == [3]
    assert pl.piece[pl.block(3)].tolist() == [3]


def test_too_many_edges_is_refused_before_building():
    instance = planted(4, 0)
    edges = ec.count_edges(instance, ec.placements(instance))
    out = run(instance, max_edges=edges - 1)
    assert out.status == "unknown" and out.solution is None
    assert out.counters["refused_edges"] == edges
    assert run(instance, max_edges=edges).status == "solved"


def test_eternity_size_is_refused_by_default():
    """16x16 would have about 10^10 edges: counted in a second, never built."""
    out = run(planted(16, 5))
    assert out.status == "unknown"
    assert out.counters["refused_edges"] > 10**10


def test_a_graph_beyond_the_memory_budget_is_refused():
    """8x8 without hints needs about 1 GB to build: refused under a 500 MB budget."""
    instance = planted(8, 0)
    tight = Budget(wall_s=10, mem_mb=500, deadline=time.monotonic() + 10)
    out = SPEC.solve(instance, tight, seed=1, **SPEC.defaults())
    assert out.status == "unknown"
    assert out.counters["estimated_peak_mb"] > 500
