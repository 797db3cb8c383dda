"""The SAT edge-matching solver: its answers check as solved, its claims are honest, its CNF
is the model it solves.

Every solved board is re-checked with the family's independent checker; each status it can
claim (solved, infeasible, unknown) is provoked on a board built for it; the DIMACS export is
read back and solved by pysat directly.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

import encoders.edgematch_sat as sat
from bench.api import REGISTRY, Budget
from instances.edgematch import GENERATORS, Hint, Instance, Solution, check, rotated

from helpers import board, budget, cliffbench, planted

SPEC = REGISTRY["edgematch/sat"]


def run(instance: Instance, seconds: float = 10.0, **params):
    return SPEC.solve(instance, budget(seconds), seed=1, **SPEC.resolve(params))


def assert_solved(instance: Instance, out) -> None:
    assert out.status == "solved"
    verdict = check(instance, out.solution)
    assert verdict.solved, verdict.reason


# --- declaration ------------------------------------------------------------------------------


def test_registered_with_its_declaration():
    assert SPEC.family == "edgematch" and SPEC.paradigm == "sat"
    assert SPEC.backend.startswith("pysat-")
    assert SPEC.defaults() == {"amo": "seqcounter", "matching": "seams", "engine": "cadical195"}
    assert set(SPEC.exports) == {"cnf"}
    SPEC.prepare()


# --- solved -----------------------------------------------------------------------------------


@pytest.mark.parametrize("matching", sat.MATCHINGS)
@pytest.mark.parametrize("n,hints", [(4, 0), (4, 3), (5, 0), (5, "max")])
def test_solves_planted_boards(n, hints, matching):
    instance = planted(n, hints)
    out = run(instance, matching=matching)
    assert_solved(instance, out)
    assert out.model_vars == out.counters["variables"] > 0
    assert out.model_constraints == out.counters["clauses"] > 0
    assert out.t_encode >= 0 and out.t_solve >= 0
    assert {"conflicts", "decisions", "restarts", "nodes"} <= set(out.counters)
    assert (out.counters["seam_vars"] > 0) == (matching == "seams")


@pytest.mark.parametrize("amo", sat.AMO_ENCODINGS)
def test_every_at_most_one_encoding_solves(amo):
    instance = planted(4, seed=2)
    for matching in sat.MATCHINGS:
        assert_solved(instance, run(instance, amo=amo, matching=matching))


@pytest.mark.parametrize("engine", ["glucose4", "maplechrono", "minisat22", "cadical153",
                                    "lingeling", "kissat404"])
def test_other_engines_solve(engine):
    instance = planted(4, hints=3, seed=3)
    assert_solved(instance, run(instance, engine=engine))


def test_solves_rectangles():
    for rows, cols in [(3, 5), (5, 3), (2, 4)]:
        instance = planted(rows, rows=rows, cols=cols, seed=3)
        assert_solved(instance, run(instance))


def test_identity_board_roundtrip():
    """A hand-built board whose pieces are stored turned: the answer undoes the turns."""
    grid = [[(0, 1, 2, 0), (0, 0, 3, 1)],
            [(2, 4, 0, 0), (3, 0, 0, 4)]]
    instance = board(grid, turns=3)
    for matching in sat.MATCHINGS:
        assert_solved(instance, run(instance, matching=matching))


# --- the model --------------------------------------------------------------------------------


def test_only_frame_legal_placements_get_variables():
    instance = planted(5, seed=4)
    enc = sat.encode(instance)
    for cell, piece, rot in enc.placements:
        frame = sat.frame_sides(instance.rows, instance.cols, cell)
        assert sat.fits_frame(rotated(instance.pieces[piece], rot), frame)


def test_symmetric_rotations_are_kept_once():
    assert [r for r, _ in sat.distinct_orientations((1, 2, 1, 2))] == [0, 1]
    assert [r for r, _ in sat.distinct_orientations((3, 3, 3, 3))] == [0]
    assert [r for r, _ in sat.distinct_orientations((1, 2, 3, 4))] == [0, 1, 2, 3]


def test_hints_pin_their_cell_and_remove_the_piece_elsewhere():
    instance = planted(6, hints="max", seed=2)
    enc = sat.encode(instance)
    for h in instance.hints:
        cell = h.row * instance.cols + h.col
        assert [(p, r) for c, p, r in enc.placements if c == cell] == [(h.piece, h.rot)]
        assert [c for c, p, _ in enc.placements if p == h.piece] == [cell]
    out = run(instance)
    assert_solved(instance, out)
    for h in instance.hints:
        assert out.solution.cells[h.row * instance.cols + h.col] == (h.piece, h.rot)


def test_both_matchings_share_the_placement_variables():
    instance = planted(5, hints=2)
    conflicts, seams = (sat.encode(instance, matching=m) for m in sat.MATCHINGS)
    assert conflicts.placements == seams.placements
    assert not conflicts.seams and seams.seams


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="pieces"):
        sat.encode(Instance(rows=2, cols=2, colors=1, pieces=((0, 1, 1, 0),) * 3))
    with pytest.raises(ValueError, match="hint"):
        sat.encode(Instance(rows=2, cols=2, colors=1, pieces=((0, 1, 1, 0),) * 4,
                            hints=(Hint(0, 5, 0, 0),)))


# --- infeasible and unknown -------------------------------------------------------------------


@pytest.mark.parametrize("matching", sat.MATCHINGS)
def test_unsolvable_tiny_board_is_infeasible(matching):
    """Four corner pieces, one coloured 6 and 7, which no other piece shows."""
    grid = [[(0, 1, 2, 0), (0, 0, 3, 1)],
            [(4, 5, 0, 0), (6, 0, 0, 7)]]
    assert run(board(grid), matching=matching).status == "infeasible"


def test_grey_inside_is_never_placed():
    """A 3x3 whose would-be centre piece has a grey side: no legal board exists."""
    grid = [[(0, 1, 2, 0), (0, 3, 4, 1), (0, 0, 5, 3)],
            [(2, 6, 7, 0), (4, 0, 8, 6), (5, 0, 9, 0)],
            [(7, 1, 0, 0), (8, 2, 0, 1), (9, 0, 0, 2)]]
    assert run(board(grid)).status == "infeasible"


def test_tiny_budget_on_a_larger_board_is_unknown():
    """An interruptible engine is stopped by its timer; the default engine, given no time
    left after encoding, does not start. (The budget leaves the engine time after the
    encoding, a few hundredths of a second, even on a machine busy enough to stretch it
    tenfold: an engine given none does not start, and has no conflicts to count.)"""
    instance = GENERATORS["planted"]({"n": 8, "border": 4, "inner": 8}, 1).instance
    start = time.monotonic()
    out = run(instance, seconds=1.0, engine="glucose4")
    assert out.status == "unknown" and out.solution is None
    assert out.t_solve > 0 and out.counters["conflicts"] > 0  # it ran, and was stopped
    assert out.t_encode + out.t_solve < 1.0 + 0.5  # by its timer, not past its budget
    assert time.monotonic() - start < 3.0
    spent = Budget(wall_s=0.01, mem_mb=2000, deadline=time.monotonic())
    out = SPEC.solve(instance, spent, seed=1, **SPEC.defaults())
    assert out.status == "unknown" and out.t_solve == 0.0 and out.model_vars > 0


# --- DIMACS export ----------------------------------------------------------------------------


def read_dimacs(path: Path) -> tuple[list[str], tuple[int, int], list[list[int]]]:
    """Comments, the problem line's (variables, clauses), and the clauses, strictly."""
    comments, problem, clauses = [], None, []
    for line in path.read_text(encoding="ascii").splitlines():
        if line.startswith("c"):
            comments.append(line)
        elif line.startswith("p cnf "):
            assert problem is None and not clauses
            problem = tuple(int(x) for x in line.split()[2:])
        else:
            lits = [int(x) for x in line.split()]
            assert lits and lits[-1] == 0 and 0 not in lits[:-1], line
            clauses.append(lits[:-1])
    assert problem is not None
    return comments, problem, clauses


