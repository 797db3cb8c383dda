"""The dfs-breaks solver (score mode): every answer is a full legal board whose claimed score is
the checker's, hints stay in place, planted boards are solved, node-limited runs are
deterministic whatever the chunk size, and the score trace only goes up."""

from __future__ import annotations

import numpy as np
import pytest

import searches.edgematch_breaks as brk
from bench.api import REGISTRY, ParamError
from instances.edgematch import GENERATORS, check
from instances.edgematch.model import Hint, Instance
from searches.support.edgematch_search import EXHAUSTED, PAUSED, drive, fit_schedule

from helpers import budget

SPEC = REGISTRY["edgematch/dfs-breaks"]


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    SPEC.prepare()


def run(instance: Instance, seed: int = 1, seconds: float = 10.0, **params):
    return SPEC.solve(instance, budget(seconds), seed=seed, **SPEC.resolve(params))


def planted(n: int, hints: int | str, seed: int = 1, border: int = 3, inner: int = 6) -> Instance:
    params = {"n": n, "border": border, "inner": inner, "hints": hints}
    return GENERATORS["planted"](params, seed).instance


def assert_full_and_honest(instance: Instance, out) -> None:
    """A full legal board, the claimed score the checker's, the hints where they belong."""
    verdict = check(instance, out.solution)
    assert verdict.legal, verdict.reason
    assert out.solution.placed() == instance.ncells
    assert out.objective == verdict.score == out.counters["best_score"]
    for h in instance.hints:
        assert out.solution.cells[h.row * instance.cols + h.col] == (h.piece, h.rot)
    assert (out.status == "solved") == verdict.solved


@pytest.mark.parametrize("n", [6, 8])
@pytest.mark.parametrize("hints", [0, "max"])
@pytest.mark.parametrize("scan", brk.SCANS)
def test_node_limited_boards_are_full_legal_and_scored_honestly(n: int, hints: int,
                                                                scan: str) -> None:
    # Few nodes and breaks from the first cell: the answer is usually a board with breaks.
    instance = planted(n, hints, seed=n + (5 if hints == "max" else hints), inner=8)
    out = run(instance, break_from=0.0, max_nodes=3000, restart_unit=500, chunk_nodes=1000,
              scan=scan)
    assert_full_and_honest(instance, out)


@pytest.mark.parametrize("n,hints,seed,inner,scan", [
    (6, 0, 1, 8, "rows"), (6, "max", 2, 8, "rows"), (8, 0, 3, 12, "rows"), (8, 5, 3, 12, "rows"),
    (6, 0, 1, 8, "diagonals"), (6, "max", 2, 8, "diagonals")])
def test_planted_boards_reach_max_score_and_claim_solved(n: int, hints: int, seed: int,
                                                         inner: int, scan: str) -> None:
    instance = planted(n, hints, seed, inner=inner)
    out = run(instance, seed=seed, scan=scan)
    assert out.status == "solved"
    assert out.objective == instance.max_score
    assert_full_and_honest(instance, out)


def test_score_trace_increases_and_ends_at_the_objective() -> None:
    instance = planted(8, 5, seed=7, inner=8)
    out = run(instance, break_from=0.0, break_slack=0, max_nodes=200_000, restart_unit=2000)
    times = [t for t, _ in out.score_trace]
    scores = [s for _, s in out.score_trace]
    assert scores and times == sorted(times)
    assert all(a < b for a, b in zip(scores, scores[1:], strict=False))
    assert scores[-1] == out.objective
    assert_full_and_honest(instance, out)


@pytest.mark.parametrize("scan", brk.SCANS)
def test_node_limited_runs_are_deterministic_whatever_the_chunks(scan: str) -> None:
    instance = planted(8, 5, seed=5, inner=9)
    common = {"break_from": 0.15, "max_nodes": 50_000, "restart_unit": 3000, "scan": scan}
    a = run(instance, seed=11, chunk_nodes=50_000, **common)
    b = run(instance, seed=11, chunk_nodes=1000, **common)
    assert a.solution == b.solution
    assert a.counters == b.counters
    assert [s for _, s in a.score_trace] == [s for _, s in b.score_trace]


