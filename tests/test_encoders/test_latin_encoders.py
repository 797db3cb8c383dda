"""The model-based Latin-square solvers (sat in both encodings, cpsat, xcc, ilp-highs, ilp-cbc):
completions the checker accepts, ``infeasible`` on partial squares that have none, model sizes
that are the formulas', SAT encodings with the same models, exports that read back, and a run
of each through the harness.

Most instances are built here, independent of the family's generators: a Latin square is the
cyclic one ``(r + c) % n`` with its rows, columns and symbols permuted, then holes are punched;
random partial squares (not planted) are checked against brute force at order 4 (its 576 Latin
squares). The infeasible partial square of order 3 is found by brute force over the 12 Latin
squares of order 3. The family's ``latin/qcp`` squares are checked against the generator's
``feasible`` record, and the harness runs take generator specs.
"""

from __future__ import annotations

import itertools
import time
from functools import cache
from math import comb

import highspy
import numpy as np
import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

import bench
import encoders.latin_cpsat  # noqa: F401  (registers cpsat)
import encoders.latin_ilp as ilp
import encoders.latin_sat as sat
import encoders.latin_xcc as xccmodel
from bench.api import Budget, lookup
from encoders.support import xcc
from encoders.support.latin_model import completed
from instances.latin import GENERATORS
from instances.latin.check import check
from instances.latin.model import HOLE, Instance, Solution

from helpers import budget

NAMES = ("sat", "cpsat", "xcc", "ilp-highs", "ilp-cbc")
VARIANTS = [("sat", {"encoding": e}) for e in sat.ENCODINGS] + [(n, {}) for n in NAMES[1:]]
IDS = [f"sat-{p['encoding']}" if p else n for n, p in VARIANTS]


def run(name: str, instance: Instance, seconds: float = 30.0, **params):
    spec = lookup(name, "latin")
    return spec.solve(instance, budget(seconds), seed=1, **spec.resolve(params))


@cache
def square(order: int, seed: int) -> tuple[int, ...]:
    """The cyclic Latin square with rows, columns and symbols shuffled."""
    rng = np.random.default_rng(seed)
    rows, cols, symbols = (rng.permutation(order) for _ in range(3))
    return tuple(int(symbols[(rows[r] + cols[c]) % order])
                 for r in range(order) for c in range(order))


def qwh(order: int, fraction: float, seed: int = 1) -> Instance:
    """``square(order, seed)`` with ``round(fraction * order**2)`` holes at random cells."""
    cells = list(square(order, seed))
    rng = np.random.default_rng(seed + 1000)
    for cell in rng.permutation(order * order)[:round(fraction * order * order)]:
        cells[int(cell)] = HOLE
    return Instance(order, tuple(cells), f"qwh-{order}-{fraction}-{seed}")


@cache
def latin_squares(order: int) -> tuple[tuple[int, ...], ...]:
    """Every Latin square of ``order`` (row by row, each row a permutation)."""
    found: list[tuple[int, ...]] = []

    def extend(rows: list[tuple[int, ...]]) -> None:
        if len(rows) == order:
            found.append(tuple(v for row in rows for v in row))
            return
        for perm in itertools.permutations(range(order)):
            if all(perm[c] != row[c] for row in rows for c in range(order)):
                extend([*rows, perm])

    extend([])
    return tuple(found)


def completions(instance: Instance) -> set[tuple[int, ...]]:
    """The Latin squares that keep every given cell (brute force)."""
    return {s for s in latin_squares(instance.order)
            if all(g in (HOLE, v) for g, v in zip(instance.cells, s, strict=True))}


def repeats(cells: tuple[int, ...], order: int) -> bool:
    lines = [cells[r * order:(r + 1) * order] for r in range(order)]
    lines += [cells[c::order] for c in range(order)]
    return any(len(given) != len(set(given)) for given in ([v for v in line if v != HOLE]
                                                           for line in lines))


def candidates(instance: Instance) -> dict[int, list[int]]:
    """Per hole the symbols no given cell of its row or column shows."""
    n, cells = instance.order, instance.cells
    return {cell: [v for v in range(n)
                   if v not in cells[cell - cell % n:cell - cell % n + n]
                   and v not in cells[cell % n::n]]
            for cell in range(n * n) if cells[cell] == HOLE}


