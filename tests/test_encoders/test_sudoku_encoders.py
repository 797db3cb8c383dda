"""The model-based Sudoku solvers (sat, xcc, cpsat, ilp-highs, ilp-cbc): answers the checker
accepts, honest counts of solutions (0, 1, 2), a shared SAT solver that forgets each puzzle,
and exports that read back as the model they describe.

Puzzles with a known number of solutions are built here: a planted puzzle (one), the same
puzzle with clues taken away until the family's reference counter says two or more, a full
grid with a deadly rectangle's four cells blanked (exactly two), clashing clues and Norvig's
impossible puzzle (none).
"""

from __future__ import annotations

import time
from functools import cache

import highspy
import numpy as np
import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

import encoders.sudoku_cpsat  # noqa: F401  (registers cpsat)
import encoders.sudoku_ilp  # noqa: F401  (registers ilp-highs, ilp-cbc)
import encoders.sudoku_sat as sat
import encoders.sudoku_xcc as xccmodel
from bench.api import Budget, lookup
from encoders.support import xcc
from instances.sudoku import GENERATORS, Instance, check, parse_line, read_file
from instances.sudoku.reference import count_solutions

from helpers import budget

NAMES = ("sat", "xcc", "cpsat", "ilp-highs", "ilp-cbc")
# Every solver, and the SAT solver in each encoding with and without the shared solver.
VARIANTS = [("sat", {"encoding": e, "reuse": r}) for e in sat.ENCODINGS for r in (True, False)]
VARIANTS += [(name, {}) for name in NAMES[1:]]
IDS = [f"{n}-{p['encoding']}-{'reuse' if p['reuse'] else 'fresh'}" if p else n
       for n, p in VARIANTS]
IMPOSSIBLE = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."


def run(name: str, instance: Instance, seconds: float = 20.0, **params):
    spec = lookup(name, "sudoku")
    return spec.solve(instance, budget(seconds), seed=1, **spec.resolve(params))


@cache
def planted(box: int, clues: int, seed: int = 1) -> Instance:
    return GENERATORS["planted"]({"box": box, "clues": clues}, seed).instance


@cache
def full_grid(box: int, seed: int) -> tuple[int, ...]:
    return tuple(GENERATORS["planted"]({"box": box, "clues": 0}, seed).secret.grid)


