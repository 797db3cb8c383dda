"""The lns solver (edge matching, score mode): every answer is a full legal board whose claimed
score is the checker's, hints stay in place, runs limited by nodes and moves are deterministic
per seed, the region moves improve a poor starting board, and the score trace only goes up."""

from __future__ import annotations

import numpy as np
import pytest
from test_breaks import assert_full_and_honest, planted

import searches.edgematch_lns as lns
from bench.api import REGISTRY
from instances.edgematch.model import Instance

from helpers import budget

SPEC = REGISTRY["edgematch/lns"]

# A poor start (a few hundred nodes of dfs-breaks), short turns and a fixed number of moves:
# deterministic.
SHORT = {"start_nodes": 300, "slice_nodes": 2000, "slice_moves": 50, "max_moves": 400,
         "chunk_moves": 37, "chunk_nodes": 1000, "node_limit": 2000}


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    SPEC.prepare()


def run(instance: Instance, seed: int = 1, seconds: float = 20.0, **params):
    return SPEC.solve(instance, budget(seconds), seed=seed, **SPEC.resolve(params))


@pytest.mark.parametrize("n,hints,seed", [(6, 0, 1), (7, "max", 2), (8, 0, 3), (8, 5, 4)])
def test_boards_are_full_legal_and_scored_honestly(n: int, hints, seed: int) -> None:
    instance = planted(n, hints, seed=seed, inner=8)
    out = run(instance, seed=seed, **SHORT)
    assert_full_and_honest(instance, out)
    scores = [s for _, s in out.score_trace]
    assert scores == sorted(scores) and scores[-1] == out.objective


@pytest.mark.parametrize("params", [{}, {"p_assign": 0.5, "p_worse": 0.3, "extra": 0},
                                    {"tail_rows": 3},
                                    {"p_assign": 0.0, "extra_from": "anywhere", "max_side": 3}])
def test_same_seed_same_board_whatever_the_chunking(params: dict) -> None:
    instance = planted(8, 5, seed=7, inner=8)
    a = run(instance, seed=3, **{**SHORT, **params})
    b = run(instance, seed=3, **{**SHORT, **params, "chunk_moves": 400, "chunk_nodes": 7000})
    assert a.solution == b.solution
    assert a.counters == b.counters
    c = run(instance, seed=4, **{**SHORT, **params})
    assert_full_and_honest(instance, c)


def test_moves_improve_a_poor_start() -> None:
    # 10x10, 12 inner colours: dfs-breaks with 300 nodes leaves many breaks; 2000 region moves
    # alone (no more dfs-breaks) fix some.
    instance = planted(10, 0, seed=5, inner=12)
    out = run(instance, seed=1, start_nodes=300, slice_nodes=0, max_moves=2000,
              node_limit=2000)
    assert_full_and_honest(instance, out)
    assert out.counters["best_score"] > out.counters["start_score"] >= 0
    assert out.counters["improved"] > 0


def test_region_refill_keeps_the_board_a_permutation() -> None:
    # The kernel alone, on the board of a planted instance scrambled by a few moves: the
    # multiset of pieces is kept, hints stay, the tracked breaks are the board's.
    instance = planted(8, 5, seed=11, inner=8)
    first = run(instance, seed=2, start_nodes=200, slice_nodes=0, max_moves=1)
    board = np.array([4 * p + r for p, r in first.solution.cells], dtype=np.int64)
    search = lns.Lns(instance, board, 9, {**lns.DEFAULTS, "p_worse": 0.5, "drift": 4})
    for _ in range(20):
        search.run(25)
        assert sorted(search.bo >> 2) == list(range(len(instance.pieces)))
        assert search.state[0] == lns.board_breaks(search.bo, search.col, 8, 8)
        assert search.state[1] == lns.board_breaks(search.best, search.col, 8, 8)


def test_solved_boards_end_the_search() -> None:
    instance = planted(5, "max", seed=3, inner=4)
    out = run(instance, seconds=20.0)
    assert out.status == "solved"
    assert_full_and_honest(instance, out)


@pytest.mark.parametrize("schedule", [{"break_from": 0.1, "break_power": 1.0, "break_slack": 3},
                                      {"break_from": 0.6, "break_power": 6.0, "break_slack": 0,
                                       "cell_breaks": 1}])
