"""The CP-SAT edge-matching solver: its answers check as solved, its claims are honest.

Every solved board is re-checked with the family's independent checker; the statuses it can
claim (solved, infeasible, unknown) are each provoked on a board built for it.
"""

from __future__ import annotations

import pytest

import encoders.edgematch_cpsat as cpsat
from bench.api import REGISTRY, ParamError
from instances.edgematch import GENERATORS, Hint, Instance, check

from helpers import board, budget, planted

SPEC = REGISTRY["edgematch/cpsat"]


def run(instance: Instance, seconds: float = 10.0, **params):
    return SPEC.solve(instance, budget(seconds), seed=1, **SPEC.resolve(params))


def test_registered_with_its_declaration():
    assert SPEC.family == "edgematch" and SPEC.paradigm == "cpsat"
    assert SPEC.backend.startswith("ortools-9.")
    assert SPEC.defaults() == {"workers": 0, "channel": "table", "symmetry": "hints",
                               "maximize": "none", "log": False}
    SPEC.prepare()


@pytest.mark.parametrize("channel", cpsat.CHANNELS)
@pytest.mark.parametrize("n,hints", [(4, 0), (4, 3), (6, 0), (6, "max")])
def test_solves_planted_boards(n, hints, channel):
    instance = planted(n, hints)
    out = run(instance, channel=channel)
    assert out.status == "solved"
    verdict = check(instance, out.solution)
    assert verdict.solved, verdict.reason
    assert out.model_vars > 0 and out.model_constraints > 0
    assert out.t_encode >= 0 and out.t_solve >= 0
    assert {"nodes", "conflicts", "wall_time"} <= set(out.counters)


@pytest.mark.parametrize("symmetry", cpsat.SYMMETRY)
@pytest.mark.parametrize("rows,cols", [(3, 5), (5, 3), (2, 2), (2, 4)])
def test_solves_rectangles(rows, cols, symmetry):
    instance = planted(rows, rows=rows, cols=cols, seed=3)
    out = run(instance, symmetry=symmetry)
    assert out.status == "solved"
    assert check(instance, out.solution).solved


def test_hints_are_respected():
    instance = planted(6, hints="max", seed=2)
    assert len(instance.hints) == 4  # 6x6 has four distinct Eternity-II-like hint cells
    out = run(instance)
    for h in instance.hints:
        assert out.solution.cells[h.row * instance.cols + h.col] == (h.piece, h.rot)


def test_symmetry_pin_keeps_solutions_and_is_skipped_with_hints():
    free = cpsat.build(planted(4), symmetry="hints")
    hinted = cpsat.build(planted(4, hints=1), symmetry="hints")
    off = cpsat.build(planted(4), symmetry="none")
    assert free.stats["symmetry_pinned"] == 1
    assert hinted.stats["symmetry_pinned"] == 0 and off.stats["symmetry_pinned"] == 0


def test_unsolvable_tiny_board_is_infeasible():
    """Four corner pieces, one coloured 6 and 7, which no other piece shows."""
    grid = [[(0, 1, 2, 0), (0, 0, 3, 1)],
            [(4, 5, 0, 0), (6, 0, 0, 7)]]
    instance = board(grid)
    assert run(instance).status == "infeasible"
    assert run(instance, channel="element").status == "infeasible"


def test_grey_inside_is_never_placed():
    """A 3x3 whose would-be centre piece has a grey side: no legal board exists."""
    grid = [[(0, 1, 2, 0), (0, 3, 4, 1), (0, 0, 5, 3)],
            [(2, 6, 7, 0), (4, 0, 8, 6), (5, 0, 9, 0)],
            [(7, 1, 0, 0), (8, 2, 0, 1), (9, 0, 0, 2)]]
    assert run(board(grid)).status == "infeasible"