@cache
def blocked_order3() -> Instance:
    """The first partial square of order 3 (fewest givens, then cells and symbols in order)
    whose givens repeat in no row or column and leave every hole a candidate, yet no Latin
    square keeps them all."""
    assert len(latin_squares(3)) == 12
    for count in range(1, 10):
        for where in itertools.combinations(range(9), count):
            for symbols in itertools.product(range(3), repeat=count):
                cells = [HOLE] * 9
                for cell, v in zip(where, symbols, strict=True):
                    cells[cell] = v
                instance = Instance(3, tuple(cells), "blocked")
                if (not repeats(instance.cells, 3) and all(candidates(instance).values())
                        and not completions(instance)):
                    return instance
    raise AssertionError("every partial square of order 3 without repeats completes")


def infeasible_instances() -> list[Instance]:
    """No completion, each for another reason: the brute-force order-3 square (no repeat, no
    empty domain); a hole whose row and column show every symbol; two givens of one row with
    one symbol; a full square whose last row repeats a symbol (no hole at all)."""
    full = list(square(5, 3))
    full[20], full[21] = full[21], full[20]  # swap two cells of the last row: columns repeat
    return [blocked_order3(),
            Instance(3, (0, 1, HOLE, HOLE, HOLE, 2, HOLE, HOLE, HOLE), "no-candidate"),
            Instance(4, (1, HOLE, 1, HOLE) + (HOLE,) * 12, "clash"),
            Instance(5, tuple(full), "full-clash")]


def assert_solved(instance: Instance, out) -> None:
    assert out.status == "solved", out
    verdict = check(instance, out.solution)
    assert verdict.solved, verdict.reason


# --- declarations -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_registered_in_the_latin_family(name):
    spec = lookup(name, "latin")
    assert spec.family == "latin" and spec.module.startswith("encoders.latin_")
    assert set(spec.exports) == {"sat": {"cnf"}, "xcc": {"dlx"}, "cpsat": {"mzn"},
                                 "ilp-highs": {"mps", "lp"}, "ilp-cbc": set()}[name]
    spec.prepare()


def test_blocked_order3_is_what_it_says():
    instance = blocked_order3()
    assert not repeats(instance.cells, 3) and not completions(instance)
    assert all(candidates(instance).values())  # not for want of a candidate
    assert not all(candidates(infeasible_instances()[1]).values())


# --- completions and proofs -------------------------------------------------------------------


@pytest.mark.parametrize("name,params", VARIANTS, ids=IDS)
@pytest.mark.parametrize("order", [5, 8, 12])
@pytest.mark.parametrize("fraction", [0.0, 0.3, 0.6, 1.0])
def test_completes_squares_with_holes(name, params, order, fraction):
    instance = qwh(order, fraction, seed=order)
    out = run(name, instance, **params)
    assert_solved(instance, out)
    assert out.t_encode >= 0 and out.t_solve >= 0
    assert out.model_vars is not None and out.model_constraints is not None


@pytest.mark.parametrize("name,params", VARIANTS, ids=IDS)
def test_partial_squares_without_completion_are_infeasible(name, params):
    for instance in infeasible_instances():
        out = run(name, instance, **params)
        assert out.status == "infeasible" and out.solution is None, (instance.name, out)


@pytest.mark.parametrize("name,params", VARIANTS, ids=IDS)
def test_an_expired_budget_is_unknown(name, params):
    gone = Budget(wall_s=1.0, mem_mb=2000, cores=1, deadline=time.monotonic() - 1.0)
    spec = lookup(name, "latin")
    out = spec.solve(qwh(8, 0.5), gone, seed=1, **spec.resolve(params))
    assert out.status == "unknown" and out.solution is None


def random_partial(order: int, filled: float, seed: int) -> Instance:
    """A random partial square, not planted: cells in random order get a random symbol their
    row and column do not show yet, until ``filled`` of them hold one (may have no completion)."""
    rng = np.random.default_rng(seed)
    cells = [HOLE] * (order * order)
    for cell in rng.permutation(order * order)[:round(filled * order * order)].tolist():
        r, c = divmod(cell, order)
        used = {cells[r * order + k] for k in range(order)} | {cells[k * order + c]
                                                              for k in range(order)}
        free = [v for v in range(order) if v not in used]
        if free:
            cells[cell] = int(rng.choice(free))
    return Instance(order, tuple(cells), f"partial-{order}-{filled}-{seed}")


def test_every_solver_agrees_on_random_partial_squares():
    """Order 4 against brute force (576 Latin squares), order 7 among themselves: the same
    answer, solved or infeasible, from every solver, and both kinds occur."""
    seen = set()
    for order, seeds in ((4, range(12)), (7, range(6))):
        for seed in seeds:
            instance = random_partial(order, 0.45, seed)
            statuses = {IDS[k]: run(name, instance, **params).status
                        for k, (name, params) in enumerate(VARIANTS)}
            assert len(set(statuses.values())) == 1, (instance.name, statuses)
            status = statuses["sat-full"]
            if order == 4:
                assert status == ("solved" if completions(instance) else "infeasible")
            seen.add(status)
    assert seen == {"solved", "infeasible"}


