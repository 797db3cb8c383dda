"""The output conventions: each claim, each contradiction, each way a model fails to read."""

from __future__ import annotations

import pytest

from bench.tools.outputs import OUTPUTS, Answer, NoAnswer, literals

competition = OUTPUTS["sat-competition"].read
minisat = OUTPUTS["minisat"].read


def test_a_satisfiable_answer_gives_its_true_variables():
    answer = competition("c a comment\ns SATISFIABLE\nv 1 -2 3\nv -4 5 0\n", "", 10)
    assert (answer.claim, answer.values, answer.problem) == ("solved", frozenset({1, 3, 5}), "")


def test_unsatisfiable_and_unknown():
    assert competition("s UNSATISFIABLE\n", "", 20).claim == "infeasible"
    assert competition("s UNKNOWN\n", "", 0).claim == "unknown"
    assert competition("", "", 20).claim == "infeasible"  # the exit code alone is a claim


@pytest.mark.parametrize("stdout,code,problem", [
    ("s SATISFIABLE\n", 10, "no v lines"),
    ("s SATISFIABLE\nv 1 -2\n", 10, "does not end with 0"),
    ("s SATISFIABLE\nv 1 x 0\n", 10, "'x' is not a literal"),
    ("s SATISFIABLE\nv 1 -1 0\n", 10, "variable 1 is set both"),
    ("s UNSATISFIABLE\n", 10, "exit code 10 says solved"),
    ("s SATISFIABLE\ns UNSATISFIABLE\n", 10, "status lines disagree"),
    ("s MAYBE\n", 0, "is not one of"),
])
def test_an_output_that_contradicts_itself_says_why(stdout, code, problem):
    answer = competition(stdout, "", code)
    assert problem in answer.problem and answer.values is None


def test_no_status_and_no_answering_exit_code_is_no_answer():
    with pytest.raises(NoAnswer, match="exit code 1"):
        competition("usage: ...\n", "", 1)


def test_minisat_reads_its_result_file():
    assert minisat("stats", "SAT\n1 -2 3 0\n", 10).values == frozenset({1, 3})
    assert minisat("", "UNSAT\n", 20).claim == "infeasible"
    assert minisat("", "INDET\n", 0).claim == "unknown"
    assert "holds no model" in minisat("", "SAT\n", 10).problem
    with pytest.raises(NoAnswer):
        minisat("", "", 1)


def test_literals_keep_the_last_zero_rule():
    assert literals(["1 2 0"], "v") == (frozenset({1, 2}), "")


def test_the_family_convention_reads_the_file_else_stdout():
    assert OUTPUTS["family"].read("s 0 0 1 0\n", "", 0).values == "s 0 0 1 0\n"
    assert OUTPUTS["family"].read("noise", "s 0 0 1 0\n", 0).values == "s 0 0 1 0\n"
    assert OUTPUTS["family"].read("", "", 20).claim == "infeasible"
    assert "no solution printed" in OUTPUTS["family"].read("", "", 0).problem
    with pytest.raises(NoAnswer, match="exit code 2"):
        OUTPUTS["family"].read("", "", 2)


def test_cbc_reads_the_status_and_the_named_columns():
    cbc = OUTPUTS["cbc-solution"].read
    text = ("Optimal - objective value 0.00000000\n      3 x_0_0_3   1   0\n"
            "      5 x_0_1_0   1   0\n")
    assert cbc("", text, 0).values == {"x_0_0_3": 1.0, "x_0_1_0": 1.0}
    assert cbc("", "Infeasible - objective value 0\n", 0).claim == "infeasible"
    stopped = "Stopped on time (no integer solution - continuous used) - objective value 0\n"
    assert cbc("", stopped + "  1 x 0.5 0\n", 0).claim == "unknown"
    assert cbc("", "Stopped on time - objective value 0\n  1 x 1 0\n", 0).values == {"x": 1.0}
    assert "line 2" in cbc("", "Optimal - objective value 0\n  1 x\n", 0).problem
    with pytest.raises(NoAnswer):
        cbc("", "", 0)


