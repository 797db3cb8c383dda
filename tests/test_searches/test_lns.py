"""The lns solver (edge matching, score mode): every answer is a full legal board whose claimed
score is the checker's, hints stay in place, runs limited by nodes and moves are deterministic
per seed, the region moves improve a poor starting board, and the score trace only goes up."""

from __future__ import annotations

import numpy as np
import pytest
from test_breaks import assert_full_and_honest, planted

import searches.edgematch_lns as lns
from bench.api import REGISTRY
from instances.edgematch import GENERATORS
from instances.edgematch.model import Instance
from searches.support.edgematch_tables import oriented_colours

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


def run_record(instance: Instance, seed: int = 1, seconds: float = 20.0, **params):
    """The outcome and the per-run record (``solve_runs``)."""
    return lns.solve_runs(instance, budget(seconds), seed=seed, **SPEC.resolve(params))


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


def steady(record: dict) -> dict:
    """The per-run record without its seconds, which differ between two solves."""
    return {k: v for k, v in record.items() if k not in ("run_times", "run_starts")}


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
    assert steady(a.counters) == steady(b.counters)
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


def test_restarts_record_every_run(monkeypatch) -> None:
    # The per-run record: one entry a run, its best score and when the run first had it.
    runs = []  # (best score, start breaks) of each run
    real = lns.lns_run

    def spy(instance: Instance, *args):
        one = real(instance, *args)
        runs.append(instance.max_score - one.search.best_breaks)
        return one

    monkeypatch.setattr(lns, "lns_run", spy)
    instance = planted(10, 5, seed=8, inner=10)
    out, c = run_record(instance, seed=2, **RESTARTING)
    assert len(runs) >= 3 and c["run_scores"] == runs
    k = out.counters["lns_restarts"] + 1
    assert len(c["run_times"]) == len(c["run_starts"]) == len(runs) == k
    assert c["run_pinned"] == [0] * len(runs)  # no elite pool: every run is fresh
    best = out.counters["best_run"]
    assert c["run_scores"][best] == out.objective == max(c["run_scores"])
    assert c["run_starts"] == sorted(c["run_starts"])
    ends = c["run_starts"][1:] + [float("inf")]
    assert all(s <= t <= e for s, t, e in zip(c["run_starts"], c["run_times"], ends, strict=True))
    # the overall trace reaches the best score when the best run first had it
    assert min(t for t, s in out.score_trace if s == out.objective) == pytest.approx(
        c["run_times"][best], abs=2e-3)
    assert run_record(instance, seed=2, **SHORT)[1] == {}  # restarts off: none
    # the harness keeps counters as numbers: none is a list
    assert all(type(v) in (int, float) for v in out.counters.values())


def test_elite_pool_keeps_the_best_distinct_boards() -> None:
    pool: list = []
    a, b, c = np.arange(6), np.arange(6)[::-1].copy(), np.array([1, 0, 2, 3, 4, 5])
    lns.elite_insert(pool, a, 5, 2)
    lns.elite_insert(pool, a.copy(), 5, 2)  # the same board again: not kept twice
    lns.elite_insert(pool, b, 5, 2)  # equal breaks: after the earlier one
    assert [(x, list(y)) for x, y in pool] == [(5, list(a)), (5, list(b))]
    lns.elite_insert(pool, c, 3, 2)  # better: first, and the last one falls out
    assert [(x, list(y)) for x, y in pool] == [(3, list(c)), (5, list(a))]
    lns.elite_insert(pool, b, 9, 2)  # worse than all of a full pool: not kept
    assert len(pool) == 2 and pool[1][0] == 5
    a[0] = 99  # the pool holds copies
    assert pool[1][1][0] == 0
    lns.elite_insert(pool, b, 1, 0)  # size 0: the pool is off
    assert len(pool) == 2


def test_recombination_pins_the_upper_rows_two_elites_share() -> None:
    rng = np.random.default_rng(1)
    cols = 4
    a = np.arange(16)
    b = a.copy()
    b[[1, 6, 12]] = [50, 51, 52]  # differs in rows 0, 1 and 3
    for _ in range(20):
        pinned = lns.recombine([(2, a), (3, b)], cols, 2, 3, rng)
        k = 2 if pinned[8] < 0 else 3  # the rows taken (row 2 is the same in both)
        want = np.where((np.arange(16) < k * cols) & (a == b), a, -1)
        assert list(pinned) == list(want)
    # boards that agree on less than a row's worth: the better one's upper rows
    c = a + 100
    for _ in range(10):
        pinned = lns.recombine([(2, a), (3, c)], cols, 2, 2, rng)
        assert list(pinned) == list(a[:8]) + [-1] * 8
    pinned = lns.recombine([(2, c)], cols, 1, 1, rng)  # one board in the pool
    assert list(pinned) == list(c[:4]) + [-1] * 12


# Restarts with an elite pool of three, every restart a recombination of two to four rows.
ELITE = {**RESTARTING, "elite": 3, "elite_share": 1.0, "elite_rows_min": 2,
         "elite_rows_max": 4}