# --- model sizes ------------------------------------------------------------------------------


def formula_size(instance: Instance, encoding: str) -> tuple[int, int]:
    """(variables, clauses) of the simplified formula, counted by the definition."""
    n, cells = instance.order, instance.cells

    def row(r):
        return [cells[r * n + k] for k in range(n)]

    def col(c):
        return [cells[k * n + c] for k in range(n)]

    cand = {(r, c): [v for v in range(n) if v not in row(r) and v not in col(c)]
            for r in range(n) for c in range(n) if cells[r * n + c] == HOLE}
    nvars = sum(len(vs) for vs in cand.values())
    clauses = len(cand) + sum(comb(len(vs), 2) for vs in cand.values()
                              if encoding != "minimal")
    for line in range(n):
        for v in range(n):
            in_row = [c for (r, c), vs in cand.items() if r == line and v in vs]
            in_col = [r for (r, c), vs in cand.items() if c == line and v in vs]
            clauses += comb(len(in_row), 2) + comb(len(in_col), 2)
            if encoding == "full":
                clauses += (v not in row(line)) + (v not in col(line))
    for line in range(n):
        for given in (row(line), col(line)):
            shown = [v for v in given if v != HOLE]
            clauses += sum(comb(shown.count(v), 2) for v in set(shown))
    return nvars, clauses


@pytest.mark.parametrize("order", [1, 2, 5, 9])
def test_sizes_on_an_empty_square_are_the_formulas(order):
    n = order
    empty = Instance(n, (HOLE,) * (n * n))
    sizes = {e: (sat.encode(empty, e).nvars, sat.encode(empty, e).nclauses)
             for e in sat.ENCODINGS}
    assert sizes["minimal"] == (n ** 3, n ** 2 + 2 * n ** 2 * comb(n, 2))
    assert sizes["direct"] == (n ** 3, n ** 2 + 3 * n ** 2 * comb(n, 2))
    assert sizes["full"] == (n ** 3, 3 * n ** 2 + 3 * n ** 2 * comb(n, 2))
    problem = xccmodel.build(empty).problem
    assert (len(problem.primary), len(problem.options)) == (3 * n * n, n ** 3)
    model = ilp.build(empty)
    assert (model.nrows, model.ncols, model.nnz) == (3 * n * n, n ** 3, 3 * n ** 3)
    out = run("cpsat", empty)
    assert (out.model_vars, out.model_constraints) == (n * n, 2 * n)


@pytest.mark.parametrize("encoding", sat.ENCODINGS)
def test_sizes_of_partial_squares_are_counted_as_defined(encoding):
    instances = [qwh(n, f, seed) for n in (4, 7, 10) for f in (0.0, 0.35, 0.7) for seed in (1, 2)]
    for instance in [*instances, *infeasible_instances()]:
        cnf = sat.encode(instance, encoding)
        assert (cnf.nvars, cnf.nclauses) == formula_size(instance, encoding), instance.name
        out = run("sat", instance, encoding=encoding)
        assert (out.counters["variables"], out.counters["clauses"]) == (cnf.nvars, cnf.nclauses)
        assert (out.model_vars, out.model_constraints) == (cnf.nvars, cnf.nclauses)


def test_givens_shrink_every_model():
    instance = qwh(10, 0.4)
    holes = instance.holes
    nvars = formula_size(instance, "full")[0]
    problem = xccmodel.build(instance).problem
    assert len(problem.options) == nvars and len(problem.primary) == 3 * holes
    assert run("cpsat", instance).model_vars == holes
    assert sat.encode(instance, "full").nvars == nvars < holes * 10


# --- the two SAT encodings --------------------------------------------------------------------


def models(instance: Instance, encoding: str) -> list[tuple[int, ...]]:
    with Solver(name="cadical195") as s:
        for chunk in sat.encode(instance, encoding).chunks():
            s.append_formula(chunk)
        return [sat.decode(instance, m).cells for m in s.enum_models()]


def test_the_encodings_have_the_completions_as_models():
    """Every model of each encoding is one completion (each hole one symbol, in ``minimal``
    by counting), and each completion one model: the empty square of order 4 has all 576
    Latin squares as models."""
    assert len(latin_squares(4)) == 576
    for instance in [Instance(4, (HOLE,) * 16), qwh(4, 0.6, 1), qwh(4, 0.75, 2),
                     blocked_order3(), random_partial(4, 0.4, 5)]:
        expect = completions(instance)
        for encoding in sat.ENCODINGS:
            found = models(instance, encoding)
            assert len(found) == len(set(found)) and set(found) == expect, (instance.name,
                                                                           encoding)


