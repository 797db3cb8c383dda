"""Exact cover with colours: the DLX reader/writer, the xcover wrapper, and the ``xcc`` solver.

The wrapper is trusted only as far as it reproduces known counts (Knuth's and TAOCP's examples,
8 queens, Langford n=8); the solver's boards are re-checked by the family's checker, and its
counts are compared with a brute-force count written here from the rules.
"""

from __future__ import annotations

import itertools
import time

import pytest

import encoders.edgematch_xcc as exc
from bench.api import REGISTRY, Budget
from encoders.support import xcc
from instances.common import InstanceError
from instances.edgematch import GENERATORS, Hint, Instance, check, rotated

from helpers import board, budget

SPEC = REGISTRY["edgematch/xcc"]
KNOWN_COUNTS = {"knuth_dlx2_example.dlx": 1, "taocp_xcc_toy.dlx": 1,
                "queens8_secondary.dlx": 92, "langford8.dlx": 150}


def run(instance: Instance, **params):
    return SPEC.solve(instance, budget(), seed=1, **SPEC.resolve(params))


def planted(params: dict, seed: int = 1):
    return GENERATORS["planted"](params, seed)


def brute_count(instance: Instance) -> int:
    """Coloured boards by plain enumeration, cell by cell: a piece per cell, each distinct
    colouring of a piece counted once, grey exactly on the frame, equal colours across joins."""
    rows, cols = instance.rows, instance.cols

    def fits(shown, r, c, placed):
        frame = (r == 0, c == cols - 1, r == rows - 1, c == 0)
        if any((shown[s] == 0) != frame[s] for s in range(4)):
            return False
        left = placed[-1] if c > 0 else None
        up = placed[-cols] if r > 0 else None
        return (left is None or left[1] == shown[3]) and (up is None or up[2] == shown[0])

    def extend(placed, used):
        if len(placed) == rows * cols:
            return 1
        r, c = divmod(len(placed), cols)
        total = 0
        for p in set(range(len(instance.pieces))) - used:
            for shown in {rotated(instance.pieces[p], k) for k in range(4)}:
                if fits(shown, r, c, placed):
                    total += extend(placed + [shown], used | {p})
        return total

    return extend([], set())


# --- the DLX format and xcover ----------------------------------------------------------------


@pytest.mark.data
@pytest.mark.parametrize("name,expected", sorted(KNOWN_COUNTS.items()))
def test_known_counts(shared_data, name, expected):
    problem = xcc.read_dlx(shared_data / "xcc" / name)
    count = xcc.count_solutions(problem)
    assert count.complete and count.solutions == expected


def test_dlx2_example_parses_as_knuth_lists_it():
    text = "| dlx2's example\nA B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n"
    problem = xcc.parse_dlx(text)
    assert problem.primary == ("A", "B", "C") and problem.secondary == ("X", "Y")
    assert problem.named_options()[0] == ["A", "B", "X:0", "Y:0"]
    solution = xcc.first_solution(problem)
    assert sorted(problem.named_option(k)[0] for k in solution) == ["A", "B"]


@pytest.mark.parametrize("text,line,match", [
    ("A B\nA C\n", 2, "unknown item 'C'"),
    ("A | X\nA:1 X\n", 2, "primary item 'A' cannot take a colour"),
    ("A | X\n| comment\nA X:1 X:2\n", 3, "names an item twice"),
    ("A | X\nA X:\n", 2, "bad colour"),
    ("A A | X\nA\n", 1, "declared twice"),
    ("A | X | Y\nA\n", 1, "more than one"),
    ("| only\n| X\n", None, "no item line"),
])
def test_malformed_dlx_names_file_and_line(tmp_path, text, line, match):
    path = tmp_path / "bad.dlx"
    path.write_text(text)
    with pytest.raises(InstanceError, match=match) as err:
        xcc.read_dlx(path)
    assert err.value.path == str(path) and err.value.line == line
    assert str(err.value).startswith(f"{path}:{line}:" if line else f"{path}:")