def test_elite_runs_rebuild_an_elite_board_under_its_pinned_rows(monkeypatch) -> None:
    runs = []  # (dfs-breaks' pinned cells, best board of the run)
    real = lns.lns_run

    def spy(instance: Instance, dfs, *args):
        one = real(instance, dfs, *args)
        runs.append((dict(dfs.tables.hints), one.search.best.copy()))
        return one

    monkeypatch.setattr(lns, "lns_run", spy)
    instance = planted(10, 5, seed=8, inner=10)
    out, c = run_record(instance, seed=2, **ELITE)
    assert_full_and_honest(instance, out)
    assert all(type(v) in (int, float) for v in out.counters.values())
    assert len(runs) == out.counters["lns_restarts"] + 1 >= 3 and c["run_pinned"][0] == 0
    hinted = {h.row * instance.cols + h.col for h in instance.hints}
    assert len(runs[0][0]) == len(hinted)
    for k, (pins, _) in enumerate(runs[1:], start=1):
        extra = {cell: o for cell, o in pins.items() if cell not in hinted}
        assert len(extra) == c["run_pinned"][k] >= instance.cols - len(hinted)
        assert max(extra) < 4 * instance.cols  # within the upper rows_max rows
        # the pins are an earlier run's board there
        assert any(all(board[cell] == o for cell, o in extra.items())
                   for _, board in runs[:k])
    assert c["run_scores"][out.counters["best_run"]] == out.objective == max(c["run_scores"])
    # the default (no pool) is the solve of before: every run fresh
    runs.clear()
    plain, plain_runs = run_record(instance, seed=2, **RESTARTING)
    assert plain_runs["run_pinned"] == [0] * len(runs)
    assert all(len(pins) == len(hinted) for pins, _ in runs)
    off, off_runs = run_record(instance, seed=2, **{**ELITE, "elite": 0})
    assert off.counters == plain.counters and steady(off_runs) == steady(plain_runs)


def test_elite_runs_are_deterministic_per_seed() -> None:
    instance = planted(8, 5, seed=7, inner=8)
    a, a_runs = run_record(instance, seed=3, **ELITE)
    b, b_runs = run_record(instance, seed=3, **{**ELITE, "chunk_moves": 400, "chunk_nodes": 7000})
    assert sum(a_runs["run_pinned"]) > 0
    assert a.solution == b.solution
    assert a.counters == b.counters and steady(a_runs) == steady(b_runs)
    for out in (a, b):
        assert_full_and_honest(instance, out)
        scores = [s for _, s in out.score_trace]
        assert scores == sorted(scores) and scores[-1] == out.objective


def test_recombined_runs_have_their_own_patience(monkeypatch) -> None:
    patience = []  # the restart_after each run was given
    real = lns.lns_run

    def spy(*args):
        patience.append(args[-1])
        return real(*args)

    monkeypatch.setattr(lns, "lns_run", spy)
    instance = planted(10, 5, seed=8, inner=10)
    mixed = {**ELITE, "elite_share": 0.5, "restart_after": 3, "elite_restart_after": 1}
    out, c = run_record(instance, seed=2, **mixed)
    assert_full_and_honest(instance, out)
    assert 0 in c["run_pinned"][1:] and max(c["run_pinned"]) > 0  # fresh and recombined runs
    assert patience == [1 if pins else 3 for pins in c["run_pinned"]]
    # 0: recombined runs are as patient as fresh ones, the solve of before
    patience.clear()
    same, same_runs = run_record(instance, seed=2, **{**mixed, "elite_restart_after": 0})
    assert patience == [3] * len(same_runs["run_pinned"])
    plain, plain_runs = run_record(instance, seed=2, **{**mixed, "elite_restart_after": 3})
    assert same.counters == plain.counters and steady(same_runs) == steady(plain_runs)


def test_dfs_slices_stop_after_slice_runs(monkeypatch) -> None:
    # Every drive of dfs-breaks (the start, each turn's slice) gets slice_runs as its cap on
    # runs begun, so a search whose runs end exhausted within a few nodes still hands over.
    caps = []
    real = lns.drive

    def spy(*args, **kwargs):
        caps.append(args[6] if len(args) > 6 else kwargs.get("max_runs", 0))
        return real(*args, **kwargs)

    monkeypatch.setattr(lns, "drive", spy)
    instance = planted(10, 5, seed=8, inner=10)
    out = run(instance, seed=2, **{**RESTARTING, "slice_runs": 3})
    assert_full_and_honest(instance, out)
    assert len(caps) >= 3 and set(caps) == {3}


def broken_among(oriented: np.ndarray, fixed: set[int], instance: Instance) -> set[int]:
    """The cells of the mismatched joins between two cells of ``fixed`` (one by one)."""
    colours, cols = oriented_colours(instance), instance.cols
    broken = set()
    for cell in fixed:
        east, south = cell + 1, cell + cols
        if east % cols and east in fixed and colours[oriented[cell], 1] != colours[
                oriented[east], 3]:
            broken |= {cell, east}
        if south in fixed and colours[oriented[cell], 2] != colours[oriented[south], 0]:
            broken |= {cell, south}
    return broken


def test_recombinations_pin_no_broken_join() -> None:
    # The planted board with two pieces of its upper rows swapped (each pair in turn): the pins
    # of its upper three rows drop both cells of each broken join between two fixed cells
    # (pinned or hinted), and only those.
    made = GENERATORS["planted"]({"n": 6, "border": 3, "inner": 4, "hints": 1}, 3)
    instance, cols = made.instance, made.instance.cols
    perfect = np.array([4 * p + r for p, r in made.secret.cells])
    top = np.arange(instance.ncells) < 3 * cols
    hinted = {h.row * cols + h.col for h in instance.hints}
    assert list(lns.unpin_broken(instance, np.where(top, perfect, -1))) == list(
        np.where(top, perfect, -1))  # the planted board: every pin kept
    inner = [r * cols + c for r in (1, 2) for c in range(1, cols - 1)
             if r * cols + c not in hinted]
    for i, a in enumerate(inner):
        for b in inner[i + 1:]:
            oriented = perfect.copy()
            oriented[[a, b]] = oriented[[b, a]]
            pinned = np.where(top, oriented, -1)
            broken = broken_among(oriented, set(np.flatnonzero(top).tolist()) | hinted,
                                  instance)
            kept = lns.unpin_broken(instance, pinned)
            assert list(kept) == [-1 if c in broken else int(o) for c, o in enumerate(pinned)]
