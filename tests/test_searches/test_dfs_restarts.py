"""The dfs-restarts solver: answers that the family's checker accepts, determinism, proofs of
infeasibility that count exactly the full tree, honest partial boards, parameter checks."""

from __future__ import annotations

import time

import pytest

import searches.edgematch_dfs  # noqa: F401  (registers dfs-restarts)
from bench.api import REGISTRY, ParamError
from instances.edgematch import GENERATORS, check
from instances.edgematch.model import Instance, rotated
from searches.support.restarts import luby

from helpers import budget

SPEC = REGISTRY["edgematch/dfs-restarts"]


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    SPEC.prepare()


def run(instance: Instance, seed: int = 1, seconds: float = 10.0, **params):
    return SPEC.solve(instance, budget(seconds), seed=seed, **SPEC.resolve(params))


def planted(n: int, hints: int | str, seed: int, border: int = 3, inner: int = 5) -> Instance:
    """The family's planted n x n board (hints: up to 5, at Eternity-II-like cells)."""
    params = {"n": n, "border": border, "inner": inner, "hints": hints}
    return GENERATORS["planted"](params, seed).instance


def broken(instance: Instance) -> Instance:
    """The same board with one inner edge of piece 0 recoloured to a colour nobody else has."""
    edges = list(instance.pieces[0])
    side = next(s for s in range(4) if edges[s] != 0)
    edges[side] = instance.colors + 1
    return Instance(rows=instance.rows, cols=instance.cols, colors=instance.colors + 1,
                    pieces=(tuple(edges), *instance.pieces[1:]), hints=instance.hints)


def tree_size(instance: Instance) -> tuple[bool, int]:
    """Reference count, in plain Python, of the placements of a full row-major search (distinct
    orientations only, hints pinned): a tree size that no search order changes."""
    rows, cols, n = instance.rows, instance.cols, instance.ncells
    pins = {h.row * cols + h.col: rotated(instance.pieces[h.piece], h.rot) for h in instance.hints}
    pinned_piece = {h.row * cols + h.col: h.piece for h in instance.hints}
    free = [(p, shown) for p, edges in enumerate(instance.pieces) if p not in pinned_piece.values()
            for shown in dict.fromkeys(rotated(edges, r) for r in range(4))]
    board: list = [None] * n
    used: set[int] = set()
    count = 0

    def fits(cell: int, shown: tuple[int, ...]) -> bool:
        r, c = divmod(cell, cols)
        outer = (r == 0, c == cols - 1, r == rows - 1, c == 0)
        if any(outer[s] != (shown[s] == 0) for s in range(4)):
            return False
        neighbours = [(c > 0, board[cell - 1], 1, 3), (r > 0, board[cell - cols], 2, 0),
                      (c < cols - 1, pins.get(cell + 1), 3, 1),
                      (r < rows - 1, pins.get(cell + cols), 0, 2)]
        return all(other is None or not inside or other[theirs] == shown[mine]
                   for inside, other, theirs, mine in neighbours)

    def search(cell: int) -> bool:
        nonlocal count
        if cell == n:
            return True
        options = ([(pinned_piece[cell], pins[cell])] if cell in pins
                   else [(p, s) for p, s in free if p not in used])
        for piece, shown in options:
            if fits(cell, shown):
                count += 1
                used.add(piece)
                board[cell] = shown
                if search(cell + 1):
                    return True
                used.discard(piece)
                board[cell] = None
        return False

    return search(0), count


@pytest.mark.parametrize("n,hints", [(5, 0), (5, 2), (6, 0), (6, 4)])
@pytest.mark.parametrize("seed", [1, 2])
def test_solves_small_planted_boards(n: int, hints: int, seed: int) -> None:
    instance = planted(n, hints, seed)
    out = run(instance, seed=seed)
    verdict = check(instance, out.solution)
    assert out.status == "solved" and verdict.solved, verdict.reason
    assert out.counters["best_score"] == verdict.score == instance.max_score


@pytest.mark.parametrize("restart", ["luby", "geometric", "none"])
def test_same_seed_same_search(restart: str) -> None:
    instance = planted(12, 5, 3, border=5, inner=17)
    params = {"restart": restart, "restart_unit": 5000, "max_nodes": 300_000}
    first, again = run(instance, seed=7, **params), run(instance, seed=7, **params)
    assert first.counters == again.counters and first.solution == again.solution
    other = run(instance, seed=8, **params)
    assert other.solution != first.solution or other.counters != first.counters


def test_chunks_do_not_change_the_search() -> None:
    instance = planted(12, 5, 4, border=5, inner=17)
    params = {"restart_unit": 3000, "max_nodes": 200_000}
    whole = run(instance, seed=3, **params)
    sliced = run(instance, seed=3, chunk_nodes=1000, **params)
    assert whole.counters == sliced.counters and whole.solution == sliced.solution


def test_two_pieces_that_cannot_meet_are_infeasible() -> None:
    instance = Instance(rows=1, cols=2, colors=2, pieces=((0, 1, 0, 0), (0, 0, 0, 2)))
    for restart in ("none", "luby"):
        out = run(instance, restart=restart)
        assert out.status == "infeasible" and out.solution is None


@pytest.mark.parametrize("n,hints,seed", [(3, 0, 1), (3, 2, 2), (4, 0, 3), (4, 2, 4)])
def test_exhaustion_counts_the_full_tree(n: int, hints: int, seed: int) -> None:
    instance = broken(planted(n, hints, seed, border=2, inner=3))
    solvable, size = tree_size(instance)
    assert not solvable
    for restart, unit in (("none", 1), ("luby", 10**9)):
        out = run(instance, seed=seed, restart=restart, restart_unit=unit)
        assert out.status == "infeasible" and out.counters["nodes"] == size
    # Short runs restart many times, but the run that finally covers the tree proves it too.
    assert run(instance, seed=seed, restart="luby", restart_unit=3).status == "infeasible"


@pytest.mark.parametrize("hints", [0, 5])
def test_node_limited_run_returns_an_honest_partial_board(hints: int) -> None:
    instance = planted(12, hints, 1, border=5, inner=17)
    out = run(instance, seed=2, max_nodes=100_000, restart_unit=10_000)
    verdict = check(instance, out.solution)
    assert out.status == "unknown" and out.counters["nodes"] == 100_000
    assert verdict.legal, verdict.reason
    assert out.counters["best_score"] == verdict.score > 0
    assert out.solution.placed() >= out.counters["best_depth"]


def test_stops_inside_a_short_budget() -> None:
    instance = planted(14, 5, 1, border=5, inner=17)
    t = time.monotonic()
    out = run(instance, seconds=0.3)
    assert out.status == "unknown" and time.monotonic() - t < 2.0
    assert check(instance, out.solution).legal


def test_luby_sequence() -> None:
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@pytest.mark.parametrize("given", [{"restart": "often"}, {"restart_unit": 0},
                                   {"restart_factor": 0.5}, {"max_nodes": -1},
                                   {"restart_unit": "many"}, {"depth": 3}])
def test_bad_parameters_are_named(given: dict) -> None:
    name = next(iter(given))
    with pytest.raises(ParamError, match=name):
        SPEC.resolve(given)


def test_declaration() -> None:
    assert (SPEC.family, SPEC.paradigm) == ("edgematch", "native")
    assert SPEC.backend.startswith("numba-")
    assert SPEC.resolve({"restart": "geometric", "restart_unit": "2e5"})["restart_unit"] == 200_000