def test_writer_refuses_names_dlx2_cannot_hold(tmp_path):
    long_item = xcc.Problem(("toolongname",), (), (((0, 0),),))
    with pytest.raises(InstanceError, match="at most 8"):
        xcc.write_dlx(long_item, tmp_path / "a.dlx")
    long_colour = xcc.Problem(("a",), ("x",), (((0, 0), (1, 1)),), ("red",))
    with pytest.raises(InstanceError, match="at most 1"):
        xcc.write_dlx(long_colour, tmp_path / "b.dlx")
    xcc.write_dlx(long_colour, tmp_path / "c.dlx", strict=False)
    assert xcc.read_dlx(tmp_path / "c.dlx").named_options() == [["a", "x:red"]]
    assert not (tmp_path / "a.dlx").exists()


def test_count_stops_at_the_deadline_with_a_lower_bound():
    problem = xcc.parse_dlx("A B\nA\nB\nA B\n")
    assert xcc.count_solutions(problem).solutions == 2
    count = xcc.count_solutions(problem, deadline=0.0)
    assert not count.complete and count.solutions == 1 and count.first is not None


def test_items_no_option_covers_have_no_solution_and_no_items_have_the_empty_one():
    assert xcc.count_solutions(xcc.Problem(("A", "B"), (), (), ())).solutions == 0
    assert xcc.count_solutions(xcc.parse_dlx("A B\nA\n")).solutions == 0
    assert xcc.first_solution(xcc.Problem((), ("x",), (), ())) == []


# --- the edge-matching model ------------------------------------------------------------------


def test_registered_with_its_declaration():
    assert SPEC.family == "edgematch" and SPEC.paradigm == "xcc"
    assert SPEC.backend.startswith("xcover-") and SPEC.defaults() == {"count": False}
    assert "dlx" in SPEC.exports
    SPEC.prepare()


@pytest.mark.parametrize("n,hints,seed", [(4, 0, 1), (4, "max", 2), (5, 0, 1), (5, "max", 3)])
def test_solves_planted_boards(n, hints, seed):
    gen = planted({"n": n, "border": 5, "inner": 17, "hints": hints}, seed)
    out = run(gen.instance)
    assert out.status == "solved"
    verdict = check(gen.instance, out.solution)
    assert verdict.solved, verdict.reason
    assert out.model_vars == out.counters["items"] == 2 * n * n + 2 * n * (n - 1)
    assert out.model_constraints == out.counters["options"] > 0
    assert out.counters["solutions"] == 1 and out.t_encode >= 0 and out.t_solve >= 0


def test_hints_are_single_options():
    gen = planted({"n": 5, "border": 2, "inner": 4, "hints": "max"}, 2)
    instance = gen.instance
    model = exc.build(instance)
    for h in instance.hints:
        cell = h.row * instance.cols + h.col
        assert [p for p in model.placements if p[0] == cell] == [(cell, h.piece, h.rot)]
        assert [p for p in model.placements if p[1] == h.piece] == [(cell, h.piece, h.rot)]
    out = run(instance)
    assert check(instance, out.solution).solved


@pytest.mark.parametrize("params,factor", [
    ({"n": 3, "border": 1, "inner": 2}, 4),
    ({"n": 3, "border": 2, "inner": 2}, 4),
    ({"rows": 2, "cols": 3, "border": 1, "inner": 2}, 2),
])
def test_count_matches_brute_force_and_symmetry(params, factor):
    instance = planted(params).instance
    out = run(instance, count=True)
    assert out.status == "solved" and check(instance, out.solution).solved
    found = out.counters["solutions"]
    assert out.counters["symmetry_factor"] == factor and found % factor == 0
    assert out.counters["count_complete"] == 1 and out.counters["classes"] == found // factor
    assert found == brute_count(instance)


def test_symmetric_rotations_are_one_option():
    """A centre piece of one colour all round shows the same board at every rotation."""
    grid = [[(0, 1, 2, 0), (0, 3, 5, 1), (0, 0, 2, 3)],
            [(2, 5, 3, 0), (5, 5, 5, 5), (2, 0, 1, 5)],
            [(3, 1, 0, 0), (5, 4, 0, 1), (1, 0, 0, 4)]]
    instance = board(grid)
    centre = [p for p in exc.build(instance).placements if p[0] == 4]
    assert len(centre) == 1
    out = run(instance, count=True)
    assert out.counters["solutions"] == brute_count(instance) > 0


