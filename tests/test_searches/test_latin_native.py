"""The ``native`` Latin-square solver: checked completions of planted squares under every restart
schedule, propagation and branching; infeasibility proved, agreeing with a brute-force count on
small partial squares; determinism (same seed, any chunking) and randomisation (another seed);
the counters, the restart schedules, the budget, the orders it takes."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

import searches.latin_native  # noqa: F401  (registers latin/native)
from bench.api import REGISTRY, ParamError
from instances.latin import GENERATORS
from instances.latin.check import check
from instances.latin.model import Instance
from searches.support import latin_kernel as kernel
from searches.support import restarts as schedules

from helpers import budget

SPEC = REGISTRY["latin/native"]


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    SPEC.prepare()


def run(instance: Instance, seed: int = 1, seconds: float = 20.0, **params):
    return SPEC.solve(instance, budget(seconds), seed=seed, **SPEC.resolve(params))


def planted(order: int, holes: float, seed: int, **more) -> Instance:
    """The family's QWH square: a random Latin square with ``holes`` (a fraction) of its cells
    emptied."""
    return GENERATORS["qwh"]({"order": order, "fraction": holes, **more}, seed).instance


def completions(cells: tuple[int, ...], order: int, limit: int = 1) -> int:
    """Completions of a small partial square by plain backtracking, counted up to ``limit``."""
    grid = list(cells)
    found = 0

    def fill(cell: int) -> bool:
        nonlocal found
        while cell < order * order and grid[cell] >= 0:
            cell += 1
        if cell == order * order:
            found += 1
            return found >= limit
        r, c = divmod(cell, order)
        used = {grid[r * order + k] for k in range(order)} | {grid[k * order + c]
                                                              for k in range(order)}
        for v in range(order):
            if v not in used:
                grid[cell] = v
                if fill(cell + 1):
                    return True
        grid[cell] = -1
        return False

    fill(0)
    return found


def partial_squares(order: int, givens: int, seed: int):
    """Random partial squares of ``order`` with ``givens`` cells and no symbol repeated in a row
    or a column (a QCP instance: it may have no completion)."""
    rng = np.random.default_rng(seed)
    while True:
        cells = [-1] * (order * order)
        for cell in rng.permutation(order * order)[:givens]:
            r, c = divmod(int(cell), order)
            used = {cells[r * order + k] for k in range(order)} | {cells[k * order + c]
                                                                   for k in range(order)}
            free = [v for v in range(order) if v not in used]
            if free:
                cells[int(cell)] = int(rng.choice(free))
        yield tuple(cells)


def fc_survives_root(cells: tuple[int, ...], order: int) -> bool:
    """Whether every empty cell keeps a value: forward checking alone does not refute the
    square before the search starts."""
    for cell, v in enumerate(cells):
        if v < 0:
            r, c = divmod(cell, order)
            used = {cells[r * order + k] for k in range(order)} | {cells[k * order + c]
                                                                  for k in range(order)}
            if len(used - {-1}) == order:
                return False
    return True


@pytest.fixture(scope="module")
def hidden_dead_end() -> Instance:
    """An order-4 partial square, found by brute force, that repeats no symbol and leaves every
    empty cell a value, yet has no completion."""
    for cells in partial_squares(4, 7, seed=5):
        if fc_survives_root(cells, 4) and completions(cells, 4) == 0:
            return Instance(4, cells)
    raise AssertionError("unreachable")


SCHEDULES = ("luby", "geometric", "off")
SETTINGS = [(p, b) for p in kernel.PROPAGATIONS for b in kernel.BRANCHINGS]


@pytest.mark.parametrize("restarts", SCHEDULES)
@pytest.mark.parametrize("order,holes,seed", [(5, 0.6, 1), (8, 0.5, 2), (12, 0.45, 3),
                                              (20, 0.42, 4), (30, 0.42, 5)])
@pytest.mark.parametrize("pattern", ["random", "balanced"])
def test_completes_planted_squares(order: int, holes: float, seed: int, pattern: str,
                                   restarts: str) -> None:
    instance = planted(order, holes, seed, pattern=pattern)
    out = run(instance, seed=seed, restarts=restarts, restart_base=20)
    verdict = check(instance, out.solution)
    assert out.status == "solved" and verdict.solved, verdict.reason


@pytest.mark.parametrize("propagation,branching", SETTINGS)
def test_every_setting_completes(propagation: str, branching: str) -> None:
    for order, seed in ((7, 11), (12, 12), (15, 13)):
        instance = planted(order, 0.42, seed)
        out = run(instance, seed=seed, propagation=propagation, branching=branching)
        verdict = check(instance, out.solution)
        assert out.status == "solved" and verdict.solved, (order, verdict.reason)


def test_full_and_empty_squares() -> None:
    full = planted(6, 0.0, 1)
    out = run(full)
    assert out.status == "solved" and out.solution.cells == full.cells
    assert out.counters["nodes"] == 0
    empty = Instance(9, (-1,) * 81)
    assert check(empty, run(empty).solution).solved
    assert run(Instance(1, (-1,))).solution.cells == (0,)


@pytest.mark.parametrize("propagation,branching", SETTINGS)
@pytest.mark.parametrize("restarts", SCHEDULES)
def test_proves_a_square_without_completion_infeasible(hidden_dead_end: Instance,
                                                       propagation: str, branching: str,
                                                       restarts: str) -> None:
    out = run(hidden_dead_end, restarts=restarts, restart_base=1, propagation=propagation,
              branching=branching)
    assert out.status == "infeasible" and out.solution is None
    if (propagation, branching) == ("fc", "cells"):  # the root does not see it: the search
        assert out.counters["nodes"] > 0


def test_repeated_given_is_infeasible() -> None:
    out = run(Instance(3, (0, 0, -1, -1, -1, -1, -1, -1, -1)))
    assert out.status == "infeasible" and out.counters["nodes"] == 0


@pytest.mark.parametrize("order,givens", [(3, 3), (4, 5), (4, 8), (5, 10)])
def test_agrees_with_brute_force(order: int, givens: int) -> None:
    """Random partial squares: infeasible exactly when the brute force finds no completion,
    and every completion checked, under every setting."""
    squares = itertools.islice(partial_squares(order, givens, seed=order * 100 + givens), 30)
    answers = set()
    for k, cells in enumerate(squares):
        instance = Instance(order, cells)
        feasible = completions(cells, order) > 0
        answers.add(feasible)
        for (propagation, branching), restarts in itertools.product(SETTINGS, SCHEDULES):
            out = run(instance, seed=k, restarts=restarts, restart_base=1,
                      propagation=propagation, branching=branching)
            assert out.status == ("solved" if feasible else "infeasible"), (cells, propagation)
            if feasible:
                assert check(instance, out.solution).solved
    assert answers == {True, False}


@pytest.mark.parametrize("order", [5, 6])
def test_qcp_squares_agree_with_brute_force(order: int) -> None:
    """The family's QCP squares at its default (42% of the cells given, the phase transition):
    solved exactly when the brute force finds a completion, else infeasible."""
    answers = []
    for seed in range(1, 21):
        made = GENERATORS["qcp"]({"order": order}, seed)
        feasible = completions(made.instance.cells, order) > 0
        assert made.feasible in (None, feasible)
        for restarts in SCHEDULES:
            out = run(made.instance, seed=seed, restarts=restarts, restart_base=1)
            assert out.status == ("solved" if feasible else "infeasible"), (seed, restarts)
            if feasible:
                assert check(made.instance, out.solution).solved
        answers.append(feasible)
    assert True in answers and False in answers


@pytest.mark.parametrize("order", [12, 16])
def test_qcp_settings_agree(order: int) -> None:
    """Larger QCP squares (45% of the cells given: some have no completion): every setting
    gives the same claim, which agrees with what the generator knows; a completion is
    checked."""
    claims = []
    for seed in range(1, 9):
        made = GENERATORS["qcp"]({"order": order, "fraction": 0.55}, seed)
        seen = set()
        for propagation, branching, restarts in [("hidden", b, r) for b in kernel.BRANCHINGS
                                                 for r in SCHEDULES] + [("naked", "3d", "luby")]:
            out = run(made.instance, seed=seed, restarts=restarts, propagation=propagation,
                      branching=branching)
            seen.add(out.status)
            if out.status == "solved":
                assert check(made.instance, out.solution).solved
        assert len(seen) == 1 and seen <= {"solved", "infeasible"}, (seed, seen)
        if made.feasible is not None:
            assert seen == {"solved" if made.feasible else "infeasible"}
        claims.append(seen.pop())
    assert claims.count("infeasible") > 0


HARD = {"propagation": "fc", "restarts": "off"}


def test_same_seed_same_search_other_seed_another() -> None:
    instance = planted(25, 0.42, 21)
    for params in ({"restarts": "luby", "restart_base": 5}, {"restarts": "geometric",
                                                              "restart_base": 5},
                   {"restarts": "off", "propagation": "fc"}):
        first = run(instance, seed=3, max_nodes=3000, **params)
        again = run(instance, seed=3, max_nodes=3000, **params)
        assert first.counters == again.counters and first.status == again.status
        if first.solution is not None:
            assert first.solution == again.solution
        others = [run(instance, seed=s, max_nodes=3000, **params) for s in (4, 5)]
        assert any(o.counters != first.counters or o.solution != first.solution
                   for o in others), params


def test_chunks_do_not_change_the_search() -> None:
    instance = planted(25, 0.42, 22)

    def searched(chunk: int):
        search = kernel.Search.start(25, instance.cells_array(), 9, "naked", "3d", "luby", 3)
        while search.nodes < 20_000 and search.run(chunk) == kernel.PAUSED:
            pass
        return search.counters(), search.square().tolist(), search.status

    assert searched(20_000) == searched(7) == searched(1)


def test_counters() -> None:
    out = run(planted(20, 0.42, 31), restarts="luby", restart_base=2)
    assert set(out.counters) == {"nodes", "fails", "restarts", "forced"}
    assert out.counters["nodes"] >= out.counters["fails"] >= 0
    assert out.counters["forced"] > 0
    assert out.t_encode is not None and out.t_solve is not None


def test_restart_schedules() -> None:
    assert [schedules.luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2,
                                                         4, 8]
    assert [schedules.run_length(schedules.MODE_LUBY, 100, 1.5, r)
            for r in range(4)] == [100, 100, 200, 100]
    assert [schedules.run_length(schedules.MODE_GEOMETRIC, 100, 1.5, r)
            for r in range(4)] == [100, 150, 225, 337]
    assert schedules.run_length(schedules.MODE_NONE, 100, 1.5, 0) == schedules.NEVER
    # a run ends at its cutoff: restarts follow the schedule's fail counts
    instance = planted(30, 0.42, 41)
    out = run(instance, seed=2, restarts="geometric", restart_base=1, restart_factor=1.0,
              propagation="fc", max_nodes=20_000)
    assert out.counters["restarts"] == out.counters["fails"] or out.status == "solved"
    off = run(instance, seed=2, restarts="off", propagation="fc", max_nodes=20_000)
    assert off.counters["restarts"] == 0


def test_stops_at_its_budget() -> None:
    instance = planted(40, 0.42, 51)
    hard = run(instance, seed=1, max_nodes=3_000_000, **HARD)
    assert hard.status == "unknown"  # so the tiny budget below cannot be met by solving
    for seconds in (0.05, 0.2):
        t = time.monotonic()
        out = run(instance, seed=1, seconds=seconds, **HARD)
        assert out.status == "unknown" and out.solution is None
        assert time.monotonic() - t < seconds + 0.1
        assert 0 < out.counters["nodes"] < 3_000_000


def test_orders_it_takes_and_parameters() -> None:
    assert SPEC.applies_to(Instance(64, (-1,) * 64 * 64))
    assert not SPEC.applies_to(Instance(65, (-1,) * 65 * 65))
    big = planted(64, 0.7, 61, mix=5000)
    assert check(big, run(big).solution).solved
    with pytest.raises(ValueError):
        kernel.Search.start(65, np.full(65 * 65, -1), 1)
    for bad in ({"restarts": "sometimes"}, {"propagation": "arc"}, {"restart_base": 0},
                {"restart_factor": 0.5}, {"branching": "dom/wdeg"}):
        with pytest.raises(ParamError):
            SPEC.resolve(bad)