def test_glpk_reads_the_status_and_the_numbered_columns():
    glpk = OUTPUTS["glpk-solution"].read
    text = "c Problem:\ns mip 2 3 o 0\ni 1 1\nj 1 0\nj 2 1\nj 3 0\ne o f\n"
    assert glpk("", text, 0).values == {0: 0.0, 1: 1.0, 2: 0.0}
    assert glpk("", "s mip 2 3 n 0\n", 0).claim == "infeasible"
    assert glpk("", "s mip 2 3 u 0\n", 0).claim == "unknown"
    assert "is not" in glpk("", "s lp 2 3 o 0\n", 0).problem
    with pytest.raises(NoAnswer):
        glpk("", "", 1)


# -- minizinc: MiniZinc's solution stream (the texts marked "Gecode" are what `minizinc --solver
# gecode --output-mode dzn` 2.6.4 with Gecode 6.2 printed) ------------------------------------

mzn = OUTPUTS["minizinc"].read

GECODE_GRID = ("grid = \n[| 4, 3, 1, 2\n | 1, 2, 3, 4\n | 2, 1, 4, 3\n | 3, 4, 2, 1\n |];\n"
               "----------\n")
#: Gecode, with -a on a model of three variables: every solution, then the search is complete
GECODE_ALL = ("y = [1, 2, 3];\nz = \n[| 2, 1\n | 1, 1\n |];\nw = 4;\n----------\n"
              "y = [1, 2, 3];\nz = \n[| 1, 2\n | 2, 2\n |];\nw = 4;\n----------\n==========\n")


def test_minizinc_reads_a_2d_literal_row_major():
    answer = mzn(GECODE_GRID, "", 0)
    assert answer.claim == "solved" and answer.problem == ""
    assert answer.values == {"grid": [4, 3, 1, 2, 1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 2, 1]}


def test_minizinc_takes_the_last_solution_printed():
    answer = mzn(GECODE_ALL, "", 0)
    assert answer.values == {"y": [1, 2, 3], "z": [1, 2, 2, 2], "w": [4]}
    assert answer.claim == "solved"


@pytest.mark.parametrize("value,ints", [
    ("[1, -2, 3]", [1, -2, 3]),
    ("[0: 0, 1: 5, 2: 7]", [0, 5, 7]),  # Gecode: a 0-based array in dzn mode
    ("array2d(1..2, 1..2, [1, 2, 3, 4])", [1, 2, 3, 4]),
    ("array1d(0..2, [7, 8, 9])", [7, 8, 9]),
    ("array2d(1..9, 1..9, [" + ", ".join(["5"] * 81) + "])", [5] * 81),
    ("[| 1, 2 | 3, 4 |]", [1, 2, 3, 4]),
    ("-7", [-7]),
    ("true", [1]),
    ("[]", []),
])
def test_minizinc_values(value, ints):
    assert mzn(f"x = {value};\n----------\n", "", 0).values == {"x": ints}


def test_minizinc_statuses():
    assert mzn("=====UNSATISFIABLE=====\n", "", 0) == Answer("infeasible")  # Gecode
    assert mzn("=====UNKNOWN=====\n", "", 0) == Answer("unknown")  # Gecode, at --time-limit
    assert mzn("", "", 0).claim == "unknown"  # no separator: no solution
    assert mzn("% a comment\n=====UNKNOWN=====\n", "", 1).claim == "unknown"
    with pytest.raises(NoAnswer, match="ERROR"):
        mzn("=====ERROR=====\n", "", 1)
    with pytest.raises(NoAnswer, match="exit code 1"):
        mzn("", "", 1)  # a syntax error: the message is on stderr only


@pytest.mark.parametrize("stdout,problem", [
    ("----------\n", "without 'name = value;' assignments"),
    ("Solved it!\n----------\n", "without 'name = value;' assignments"),
    ("x = {1, 3};\n----------\n", "the value of x is not integers"),
    ("x = 1.5;\n----------\n", "the value of x is not integers"),
])
def test_a_minizinc_solution_that_does_not_read_says_why(stdout, problem):
    answer = mzn(stdout, "", 0)
    assert answer.claim == "solved" and answer.values is None and problem in answer.problem


def test_a_solution_and_unsatisfiable_contradict_each_other():
    answer = mzn("x = 1;\n----------\n=====UNSATISFIABLE=====\n", "", 0)
    assert answer.claim == "unknown" and "both" in answer.problem