def test_break_schedule_reaches_dfs_breaks(schedule: dict) -> None:
    # lns' first dfs-breaks nodes are dfs-breaks' own search with the schedule passed on: the
    # same board after the same nodes as the dfs-breaks solver with those parameters, and not
    # the board of the default schedule.
    instance = planted(10, 5, seed=11, inner=10)
    nodes = 40_000
    dfs = REGISTRY["edgematch/dfs-breaks"]
    params = {"tail_rows": 2, **schedule}
    own = dfs.solve(instance, budget(20.0), seed=2,
                    **dfs.resolve({**params, "max_nodes": nodes, "chunk_nodes": 7000}))
    out = run(instance, seed=2, **params, start_nodes=nodes, slice_nodes=0, max_moves=1,
              chunk_nodes=7000)
    assert out.counters["start_nodes"] == own.counters["nodes"]
    assert out.counters["start_score"] == own.counters["best_score"]
    default = dfs.solve(instance, budget(20.0), seed=2,
                        **dfs.resolve({"tail_rows": 2, "max_nodes": nodes, "chunk_nodes": 7000}))
    assert (default.counters["best_score"], default.counters["boards"]) != (
        own.counters["best_score"], own.counters["boards"])


# Restarts: a fresh run after two turns without a better board of the run, 1500 moves in all.
RESTARTING = {**SHORT, "max_moves": 1500, "restart_after": 2}


def test_restarts_happen_are_counted_and_the_best_run_is_kept(monkeypatch) -> None:
    runs = []  # (best score of the run, ended by a restart)
    real = lns.lns_run

    def spy(instance: Instance, *args):
        one = real(instance, *args)
        runs.append((instance.max_score - one.search.best_breaks, one.restart))
        return one

    monkeypatch.setattr(lns, "lns_run", spy)
    instance = planted(10, 5, seed=8, inner=10)
    out = run(instance, seed=2, **RESTARTING)
    assert_full_and_honest(instance, out)
    assert len(runs) >= 3 and out.counters["lns_restarts"] == len(runs) - 1
    assert [restart for _, restart in runs] == [True] * (len(runs) - 1) + [False]
    assert out.counters["moves"] == RESTARTING["max_moves"]  # the moves of all runs
    scores = [score for score, _ in runs]
    assert out.objective == max(scores) == scores[out.counters["best_run"]]
    assert scores[-1] < out.objective  # a later run did worse: the best run's board is kept
    runs.clear()
    assert run(instance, seed=2, **{**RESTARTING, "restart_after": 0}).counters[
        "lns_restarts"] == 0 == len(runs) - 1


def test_restarts_are_deterministic_per_seed_and_the_trace_is_the_overall_best() -> None:
    instance = planted(8, 5, seed=7, inner=8)
    a = run(instance, seed=3, **RESTARTING)
    b = run(instance, seed=3, **{**RESTARTING, "chunk_moves": 400, "chunk_nodes": 7000})
    assert a.counters["lns_restarts"] >= 2
    assert a.solution == b.solution
    assert a.counters == b.counters
    for out in (a, b):
        assert_full_and_honest(instance, out)
        times = [t for t, _ in out.score_trace]
        scores = [s for _, s in out.score_trace]
        assert times == sorted(times)
        assert scores == sorted(scores) and scores[-1] == out.objective


def test_restarts_have_their_own_seeds() -> None:
    assert lns.sub_seed(5, 0) == 5  # run 0 is the solve without restarts
    seeds = {lns.sub_seed(seed, k) for seed in range(1, 30) for k in range(1, 30)}
    assert len(seeds) == 29 * 29 and not seeds & set(range(1, 30))
    assert all(0 <= s < 2**63 for s in seeds)


def test_restarts_keep_the_break_schedule(monkeypatch) -> None:
    # Every run's dfs-breaks search, the first and each restart's, gets lns' schedule.
    calls = []
    real = lns.breaks_search

    def spy(instance: Instance, seed: int, tail_rows: int = 0, schedule: dict | None = None):
        calls.append((tail_rows, schedule))
        return real(instance, seed, tail_rows, schedule)

    monkeypatch.setattr(lns, "breaks_search", spy)
    schedule = {"break_from": 0.6, "break_power": 6.0, "break_slack": 0, "cell_breaks": 1}
    out = run(planted(10, 5, seed=8, inner=10), seed=2, **RESTARTING, **schedule, tail_rows=2)
    assert out.counters["lns_restarts"] >= 2
    assert calls == [(2, schedule)] * (out.counters["lns_restarts"] + 1)