def test_unsolvable_tiny_board_is_infeasible():
    """Four corner pieces, one coloured 6 and 7, which no other piece shows."""
    instance = board([[(0, 1, 2, 0), (0, 0, 3, 1)], [(4, 5, 0, 0), (6, 0, 0, 7)]])
    assert run(instance).status == "infeasible"
    out = run(instance, count=True)
    assert out.status == "infeasible" and out.counters["solutions"] == 0


def test_budget_spent_while_counting_is_unknown_with_the_first_board():
    instance = planted({"n": 3, "border": 1, "inner": 2}).instance
    model = exc.build(instance)
    spent = Budget(wall_s=1.0, mem_mb=2000, deadline=time.monotonic() - 1)
    out, found, complete = exc._count(instance, model, spent)
    assert out.status == "unknown" and not complete and found == 1
    assert check(instance, out.solution).solved
    assert SPEC.solve(instance, spent, seed=1, count=True).status == "unknown"


def test_bad_hint_is_an_error():
    instance = Instance(rows=2, cols=2, colors=2, pieces=((0, 1, 1, 0),) * 4,
                        hints=(Hint(0, 5, 0, 0),))
    with pytest.raises(ValueError, match="hint"):
        run(instance)


# --- export -----------------------------------------------------------------------------------


def test_dlx_export_round_trips_and_counts_the_same(tmp_path):
    instance = planted({"n": 3, "border": 1, "inner": 2, "hints": 1}).instance
    path = tmp_path / "board.dlx"
    exc.write_dlx(instance, path)
    model = exc.build(instance).problem
    back = xcc.read_dlx(path)
    assert (back.primary, back.secondary) == (model.primary, model.secondary)
    assert back.named_options() == model.named_options()
    assert xcc.count_solutions(back).solutions == xcc.count_solutions(model).solutions
    text = path.read_text()
    assert text.startswith("| edge matching") and "r0c0" in text and "h0c0:" in text


def test_dlx_export_names_fit_dlx2():
    instance = planted({"n": 5, "border": 5, "inner": 17}).instance
    problem = exc.build(instance).problem
    assert max(map(len, problem.items)) <= 8 and all(len(c) == 1 for c in problem.colours)
    assert problem.colours[:10] == tuple("123456789a")


def test_dlx_export_refuses_what_dlx2_cannot_hold(tmp_path):
    many = Instance(rows=2, cols=2, colors=70, pieces=((0, 70, 1, 0),) * 4)
    with pytest.raises(InstanceError, match="70 colours.*one character"):
        exc.write_dlx(many, tmp_path / "many.dlx")
    long_ids = Instance(rows=2, cols=2, colors=2, pieces=((0, 1, 1, 0),) * 4,
                        ids=(123456789, 2, 3, 4))
    with pytest.raises(InstanceError, match="'p123456789' has 10 characters"):
        exc.write_dlx(long_ids, tmp_path / "ids.dlx")
    assert exc.colour_names(61)[-1] == "Z" and exc.colour_names(62) == tuple(exc.CHARS)
    assert exc.colour_names(63)[-1] == "63"


def test_symmetry_factor():
    square = planted({"n": 3, "border": 1, "inner": 2}).instance
    assert exc.symmetry_factor(square) == 4
    hinted = planted({"n": 3, "border": 1, "inner": 2, "hints": 1}).instance
    rectangle = planted({"rows": 2, "cols": 4, "border": 1, "inner": 2}).instance
    assert exc.symmetry_factor(hinted) == 1 and exc.symmetry_factor(rectangle) == 2


def test_join_items_are_shared_by_exactly_two_cells():
    rows, cols = 3, 5
    seen: dict[int, list[tuple[int, int]]] = {}
    for cell, side in itertools.product(range(rows * cols), range(4)):
        if not exc.frame_sides(rows, cols, cell)[side]:
            seen.setdefault(exc.join_item(rows, cols, cell, side), []).append((cell, side))
    assert sorted(seen) == list(range(rows * (cols - 1) + (rows - 1) * cols))
    for (a, side_a), (b, side_b) in seen.values():
        assert side_b == (side_a + 2) % 4 and b - a in (1, cols)