@pytest.mark.parametrize("order,fraction", [(10, 0.4), (15, 0.42)])
def test_the_encodings_agree_on_larger_squares(order, fraction):
    for seed in (1, 2, 3):
        instance = qwh(order, fraction, seed)
        for encoding in sat.ENCODINGS:
            assert_solved(instance, run("sat", instance, encoding=encoding))


def test_an_interruptible_engine_solves_too():
    instance = qwh(10, 0.4)
    out = run("sat", instance, engine="glucose4")
    assert_solved(instance, out)
    assert out.counters["conflicts"] >= 0 and "decisions" in out.counters


# --- exports ----------------------------------------------------------------------------------


def test_cnf_export_is_the_simplified_formula(tmp_path):
    instance = qwh(8, 0.5)
    for encoding in sat.ENCODINGS:
        path = tmp_path / f"{encoding}.cnf"
        lookup("sat", "latin").exports["cnf"](instance, path, encoding=encoding)
        header = next(line for line in path.read_text().splitlines() if line.startswith("p "))
        _, _, nvars, nclauses = header.split()
        cnf = CNF(from_file=str(path))
        assert (int(nvars), int(nclauses)) == formula_size(instance, encoding)
        assert (cnf.nv, len(cnf.clauses)) == (int(nvars), int(nclauses))
        with Solver(name="cadical195", bootstrap_with=cnf.clauses) as s:
            assert s.solve()
            assert check(instance, sat.decode(instance, s.get_model())).solved


def test_dlx_export_reads_back(tmp_path):
    instance = qwh(12, 0.5)
    path = tmp_path / "q.dlx"
    lookup("xcc", "latin").exports["dlx"](instance, path)
    problem = xcc.read_dlx(path)
    model = xccmodel.build(instance)
    assert problem.primary == model.problem.primary and not problem.secondary
    assert problem.named_options() == model.problem.named_options()
    chosen = xcc.first_solution(problem)
    answer = completed(instance, model.cells[chosen], model.symbols[chosen])
    assert check(instance, answer).solved


@pytest.mark.parametrize("fmt", ["mps", "lp"])
def test_mps_and_lp_exports_read_back(tmp_path, fmt):
    instance = qwh(6, 0.5)
    path = tmp_path / f"q.{fmt}"
    lookup("ilp-highs", "latin").exports[fmt](instance, path)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(path)) != highspy.HighsStatus.kError
    lp = h.getLp()
    assert (lp.num_col_, lp.num_row_) == (216, 108)
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    cells = [HOLE] * 36
    for i, v in enumerate(np.asarray(h.getSolution().col_value)):
        if v > 0.5:
            _, r, c, s = h.getColName(i)[1].split("_")
            cells[int(r) * 6 + int(c)] = int(s)
    assert check(instance, Solution(6, tuple(cells))).solved


# --- through the harness ----------------------------------------------------------------------


@cache
def qcp(order: int, fraction: float, seed: int):
    return GENERATORS["qcp"]({"order": order, "fraction": fraction}, seed)


def test_qcp_answers_agree_with_the_generators_record():
    """On the family's QCP squares (which may have no completion) every solver gives one
    answer, and it is the generator's ``feasible`` where the generator knows it."""
    seen = set()
    for order, seed in itertools.product((8, 10), range(1, 7)):
        generated = qcp(order, 0.5, seed)
        statuses = {IDS[k]: run(name, generated.instance, **params).status
                    for k, (name, params) in enumerate(VARIANTS)}
        assert len(set(statuses.values())) == 1, (generated.instance.name, statuses)
        status = statuses["sat-full"]
        if generated.feasible is not None:
            assert status == ("solved" if generated.feasible else "infeasible")
        seen.add(status)
    assert "infeasible" in seen


@pytest.mark.parametrize("name", NAMES)
def test_runs_through_the_harness(name):
    solved = bench.solve("latin/qwh:order=10,fraction=0.4,seed=1", f"latin/{name}", timeout=60)
    assert solved["status"] == "solved" and solved["verified"], solved
    infeasible = next(seed for seed in range(1, 50) if qcp(8, 0.5, seed).feasible is False)
    row = bench.solve(f"latin/qcp:order=8,fraction=0.5,seed={infeasible}", f"latin/{name}",
                      timeout=60)
    assert row["status"] == "infeasible", row  # a claim the generator's record bears out
    row = bench.solve(blocked_order3(), f"latin/{name}", timeout=60)
    assert row["status"] == "infeasible", row  # no record: the claim stands