@pytest.mark.parametrize("matching", sat.MATCHINGS)
def test_export_writes_a_valid_dimacs_header(tmp_path, matching):
    instance = planted(4, hints=2)
    path = tmp_path / "board.cnf"
    SPEC.exports["cnf"](instance, path, **SPEC.resolve({"matching": matching}))
    comments, (nvars, nclauses), clauses = read_dimacs(path)
    assert len(clauses) == nclauses
    assert max(abs(lit) for clause in clauses for lit in clause) <= nvars
    assert any(instance.instance_id in c for c in comments)
    assert any(f"matching={matching}" in c for c in comments)
    enc = sat.encode(instance, matching=matching)
    assert (nvars, nclauses) == (enc.cnf.nvars, enc.cnf.nclauses)


def test_exported_cnf_of_a_3x3_is_satisfiable_and_decodes_to_a_solution(tmp_path):
    instance = planted(3, seed=5)
    path = tmp_path / "b3.cnf"
    sat.write_cnf(instance, path)
    comments, _, _ = read_dimacs(path)
    with Solver(name="minisat22", bootstrap_with=CNF(from_file=str(path)).clauses) as direct:
        assert direct.solve()
        true = {lit for lit in direct.get_model() if lit > 0}
    cells: list[tuple[int, int] | None] = [None] * instance.ncells
    for line in comments:
        if line.startswith("c x "):
            var, cell, piece, rot = (int(x) for x in line.split()[2:])
            if var in true:
                cells[cell] = (piece, rot)
    assert check(instance, Solution(3, 3, tuple(cells))).solved


def test_cli_export(tmp_path):
    target = tmp_path / "cli.cnf"
    cliffbench("export", "edgematch/planted:n=3,border=2,inner=3,seed=1", "--to", "cnf",
               str(target), "--solver", "sat", "--param", "matching=conflicts", check=True)
    comments, (_, nclauses), clauses = read_dimacs(target)
    assert len(clauses) == nclauses and any("matching=conflicts" in c for c in comments)
