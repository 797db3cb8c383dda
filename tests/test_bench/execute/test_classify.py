"""How the harness judges a claim: the checker decides, the claim never does."""

from __future__ import annotations

from types import SimpleNamespace

from bench.execute.classify import judge, solutions_bucket
from instances.common import Generated
from instances.edgematch import GENERATORS, Instance, Solution
from instances.sudoku import GENERATORS as SUDOKU_GENERATORS

SUDOKU = SUDOKU_GENERATORS["planted"]


def task_for(generated: Generated):
    ref = SimpleNamespace(family="edgematch", instance=generated.instance, generated=generated)
    return SimpleNamespace(ref=ref)


def result(claimed: str, instance: Instance, solution: Solution | None, objective=None):
    return {"claimed": claimed, "objective": objective,
            "solution": None if solution is None else solution.to_json(instance)}


def planted(n: int = 4) -> Generated:
    return GENERATORS["planted"]({"n": n, "border": 2, "inner": 3}, 1)


def unsolvable_2x2() -> tuple[Instance, Solution]:
    """Four corners; colour 5 shows on one piece only, so no board matches all 4 joins and this
    one matches the other 3, the best possible."""
    pieces = ((0, 1, 2, 0), (0, 0, 3, 1), (2, 4, 0, 0), (5, 0, 0, 4))
    instance = Instance(rows=2, cols=2, colors=5, pieces=pieces)
    board = Solution(2, 2, ((0, 0), (1, 0), (2, 0), (3, 0)))
    return instance, board


def test_solved_with_the_planted_board_is_solved():
    g = planted()
    assert judge(task_for(g), result("solved", g.instance, g.secret))["status"] == "solved"


def test_optimal_below_full_score_is_wrong_on_a_planted_instance():
    g = planted()
    cells = list(g.secret.cells)
    cells[0], cells[1] = cells[1], cells[0]
    swapped = Solution(g.instance.rows, g.instance.cols, tuple(cells))
    out = judge(task_for(g), result("optimal", g.instance, swapped))
    assert out["status"] == "wrong"


def test_a_proved_best_partial_match_is_an_honest_optimum_on_an_unsolvable_board():
    instance, board = unsolvable_2x2()
    g = Generated(instance)
    out = judge(task_for(g), result("optimal", instance, board, objective=3))
    assert out["status"] == "optimal" and out["verified"] is True and out["score"] == 3


def test_an_objective_the_checker_does_not_score_is_wrong():
    instance, board = unsolvable_2x2()
    out = judge(task_for(Generated(instance)), result("optimal", instance, board, objective=4))
    assert out["status"] == "wrong" and "checker scores 3" in out["verdict"]


def test_solved_claim_on_a_mismatched_board_is_wrong_even_off_planted():
    instance, board = unsolvable_2x2()
    out = judge(task_for(Generated(instance)), result("solved", instance, board))
    assert out["status"] == "wrong"


def test_unknown_with_a_full_correct_board_counts_as_solved():
    g = planted()
    out = judge(task_for(g), result("unknown", g.instance, g.secret))
    assert out["status"] == "solved" and "claimed unknown" in out["verdict"]


def test_infeasible_on_unknown_feasibility_is_taken():
    instance, _ = unsolvable_2x2()
    assert judge(task_for(Generated(instance)), result("infeasible", instance, None))["status"] \
        == "infeasible"


# -- solution counts (a uniqueness proof is a claim too) -----------------------------------------

def sudoku_task(generated: Generated):
    ref = SimpleNamespace(family="sudoku", instance=generated.instance, generated=generated)
    return SimpleNamespace(ref=ref)


def counted(claimed: str, generated: Generated, solutions: int, with_solution: bool = True):
    solution = generated.secret.to_json() if with_solution else None
    return {"claimed": claimed, "objective": None, "solution": solution,
            "counters": {"solutions": solutions}}


def test_a_unique_planted_sudoku_counted_once_is_solved():
    g = SUDOKU({"box": 2, "clues": 8}, 1)
    out = judge(sudoku_task(g), counted("solved", g, 1))
    assert out["status"] == "solved" and out["verified"] is True


def test_two_solutions_on_a_puzzle_known_unique_is_wrong():
    g = SUDOKU({"box": 2, "clues": 8}, 1)
    out = judge(sudoku_task(g), counted("solved", g, 2))
    assert out["status"] == "wrong" and "known to have exactly one" in out["verdict"]


def test_two_solutions_where_uniqueness_is_unknown_stand():
    g = SUDOKU({"box": 2, "clues": 8}, 1)
    unknown = Generated(g.instance, g.secret, None)
    assert judge(sudoku_task(unknown), counted("solved", unknown, 2))["status"] == "solved"


def test_a_solution_with_a_count_of_zero_is_wrong():
    g = SUDOKU({"box": 2, "clues": 8}, 1)
    assert judge(sudoku_task(g), counted("solved", g, 0))["status"] == "wrong"


def test_infeasible_while_counting_solutions_is_wrong():
    g = SUDOKU({"box": 2, "clues": 8}, 1)
    unknown = Generated(g.instance)
    out = judge(sudoku_task(unknown), counted("infeasible", unknown, 1, with_solution=False))
    assert out["status"] == "wrong" and "counting" in out["verdict"]
    out = judge(sudoku_task(unknown), counted("infeasible", unknown, 0, with_solution=False))
    assert out["status"] == "infeasible"


def test_the_solutions_column_buckets_the_count():
    assert [solutions_bucket(v) for v in (0, 1, 2, 7, None, True, float("nan"))] == \
        ["0", "1", "2+", "2+", None, None, None]