def deadly_rectangle(box: int) -> Instance:
    """A full grid with the four cells of a deadly rectangle blanked: two rows of one band,
    two columns of different stacks, showing ``a b / b a``. Swapping a and b keeps every row,
    column and box whole, and nothing else can fill those cells: exactly two solutions."""
    size = box * box
    for seed in range(1, 50):
        g = list(full_grid(box, seed))
        for r1 in range(size):
            for r2 in range(r1 + 1, (r1 // box + 1) * box):
                for c1 in range(size):
                    for c2 in range((c1 // box + 1) * box, size):
                        a, b = g[r1 * size + c1], g[r1 * size + c2]
                        if g[r2 * size + c1] == b and g[r2 * size + c2] == a:
                            for cell in (r1 * size + c1, r1 * size + c2, r2 * size + c1,
                                         r2 * size + c2):
                                g[cell] = 0
                            return Instance(box, tuple(g), "deadly")
    raise AssertionError("no deadly rectangle in 50 grids")


def two_or_more(box: int, clues: int) -> Instance:
    """A planted puzzle with clues blanked, one at a time, until it has several solutions."""
    grid = list(planted(box, clues).grid)
    for cell in range(len(grid)):
        if grid[cell]:
            grid[cell] = 0
            if count_solutions(grid, box, limit=2).solutions == 2:
                return Instance(box, tuple(grid), "two")
    raise AssertionError("never reached two solutions")


CLASH = parse_line("123." "...4" "...." "....")  # r1c4 has no digit left


def assert_solved(instance: Instance, out) -> None:
    assert out.status == "solved", out
    verdict = check(instance, out.solution)
    assert verdict.solved, verdict.reason


# --- declarations -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_registered_in_the_sudoku_family(name):
    spec = lookup(name, "sudoku")
    assert spec.family == "sudoku" and spec.module.startswith("encoders.sudoku_")
    assert spec.defaults()["unique"] is True
    assert set(spec.exports) == {"sat": {"cnf"}, "xcc": {"dlx"}, "cpsat": {"mzn"},
                                 "ilp-highs": {"mps", "lp"}, "ilp-cbc": set()}[name]
    spec.prepare()


# --- solutions and counts ---------------------------------------------------------------------


@pytest.mark.parametrize("name,params", VARIANTS, ids=IDS)
@pytest.mark.parametrize("box,clues", [(2, 4), (3, 24)])
def test_solves_planted_puzzles_and_proves_them_unique(name, params, box, clues):
    instance = planted(box, clues)
    out = run(name, instance, **params)
    assert_solved(instance, out)
    assert out.counters["solutions"] == 1
    assert out.t_encode >= 0 and out.t_solve >= 0
    assert out.model_vars > 0 and out.model_constraints > 0


@pytest.mark.parametrize("name,params", VARIANTS, ids=IDS)
def test_counts_two_solutions(name, params):
    for instance in (deadly_rectangle(3), two_or_more(3, 24), deadly_rectangle(2)):
        out = run(name, instance, **params)
        assert_solved(instance, out)
        assert out.counters["solutions"] == 2, instance.name


@pytest.mark.parametrize("name,params", VARIANTS, ids=IDS)
def test_infeasible_puzzles_have_no_solution(name, params):
    for instance in (CLASH, parse_line(IMPOSSIBLE)):
        out = run(name, instance, **params)
        assert out.status == "infeasible" and out.solution is None
        assert out.counters["solutions"] == 0


@pytest.mark.parametrize("name,params", VARIANTS, ids=IDS)
def test_unique_false_stops_at_the_first(name, params):
    instance = deadly_rectangle(3)
    out = run(name, instance, unique=False, **params)
    assert_solved(instance, out)
    assert "solutions" not in out.counters


def test_a_full_grid_is_its_own_unique_solution():
    instance = Instance(3, tuple(full_grid(3, 7)))
    for name in NAMES:
        out = run(name, instance)
        assert_solved(instance, out)
        assert out.counters["solutions"] == 1, name


@pytest.mark.parametrize("name,params", VARIANTS, ids=IDS)
def test_an_expired_budget_is_unknown(name, params):
    gone = Budget(wall_s=1.0, mem_mb=2000, cores=1, deadline=time.monotonic() - 1.0)
    spec = lookup(name, "sudoku")
    out = spec.solve(planted(3, 24), gone, seed=1, **spec.resolve(params))
    assert out.status == "unknown" and out.solution is None


@pytest.mark.parametrize("name", ["sat", "xcc", "cpsat", "ilp-highs"])
@pytest.mark.parametrize("box,clues", [(4, 150), pytest.param(5, 400, marks=pytest.mark.slow)])
def test_solves_16x16_and_25x25(name, box, clues):
    """25x25 is slow for sat (loading 750 k clauses takes 3 s) and for the generator."""
    instance = planted(box, clues)
    out = run(name, instance)
    assert_solved(instance, out)
    assert out.counters["solutions"] == 1


# --- the SAT encodings and the shared solver --------------------------------------------------


def test_clause_counts_are_the_papers():
    """Lynce and Ouaknine's 9x9 counts: 8829 (minimal) and 11988 (extended) clauses."""
    assert sat.encode(3, "minimal").nclauses == 8829
    assert sat.encode(3, "extended").nclauses == 11988
    assert sat.encode(2, "minimal").nvars == 64


def test_every_minimal_model_sets_one_digit_per_cell():
    """The counting argument of the module docstring, on every 4x4 grid: the minimal encoding
    has exactly the 288 models of the extended one, each one digit per cell."""
    grids = []
    for encoding in sat.ENCODINGS:
        with Solver(name="cadical195") as s:
            for chunk in sat.encode(2, encoding).chunks():
                s.append_formula(chunk)
            models = [sat.decode(Instance(2, (0,) * 16), m) for m in s.enum_models()]
        grids.append(set(models))
        assert len(models) == 288
    assert grids[0] == grids[1]


def test_shared_solver_answers_a_sequence_as_fresh_solvers_do():
    """Unique, two-solution, infeasible and unique again, twice over, on one shared solver:
    each answer equals the fresh solver's, and a puzzle solved after another (or after
    itself) still counts 1, so no blocking clause outlived its run."""
    sat.drop_shared()
    seq = [planted(3, 24, 1), deadly_rectangle(3), parse_line(IMPOSSIBLE), planted(3, 24, 2),
           two_or_more(3, 24)]
    for encoding in sat.ENCODINGS:
        fresh = [run("sat", p, encoding=encoding, reuse=False) for p in seq]
        for round_ in range(2):
            for k, (puzzle, expect) in enumerate(zip(seq, fresh, strict=True)):
                out = run("sat", puzzle, encoding=encoding, reuse=True)
                assert out.status == expect.status
                assert out.counters["solutions"] == expect.counters["solutions"]
                if out.solution is not None:
                    assert check(puzzle, out.solution).solved
                first_use = round_ == 0 and k == 0
                assert (out.t_encode > 0) == first_use
                assert out.counters["clauses"] == sat.encode(3, encoding).nclauses
    assert set(sat.SHARED) == {(3, e, sat.DEFAULT_ENGINE) for e in sat.ENCODINGS}
    sat.drop_shared()


def test_shared_interruptible_engine_is_reusable():
    sat.drop_shared()
    for puzzle in (planted(3, 24, 3), deadly_rectangle(3), planted(3, 24, 3)):
        fresh = run("sat", puzzle, engine="glucose4", reuse=False)
        out = run("sat", puzzle, engine="glucose4", reuse=True)
        assert out.counters["solutions"] == fresh.counters["solutions"]
        assert out.counters["conflicts"] >= 0 and "decisions" in out.counters
    sat.drop_shared()


# --- exports ----------------------------------------------------------------------------------


def test_cnf_export_is_the_model_with_clue_units(tmp_path):
    instance = planted(3, 24)
    for encoding in sat.ENCODINGS:
        path = tmp_path / f"{encoding}.cnf"
        lookup("sat", "sudoku").exports["cnf"](instance, path, encoding=encoding)
        header = next(line for line in path.read_text().splitlines() if line.startswith("p "))
        _, _, nvars, nclauses = header.split()
        cnf = CNF(from_file=str(path))
        assert int(nvars) == cnf.nv == 729
        assert int(nclauses) == len(cnf.clauses) == sat.encode(3, encoding).nclauses + 24
        with Solver(name="cadical195", bootstrap_with=cnf.clauses) as s:
            assert s.solve()
            grid = sat.decode(instance, s.get_model())
            assert grid == run("sat", instance).solution.grid


def test_dlx_export_reads_back(tmp_path):
    instance = planted(4, 150)
    path = tmp_path / "p.dlx"
    lookup("xcc", "sudoku").exports["dlx"](instance, path)
    problem = xcc.read_dlx(path)
    model = xccmodel.build(instance)
    assert problem.primary == model.problem.primary and not problem.secondary
    assert len(problem.primary) == 4 * 16 * 16
    assert problem.named_options() == model.problem.named_options()
    assert xcc.count_solutions(problem).solutions == 1


@pytest.mark.parametrize("fmt", ["mps", "lp"])
def test_mps_and_lp_exports_read_back(tmp_path, fmt):
    instance = planted(3, 24)
    path = tmp_path / f"p.{fmt}"
    lookup("ilp-highs", "sudoku").exports[fmt](instance, path)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(path)) != highspy.HighsStatus.kError
    lp = h.getLp()
    assert (lp.num_col_, lp.num_row_) == (729, 324)
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    values = np.asarray(h.getSolution().col_value)
    names = [h.getColName(i)[1] for i in range(lp.num_col_)]
    grid = [0] * 81
    for name, v in zip(names, values, strict=True):
        if v > 0.5:
            _, r, c, d = name.split("_")
            grid[int(r) * 9 + int(c)] = int(d)
    assert tuple(grid) == run("ilp-highs", instance).solution.grid


# --- reference data ---------------------------------------------------------------------------


@pytest.mark.data
@pytest.mark.parametrize("name", ["sat", "xcc", "cpsat"])
def test_top95_and_hardest(shared_data, name):
    puzzles = read_file(shared_data / "sudoku" / "top95.txt")[:10]
    puzzles += read_file(shared_data / "sudoku" / "hardest.txt")
    for g in puzzles:
        out = run(name, g.instance)
        assert_solved(g.instance, out)
        assert out.counters["solutions"] == 1


@pytest.mark.data
@pytest.mark.parametrize("name", ["ilp-highs", "ilp-cbc"])
def test_ilp_on_a_few_hard_puzzles(shared_data, name):
    for g in read_file(shared_data / "sudoku" / "hardest.txt")[:2]:
        out = run(name, g.instance)
        assert_solved(g.instance, out)
        assert out.counters["solutions"] == 1