def test_identity_board_roundtrip():
    """A hand-built board whose pieces are stored turned: the answer undoes the turns."""
    grid = [[(0, 1, 2, 0), (0, 0, 3, 1)],
            [(2, 4, 0, 0), (3, 0, 0, 4)]]
    instance = board(grid, turns=3)
    out = run(instance, symmetry="none")
    assert out.status == "solved" and check(instance, out.solution).solved


def test_tiny_budget_is_unknown_without_crashing():
    instance = planted(10, hints=5, border=5, inner=17)
    out = SPEC.solve(instance, budget(0.001), seed=1, **SPEC.defaults())
    assert out.status == "unknown" and out.solution is None
    assert out.model_vars > 0


def test_workers_zero_means_the_budgets_cores():
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    cpsat._configure(solver, budget(cores=2), seed=7, workers=0, log=False, limit=1.5)
    assert solver.parameters.num_workers == 2
    assert solver.parameters.random_seed == 7
    assert solver.parameters.max_time_in_seconds == 1.5
    cpsat._configure(solver, budget(cores=2), seed=2**40, workers=3, log=True, limit=1.0)
    assert solver.parameters.num_workers == 3 and solver.parameters.log_search_progress
    assert 0 <= solver.parameters.random_seed < 2**31


def test_joins_are_shared_by_exactly_two_cells():
    rows, cols = 3, 5
    seen: dict[int, list[tuple[int, int]]] = {}
    for cell in range(rows * cols):
        for side in range(4):
            join = cpsat.join_of(rows, cols, cell, side)
            assert (join is None) == cpsat.frame_sides(rows, cols, cell)[side]
            if join is not None:
                seen.setdefault(join, []).append((cell, side))
    assert sorted(seen) == list(range(rows * (cols - 1) + (rows - 1) * cols))
    for (a, side_a), (b, side_b) in seen.values():
        assert side_b == (side_a + 2) % 4 and b - a in (1, cols)


@pytest.mark.parametrize("given", [{"workers": -1}, {"channel": "mip"}, {"symmetry": "all"},
                                   {"log": "maybe"}, {"threads": 2}, {"workers": 1.5}])
def test_bad_params_are_named(given):
    with pytest.raises(ParamError, match=next(iter(given))):
        SPEC.resolve(given)


def test_params_parse_from_strings():
    assert SPEC.resolve({"workers": "2", "log": "yes", "channel": "element"}) == {
        "workers": 2, "channel": "element", "symmetry": "hints", "maximize": "none",
        "log": True}


def test_bad_hint_is_an_error():
    instance = Instance(rows=2, cols=2, colors=2, pieces=planted(2).pieces,
                        hints=(Hint(0, 5, 0, 0),))
    with pytest.raises(ValueError, match="hint"):
        run(instance)


# --- score mode ---------------------------------------------------------------------------------


def test_score_mode_proves_full_score_on_a_planted_board_and_traces_it():
    instance = GENERATORS["planted"]({"n": 5, "border": 2, "inner": 4, "hints": 2}, 3).instance
    out = run(instance, maximize="joins")
    assert out.status == "optimal" and out.objective == instance.max_score
    assert check(instance, out.solution).solved
    assert out.score_trace and out.score_trace[-1][1] == instance.max_score
    assert all(a[0] <= b[0] and a[1] < b[1] for a, b in zip(out.score_trace, out.score_trace[1:],
                                                            strict=False))


def test_score_mode_finds_the_best_partial_match_of_an_unsolvable_board():
    """Colour 5 shows on one piece only: 3 of the 4 joins is the best any board can do."""
    pieces = ((0, 1, 2, 0), (0, 0, 3, 1), (2, 4, 0, 0), (5, 0, 0, 4))
    instance = Instance(rows=2, cols=2, colors=5, pieces=pieces)
    assert run(instance).status == "infeasible"
    out = run(instance, maximize="joins")
    verdict = check(instance, out.solution)
    assert out.status == "optimal" and out.objective == 3
    assert verdict.legal and verdict.score == 3 and not verdict.solved