def test_exact_only_still_returns_a_full_board() -> None:
    # No break anywhere: the search is exact DFS, and the greedy board keeps the answer full.
    instance = planted(8, 5, seed=3, inner=9)
    out = run(instance, break_from=1.0, cell_breaks=0, max_nodes=1000, chunk_nodes=1000)
    assert_full_and_honest(instance, out)


def test_every_join_is_counted_once() -> None:
    # The table costs summed along a board equal its mismatched joins (by the checker).
    instance = planted(6, "max", seed=9, inner=8)
    tables = brk.build_tables(instance)
    board = brk.greedy_board(instance, tables)
    score = check(instance, brk.Solution.from_arrays(6, 6, board >> 2, board & 3)).score
    assert brk.board_breaks(instance, board) == instance.max_score - score


@pytest.mark.parametrize("tail_rows", [0, 1, 3, 5, 9])
def test_scan_orders_place_west_and_north_neighbours_first(tail_rows: int) -> None:
    for scan in brk.SCANS:
        order = brk.scan_order(5, 7, scan, tail_rows)
        assert sorted(order) == list(range(35))
        depth = {int(cell): d for d, cell in enumerate(order)}
        for cell, d in depth.items():
            if cell % 7:
                assert depth[cell - 1] < d
            if cell >= 7:
                assert depth[cell - 7] < d


def test_tail_rows_come_last_column_by_column() -> None:
    order = brk.scan_order(5, 4, "rows", 2)
    assert list(order[:12]) == list(range(12))
    assert list(order[12:]) == [12, 16, 13, 17, 14, 18, 15, 19]


@pytest.mark.parametrize("n,hints,seed", [(6, "max", 2), (8, 5, 3)])
def test_tail_rows_boards_are_honest_and_deterministic(n: int, hints, seed: int) -> None:
    instance = planted(n, hints, seed, inner=8)
    common = {"break_from": 0.15, "max_nodes": 50_000, "restart_unit": 3000, "tail_rows": 3}
    a = run(instance, seed=seed, chunk_nodes=50_000, **common)
    b = run(instance, seed=seed, chunk_nodes=1000, **common)
    assert_full_and_honest(instance, a)
    assert a.solution == b.solution and a.counters == b.counters
    solved = run(instance, seed=seed, tail_rows=3)
    assert solved.status == "solved" and solved.objective == instance.max_score


def test_shape_is_zero_before_start_and_one_at_the_end() -> None:
    shape = brk.break_shape(256, 100, 4.0)
    assert shape[:101].max() == 0.0 and shape[-1] == 1.0
    assert np.all(np.diff(shape) >= 0)
    allow = np.zeros(257, dtype=np.int64)
    fit_schedule(shape, 1, 41, allow)
    assert allow[100] == 0 and allow[-1] == 40 and allow.max() == 40


def test_parameters_are_checked() -> None:
    with pytest.raises(ParamError, match="cell_breaks"):
        SPEC.resolve({"cell_breaks": 3})
    with pytest.raises(ParamError, match="restart"):
        SPEC.resolve({"restart": "sometimes"})


def test_a_hint_against_the_frame_is_infeasible() -> None:
    # No legal full board keeps a corner piece turned with its grey inwards: nothing to score.
    gen = GENERATORS["planted"]({"n": 4, "border": 2, "inner": 4}, 1)
    piece, rot = gen.secret.cells[0]
    instance = Instance(rows=4, cols=4, colors=6, pieces=gen.instance.pieces,
                        hints=(Hint(piece, 0, 0, (rot + 1) % 4),))
    assert run(instance).status == "infeasible"


class TinyTrees:
    """A search whose every run is exhausted after three nodes, and which always begins
    another."""

    def __init__(self) -> None:
        self.nodes, self.best_score, self.runs = 0, -1, 1

    def run(self, nodes: int) -> int:
        self.nodes += 3
        return EXHAUSTED

    def next_run(self) -> bool:
        self.runs += 1
        return True


def test_drive_stops_after_max_runs_begun() -> None:
    search = TinyTrees()
    assert drive(search, budget(20.0), 3000, 1000, [], 0.0, max_runs=7) == PAUSED
    assert (search.runs, search.nodes) == (8, 21)  # 7 runs exhausted, 7 more begun
    search = TinyTrees()  # no limit: until max_nodes
    assert drive(search, budget(20.0), 3000, 1000, [], 0.0) == PAUSED
    assert search.nodes == 3000
